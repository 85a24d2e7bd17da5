//! `#[resource]`, `#[state]` and `#[teardown]` (spec 60.4–60.6): check the
//! function's shape, then emit it unchanged plus a type-erased entry point
//! and its `inventory` registration. Whether a type is a resource or a state
//! is only known when every registration is seen, so those checks happen
//! when the test binary starts (`varar_runner::lifecycle`).

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{FnArg, ItemFn, Type};

use crate::errors::Errors;
use crate::signature::{self, Output};

/// Which attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Hook {
    Resource,
    State,
    Teardown,
}

impl Hook {
    fn name(self) -> &'static str {
        match self {
            Hook::Resource => "resource",
            Hook::State => "state",
            Hook::Teardown => "teardown",
        }
    }
}

/// Entry point of the three attributes.
pub(crate) fn expand(hook: Hook, attr: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    if !attr.is_empty() {
        return Err(syn::Error::new_spanned(
            attr,
            format!("#[varar::{}] takes no arguments", hook.name()),
        ));
    }
    let func: ItemFn = syn::parse2(item)?;
    let mut errors = Errors::default();
    let sig = &func.sig;
    if !sig.generics.params.is_empty() {
        errors.push(syn::Error::new_spanned(
            &sig.generics,
            format!(
                "a #[varar::{}] function cannot be generic: it registers one concrete type",
                hook.name()
            ),
        ));
    }
    let mut params: Vec<&syn::PatType> = Vec::new();
    for input in &sig.inputs {
        match input {
            FnArg::Receiver(r) => errors.push(syn::Error::new_spanned(
                r,
                format!(
                    "a #[varar::{}] function is a free function: it cannot take `self`",
                    hook.name()
                ),
            )),
            FnArg::Typed(pt) => params.push(pt),
        }
    }
    let output = signature::output(&sig.output);
    let value = output.value.clone().filter(|t| !signature::is_unit(t));
    let checked = match hook {
        Hook::Resource => check_resource(&func, &params, value.as_ref()),
        Hook::State => check_state(&func, &params, value.as_ref()),
        Hook::Teardown => check_teardown(&func, &params, value.as_ref()),
    };
    let ty = errors.take(checked);
    match errors.finish(ty)? {
        Some(ty) => Ok(emit(hook, &func, &params, &ty, &output)),
        // Unreachable: a missing type always recorded an error.
        None => Err(syn::Error::new_spanned(&func.sig, "invalid function")),
    }
}

fn needs_return(func: &ItemFn, what: &str) -> syn::Error {
    syn::Error::new_spanned(
        &func.sig,
        format!("{what}: add `-> T` or `-> Result<T, E>` (E: Display)"),
    )
}

fn check_resource(
    func: &ItemFn,
    params: &[&syn::PatType],
    value: Option<&Type>,
) -> syn::Result<Type> {
    if !params.is_empty() {
        return Err(syn::Error::new(
            signature::inputs_span(&func.sig),
            "a #[varar::resource] function takes no parameters: it is built once per run, before any example's state exists",
        ));
    }
    value.cloned().ok_or_else(|| {
        needs_return(
            func,
            "a #[varar::resource] function returns the resource it builds",
        )
    })
}

fn check_state(func: &ItemFn, params: &[&syn::PatType], value: Option<&Type>) -> syn::Result<Type> {
    let mut errors = Errors::default();
    for p in params {
        let ok = matches!(&*p.ty, Type::Reference(r) if r.mutability.is_none());
        if !ok {
            errors.push(syn::Error::new_spanned(
                &p.ty,
                "a #[varar::state] factory takes run-wide resources by shared reference only (`shop: &Shop`)",
            ));
        }
    }
    errors.finish(())?;
    value.cloned().ok_or_else(|| {
        needs_return(
            func,
            "a #[varar::state] factory returns the state it builds",
        )
    })
}

fn check_teardown(
    func: &ItemFn,
    params: &[&syn::PatType],
    value: Option<&Type>,
) -> syn::Result<Type> {
    let ty = match params {
        [one] => match &*one.ty {
            Type::Reference(r) => {
                return Err(syn::Error::new_spanned(
                    r,
                    format!(
                        "a #[varar::teardown] function takes its value by value (`{}`), so that nothing can use it afterwards",
                        {
                            let inner = &r.elem;
                            quote!(#inner)
                        }
                    ),
                ));
            }
            other => other.clone(),
        },
        _ => {
            return Err(syn::Error::new(
                signature::inputs_span(&func.sig),
                format!(
                    "a #[varar::teardown] function takes exactly one parameter, the state or resource it tears down, by value; this one takes {}",
                    params.len()
                ),
            ));
        }
    };
    if let Some(v) = value {
        return Err(syn::Error::new_spanned(
            v,
            "a #[varar::teardown] function returns `()` or `Result<(), E>` (E: Display)",
        ));
    }
    Ok(ty)
}

/// `let __varar_out = match __varar_out { Ok(v) => v, Err(e) => return Err(text) };`
fn unwrap(output: &Output, span: proc_macro2::Span) -> TokenStream {
    if output.fallible {
        quote_spanned! {span=>
            let __varar_out = match __varar_out {
                ::core::result::Result::Ok(v) => v,
                ::core::result::Result::Err(e) => {
                    return ::core::result::Result::Err(::varar::__private::fail_text(&e));
                }
            };
        }
    } else {
        quote!()
    }
}

/// What every hook's expansion shares: the function's name and call, the
/// unwrapping of its `Result`, and the registration's common fields.
struct Parts<'a> {
    ident: &'a syn::Ident,
    ty: &'a Type,
    is_async: bool,
    unwrap: TokenStream,
    await_: TokenStream,
    asyncness: TokenStream,
    common: TokenStream,
}

fn emit(
    hook: Hook,
    func: &ItemFn,
    params: &[&syn::PatType],
    ty: &Type,
    output: &Output,
) -> TokenStream {
    let ident = &func.sig.ident;
    let name = ident.to_string();
    let is_async = func.sig.asyncness.is_some();
    let site = ident.span();
    let line = quote_spanned!(site=> ::core::line!());
    let ret_span = match &func.sig.output {
        syn::ReturnType::Type(_, t) => t.span(),
        syn::ReturnType::Default => func.sig.paren_token.span.close(),
    };
    let parts = Parts {
        ident,
        ty,
        is_async,
        unwrap: unwrap(output, ret_span),
        await_: if is_async { quote!(.await) } else { quote!() },
        asyncness: if is_async { quote!(async) } else { quote!() },
        common: quote! {
            name: #name,
            type_id: ::core::any::TypeId::of::<__VararT>,
            type_name: ::core::any::type_name::<__VararT>,
            file: ::core::file!(),
            line: #line,
            module_path: ::core::module_path!(),
        },
    };
    let body = match hook {
        Hook::Resource => emit_resource(&parts),
        Hook::State => emit_state(&parts, params),
        Hook::Teardown => emit_teardown(&parts, output),
    };
    quote! {
        #func

        #[allow(clippy::all, clippy::pedantic, unused_variables, unused_mut)]
        const _: () = {
            #body
        };
    }
}

/// `#[varar::resource]`: built once, shared as `Arc<dyn Any>`.
fn emit_resource(parts: &Parts<'_>) -> TokenStream {
    let Parts {
        ident,
        ty,
        is_async,
        unwrap,
        await_,
        asyncness,
        common,
    } = parts;
    let is_async = *is_async;
    let kind = if is_async {
        quote!(Async(__varar_boxed))
    } else {
        quote!(Sync(__varar_build))
    };
    let boxed = if is_async {
        quote! {
            fn __varar_boxed() -> ::varar::__private::BoxFuture<'static, __VararShared> {
                ::std::boxed::Box::pin(__varar_build())
            }
        }
    } else {
        quote!()
    };
    let assert = quote_spanned! {ty.span()=>
        struct __VararR;
        impl ::varar::__private::SharedResource for __VararR {
            type Value = #ty;
        }
    };
    quote! {
        #assert
        type __VararT = <__VararR as ::varar::__private::SharedResource>::Value;
        type __VararShared = ::core::result::Result<
            ::std::sync::Arc<dyn ::core::any::Any + ::core::marker::Send + ::core::marker::Sync>,
            ::std::string::String,
        >;
        #asyncness fn __varar_build() -> __VararShared {
            let __varar_out = #ident() #await_;
            #unwrap
            let __varar_value: __VararT = __varar_out;
            ::core::result::Result::Ok(::varar::__private::share::<__VararR>(__varar_value))
        }
        #boxed
        ::varar::__private::inventory::submit! {
            ::varar::__private::ResourceDef {
                build: ::varar::__private::ResourceBuild::#kind,
                unwrap: ::varar::__private::unwrap_shared::<__VararR>,
                #common
            }
        }
    }
}

/// `#[varar::state]`: built per example from the resources it takes.
fn emit_state(parts: &Parts<'_>, params: &[&syn::PatType]) -> TokenStream {
    let Parts {
        ident,
        ty,
        is_async,
        unwrap,
        await_,
        asyncness,
        common,
    } = parts;
    let is_async = *is_async;
    let needs: Vec<&Type> = params.iter().map(|p| signature::strip_ref(&p.ty)).collect();
    let vars: Vec<_> = (0..needs.len())
        .map(|i| quote::format_ident!("__varar_r{}", i))
        .collect();
    let kind = if is_async {
        quote!(Async(__varar_boxed))
    } else {
        quote!(Sync(__varar_build))
    };
    let boxed = if is_async {
        quote! {
            fn __varar_boxed<'a>(
                __varar_lent: &'a ::varar::__private::Lent,
            ) -> ::varar::__private::BoxFuture<'a, ::varar::__private::Built> {
                ::std::boxed::Box::pin(__varar_build(__varar_lent))
            }
        }
    } else {
        quote!()
    };
    let assert = quote_spanned! {ty.span()=>
        struct __VararS;
        impl ::varar::__private::ExampleState for __VararS {
            type Value = #ty;
        }
    };
    quote! {
        #assert
        type __VararT = <__VararS as ::varar::__private::ExampleState>::Value;
        #asyncness fn __varar_build(
            __varar_lent: &::varar::__private::Lent,
        ) -> ::varar::__private::Built {
            #(let #vars: &#needs = __varar_lent.get::<#needs>()?;)*
            let __varar_out = #ident(#(#vars),*) #await_;
            #unwrap
            let __varar_value: __VararT = __varar_out;
            ::core::result::Result::Ok(::varar::__private::own::<__VararS>(__varar_value))
        }
        #boxed
        ::varar::__private::inventory::submit! {
            ::varar::__private::StateDef {
                needs: &[#(::varar::__private::Need {
                    type_id: ::core::any::TypeId::of::<#needs>,
                    type_name: ::core::any::type_name::<#needs>,
                }),*],
                build: ::varar::__private::StateBuild::#kind,
                #common
            }
        }
    }
}

/// `#[varar::teardown]`: takes the value back and runs to completion.
fn emit_teardown(parts: &Parts<'_>, output: &Output) -> TokenStream {
    let Parts {
        ident,
        ty,
        is_async,
        unwrap,
        common,
        ..
    } = parts;
    let is_async = *is_async;
    let finish = if output.fallible {
        quote! { #unwrap let () = __varar_out; ::core::result::Result::Ok(()) }
    } else {
        quote! { let () = __varar_out; ::core::result::Result::Ok(()) }
    };
    let call = if is_async {
        quote! {
            ::varar::__private::TeardownCall::Pending(::std::boxed::Box::pin(async move {
                let __varar_out = #ident(__varar_value).await;
                #finish
            }))
        }
    } else {
        quote! {
            ::varar::__private::TeardownCall::Done((|| {
                let __varar_out = #ident(__varar_value);
                #finish
            })())
        }
    };
    let assert = quote_spanned! {ty.span()=>
        const _: () = ::varar::__private::a_state_must_be_send::<#ty>();
    };
    quote! {
        #assert
        type __VararT = #ty;
        fn __varar_run(
            __varar_boxed: ::std::boxed::Box<dyn ::core::any::Any + ::core::marker::Send>,
        ) -> ::varar::__private::TeardownCall {
            let __varar_value: #ty = match ::varar::__private::take::<#ty>(__varar_boxed) {
                ::core::result::Result::Ok(v) => v,
                ::core::result::Result::Err(m) => {
                    return ::varar::__private::TeardownCall::Done(::core::result::Result::Err(m));
                }
            };
            #call
        }
        ::varar::__private::inventory::submit! {
            ::varar::__private::TeardownDef {
                run: __varar_run,
                #common
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use super::{Hook, TokenStream, expand};

    fn expansion(hook: Hook, item: TokenStream) -> String {
        match expand(hook, TokenStream::new(), item) {
            Ok(tokens) => tokens.to_string(),
            Err(e) => panic!("unexpected error: {e}"),
        }
    }

    fn error_of(hook: Hook, item: TokenStream) -> String {
        match expand(hook, TokenStream::new(), item) {
            Ok(tokens) => panic!("expected an error, got {tokens}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn a_resource_registers_its_type_and_entry_point() {
        let out = expansion(
            Hook::Resource,
            quote!(
                async fn shop() -> Result<Shop, E> {}
            ),
        );
        assert!(out.contains("type Value = Shop ;"), "{out}");
        assert!(
            out.contains("ResourceBuild :: Async (__varar_boxed)"),
            "{out}"
        );
        assert!(out.contains("let __varar_out = shop () . await ;"), "{out}");
        assert!(out.contains("name : \"shop\""), "{out}");
    }

    #[test]
    fn a_factory_lists_the_resources_it_takes() {
        let out = expansion(
            Hook::State,
            quote!(
                fn customer(shop: &Shop, db: &Db) -> Customer {}
            ),
        );
        assert!(out.contains("StateBuild :: Sync (__varar_build)"), "{out}");
        assert!(
            out.contains("TypeId :: of :: < Shop >") && out.contains("TypeId :: of :: < Db >"),
            "{out}"
        );
        assert!(out.contains("customer (__varar_r0 , __varar_r1)"), "{out}");
    }

    #[test]
    fn a_teardown_takes_one_value_and_returns_unit() {
        let out = expansion(
            Hook::Teardown,
            quote!(
                async fn leave(c: Customer) -> Result<(), E> {}
            ),
        );
        assert!(out.contains("TeardownCall :: Pending"), "{out}");
        assert!(
            error_of(
                Hook::Teardown,
                quote!(
                    fn f(c: &Customer) {}
                )
            )
            .contains("takes its value by value (`Customer`)")
        );
        assert!(
            error_of(
                Hook::Resource,
                quote!(
                    fn f(port: u16) -> Shop {}
                )
            )
            .starts_with("a #[varar::resource] function takes no parameters")
        );
    }
}
