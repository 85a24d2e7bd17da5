//! **Attribute macros of Varar**: `#[stimulus]`, `#[sensor]`, `#[parameter]`,
//! `#[resource]`, `#[state]` and `#[teardown]`.
//!
//! Use them through the `varar` facade crate, which documents them. Each
//! entry point hands off to its module (parse → validate → emit) and turns a
//! `syn::Error` into compile errors under the offending tokens.

use proc_macro::TokenStream;

mod errors;
mod hooks;
mod parameter;
mod signature;
mod step;

/// On error, keep the user's item next to the compile errors, so the only
/// errors are ours (no follow-on "unused import" or "cannot find function").
fn with_item_on_error(
    result: syn::Result<proc_macro2::TokenStream>,
    item: TokenStream,
) -> TokenStream {
    match result {
        Ok(tokens) => tokens.into(),
        Err(e) => {
            let mut out = e.into_compile_error();
            match syn::parse::<syn::ItemFn>(item.clone()) {
                // Not registered, so unused: do not add a dead-code warning.
                Ok(mut func) => {
                    func.attrs.push(syn::parse_quote!(#[allow(dead_code)]));
                    out.extend(quote::ToTokens::into_token_stream(func));
                }
                Err(_) => out.extend(proc_macro2::TokenStream::from(item)),
            }
            out.into()
        }
    }
}

/// Registers a stimulus: a step that drives the system.
///
/// `#[stimulus("I deposit {int}")] fn deposit(account: &mut Account, amount: i64)`:
/// the state first (`&mut S`, `&S`, `S` by value returning the next `S`, or
/// none), one argument per `{param}`, then an optional trailing `Table`,
/// `DocString` or `Row`; returns `()` (or the next `S`), optionally in a
/// `Result<_, E: Display>`. It may be an `async fn` with the same rules.
/// The expression and the signature are checked at compile time; the crate
/// docs of `varar` give every rule.
#[proc_macro_attribute]
pub fn stimulus(attr: TokenStream, item: TokenStream) -> TokenStream {
    with_item_on_error(
        step::expand(step::Role::Stimulus, attr.into(), item.clone().into()),
        item,
    )
}

/// Registers a sensor: a step whose return is compared with the document.
///
/// `#[sensor("the balance is {int}")] fn balance(account: &Account) -> i64`:
/// parameters as for a stimulus (the captures may be left out); the return
/// answers the slots (the parameters, then a trailing table or doc string):
/// `()` for none, the bare value for one, a tuple for two or more,
/// optionally in a `Result<_, E: Display>`. A header-bound row sensor takes a
/// `Row` last and returns the computed row. It may be an `async fn`. The
/// crate docs of `varar` give every rule.
#[proc_macro_attribute]
pub fn sensor(attr: TokenStream, item: TokenStream) -> TokenStream {
    with_item_on_error(
        step::expand(step::Role::Sensor, attr.into(), item.clone().into()),
        item,
    )
}

/// Declares a custom parameter type from its parse function.
///
/// `#[parameter(name = "money", regex = r"£(\d+)\.(\d{2})", format)] fn
/// money(pounds: &str, pence: &str) -> Money`: one `&str` (or
/// `Option<&str>`) per outermost capture group (the whole match when there is
/// none), returning the type or `Result<T, E: Display>`. Implements
/// `Parameter` and `Observed` for the type and registers it; `format` makes
/// the type's `Display` its document notation in mismatch messages.
#[proc_macro_attribute]
pub fn parameter(attr: TokenStream, item: TokenStream) -> TokenStream {
    with_item_on_error(parameter::expand(attr.into(), item.clone().into()), item)
}

/// Declares a run-wide resource: `#[varar::resource] async fn shop() ->
/// Result<Shop, E>`. No parameters; returns `T` or `Result<T, E: Display>`
/// with `T: Send + Sync + 'static`. Built once per run, lazily, by the first
/// example whose step, factory or teardown takes `&T`; shared by reference.
#[proc_macro_attribute]
pub fn resource(attr: TokenStream, item: TokenStream) -> TokenStream {
    with_item_on_error(
        hooks::expand(hooks::Hook::Resource, attr.into(), item.clone().into()),
        item,
    )
}

/// Declares the factory of a per-example state, used instead of `Default`:
/// `#[varar::state] async fn customer(shop: &Shop) -> Result<Customer, E>`.
/// Its parameters are `&R` for resource types; it returns `S` or
/// `Result<S, E: Display>`.
#[proc_macro_attribute]
pub fn state(attr: TokenStream, item: TokenStream) -> TokenStream {
    with_item_on_error(
        hooks::expand(hooks::Hook::State, attr.into(), item.clone().into()),
        item,
    )
}

/// Declares the teardown of a state or resource type:
/// `#[varar::teardown] async fn leave(customer: Customer) -> Result<(), E>`.
/// One parameter, by value; returns `()` or `Result<(), E: Display>`. States
/// are torn down after each example, resources once after the last one.
#[proc_macro_attribute]
pub fn teardown(attr: TokenStream, item: TokenStream) -> TokenStream {
    with_item_on_error(
        hooks::expand(hooks::Hook::Teardown, attr.into(), item.clone().into()),
        item,
    )
}
