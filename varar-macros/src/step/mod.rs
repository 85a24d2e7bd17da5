//! `#[stimulus]` and `#[sensor]` (spec 50 §50.2): parse the expression and
//! the function, validate the signature against the expression's parameters
//! and the sensor slot contract (spec 30 §30.2.1), then emit the function
//! unchanged plus a type-erased handler and its `inventory` registration.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{ItemFn, LitStr, Type};
use varar_expression::Expression;

use crate::errors::Errors;
use crate::signature::{self, Layout, Output, SlotKind, State, TrailingKind};

mod custom;

use custom::{check as custom_check, slot as custom_slot};

/// Which attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    Stimulus,
    Sensor,
}

/// A parsed and validated step.
struct Step {
    role: Role,
    expression: LitStr,
    names: Vec<String>,
    func: ItemFn,
    layout: Layout,
    output: Output,
}

/// Entry point of both attributes.
pub(crate) fn expand(role: Role, attr: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let step = parse(role, attr, item)?;
    Ok(emit(&step))
}

fn parse(role: Role, attr: TokenStream, item: TokenStream) -> syn::Result<Step> {
    let attr_name = match role {
        Role::Stimulus => "stimulus",
        Role::Sensor => "sensor",
    };
    let expression: LitStr = syn::parse2(attr).map_err(|e| {
        syn::Error::new(
            e.span(),
            format!(
                "expected the step expression as one string literal, e.g. #[{attr_name}(\"I deposit {{int}}\")]"
            ),
        )
    })?;
    let func: ItemFn = syn::parse2(item)?;
    let mut errors = Errors::default();
    let names = match Expression::parse(&expression.value()) {
        Ok(parsed) => Some(
            parsed
                .parameter_names()
                .into_iter()
                .map(str::to_string)
                .collect::<Vec<_>>(),
        ),
        Err(e) => {
            errors.push(syn::Error::new(expression.span(), e.to_string()));
            None
        }
    };
    let sig = &func.sig;
    if !sig.generics.params.is_empty() {
        errors.push(syn::Error::new_spanned(
            &sig.generics,
            "a step function cannot be generic: the handler must name one concrete type per argument",
        ));
    }
    if let Some(v) = &sig.variadic {
        errors.push(syn::Error::new_spanned(
            v,
            "a step function cannot be variadic",
        ));
    }
    let output = signature::output(&sig.output);
    let layout = match &names {
        Some(names) => {
            match signature::layout(sig, &expression.value(), names, role == Role::Sensor) {
                Ok(layout) => {
                    if let Err(e) =
                        check_output(role, &expression.value(), names, &layout, &output, &func)
                    {
                        errors.push(e);
                    }
                    Some(layout)
                }
                Err(e) => {
                    errors.push(e);
                    None
                }
            }
        }
        None => None,
    };
    let (names, layout) = errors.finish((names, layout))?;
    match (names, layout) {
        (Some(names), Some(layout)) => Ok(Step {
            role,
            expression,
            names,
            func,
            layout,
            output,
        }),
        // Unreachable: a missing piece always recorded an error.
        _ => Err(syn::Error::new(Span::call_site(), "invalid step")),
    }
}

/// The span of the return type, or of the signature's end when there is none
/// (where generated return handling is attributed).
fn output_span(func: &ItemFn) -> Span {
    match &func.sig.output {
        syn::ReturnType::Type(_, ty) => ty.span(),
        syn::ReturnType::Default => func.sig.paren_token.span.close(),
    }
}

/// An error about the return: under the return type, or under the whole
/// signature when there is none.
fn output_error(func: &ItemFn, message: String) -> syn::Error {
    match &func.sig.output {
        syn::ReturnType::Type(_, ty) => syn::Error::new_spanned(ty, message),
        syn::ReturnType::Default => syn::Error::new_spanned(&func.sig, message),
    }
}

fn slot_names(names: &[String], layout: &Layout) -> Vec<String> {
    let mut slots: Vec<String> = names.iter().map(|n| format!("{{{n}}}")).collect();
    match layout.trailing.as_ref().map(|t| t.kind) {
        Some(TrailingKind::Table) => slots.push("the table".to_string()),
        Some(TrailingKind::DocString) => slots.push("the doc string".to_string()),
        _ => {}
    }
    slots
}

/// The return rules of spec 50 §50.2 / spec 30 §30.2.1.
fn check_output(
    role: Role,
    expression: &str,
    names: &[String],
    layout: &Layout,
    output: &Output,
    func: &ItemFn,
) -> syn::Result<()> {
    let value = output.value.as_ref().filter(|t| !signature::is_unit(t));
    if role == Role::Stimulus {
        return match (&layout.state, value) {
            (State::Owned(s), None) => Err(output_error(
                func,
                format!(
                    "a stimulus that takes its state by value returns the next state: add `-> {}`",
                    quote!(#s)
                ),
            )),
            (State::Owned(_), Some(_)) | (_, None) => Ok(()),
            (_, Some(ty)) => Err(syn::Error::new_spanned(
                ty,
                "a stimulus returns `()` or `Result<(), E>`; to replace its state, take the state `S` by value and return the next `S`",
            )),
        };
    }
    if layout.trailing.as_ref().map(|t| t.kind) == Some(TrailingKind::Row) {
        return match value {
            Some(_) => Ok(()),
            None => Err(output_error(
                func,
                "a header-bound row sensor returns the row of the columns it computed, e.g. `-> varar::Row`"
                    .to_string(),
            )),
        };
    }
    let slots = slot_names(names, layout);
    let listed = slots.join(", ");
    match (slots.len(), value) {
        (0, None) => Ok(()),
        (0, Some(ty)) => Err(syn::Error::new_spanned(
            ty,
            format!(
                "this sensor has no slots (`{expression}` has no parameters and the step takes no table or doc string): it returns `()` and asserts for itself"
            ),
        )),
        (n, None) => Err(output_error(
            func,
            format!(
                "this sensor has {n} slot(s) ({listed}): return {} to compare with the document",
                if n == 1 {
                    "the value"
                } else {
                    "a tuple of the values"
                }
            ),
        )),
        (1, Some(_)) => Ok(()),
        (n, Some(ty)) => match ty {
            Type::Tuple(t) if t.elems.len() == n => Ok(()),
            _ => Err(syn::Error::new_spanned(
                ty,
                format!(
                    "this sensor has {n} slots ({listed}), so it returns a tuple of {n} values"
                ),
            )),
        },
    }
}

fn emit(step: &Step) -> TokenStream {
    let func = &step.func;
    let ident = &func.sig.ident;
    let mut reads = Vec::new();
    let mut checks = Vec::new();
    let mut call_args = Vec::new();

    let (state_fetch, state_put) = emit_state(&step.layout.state, &mut call_args);
    let state_param = emit_state_param(&step.layout.state, &mut checks);
    let is_async = func.sig.asyncness.is_some();

    // One local trait per custom slot, naming it in its error (see
    // `custom_slot`); captures and returns of that slot share it.
    for (i, name) in step.names.iter().enumerate() {
        if let SlotKind::Custom(name) = SlotKind::of(name) {
            checks.push(custom_slot(i, &name, &step.expression));
        }
    }

    emit_captures(step, &mut checks, &mut reads, &mut call_args);
    let trailing_kind = emit_trailing(step, &mut reads, &mut call_args);

    let unwrap = emit_unwrap(step);
    let returned = match step.role {
        Role::Stimulus => {
            let put = state_put.unwrap_or_else(|| quote!(let () = __varar_out;));
            quote! { #put ::varar::__private::Returned::Nothing }
        }
        Role::Sensor => emit_sensor_return(step, &mut checks),
    };
    let role = match step.role {
        Role::Stimulus => quote!(Stimulus),
        Role::Sensor => quote!(Sensor),
    };
    let expression = &step.expression;
    let site = ident.span();
    let line = quote_spanned!(site=> ::core::line!());
    let column = quote_spanned!(site=> ::core::column!());
    let (call, handler, asyncness, kind) = emit_entry(ident, is_async, &call_args);

    quote! {
        #func

        const _: () = {
            #[allow(clippy::all, clippy::pedantic, unused_variables, unused_mut)]
            #asyncness fn __varar_handler(
                __varar_world: &mut ::varar::__private::World,
                __varar_inv: &::varar::__private::Invocation<'_>,
            ) -> ::core::result::Result<::varar::__private::Returned, ::varar::__private::StepError> {
                #(#checks)*
                #(#reads)*
                #state_fetch
                let __varar_out = #call;
                #unwrap
                ::core::result::Result::Ok({ #returned })
            }
            #handler

            ::varar::__private::inventory::submit! {
                ::varar::__private::StepDef {
                    role: ::varar::__private::Role::#role,
                    expression: #expression,
                    handler: #kind,
                    trailing: #trailing_kind,
                    file: ::core::file!(),
                    line: #line,
                    column: #column,
                    module_path: ::core::module_path!(),
                    state: #state_param,
                }
            }
        };
    }
}

/// Read every captured value into a local, checked against its slot's
/// parameter type.
fn emit_captures(
    step: &Step,
    checks: &mut Vec<TokenStream>,
    reads: &mut Vec<TokenStream>,
    call_args: &mut Vec<TokenStream>,
) {
    for (i, ty) in step.layout.captures.iter().enumerate() {
        let var = format_ident!("__varar_a{}", i);
        let kind = SlotKind::of(&step.names[i]);
        let span = ty.span();
        if signature::is_str_ref(ty) && kind == SlotKind::Text {
            reads.push(quote_spanned! {span=>
                let #var: ::std::string::String =
                    ::varar::__private::read_text::<::std::string::String>(__varar_inv, #i)?;
            });
            call_args.push(quote!(&#var));
            continue;
        }
        let read = match &kind {
            SlotKind::Int => quote_spanned!(span=> read_int::<#ty>),
            SlotKind::Float => quote_spanned!(span=> read_float::<#ty>),
            SlotKind::Text => quote_spanned!(span=> read_text::<#ty>),
            SlotKind::Custom(name) => {
                checks.push(custom_check(ty, i, name, &step.expression));
                let read = custom::read(ty, i, &step.expression);
                reads.push(quote_spanned! {span=>
                    let #var: #ty = #read?;
                });
                call_args.push(quote!(#var));
                continue;
            }
        };
        reads.push(quote_spanned! {span=>
            let #var: #ty = ::varar::__private::#read(__varar_inv, #i)?;
        });
        call_args.push(quote!(#var));
    }
}

/// Read the trailing table, doc string or row, if the function takes one;
/// returns its `Trailing` kind.
fn emit_trailing(
    step: &Step,
    reads: &mut Vec<TokenStream>,
    call_args: &mut Vec<TokenStream>,
) -> TokenStream {
    let mut trailing_kind = quote!(::varar::__private::Trailing::None);
    if let Some(t) = &step.layout.trailing {
        // The arity placed it last; the trait `TrailingData` (the read's
        // bound) confirms it is varar's: a type of the user's own called
        // `Table` there is a compile error, once.
        let ty = &t.ty;
        let variant = format_ident!("{}", t.kind.name());
        trailing_kind = quote!(::varar::__private::Trailing::#variant);
        reads.push(quote_spanned! {ty.span()=>
            let __varar_trailing: &#ty = ::varar::__private::read_trailing::<#ty>(__varar_inv)?;
        });
        call_args.push(if t.by_ref {
            quote!(__varar_trailing)
        } else {
            quote!(::core::clone::Clone::clone(__varar_trailing))
        });
    }
    trailing_kind
}

/// Turn an `Err` of a fallible step into its `thrown` message.
fn emit_unwrap(step: &Step) -> TokenStream {
    let ret_span = output_span(&step.func);
    if step.output.fallible {
        quote_spanned! {ret_span=>
            let __varar_out = match __varar_out {
                ::core::result::Result::Ok(v) => v,
                ::core::result::Result::Err(e) => {
                    return ::core::result::Result::Err(::varar::__private::error_message(&e));
                }
            };
        }
    } else {
        quote!()
    }
}

/// The call of the step function, and the entry point the registration
/// names: the handler itself for a `fn`, a boxing wrapper for an `async fn`.
fn emit_entry(
    ident: &syn::Ident,
    is_async: bool,
    call_args: &[TokenStream],
) -> (TokenStream, TokenStream, TokenStream, TokenStream) {
    let (call, handler) = if is_async {
        (
            quote!(#ident(#(#call_args),*).await),
            quote! {
                #[allow(clippy::all, clippy::pedantic, unused_variables, unused_mut)]
                fn __varar_async<'a>(
                    __varar_world: &'a mut ::varar::__private::World,
                    __varar_inv: &'a ::varar::__private::Invocation<'a>,
                ) -> ::varar::__private::BoxFuture<'a, ::varar::__private::StepResult> {
                    ::std::boxed::Box::pin(__varar_handler(__varar_world, __varar_inv))
                }
            },
        )
    } else {
        (quote!(#ident(#(#call_args),*)), quote!())
    };
    let asyncness = if is_async { quote!(async) } else { quote!() };
    let kind = if is_async {
        quote!(::varar::__private::Handler::Async(__varar_async))
    } else {
        quote!(::varar::__private::Handler::Sync(__varar_handler))
    };
    (call, handler, asyncness, kind)
}

/// The state fetch before the call, and (for `S` by value) the put after it.
fn emit_state(
    state: &State,
    call_args: &mut Vec<TokenStream>,
) -> (TokenStream, Option<TokenStream>) {
    let fetch = match state {
        State::None => return (quote!(), None),
        State::Shared(s) => quote_spanned! {s.span()=>
            let __varar_state: &#s = __varar_world.state_ref::<#s>()?;
        },
        State::Mut(s) => quote_spanned! {s.span()=>
            let __varar_state: &mut #s = __varar_world.state_mut::<#s>()?;
        },
        State::Owned(s) => quote_spanned! {s.span()=>
            let __varar_state: #s = __varar_world.take_state::<#s>()?;
        },
    };
    call_args.push(quote!(__varar_state));
    let put = match state {
        State::Owned(s) => Some(quote_spanned! {s.span()=>
            let __varar_next: #s = __varar_out;
            __varar_world.put_state::<#s>(__varar_next);
        }),
        _ => None,
    };
    (fetch, put)
}

/// The `StepDef::state` of a step: the state type's identity, how it is
/// taken, and whether it has a `Default` (probed without requiring it, so a
/// type built by a `#[varar::state]` factory needs none). Also asserts, at
/// the type, that a state can move to the example's thread.
fn emit_state_param(state: &State, checks: &mut Vec<TokenStream>) -> TokenStream {
    let (s, access) = match state {
        State::None => return quote!(::core::option::Option::None),
        State::Shared(s) => (s, quote!(Shared)),
        State::Mut(s) => (s, quote!(Mut)),
        State::Owned(s) => (s, quote!(Owned)),
    };
    checks.push(quote_spanned! {s.span()=>
        const _: () = ::varar::__private::a_state_must_be_send::<#s>();
    });
    quote! {
        ::core::option::Option::Some(::varar::__private::StateParam {
            type_id: ::core::any::TypeId::of::<#s>,
            type_name: ::core::any::type_name::<#s>,
            access: ::varar::__private::Access::#access,
            default: {
                #[allow(clippy::all)]
                fn __varar_default() -> ::core::option::Option<::varar::__private::DefaultCtor> {
                    #[allow(unused_imports)]
                    use ::varar::__private::{NoDefault as _, ViaDefault as _};
                    (&&::varar::__private::Probe::<#s>::new()).default_ctor()
                }
                __varar_default
            },
        })
    }
}

/// The bound check of returned slot `index`, by the slot's kind.
/// `Option<T>` answers a slot like `T` (`None` is the JSON-like null of spec
/// 30 §30.2, a value that never equals the document's).
fn slot_check(
    ty: &Type,
    index: usize,
    kind: Option<SlotKind>,
    trailing: Option<TrailingKind>,
    expression: &LitStr,
) -> TokenStream {
    let ty = signature::option_inner(ty).unwrap_or(ty);
    let span = ty.span();
    let check = match (kind, trailing) {
        (Some(SlotKind::Int), _) => quote_spanned!(span=> int_slot),
        (Some(SlotKind::Float), _) => quote_spanned!(span=> float_slot),
        (Some(SlotKind::Text), _) => quote_spanned!(span=> text_slot),
        (Some(SlotKind::Custom(name)), _) => return custom_check(ty, index, &name, expression),
        (None, Some(TrailingKind::Table)) => quote_spanned!(span=> table_slot),
        (None, Some(TrailingKind::DocString)) => quote_spanned!(span=> doc_string_slot),
        (None, _) => return quote!(),
    };
    quote_spanned! {span=> ::varar::__private::#check::<#ty>(); }
}

fn emit_sensor_return(step: &Step, checks: &mut Vec<TokenStream>) -> TokenStream {
    let value = step
        .output
        .value
        .as_ref()
        .filter(|t| !signature::is_unit(t));
    let trailing = step.layout.trailing.as_ref().map(|t| t.kind);
    let Some(ty) = value else {
        return quote! { let () = __varar_out; ::varar::__private::Returned::Nothing };
    };
    let slot_kind = |i: usize| step.names.get(i).map(|n| SlotKind::of(n));
    if trailing == Some(TrailingKind::Row) {
        return quote_spanned! {ty.span()=>
            ::varar::__private::Returned::One(::varar::__private::observe::<#ty>(__varar_out))
        };
    }
    match ty {
        Type::Tuple(t) if t.elems.len() >= 2 => {
            let vars: Vec<_> = (0..t.elems.len())
                .map(|i| format_ident!("__varar_r{}", i))
                .collect();
            let boxed = t
                .elems
                .iter()
                .zip(&vars)
                .enumerate()
                .map(|(i, (ety, var))| {
                    checks.push(slot_check(ety, i, slot_kind(i), trailing, &step.expression));
                    observe(ety, i, slot_kind(i), &step.expression, quote!(#var))
                });
            let boxed: Vec<_> = boxed.collect();
            quote! {
                let (#(#vars),*) = __varar_out;
                ::varar::__private::Returned::Many(::std::vec![#(#boxed),*])
            }
        }
        _ => {
            checks.push(slot_check(ty, 0, slot_kind(0), trailing, &step.expression));
            let value = observe(ty, 0, slot_kind(0), &step.expression, quote!(__varar_out));
            quote_spanned! {ty.span()=> ::varar::__private::Returned::One(#value) }
        }
    }
}

/// Box returned slot `index`'s value: a custom slot's through its parameter
/// type (any Rust type may be one), every other through `Observed`.
fn observe(
    ty: &Type,
    index: usize,
    kind: Option<SlotKind>,
    expression: &LitStr,
    value: TokenStream,
) -> TokenStream {
    if let Some(SlotKind::Custom(_)) = kind {
        return custom::observe(ty, index, expression, value);
    }
    quote_spanned!(ty.span()=> ::varar::__private::observe::<#ty>(#value))
}

#[cfg(test)]
mod tests;
