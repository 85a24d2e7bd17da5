//! Go to definition, hover and find references (pure).
//!
//! - From a matched sentence to its step function's name; from a parameter
//!   of a custom type to its parse function (a built-in type has no source:
//!   the step function is the answer there too).
//! - Hover on a sentence: the role and expression, the Rust signature, the
//!   doc comment, where it is, and the state it works on (with the
//!   `#[varar::state]` factory that builds it, if there is one). Hover on
//!   a parameter: its type, the argument that receives it and the value.
//! - Find references from a step function (asked anywhere from its
//!   attribute to the end of its signature): every sentence of the
//!   project's oaths that the step matched.

use std::path::PathBuf;

use varar_runner::internal::source::Span;
use varar_runner::internal::step::{ArgValue, Role};

use super::analysis::{Analysis, StepUse};
use super::index::StepIndex;
use super::syntax::{HookKind, StateMode};

/// A place in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// The file.
    pub path: PathBuf,
    /// The range.
    pub span: Span,
}

/// Where the step or custom parameter type under `offset` is defined.
pub fn definition(analysis: &Analysis, index: &StepIndex, offset: u32) -> Option<Target> {
    if let Some(target) = reference_definition(analysis, offset) {
        return Some(target);
    }
    let (step, param) = analysis.step_at(offset)?;
    if let Some(p) = param.and_then(|i| step.params.get(i))
        && let Some((file, item)) = index.parameter(&p.parameter_type)
    {
        return Some(Target {
            path: file.path.clone(),
            span: item.function.name_span,
        });
    }
    let (file, item) = index.step(step.step)?;
    Some(Target {
        path: file.path.clone(),
        span: item.function.name_span,
    })
}

/// Hook for reuse by link (issue 11): from a link-only paragraph to the
/// heading of the section it names (`path#slug`), in this or another oath.
/// The document model has no reference blocks yet.
pub fn reference_definition(_analysis: &Analysis, _offset: u32) -> Option<Target> {
    None
}

/// Markdown for the step or parameter under `offset`, and the range it
/// describes.
pub fn hover(analysis: &Analysis, index: &StepIndex, offset: u32) -> Option<(String, Span)> {
    let (step, param) = analysis.step_at(offset)?;
    match param {
        Some(i) => Some((param_hover(step, i, index)?, step.params.get(i)?.span)),
        None => Some((step_hover(step, index)?, step.span)),
    }
}

fn step_hover(step: &StepUse, index: &StepIndex) -> Option<String> {
    let (file, item) = index.step(step.step)?;
    let role = match item.role {
        Role::Stimulus => "stimulus",
        Role::Sensor => "sensor",
    };
    let mut out = format!(
        "**{role}** `{}`\n\n```rust\n{}\n```\n",
        item.expression, item.function.signature
    );
    if !item.function.docs.is_empty() {
        out.push('\n');
        out.push_str(&item.function.docs);
        out.push('\n');
    }
    if let Some(state) = &item.state {
        let how = match state.mode {
            StateMode::Shared => "reads",
            StateMode::Mut => "changes",
            StateMode::Owned => "replaces",
        };
        out.push_str(&format!("\n{how} the state `{}`", state.type_name));
        match hook_for(index, HookKind::State, &state.type_name) {
            Some((path, line, name)) => {
                out.push_str(&format!(", built by `{name}` ({path}:{line})"));
            }
            None if hook_for(index, HookKind::Resource, &state.type_name).is_some() => {
                out.push_str(" (a run-wide resource)");
            }
            None => out.push_str(", which starts from `Default` in every example"),
        }
        out.push('\n');
    }
    out.push_str(&format!("\n*{}:{}*", file.label, item.function.line));
    Some(out)
}

/// The hook of `kind` for a type: its file label, line and function name.
fn hook_for(index: &StepIndex, kind: HookKind, type_name: &str) -> Option<(String, u32, String)> {
    index.files().find_map(|f| {
        f.items
            .hooks
            .iter()
            .find(|h| h.kind == kind && h.type_name.as_deref() == Some(type_name))
            .map(|h| (f.label.clone(), h.function.line, h.function.name.clone()))
    })
}

fn param_hover(step: &StepUse, i: usize, index: &StepIndex) -> Option<String> {
    let param = step.params.get(i)?;
    let (_, item) = index.step(step.step)?;
    let mut out = format!(
        "**parameter** `{{{}}}` of `{}`\n\nvalue: `{}`",
        param.parameter_type,
        item.expression,
        match &param.value {
            ArgValue::Custom { .. } => format!("{}` → `{}", param.raw, value_text(&param.value)),
            other => value_text(other),
        }
    );
    if let Some(arg) = item.captures.get(i) {
        out.push_str(&format!(
            "\n\nreceived as `{}: {}`",
            arg.name, arg.type_name
        ));
    }
    if let Some((file, p)) = index.parameter(&param.parameter_type) {
        out.push_str(&format!(
            "\n\ncustom type, regex `{}`, parsed by `{}`{} ({}:{})",
            p.regex,
            p.function.name,
            p.value_type
                .as_deref()
                .map(|t| format!(" into `{t}`"))
                .unwrap_or_default(),
            file.label,
            p.function.line
        ));
    } else {
        out.push_str("\n\nbuilt-in type");
    }
    Some(out)
}

/// A parameter's value as the step receives it.
pub fn value_text(value: &ArgValue) -> String {
    match value {
        ArgValue::Int(s) | ArgValue::Float(s) => s.clone(),
        ArgValue::Text(s) => format!("{s:?}"),
        ArgValue::Custom { groups, .. } => {
            let groups: Vec<String> = groups
                .iter()
                .map(|g| {
                    g.as_deref()
                        .map_or("(absent)".to_string(), |g| format!("{g:?}"))
                })
                .collect();
            format!("parse({})", groups.join(", "))
        }
    }
}

/// Every sentence of `analyses` that registry step `step` matched.
pub fn references<'a>(step: usize, analyses: &[&'a Analysis]) -> Vec<(&'a str, Span)> {
    analyses
        .iter()
        .flat_map(|a| {
            a.steps
                .iter()
                .filter(move |s| s.step == step)
                .map(move |s| (a.oath_path.as_str(), s.span))
        })
        .collect()
}

#[cfg(test)]
mod tests;
