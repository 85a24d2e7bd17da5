//! Steps without compiling (pure): one Rust source text in, the step
//! definitions it declares out, read with `syn` the way the macros read
//! them (spec 50 §50.2–50.3, spec 60 §60.4–60.6).
//!
//! Collected: every `#[stimulus("…")]`, `#[sensor("…")]`,
//! `#[parameter(name = "…", regex = "…")]` and `#[varar::resource]`,
//! `#[varar::state]`, `#[varar::teardown]` on a function at module level or
//! inside an inline `mod { … }`, with its expression, function, signature,
//! doc comment and source ranges. The attribute may be written bare
//! (`#[stimulus]`, imported from `varar`) or with the `varar::` path. A
//! malformed attribute is skipped: the compiler reports it, and the macro
//! registers nothing either.
//!
//! Which argument is the state follows the macros' rule: after removing a
//! trailing `Table`, `DocString` or `Row`, the first argument is the state
//! when it is a reference other than `&str`, or when there is exactly one
//! argument more than the expression has parameters.

use proc_macro2::Span as TokenSpan;
use syn::spanned::Spanned;
use syn::{Attribute, FnArg, ItemFn, LitStr, Type};
use varar_core::registry::{Role, Trailing};
use varar_core::source::{Source, Span};

/// Everything one Rust file declares for Varar.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FileItems {
    /// `#[stimulus]` and `#[sensor]` functions, in source order.
    pub steps: Vec<StepItem>,
    /// `#[parameter]` functions, in source order.
    pub parameters: Vec<ParameterItem>,
    /// `#[varar::resource]`, `#[varar::state]` and `#[varar::teardown]`.
    pub hooks: Vec<HookItem>,
}

impl FileItems {
    /// Whether the file declares anything for Varar (a "step file").
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty() && self.parameters.is_empty() && self.hooks.is_empty()
    }
}

/// The function an attribute sits on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    /// Its name.
    pub name: String,
    /// The name's range (where "go to definition" lands).
    pub name_span: Span,
    /// From the attribute to the end of the signature: where "find
    /// references" is asked from.
    pub head_span: Span,
    /// From the attribute to the closing brace of its body: the lines
    /// whose change changes the step (`cargo varar test --since`).
    pub span: Span,
    /// The signature as written (`async fn put(till: &mut Till, n: i64)`).
    pub signature: String,
    /// The doc comment, one line per `///` line, without the markers.
    pub docs: String,
    /// 1-based line of the name, as `line!()` gives it to the registry.
    pub line: u32,
    /// 1-based column of the name, as `column!()` gives it.
    pub column: u32,
}

/// How a step takes its state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateMode {
    /// `&S`.
    Shared,
    /// `&mut S`.
    Mut,
    /// `S` by value.
    Owned,
}

/// A step's state parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateParam {
    /// How it is taken.
    pub mode: StateMode,
    /// The type without the reference, as written (`Till`).
    pub type_name: String,
}

/// One argument of a step function that receives a capture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaptureArg {
    /// The pattern as written (`quantity`, `_change`).
    pub name: String,
    /// The type as written (`i64`, `Amount`).
    pub type_name: String,
}

/// A `#[stimulus]` or `#[sensor]` function.
#[derive(Clone, Debug, PartialEq)]
pub struct StepItem {
    /// Stimulus or sensor.
    pub role: Role,
    /// The expression (the literal's value).
    pub expression: String,
    /// The string literal's range.
    pub expression_span: Span,
    /// The function.
    pub function: Function,
    /// Its state parameter, if any.
    pub state: Option<StateParam>,
    /// The arguments that receive the captures, in order (a sensor may
    /// leave them out).
    pub captures: Vec<CaptureArg>,
    /// What it takes after its captures.
    pub trailing: Trailing,
}

/// A `#[parameter]` function: a custom parameter type (spec 20 §20.4).
#[derive(Clone, Debug, PartialEq)]
pub struct ParameterItem {
    /// The name used in expressions (`money`).
    pub name: String,
    /// The regex, as the literal's value.
    pub regex: String,
    /// The name literal's range.
    pub name_span: Span,
    /// The parse function.
    pub function: Function,
    /// The type it returns (through a `Result`), as written (`Amount`).
    pub value_type: Option<String>,
}

/// Which lifecycle attribute (spec 60).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HookKind {
    /// `#[varar::resource]`: built once per run.
    Resource,
    /// `#[varar::state]`: builds a per-example state.
    State,
    /// `#[varar::teardown]`: runs after a state or resource.
    Teardown,
}

impl HookKind {
    /// The attribute's name.
    pub fn as_str(self) -> &'static str {
        match self {
            HookKind::Resource => "resource",
            HookKind::State => "state",
            HookKind::Teardown => "teardown",
        }
    }
}

/// A `#[varar::resource]`, `#[varar::state]` or `#[varar::teardown]` function.
#[derive(Clone, Debug, PartialEq)]
pub struct HookItem {
    /// Which attribute.
    pub kind: HookKind,
    /// The function.
    pub function: Function,
    /// The type it builds (resource, state) or tears down, as written.
    pub type_name: Option<String>,
}

/// A Rust file that does not parse: its first error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// syn's message.
    pub message: String,
    /// Where.
    pub span: Span,
}

/// Which attribute an item carries.
enum Attr {
    Step(Role),
    Parameter,
    Hook(HookKind),
}

/// Collect the Varar items of one Rust source text.
pub fn collect(text: &str) -> Result<FileItems, SyntaxError> {
    // syn's own BOM stripping would shift every offset; strip it here and
    // shift back.
    let (body, shift) = match text.strip_prefix('\u{feff}') {
        Some(rest) => (rest, '\u{feff}'.len_utf8()),
        None => (text, 0),
    };
    let source = Source::new(text);
    let reader = Reader {
        text,
        source: &source,
        shift,
    };
    let parsed = syn::parse_str::<syn::File>(body);
    let result = match parsed {
        Ok(file) => {
            let mut items = FileItems::default();
            reader.items(&file.items, &mut items);
            Ok(items)
        }
        Err(e) => {
            let span = reader.span(e.span());
            Err(SyntaxError {
                message: e.to_string(),
                span,
            })
        }
    };
    // proc-macro2 keeps every parsed text in a thread-local map for the
    // life of the thread; a long-running server must free it. Every span
    // was turned into a position above.
    proc_macro2::extra::invalidate_current_thread_spans();
    result
}

/// Whether the text of a test target's file has a `fn main` that hands
/// the run to Varar (`varar::run()`, or a `varar::Runner` it runs): the
/// target `cargo test` runs the oaths with.
pub fn calls_varar_run(text: &str) -> bool {
    let Ok(file) = syn::parse_str::<syn::File>(text.strip_prefix('\u{feff}').unwrap_or(text))
    else {
        proc_macro2::extra::invalidate_current_thread_spans();
        return false;
    };
    let body = file.items.iter().find_map(|item| match item {
        syn::Item::Fn(f) if f.sig.ident == "main" => Some(f.block.span().byte_range()),
        _ => None,
    });
    proc_macro2::extra::invalidate_current_thread_spans();
    let shift = text.len() - text.strip_prefix('\u{feff}').unwrap_or(text).len();
    let Some(body) = body.and_then(|r| text.get(r.start + shift..r.end + shift)) else {
        return false;
    };
    let Ok(tokens) = body.parse::<proc_macro2::TokenStream>() else {
        return false;
    };
    let mut words = Vec::new();
    flatten(tokens, &mut words);
    proc_macro2::extra::invalidate_current_thread_spans();
    let path = |name: &str| {
        words
            .windows(4)
            .any(|w| w[0] == "varar" && w[1] == ":" && w[2] == ":" && w[3] == name)
    };
    let runs = words
        .windows(2)
        .any(|w| w[0] == "." && (w[1] == "run" || w[1] == "run_with"));
    path("run") || path("Runner") && runs
}

/// The identifiers and punctuation of `tokens`, groups opened (literals,
/// and so the text of strings, left out).
fn flatten(tokens: proc_macro2::TokenStream, out: &mut Vec<String>) {
    for tree in tokens {
        match tree {
            proc_macro2::TokenTree::Group(g) => flatten(g.stream(), out),
            proc_macro2::TokenTree::Ident(i) => out.push(i.to_string()),
            proc_macro2::TokenTree::Punct(p) => out.push(p.as_char().to_string()),
            proc_macro2::TokenTree::Literal(_) => {}
        }
    }
}

struct Reader<'a> {
    text: &'a str,
    source: &'a Source<'a>,
    shift: usize,
}

impl Reader<'_> {
    fn items(&self, items: &[syn::Item], out: &mut FileItems) {
        for item in items {
            match item {
                syn::Item::Fn(f) => self.function_item(f, out),
                syn::Item::Mod(m) => {
                    if let Some((_, inner)) = &m.content {
                        self.items(inner, out);
                    }
                }
                _ => {}
            }
        }
    }

    fn function_item(&self, f: &ItemFn, out: &mut FileItems) {
        for attr in &f.attrs {
            let Some(kind) = attr_kind(attr) else {
                continue;
            };
            match kind {
                Attr::Step(role) => {
                    if let Some(step) = self.step(role, attr, f) {
                        out.steps.push(step);
                    }
                }
                Attr::Parameter => {
                    if let Some(param) = self.parameter(attr, f) {
                        out.parameters.push(param);
                    }
                }
                Attr::Hook(kind) => out.hooks.push(HookItem {
                    kind,
                    function: self.function(attr, f),
                    type_name: hook_type(kind, f).map(|t| self.slice(t.span())),
                }),
            }
        }
    }

    fn step(&self, role: Role, attr: &Attribute, f: &ItemFn) -> Option<StepItem> {
        let literal: LitStr = attr.parse_args().ok()?;
        let expression = literal.value();
        let names = varar_core::expression::Expression::parse(&expression)
            .map(|e| e.parameter_names().len())
            .unwrap_or(0);
        let (state, captures) = self.layout(f, names);
        let trailing = match f.sig.inputs.last() {
            Some(FnArg::Typed(t)) => match last_ident(&t.ty).as_deref() {
                Some("Table") => Trailing::Table,
                Some("DocString") => Trailing::DocString,
                Some("Row") => Trailing::Row,
                _ => Trailing::None,
            },
            _ => Trailing::None,
        };
        Some(StepItem {
            role,
            expression,
            expression_span: self.span(literal.span()),
            function: self.function(attr, f),
            state,
            captures,
            trailing,
        })
    }

    fn parameter(&self, attr: &Attribute, f: &ItemFn) -> Option<ParameterItem> {
        let mut name = None;
        let mut regex = None;
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("name") {
                name = Some(meta.value()?.parse::<LitStr>()?);
            } else if meta.path.is_ident("regex") {
                regex = Some(meta.value()?.parse::<LitStr>()?);
            }
            Ok(())
        })
        .ok()?;
        let (name, regex) = (name?, regex?);
        Some(ParameterItem {
            name: name.value(),
            regex: regex.value(),
            name_span: self.span(name.span()),
            function: self.function(attr, f),
            value_type: returned(&f.sig.output).map(|t| self.slice(t.span())),
        })
    }

    fn function(&self, attr: &Attribute, f: &ItemFn) -> Function {
        let name_span = self.span(f.sig.ident.span());
        let head = self.byte_range(attr.span()).start..self.byte_range(f.sig.span()).end;
        let whole = head.start..self.byte_range(f.block.span()).end;
        let (line, column) = {
            let start = f.sig.ident.span().start();
            (start.line as u32, start.column as u32 + 1)
        };
        Function {
            name: f.sig.ident.to_string(),
            name_span,
            head_span: self.source.span_of_bytes(head.start, head.end),
            span: self.source.span_of_bytes(whole.start, whole.end),
            signature: self.slice(f.sig.span()),
            docs: docs(&f.attrs),
            line,
            column,
        }
    }

    /// The state and the capture arguments, by the macros' rule.
    fn layout(&self, f: &ItemFn, params: usize) -> (Option<StateParam>, Vec<CaptureArg>) {
        let mut args: Vec<&syn::PatType> = f
            .sig
            .inputs
            .iter()
            .filter_map(|a| match a {
                FnArg::Typed(t) => Some(t),
                FnArg::Receiver(_) => None,
            })
            .collect();
        if args.last().is_some_and(|a| is_trailing(&a.ty)) {
            args.pop();
        }
        let first_is_state = match args.first().map(|a| &*a.ty) {
            Some(Type::Reference(r)) => !is_str(&r.elem),
            Some(_) => args.len() == params + 1,
            None => false,
        };
        let state = if first_is_state {
            args.first().map(|a| match &*a.ty {
                Type::Reference(r) => StateParam {
                    mode: if r.mutability.is_some() {
                        StateMode::Mut
                    } else {
                        StateMode::Shared
                    },
                    type_name: self.slice(r.elem.span()),
                },
                other => StateParam {
                    mode: StateMode::Owned,
                    type_name: self.slice(other.span()),
                },
            })
        } else {
            None
        };
        let captures = args[usize::from(first_is_state)..]
            .iter()
            .map(|a| CaptureArg {
                name: self.slice(a.pat.span()),
                type_name: self.slice(a.ty.span()),
            })
            .collect();
        (state, captures)
    }

    fn byte_range(&self, span: TokenSpan) -> std::ops::Range<usize> {
        let r = span.byte_range();
        (r.start + self.shift).min(self.text.len())..(r.end + self.shift).min(self.text.len())
    }

    fn span(&self, span: TokenSpan) -> Span {
        let r = self.byte_range(span);
        self.source.span_of_bytes(r.start, r.end)
    }

    fn slice(&self, span: TokenSpan) -> String {
        let r = self.byte_range(span);
        self.text.get(r).unwrap_or_default().to_string()
    }
}

fn attr_kind(attr: &Attribute) -> Option<Attr> {
    let segments: Vec<String> = attr
        .path()
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    let name = match segments.as_slice() {
        [name] => name,
        [krate, name] if krate == "varar" => name,
        _ => return None,
    };
    Some(match name.as_str() {
        "stimulus" => Attr::Step(Role::Stimulus),
        "sensor" => Attr::Step(Role::Sensor),
        "parameter" => Attr::Parameter,
        "resource" => Attr::Hook(HookKind::Resource),
        "state" => Attr::Hook(HookKind::State),
        "teardown" => Attr::Hook(HookKind::Teardown),
        _ => return None,
    })
}

/// The `///` lines (`#[doc = "…"]`), each without its leading space.
fn docs(attrs: &[Attribute]) -> String {
    let lines: Vec<String> = attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .filter_map(|a| match &a.meta {
            syn::Meta::NameValue(nv) => match &nv.value {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) => Some(s.value()),
                _ => None,
            },
            _ => None,
        })
        .map(|line| line.strip_prefix(' ').unwrap_or(&line).to_string())
        .collect();
    lines.join("\n")
}

fn last_ident(ty: &Type) -> Option<String> {
    match ty {
        Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        Type::Reference(r) => last_ident(&r.elem),
        Type::Paren(p) => last_ident(&p.elem),
        Type::Group(g) => last_ident(&g.elem),
        _ => None,
    }
}

fn is_trailing(ty: &Type) -> bool {
    matches!(
        last_ident(ty).as_deref(),
        Some("Table" | "DocString" | "Row")
    )
}

fn is_str(ty: &Type) -> bool {
    matches!(ty, Type::Path(p) if p.qself.is_none() && p.path.is_ident("str"))
}

/// `T` of `-> T` or `-> Result<T, E>`; `None` for no return or `()`.
fn returned(output: &syn::ReturnType) -> Option<&Type> {
    let syn::ReturnType::Type(_, ty) = output else {
        return None;
    };
    let ty = &**ty;
    if let Type::Path(p) = ty
        && let Some(last) = p.path.segments.last()
        && last.ident == "Result"
        && let syn::PathArguments::AngleBracketed(args) = &last.arguments
        && let Some(syn::GenericArgument::Type(ok)) = args.args.first()
    {
        return Some(ok).filter(|t| !is_unit(t));
    }
    Some(ty).filter(|t| !is_unit(t))
}

fn is_unit(ty: &Type) -> bool {
    matches!(ty, Type::Tuple(t) if t.elems.is_empty())
}

/// The type a hook builds (its return) or tears down (its one argument).
fn hook_type(kind: HookKind, f: &ItemFn) -> Option<&Type> {
    match kind {
        HookKind::Resource | HookKind::State => returned(&f.sig.output),
        HookKind::Teardown => f.sig.inputs.iter().find_map(|a| match a {
            FnArg::Typed(t) => Some(&*t.ty),
            FnArg::Receiver(_) => None,
        }),
    }
}

#[cfg(test)]
mod tests;
