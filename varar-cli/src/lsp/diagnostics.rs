//! Diagnostics (pure): what `cargo test` would report, shown before it runs,
//! and what the last run recorded, while it still describes the text.
//!
//! On an oath:
//! - the plan's diagnostics, with the harness's codes and messages
//!   (`ambiguous-match`, `error-fence-without-step`, spec 20 §20.9);
//! - `drift`: a paragraph the committed `varar.lock.json` records as an
//!   example that matches no step now (spec 40 §5), with the harness's
//!   message;
//! - `example-failed`: a failure recorded in `.varar/` by the last run, at
//!   its cells, else its anchor, else its line (spec 30 §30.6), only while
//!   the result is fresh ([`crate::evidence`]: the oath, and every document
//!   a version-2 result names, still have the recorded hashes). A failure
//!   whose `docPath` names another document is shown in that document.
//!
//! On a Rust file: `rust-syntax` when it does not parse (its last good
//! steps stay in use), and `invalid-step` for a definition the registry
//! refuses.
//!
//! Reference diagnostics (`reference-not-found`, `reference-empty`,
//! `ambiguous-anchor`, `reference-cycle`, spec 70) are plan diagnostics:
//! they arrive with the engine's workspace-aware planning (issue 11) and go
//! through [`plan_diagnostics`] unchanged, except that a diagnostic whose
//! span lies in another document must be published on that document.

use lsp_types::{Diagnostic, DiagnosticSeverity, NumberOrString};
use varar_runner::internal::results::{ResultFailure, Status};
use varar_runner::internal::source::Source;

use super::analysis::Analysis;
use super::index::{Problem, StepFile};
use super::position::range;
use crate::evidence::{OathEvidence, Verdict};

/// The `source` of every diagnostic.
pub const SOURCE: &str = "varar";

/// A failure of the last run that belongs to a document, from a fresh result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedFailure {
    /// The oath whose run recorded it.
    pub oath_path: String,
    /// The example's name.
    pub example: String,
    /// The failure.
    pub failure: ResultFailure,
}

/// Every diagnostic of an oath.
pub fn oath_diagnostics(analysis: &Analysis, recorded: &[RecordedFailure]) -> Vec<Diagnostic> {
    let mut out = plan_diagnostics(analysis);
    out.extend(
        analysis
            .drifts
            .iter()
            .map(|d| diagnostic(range(&d.span), "drift", d.harness_message())),
    );
    let source = Source::new(&analysis.text);
    for r in recorded {
        out.extend(failure_diagnostics(&source, r));
    }
    out
}

/// The plan's own diagnostics.
pub fn plan_diagnostics(analysis: &Analysis) -> Vec<Diagnostic> {
    analysis
        .plan
        .diagnostics
        .iter()
        .map(|d| diagnostic(range(&d.span), d.code.as_str(), d.message.clone()))
        .collect()
}

/// The failures of fresh results that belong to `document` (an oathPath):
/// its own oath's, and those of other oaths whose `docPath` names it.
pub fn recorded_failures(document: &str, evidence: &[OathEvidence]) -> Vec<RecordedFailure> {
    let mut out = Vec::new();
    for e in evidence {
        let Verdict::Fresh(results) = e.verdict() else {
            continue;
        };
        for example in &results.examples {
            let Some(failure) = &example.failure else {
                continue;
            };
            if example.status != Status::Failed {
                continue;
            }
            let belongs = failure.doc_path.as_deref().unwrap_or(&results.oath_path);
            if belongs == document {
                out.push(RecordedFailure {
                    oath_path: results.oath_path.clone(),
                    example: example.name.clone(),
                    failure: failure.clone(),
                });
            }
        }
    }
    out
}

/// One failure at its place (spec 30 §30.6, rendering precedence).
fn failure_diagnostics(source: &Source<'_>, r: &RecordedFailure) -> Vec<Diagnostic> {
    let f = &r.failure;
    let len = source.len_utf16();
    let note = format!("in example \"{}\" (last run of {})", r.example, r.oath_path);
    let cells: Vec<Diagnostic> = f
        .cells
        .iter()
        .filter(|c| c.from <= c.to && c.to <= len)
        .map(|c| {
            let expected = source.slice_utf16(c.from, c.to);
            diagnostic(
                range(&source.span(c.from, c.to)),
                "example-failed",
                format!("expected {expected} but was {}\n{note}", c.actual),
            )
        })
        .collect();
    if !cells.is_empty() {
        return cells;
    }
    let span = match f.anchor {
        Some(a) if a.to > a.from && a.to <= len => source.span(a.from, a.to),
        _ => {
            let Some(start) = source.line_start(f.line.max(1)) else {
                return Vec::new();
            };
            let end = source
                .line_start(f.line.max(1) + 1)
                .map_or(len, |next| next - 1);
            source.span(start, end)
        }
    };
    vec![diagnostic(
        range(&span),
        "example-failed",
        format!("{}\n{note}", f.message),
    )]
}

/// The diagnostics of a Rust file: it does not parse, or the registry
/// refused some of its definitions.
pub fn rust_diagnostics(file: &StepFile, problems: &[Problem]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if let Some(e) = &file.error {
        let kept = file.items.steps.len() + file.items.parameters.len();
        out.push(diagnostic(
            range(&e.span),
            "rust-syntax",
            format!(
                "varar cannot read the steps of this file: {}; it keeps the {kept} definition(s) \
                 it read before, until the file parses again",
                e.message
            ),
        ));
    }
    out.extend(
        problems
            .iter()
            .filter(|p| p.path == file.path)
            .map(|p| diagnostic(range(&p.span), "invalid-step", p.message.clone())),
    );
    out
}

fn diagnostic(range: lsp_types::Range, code: &str, message: String) -> Diagnostic {
    Diagnostic {
        range,
        severity: Some(DiagnosticSeverity::ERROR),
        code: Some(NumberOrString::String(code.to_string())),
        source: Some(SOURCE.to_string()),
        message,
        ..Diagnostic::default()
    }
}

#[cfg(test)]
mod tests;
