//! Custom slots (`{name}` of a `#[varar::parameter]` type): what the step's
//! handler needs of the slot's type, gathered by one `const fn` per slot
//! whose bound is a local trait that names the slot in its error (issue 10).
//!
//! The name check, the read of an argument and the observation of a
//! returned value all take the type through that one function, with the
//! same tokens spanned at the expression. A type that is no parameter type
//! (`{integer}` meant as `{int}`, `{airport}` never declared) is then one
//! error, at the expression, which names the slot and, for a name close to a
//! built-in, the likely fix (issue 37); rustc reports an identical error
//! once.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{LitStr, Type};

/// The items of custom slot `index` (`{name}`): its trait, implemented by
/// every type of a `#[varar::parameter]`, whose message names the slot, and
/// the `const fn` that hands out the type's `CustomSlot` under that bound.
pub(super) fn slot(index: usize, name: &str, expression: &LitStr) -> TokenStream {
    let declared = format_ident!("__VararSlot{}", index);
    let of = format_ident!("__varar_slot{}", index);
    let text = expression.value();
    let braces = |s: &str| s.replace('{', "{{").replace('}', "}}");
    let meant = varar_expression::likely_built_in(name);
    let message = match meant {
        Some(meant) => format!(
            "`{{{{{name}}}}}` in `{}` is not a known parameter type: did you mean the built-in `{{{{{meant}}}}}`?",
            braces(&text)
        ),
        None => format!(
            "`{{{{{name}}}}}` in `{}` is not a known parameter type: no #[varar::parameter(name = \"{name}\")] is declared for `{{Self}}`",
            braces(&text)
        ),
    };
    let label = match meant {
        Some(meant) => {
            format!("unknown parameter type `{{{{{name}}}}}`; did you mean `{{{{{meant}}}}}`?")
        }
        None => format!("unknown parameter type `{{{{{name}}}}}`"),
    };
    let note = match meant {
        Some(meant) => format!(
            "write `{{{{{meant}}}}}`, or declare `{{{{{name}}}}}` on a parse function returning the step's type: #[varar::parameter(name = \"{name}\", regex = \"…\")]"
        ),
        None => format!(
            "declare it on a parse function returning the step's type: #[varar::parameter(name = \"{name}\", regex = \"…\")], or use a built-in type such as {{{{int}}}} or {{{{word}}}}"
        ),
    };
    quote! {
        #[diagnostic::on_unimplemented(message = #message, label = #label, note = #note)]
        trait #declared<M>: ::varar::__private::Parameter<M> {}
        impl<T: ::varar::__private::Parameter<M>, M> #declared<M> for T {}
        #[allow(clippy::all)]
        const fn #of<T: #declared<M>, M: 'static>() -> ::varar::__private::CustomSlot<T> {
            ::varar::__private::CustomSlot::of::<M>()
        }
    }
}

/// The `CustomSlot` of slot `index` for the type `ty`, as one expression.
/// Every use is these same tokens: the type is named through an alias
/// spanned at the expression, so an unknown name is reported there, and
/// once.
fn of(ty: &Type, index: usize, expression: &LitStr) -> TokenStream {
    let of = format_ident!("__varar_slot{}", index);
    let alias = proc_macro2::Ident::new(&format!("__VararType{index}"), expression.span());
    quote_spanned! {ty.span()=>
        {
            #[allow(clippy::all)]
            type #alias = #ty;
            #of::<#alias, _>()
        }
    }
}

/// The `const` assert that a custom slot's argument (or return) type `ty`
/// is the `#[varar::parameter]` type of that name.
pub(super) fn check(ty: &Type, index: usize, name: &str, expression: &LitStr) -> TokenStream {
    let slot = of(ty, index, expression);
    // `assert!` reads its message as a format string: double the braces.
    let message = format!(
        "`{}` is not the `{{{{{name}}}}}` parameter type: its #[varar::parameter] declares another name",
        quote!(#ty)
            .to_string()
            .replace('{', "{{")
            .replace('}', "}}")
    );
    quote_spanned! {ty.span()=>
        const _: () = ::core::assert!(
            ::varar::__private::name_is(#slot.name, #name),
            #message
        );
    }
}

/// Read argument `index` of custom slot `index` as `ty` (a `Result`).
pub(super) fn read(ty: &Type, index: usize, expression: &LitStr) -> TokenStream {
    let slot = of(ty, index, expression);
    quote_spanned! {ty.span()=> (#slot.read)(__varar_inv, #index) }
}

/// Box `value`, returned for custom slot `index`, through its parameter
/// type (`Option<T>`: `None` is the JSON-like null).
pub(super) fn observe(
    ty: &Type,
    index: usize,
    expression: &LitStr,
    value: TokenStream,
) -> TokenStream {
    match crate::signature::option_inner(ty) {
        Some(inner) => {
            let slot = of(inner, index, expression);
            quote_spanned! {ty.span()=> (#slot.observe_option)(#value) }
        }
        None => {
            let slot = of(ty, index, expression);
            quote_spanned! {ty.span()=> (#slot.observe)(#value) }
        }
    }
}
