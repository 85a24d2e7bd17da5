//! **Attribute macros of Varar**: `#[stimulus]`, `#[sensor]` and `#[parameter]`.
//!
//! Use them through the `varar` facade crate, which documents them. Each
//! entry point hands off to its module (parse → validate → emit) and turns a
//! `syn::Error` into compile errors under the offending tokens.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use proc_macro::TokenStream;

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
/// `Result<_, E: Display>`. The expression and the signature are checked at
/// compile time; the crate docs of `varar` give every rule.
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
/// `Row` last and returns the computed row. The crate docs of `varar` give
/// every rule.
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
