//! `#[parameter(name = "…", regex = "…", format)]` on a parse function
//! (spec 50 §50.3, spec 20 §20.4): validates the name, the regex and the
//! parse function's arity at compile time, then registers a `ParameterDef`
//! and implements `Parameter<Marker>` for the returned type, where `Marker`
//! is a type the expansion defines. The marker makes the impl local to the
//! user's crate, so the returned type may be any type, one from another
//! crate included: no foreign trait is implemented for a foreign type.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{FnArg, ItemFn, LitStr, Type};

use crate::errors::Errors;
use crate::signature;

/// The attribute's arguments.
struct Args {
    name: LitStr,
    regex: LitStr,
    format: bool,
}

/// How one parse-function parameter receives its group.
enum GroupParam {
    Required,
    Optional,
}

/// Entry point.
pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let args = parse_args(attr)?;
    let func: ItemFn = syn::parse2(item)?;
    let mut errors = Errors::default();
    errors.take(check_name(&args.name));
    let groups = errors.take(group_count(&args.regex));
    let params = errors.take(parse_params(&func));
    if let (Some(groups), Some(params)) = (groups, &params) {
        let wanted = groups.max(1);
        if params.len() != wanted {
            let what = if groups == 0 {
                "no capture group, so the parse function takes the whole match as one `&str`"
                    .to_string()
            } else {
                format!(
                    "{groups} outermost capture group(s), so the parse function takes {groups} `&str` (or `Option<&str>`) argument(s)"
                )
            };
            errors.push(syn::Error::new(
                signature::inputs_span(&func.sig),
                format!(
                    "the regex `{}` has {what}, but `{}` takes {}",
                    args.regex.value(),
                    func.sig.ident,
                    params.len()
                ),
            ));
        }
    }
    let output = signature::output(&func.sig.output);
    let value = output.value.as_ref().filter(|t| !signature::is_unit(t));
    if value.is_none() {
        errors.push(syn::Error::new(
            func.sig.paren_token.span.close(),
            "a parse function returns the parameter's value: `-> T` or `-> Result<T, E>`",
        ));
    }
    errors.finish(())?;
    match (value, params) {
        (Some(ty), Some(params)) => Ok(emit(&args, &func, ty, output.fallible, &params)),
        _ => Err(syn::Error::new(Span::call_site(), "invalid parameter type")),
    }
}

fn parse_args(attr: TokenStream) -> syn::Result<Args> {
    let mut name = None;
    let mut regex = None;
    let mut format = false;
    let parser = syn::meta::parser(|meta| {
        if meta.path.is_ident("name") {
            name = Some(meta.value()?.parse::<LitStr>()?);
        } else if meta.path.is_ident("regex") {
            regex = Some(meta.value()?.parse::<LitStr>()?);
        } else if meta.path.is_ident("format") {
            format = true;
        } else {
            return Err(meta.error("expected `name = \"…\"`, `regex = \"…\"` or `format`"));
        }
        Ok(())
    });
    syn::parse::Parser::parse2(parser, attr.clone())?;
    match (name, regex) {
        (Some(name), Some(regex)) => Ok(Args {
            name,
            regex,
            format,
        }),
        _ => Err(syn::Error::new(
            if attr.is_empty() {
                Span::call_site()
            } else {
                attr.span()
            },
            "a parameter type needs a name and a regex: #[varar::parameter(name = \"money\", regex = r\"£(\\d+)\\.(\\d{2})\")]",
        )),
    }
}

/// Name rules of spec 20 §20.4, checked at compile time.
fn check_name(name: &LitStr) -> syn::Result<()> {
    let value = name.value();
    if value.is_empty() {
        return Err(syn::Error::new(
            name.span(),
            "the anonymous parameter type `{}` is built in; give the type a name",
        ));
    }
    if let Some(c) = value.chars().find(|c| "[]()$.|?*+{}/\\".contains(*c)) {
        return Err(syn::Error::new(
            name.span(),
            format!("a parameter type name cannot contain `{c}`"),
        ));
    }
    if varar_expression::built_in(&value).is_some() {
        return Err(syn::Error::new(
            name.span(),
            format!("there is already a built-in parameter type named `{value}`"),
        ));
    }
    Ok(())
}

/// Validate the regex and count its outermost capture groups.
fn group_count(regex: &LitStr) -> syn::Result<usize> {
    varar_expression::outermost_group_count(&regex.value())
        .map_err(|e| syn::Error::new(regex.span(), format!("invalid regex: {e}")))
}

fn parse_params(func: &ItemFn) -> syn::Result<Vec<GroupParam>> {
    let mut out = Vec::new();
    let mut errors = Errors::default();
    for input in &func.sig.inputs {
        let problem = match input {
            FnArg::Receiver(r) => Some(syn::Error::new_spanned(
                r,
                "a parse function cannot take `self`",
            )),
            FnArg::Typed(pt) => {
                if signature::is_str_ref(&pt.ty) {
                    out.push(GroupParam::Required);
                    None
                } else if is_option_str(&pt.ty) {
                    out.push(GroupParam::Optional);
                    None
                } else {
                    Some(syn::Error::new_spanned(
                        &pt.ty,
                        "a parse function takes one `&str` (or `Option<&str>` for a group that may not participate) per capture group",
                    ))
                }
            }
        };
        if let Some(e) = problem {
            errors.push(e);
        }
    }
    errors.finish(out)
}

fn is_option_str(ty: &Type) -> bool {
    signature::option_inner(ty).is_some_and(signature::is_str_ref)
}

fn emit(
    args: &Args,
    func: &ItemFn,
    ty: &Type,
    fallible: bool,
    params: &[GroupParam],
) -> TokenStream {
    let ident = &func.sig.ident;
    let name = &args.name;
    let regex = &args.regex;
    let vars: Vec<_> = (0..params.len())
        .map(|i| format_ident!("__varar_g{}", i))
        .collect();
    let reads = params
        .iter()
        .zip(&vars)
        .enumerate()
        .map(|(i, (p, var))| match p {
            GroupParam::Required => quote! {
                let #var = ::varar::__private::group(__varar_groups, #i)?;
            },
            GroupParam::Optional => quote! {
                let #var = ::varar::__private::optional_group(__varar_groups, #i);
            },
        });
    let call = if fallible {
        quote!(#ident(#(#vars),*).map_err(|e| ::std::string::ToString::to_string(&e)))
    } else {
        quote!(::core::result::Result::Ok(#ident(#(#vars),*)))
    };
    let format = if args.format {
        quote_spanned!(ty.span()=> ::core::option::Option::Some(::std::string::ToString::to_string(self)))
    } else {
        quote!(::core::option::Option::None)
    };
    let site = ident.span();
    let line = quote_spanned!(site=> ::core::line!());
    quote! {
        #func

        const _: () = {
            /// Makes `Parameter<Marker>` an impl of this crate, whatever `#ty` is.
            #[doc(hidden)]
            pub struct __VararParameter;

            #[automatically_derived]
            impl ::varar::__private::Parameter<__VararParameter> for #ty {
                const NAME: &'static str = #name;
                const REGEX: &'static str = #regex;
                fn parse(
                    __varar_groups: &[::core::option::Option<&str>],
                ) -> ::core::result::Result<Self, ::std::string::String> {
                    #(#reads)*
                    #call
                }
                fn format(&self) -> ::core::option::Option<::std::string::String> {
                    #format
                }
            }

            ::varar::__private::inventory::submit! {
                ::varar::__private::ParameterDef {
                    name: #name,
                    regex: #regex,
                    file: ::core::file!(),
                    line: #line,
                    module_path: ::core::module_path!(),
                }
            }
        };
    }
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use super::expand;

    fn error_of(attr: proc_macro2::TokenStream, item: proc_macro2::TokenStream) -> String {
        match expand(attr, item) {
            Ok(tokens) => panic!("expected an error, got {tokens}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn arity_follows_the_outermost_groups() {
        let cases = [
            (
                quote!(name = "money", regex = r"£(\d+)\.(\d{2})"),
                quote!(
                    fn m(a: &str) -> M {
                        M
                    }
                ),
                "the regex `£(\\d+)\\.(\\d{2})` has 2 outermost capture group(s)",
            ),
            (
                quote!(name = "code", regex = "[A-Z]{3}"),
                quote!(
                    fn c(a: &str, b: &str) -> C {
                        C
                    }
                ),
                "the regex `[A-Z]{3}` has no capture group",
            ),
        ];
        for (attr, item, want) in cases {
            let msg = error_of(attr, item);
            assert!(msg.starts_with(want), "{want} vs {msg}");
        }
    }

    #[test]
    fn names_regexes_and_parse_params_are_validated() {
        let cases = [
            (
                quote!(name = "int", regex = "x"),
                quote!(
                    fn c(a: &str) -> C {
                        C
                    }
                ),
                "there is already a built-in parameter type named `int`",
            ),
            (
                quote!(name = "a.b", regex = "x"),
                quote!(
                    fn c(a: &str) -> C {
                        C
                    }
                ),
                "a parameter type name cannot contain `.`",
            ),
            (
                quote!(name = "c", regex = "(x"),
                quote!(
                    fn c(a: &str) -> C {
                        C
                    }
                ),
                "invalid regex",
            ),
            (
                quote!(name = "c", regex = "x"),
                quote!(
                    fn c(a: String) -> C {
                        C
                    }
                ),
                "a parse function takes one `&str`",
            ),
            (
                quote!(name = "c", regex = "x"),
                quote!(
                    fn c(a: &str) {}
                ),
                "a parse function returns the parameter's value",
            ),
            (
                quote!(regex = "x"),
                quote!(
                    fn c(a: &str) -> C {
                        C
                    }
                ),
                "a parameter type needs a name and a regex",
            ),
        ];
        for (attr, item, want) in cases {
            let msg = error_of(attr, item);
            assert!(msg.starts_with(want), "{want} vs {msg}");
        }
    }

    #[test]
    fn emits_parameter_observed_and_registration() {
        let out = match expand(
            quote!(name = "money", regex = r"£(\d+)", format),
            quote!(
                fn money(p: Option<&str>) -> Result<Money, E> {
                    Ok(Money(p.unwrap_or_default().len()))
                }
            ),
        ) {
            Ok(t) => t.to_string(),
            Err(e) => panic!("{e}"),
        };
        for want in [
            "pub struct __VararParameter",
            "impl :: varar :: __private :: Parameter < __VararParameter > for Money",
            "const NAME : & 'static str = \"money\"",
            "optional_group (__varar_groups , 0usize)",
            "map_err",
            "Some (:: std :: string :: ToString :: to_string (self))",
            "ParameterDef",
        ] {
            assert!(out.contains(want), "{want} not in {out}");
        }
    }
}
