//! Go to definition, hover and find references (pure).
//!
//! - From a matched sentence to its step function's name; from a parameter
//!   of a custom type to its parse function (a built-in type has no source:
//!   the step function is the answer there too).
//! - Hover on a sentence: the role and expression, the Rust signature, the
//!   doc comment, where it is, and the state it works on (with the
//!   `#[varar::state]` factory that builds it, if there is one), then the
//!   tags of the example it is in (issue 38, [`varar_core::tags`]). Hover on
//!   a parameter: its type, the argument that receives it and the value.
//! - Find references from a step function (asked anywhere from its
//!   attribute to the end of its signature): every sentence of the
//!   project's oaths that the step matched, at the document it is written
//!   in (a sentence spliced by link is found in its own section, once).
//! - From a reference link (spec 70): definition goes to the linked
//!   section's heading (a whole-file link: the document's start; an
//!   ambiguous anchor: every heading it names); hover says where it points
//!   and how many steps it splices, or why none.

use std::path::{Path, PathBuf};

use varar_core::source::{Source, Span};
use varar_core::tags::TagIndex;
use varar_core::workspace::Document;
use varar_core::{expression::ArgValue, registry::Role};

use crate::analysis::oaths::Oaths;
use crate::analysis::step_index::StepIndex;
use crate::analysis::syntax::{HookKind, StateMode};
use crate::analysis::{Analysis, Contribution, LinkUse, PlanContext, StepUse, contribution};

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

/// From the reference link under `offset` to the heading of the section it
/// names, in the oath text planning sees (`root` is the project's): the
/// document's start for a whole-file link, every named heading for an
/// ambiguous anchor, nothing when the oath or the heading does not exist.
pub fn reference_definition(
    analysis: &Analysis,
    oaths: &Oaths,
    root: &Path,
    offset: u32,
) -> Option<Vec<Target>> {
    let link = analysis.link_at(offset)?;
    let reference = &link.reference;
    let text = oaths.text(&reference.path)?;
    let path = root.join(&reference.path);
    if reference.is_whole_file() {
        let span = Source::new(text).span(0, 0);
        return Some(vec![Target { path, span }]);
    }
    let document = Document::parse(&reference.path, text);
    let targets: Vec<Target> = document
        .headings_named(&reference.slug)
        .into_iter()
        .map(|h| Target {
            path: path.clone(),
            span: h.span,
        })
        .collect();
    (!targets.is_empty()).then_some(targets)
}

/// How many spliced steps a link's hover lists.
const MAX_SPLICED: usize = 20;

/// Markdown for the reference link under `offset`: where it points and
/// what it splices into the example it stands in.
pub fn link_hover(
    analysis: &Analysis,
    context: &PlanContext<'_>,
    offset: u32,
) -> Option<(String, Span)> {
    let link = analysis.link_at(offset)?;
    let mut out = format!("**reference** {}", destination(link, context.oaths));
    out.push_str("\n\n");
    match contribution(context, &analysis.oath_path, link) {
        Contribution::Steps(steps) => {
            let s = if steps.len() == 1 { "" } else { "s" };
            out.push_str(&format!("splices {} step{s}:\n", steps.len()));
            for step in steps.iter().take(MAX_SPLICED) {
                out.push_str(&format!(
                    "\n- `{}` ({}:{})",
                    step.text.replace('`', "'"),
                    step.doc_path,
                    step.line
                ));
            }
            if steps.len() > MAX_SPLICED {
                out.push_str(&format!("\n- … and {} more", steps.len() - MAX_SPLICED));
            }
        }
        Contribution::Nothing(why) => {
            out.push_str(&format!("splices no step: {why}"));
        }
        Contribution::Unknown => out.push_str("splices the steps of that section"),
    }
    if link.consumed {
        out.push_str(
            "\n\nThis link stands in a section that a link names: it is resolved where \
             that section is spliced, not in this oath.",
        );
    }
    Some((out, link.span))
}

/// Where a link points, in words.
fn destination(link: &LinkUse, oaths: &Oaths) -> String {
    let reference = &link.reference;
    let Some(text) = oaths.text(&reference.path) else {
        return format!(
            "to `{}`, which is not an oath of this project",
            reference.path
        );
    };
    if reference.is_whole_file() {
        return format!("to the whole of `{}`", reference.path);
    }
    let document = Document::parse(&reference.path, text);
    let headings = document.headings_named(&reference.slug);
    match headings.as_slice() {
        [] => format!(
            "to `{}`, which has no heading with the anchor `#{}`",
            reference.path, reference.slug
        ),
        [h] => format!(
            "to the section \"{}\" of `{}` (line {})",
            h.text, reference.path, h.span.start_line
        ),
        many => format!(
            "to `{}#{}`, an anchor {} headings have",
            reference.path,
            reference.slug,
            many.len()
        ),
    }
}

/// Markdown for the step or parameter under `offset`, and the range it
/// describes.
pub fn hover(analysis: &Analysis, index: &StepIndex, offset: u32) -> Option<(String, Span)> {
    let (step, param) = analysis.step_at(offset)?;
    match param {
        Some(i) => Some((param_hover(step, i, index)?, step.params.get(i)?.span)),
        None => {
            let mut markdown = step_hover(step, index)?;
            let tags = TagIndex::of(&analysis.text);
            let tags = tags.at(step.span.start_line);
            if !tags.is_empty() {
                let tags: Vec<String> = tags.iter().map(|t| format!("`{t}`")).collect();
                markdown.push_str(&format!("\n\nthe example is tagged {}", tags.join(" ")));
            }
            Some((markdown, step.span))
        }
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
    if !step.reused_by.is_empty() {
        out.push_str(&format!(
            "\nspliced by link into {}\n",
            step.reused_by
                .iter()
                .map(|o| format!("`{o}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
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
        match &*param.value {
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

/// Every sentence of `analyses` that registry step `step` matched, at the
/// document it is written in (a spliced step at its own document), once
/// per document and span, in the order found.
pub fn references(step: usize, analyses: &[&Analysis]) -> Vec<(String, Span)> {
    let mut out: Vec<(String, Span)> = Vec::new();
    for a in analyses {
        let own = a
            .steps
            .iter()
            .filter(|s| s.step == step)
            .map(|s| (a.oath_path.clone(), s.span));
        let spliced = a
            .spliced
            .iter()
            .filter(|s| s.step.step == step)
            .map(|s| (s.doc_path.clone(), s.step.span));
        for found in own.chain(spliced) {
            if !out.contains(&found) {
                out.push(found);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
