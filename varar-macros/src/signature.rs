//! Reading a step function's signature against its expression (spec 50
//! §50.2): which parameter is the state, which are the captures, which is the
//! trailing table/doc string/row, and what the return type promises.

use syn::spanned::Spanned;
use syn::{FnArg, GenericArgument, PathArguments, ReturnType, Signature, Type};
use varar_expression::{BuiltIn, built_in};

use crate::errors::Errors;

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
        match built_in(name) {
            Some(BuiltIn::Int) => SlotKind::Int,
            Some(BuiltIn::Float) => SlotKind::Float,
            Some(BuiltIn::Text) => SlotKind::Text,
            None => SlotKind::Custom(name.to_string()),
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
    /// The kind a type is written as: `Table`, `DocString` or `Row`, bare
    /// (as imported from `varar`) or under a path through `varar`, behind a
    /// `&` or not. A path through another crate or module (`crate::Table`,
    /// `model::Row`) is the user's own type. This only proposes: the
    /// trait `TrailingData` decides (a user's own bare `Table` in that
    /// place is a compile error naming the trait).
    fn written(ty: &Type) -> Option<TrailingKind> {
        let Type::Path(p) = strip_ref(ty) else {
            return None;
        };
        if p.qself.is_some() {
            return None;
        }
        let segments: Vec<String> = p
            .path
            .segments
            .iter()
            .map(|s| s.ident.to_string())
            .collect();
        let ours = match segments.as_slice() {
            [_] => true,
            [first, .., _] => first == "varar",
            [] => false,
        };
        if !ours {
            return None;
        }
        match segments.last().map(String::as_str) {
            Some("Table") => Some(TrailingKind::Table),
            Some("DocString") => Some(TrailingKind::DocString),
            Some("Row") => Some(TrailingKind::Row),
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
#[derive(Clone)]
pub(crate) enum State {
    None,
    Shared(Type),
    Mut(Type),
    Owned(Type),
}

/// The trailing parameter: its kind as written, its type (without the
/// `&`) and whether it is taken by reference.
#[derive(Clone)]
pub(crate) struct Trailing {
    pub(crate) kind: TrailingKind,
    pub(crate) ty: Type,
    pub(crate) by_ref: bool,
}

/// A function's parameters, laid out.
#[derive(Clone)]
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

/// One way to read a function's parameters: whether the first is the
/// state, how many captures follow, whether the last is a trailing
/// attachment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shape {
    state: bool,
    captures: usize,
    trailing: bool,
}

/// Lay the parameters out for an expression with `names.len()` parameters
/// (spec 50 §50.2). `sensor` allows omitting all captures.
///
/// The arity decides where it can: every shape is tried (a state first or
/// not, all captures or, for a sensor, none, a trailing attachment last or
/// not) and kept when the types can fill it (a capture is a value or a
/// `&str`, never another reference; a state is first; an attachment last,
/// by value or `&`). When several fit, all the captures win over none,
/// and a last parameter written as varar's `Table`, `DocString` or `Row`
/// is the attachment, any other the state's or a capture's. So a user's
/// own `Table` as a capture or state is never taken for ours, and the
/// trait `TrailingData` confirms every attachment (issue 10).
pub(crate) fn layout(
    sig: &Signature,
    expression: &str,
    names: &[String],
    sensor: bool,
) -> syn::Result<Layout> {
    let mut errors = Errors::default();
    let mut types: Vec<&Type> = Vec::new();
    let mut args: Vec<&syn::PatType> = Vec::new();
    for input in &sig.inputs {
        match input {
            FnArg::Receiver(r) => errors.push(syn::Error::new_spanned(
                r,
                "a step is a free function: it cannot take `self`",
            )),
            FnArg::Typed(pt) => {
                types.push(&pt.ty);
                args.push(pt);
            }
        }
    }
    errors.finish(())?;
    let mut errors = Errors::default();
    let n = names.len();
    let k = types.len();
    let is_other_ref = |ty: &Type| matches!(ty, Type::Reference(_)) && !is_str_ref(ty);
    let fits = |shape: &Shape| {
        let used = usize::from(shape.state) + shape.captures + usize::from(shape.trailing);
        if used != k {
            return false;
        }
        let first_capture = usize::from(shape.state);
        let captures = &types[first_capture..first_capture + shape.captures];
        let first_is_ref = types.first().is_some_and(|t| is_other_ref(t));
        // A reference first is always the state, unless it is the one
        // trailing parameter.
        let ref_first_ok = !first_is_ref || shape.state || (k == 1 && shape.trailing);
        let trailing_ok = !shape.trailing
            || types.last().is_some_and(|t| {
                !is_str_ref(t) && !matches!(t, Type::Reference(r) if r.mutability.is_some())
            });
        captures.iter().all(|t| !is_other_ref(t)) && ref_first_ok && trailing_ok
    };
    let mut shapes: Vec<Shape> = Vec::new();
    for captures in [Some(n), (sensor && n > 0).then_some(0)]
        .into_iter()
        .flatten()
    {
        for state in [false, true] {
            for trailing in [false, true] {
                let shape = Shape {
                    state,
                    captures,
                    trailing,
                };
                if fits(&shape) {
                    shapes.push(shape);
                }
            }
        }
    }
    let written = types.last().and_then(|t| TrailingKind::written(t));
    // All captures before none; then an attachment only where it is
    // written as one of ours.
    let chosen = shapes
        .iter()
        .filter(|s| s.captures == shapes[0].captures)
        .find(|s| s.trailing == written.is_some())
        .or(shapes.first())
        .copied();
    // Only an attachment fits last, but it is not written as one: an
    // arity error below.
    let trailing_kind = chosen.filter(|s| s.trailing).and(written);
    let shape = match chosen {
        Some(shape) if !shape.trailing || trailing_kind.is_some() => shape,
        _ => return Err(arity_error(sig, expression, names, &types, &args, written)),
    };
    let trailing = trailing_kind.zip(types.last()).map(|(kind, ty)| Trailing {
        kind,
        ty: strip_ref(ty).clone(),
        by_ref: matches!(ty, Type::Reference(_)),
    });
    // varar's `Table`, `DocString` or `Row` taken by value as the state:
    // an attachment out of place (a user's own type of that name taken by
    // value as a stimulus's state returns the next state).
    if shape.state
        && let Some(kind) = types.first().and_then(|t| TrailingKind::written(t))
        && !matches!(types[0], Type::Reference(_))
        && (sensor || is_unit_output(&sig.output))
    {
        errors.push(not_last(types[0], kind));
    }
    errors.finish(())?;
    let first_capture = usize::from(shape.state);
    let state = if shape.state {
        match types[0] {
            Type::Reference(r) if r.mutability.is_some() => State::Mut((*r.elem).clone()),
            Type::Reference(r) => State::Shared((*r.elem).clone()),
            other => State::Owned(other.clone()),
        }
    } else {
        State::None
    };
    Ok(Layout {
        state,
        captures: types[first_capture..first_capture + shape.captures]
            .iter()
            .map(|t| (*t).clone())
            .collect(),
        trailing,
    })
}

fn not_last(ty: &Type, kind: TrailingKind) -> syn::Error {
    syn::Error::new_spanned(
        ty,
        format!(
            "a `{}` must be the last parameter of a step (after the state and the captures)",
            kind.name()
        ),
    )
}

/// The expression's parameters and the function's do not fit together.
fn arity_error(
    sig: &Signature,
    expression: &str,
    names: &[String],
    types: &[&Type],
    args: &[&syn::PatType],
    written: Option<TrailingKind>,
) -> syn::Error {
    let n = names.len();
    // Read the function as the user most likely meant it: a reference
    // first is the state, a `Table`, `DocString` or `Row` last the
    // attachment.
    let trailing = usize::from(written.is_some());
    let rest = &types[..types.len() - trailing];
    let first_is_state = match rest.first() {
        Some(Type::Reference(_)) => !is_str_ref(rest[0]),
        Some(_) => rest.len() == n + 1,
        None => false,
    };
    let taken = rest.len() - usize::from(first_is_state);
    if let Some(ty) = rest.iter().find(|t| TrailingKind::written(t).is_some())
        && let Some(kind) = TrailingKind::written(ty)
    {
        return not_last(ty, kind);
    }
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
        "the expression `{expression}` has {n} parameter(s){listed} but the function takes {taken} argument(s) for them{state_note}\n\
         help: a step takes its state first (`&S`, `&mut S` or `S`, or none), then one argument per `{{…}}` in order, then a trailing `Table`, `DocString` or `Row`"
    );
    let capture_args = &args[usize::from(first_is_state)..args.len() - trailing];
    if capture_args.is_empty() {
        syn::Error::new(inputs_span(sig), message)
    } else {
        // Spans from the first to the last capture argument.
        syn::Error::new_spanned(quote::quote!(#(#capture_args),*), message)
    }
}

/// The span of the parameter list (the parentheses when it is empty).
pub(crate) fn inputs_span(sig: &Signature) -> proc_macro2::Span {
    if sig.inputs.is_empty() {
        sig.paren_token.span.join()
    } else {
        sig.inputs.span()
    }
}

/// Whether a function returns nothing (`()` or no return type).
fn is_unit_output(ret: &ReturnType) -> bool {
    match ret {
        ReturnType::Default => true,
        ReturnType::Type(_, ty) => is_unit(ty),
    }
}

/// A return type, seen through an optional `Result<_, E>`.
#[derive(Clone)]
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
