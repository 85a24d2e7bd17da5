//! Reading a step function's signature against its expression (spec 50
//! §50.2): which parameter is the state, which are the captures, which is the
//! trailing table/doc string/row, and what the return type promises.

use syn::spanned::Spanned;
use syn::{FnArg, GenericArgument, PathArguments, ReturnType, Signature, Type};

/// The kind of an expression parameter, i.e. which reader fills it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum SlotKind {
    /// `{int}`, `{byte}`, `{short}`, `{long}`, `{biginteger}`.
    Int,
    /// `{float}`, `{double}`.
    Float,
    /// `{word}`, `{string}`, `{}`, `{emph}`, `{bigdecimal}`.
    Text,
    /// A custom `{name}`.
    Custom(String),
}

impl SlotKind {
    /// The kind of a parameter type name.
    pub(crate) fn of(name: &str) -> SlotKind {
        match name {
            "int" | "byte" | "short" | "long" | "biginteger" => SlotKind::Int,
            "float" | "double" => SlotKind::Float,
            "word" | "string" | "" | "emph" | "bigdecimal" => SlotKind::Text,
            other => SlotKind::Custom(other.to_string()),
        }
    }
}

/// What the trailing parameter is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TrailingKind {
    Table,
    DocString,
    Row,
}

impl TrailingKind {
    fn of(ty: &Type) -> Option<TrailingKind> {
        match last_segment(strip_ref(ty))?.ident.to_string().as_str() {
            "Table" => Some(TrailingKind::Table),
            "DocString" => Some(TrailingKind::DocString),
            "Row" => Some(TrailingKind::Row),
            _ => None,
        }
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            TrailingKind::Table => "Table",
            TrailingKind::DocString => "DocString",
            TrailingKind::Row => "Row",
        }
    }
}

/// How the state is taken.
#[derive(Clone, Debug)]
pub(crate) enum State {
    None,
    Shared(Type),
    Mut(Type),
    Owned(Type),
}

/// The trailing parameter and whether it is taken by reference.
#[derive(Clone, Debug)]
pub(crate) struct Trailing {
    pub(crate) kind: TrailingKind,
    pub(crate) by_ref: bool,
}

/// A function's parameters, laid out.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    pub(crate) state: State,
    /// The capture parameters' types, in order (empty when a sensor omits them).
    pub(crate) captures: Vec<Type>,
    pub(crate) trailing: Option<Trailing>,
}

/// `&T` / `&mut T` → `T`.
pub(crate) fn strip_ref(ty: &Type) -> &Type {
    match ty {
        Type::Reference(r) => &r.elem,
        Type::Paren(p) => strip_ref(&p.elem),
        Type::Group(g) => strip_ref(&g.elem),
        other => other,
    }
}

pub(crate) fn last_segment(ty: &Type) -> Option<&syn::PathSegment> {
    match ty {
        Type::Path(p) if p.qself.is_none() => p.path.segments.last(),
        Type::Group(g) => last_segment(&g.elem),
        _ => None,
    }
}

/// Whether the type is `&str` (read as a `String`, then lent).
pub(crate) fn is_str_ref(ty: &Type) -> bool {
    match ty {
        Type::Reference(r) if r.mutability.is_none() => {
            matches!(&*r.elem, Type::Path(p) if p.qself.is_none() && p.path.is_ident("str"))
        }
        _ => false,
    }
}

/// Lay the parameters out for an expression with `n` parameters.
/// `sensor` allows omitting all captures.
pub(crate) fn layout(
    sig: &Signature,
    expression: &str,
    names: &[String],
    sensor: bool,
) -> syn::Result<Layout> {
    let mut errors: Option<syn::Error> = None;
    let mut push = |e: syn::Error| match &mut errors {
        Some(all) => all.combine(e),
        None => errors = Some(e),
    };
    let mut types: Vec<&Type> = Vec::new();
    let mut args: Vec<&syn::PatType> = Vec::new();
    for input in &sig.inputs {
        match input {
            FnArg::Receiver(r) => push(syn::Error::new_spanned(
                r,
                "a step is a free function: it cannot take `self`",
            )),
            FnArg::Typed(pt) => {
                types.push(&pt.ty);
                args.push(pt);
            }
        }
    }
    let mut trailing = None;
    if let Some(last) = types.last()
        && let Some(kind) = TrailingKind::of(last)
    {
        trailing = Some(Trailing {
            kind,
            by_ref: matches!(last, Type::Reference(_)),
        });
        types.pop();
        args.pop();
    }
    for ty in &types {
        if let Some(kind) = TrailingKind::of(ty) {
            push(syn::Error::new_spanned(
                ty,
                format!(
                    "a `{}` must be the last parameter of a step (after the state and the captures)",
                    kind.name()
                ),
            ));
        }
    }
    if let Some(e) = errors {
        return Err(e);
    }
    let n = names.len();
    let m = types.len();
    let first_is_state = match types.first() {
        Some(Type::Reference(_)) => !is_str_ref(types[0]),
        Some(_) => m == n + 1,
        None => false,
    };
    let state = if first_is_state {
        match types[0] {
            Type::Reference(r) if r.mutability.is_some() => State::Mut((*r.elem).clone()),
            Type::Reference(r) => State::Shared((*r.elem).clone()),
            other => State::Owned(other.clone()),
        }
    } else {
        State::None
    };
    let captures: Vec<Type> = types[usize::from(first_is_state)..]
        .iter()
        .map(|t| (*t).clone())
        .collect();
    let fits = captures.len() == n || (sensor && captures.is_empty());
    if !fits {
        let listed = if n == 0 {
            String::new()
        } else {
            let braces: Vec<String> = names.iter().map(|n| format!("{{{n}}}")).collect();
            format!(" ({})", braces.join(", "))
        };
        let state_note = if first_is_state {
            " after its state"
        } else {
            ""
        };
        let message = format!(
            "the expression `{expression}` has {n} parameter(s){listed} but the function takes {} argument(s) for them{state_note}\n\
             help: a step takes its state first (`&S`, `&mut S` or `S`, or none), then one argument per `{{…}}` in order, then a trailing `Table`, `DocString` or `Row`",
            captures.len()
        );
        let capture_args = &args[usize::from(first_is_state)..];
        return Err(if capture_args.is_empty() {
            syn::Error::new(inputs_span(sig), message)
        } else {
            // Spans from the first to the last capture argument.
            syn::Error::new_spanned(quote::quote!(#(#capture_args),*), message)
        });
    }
    Ok(Layout {
        state,
        captures,
        trailing,
    })
}

/// The span of the parameter list (the parentheses when it is empty).
pub(crate) fn inputs_span(sig: &Signature) -> proc_macro2::Span {
    if sig.inputs.is_empty() {
        sig.paren_token.span.join()
    } else {
        sig.inputs.span()
    }
}

/// A return type, seen through an optional `Result<_, E>`.
#[derive(Clone, Debug)]
pub(crate) struct Output {
    /// `Some(T)` for `-> T`; `None` for no return type.
    pub(crate) value: Option<Type>,
    /// Whether the function returns a `Result` (whose `Ok` type is `value`).
    pub(crate) fallible: bool,
}

/// Split `-> Result<T, E>` (any path ending in `Result` with a first generic
/// argument) from `-> T`.
pub(crate) fn output(ret: &ReturnType) -> Output {
    let ty = match ret {
        ReturnType::Default => {
            return Output {
                value: None,
                fallible: false,
            };
        }
        ReturnType::Type(_, ty) => &**ty,
    };
    if let Some(seg) = last_segment(ty)
        && seg.ident == "Result"
        && let PathArguments::AngleBracketed(args) = &seg.arguments
        && let Some(GenericArgument::Type(ok)) = args.args.first()
    {
        return Output {
            value: Some(ok.clone()),
            fallible: true,
        };
    }
    Output {
        value: Some(ty.clone()),
        fallible: false,
    }
}

/// Whether the type is `()`.
pub(crate) fn is_unit(ty: &Type) -> bool {
    match ty {
        Type::Tuple(t) => t.elems.is_empty(),
        Type::Paren(p) => is_unit(&p.elem),
        _ => false,
    }
}

/// `T` of a syntactic `Option<T>`.
pub(crate) fn option_inner(ty: &Type) -> Option<&Type> {
    let seg = last_segment(ty)?;
    if seg.ident != "Option" {
        return None;
    }
    match &seg.arguments {
        PathArguments::AngleBracketed(a) if a.args.len() == 1 => match a.args.first() {
            Some(GenericArgument::Type(t)) => Some(t),
            _ => None,
        },
        _ => None,
    }
}
