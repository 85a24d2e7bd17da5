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
//!   the result is of the text as it is now ([`varar_core::verdict::current::drawn`],
//!   the rule every consumer draws by: the oath, and every document a
//!   version-2 result names, still have the recorded `sourceHash` and the
//!   SHA-256 the latest run read). A failure whose `docPath` names another
//!   document is shown in that document.
//! - The latest run's standing, as the gate reads it ([`varar_core::verdict::standing`],
//!   issue 34): a failure the latest run does not vouch for (its example
//!   did not end in it: the run was killed, or did not run it, or cannot
//!   be judged) is an earlier run's, shown as information with the reason,
//!   never as a current error; and an oath that holds such a result gets
//!   one `run-standing` warning at its top saying what the latest run is.
//!
//! - The notices of its plan (issue 37), at their spans, each with its
//!   fix: a quirk of planning (`dropped-steps`, `ignored-error-fence`,
//!   `header-bound-without-rows`, `table-attached-elsewhere`) as a warning,
//!   and `checks-nothing`, an example with nothing to compare, as a hint.
//!   `cargo test` passes them all.
//!
//! On a Rust file: `rust-syntax` when it does not parse (its last good
//! steps stay in use), and `invalid-step` for a definition the registry
//! refuses.
//!
//! On `varar.config.json`: `duplicate-key`, a warning at each key written
//! again (the last value is used, as by every tool that reads the config).
//!
//! Reference diagnostics (`reference-not-found`, `reference-empty`,
//! `ambiguous-anchor`, `reference-cycle`, spec 70) are plan diagnostics
//! with the engine's codes and texts. A diagnostic lies in the document
//! that holds its span: a problem in a section that another oath splices
//! (or at a nested link) is raised by that oath's plan but shown on the
//! section's document, and only there. Each is shown once per document,
//! span and code (spec 70 §70.6.6), however many links reach it: see
//! [`located_diagnostics`].

use std::collections::HashSet;

use lsp_types::{Diagnostic, DiagnosticSeverity, NumberOrString};
use varar_core::config::ConfigWarning;
use varar_core::plan::{Diagnostic as PlanDiagnostic, Notice};
use varar_core::results::{ResultFailure, Status};
use varar_core::source::Source;

use super::actions::review::observed_data;
use super::position::range;
use crate::analysis::Analysis;
use crate::analysis::step_index::{RefusedDefinition, StepFile};
use varar_core::review::writable_value;
use varar_core::verdict::evidence::OathEvidence;

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
    /// Why the latest run does not vouch for it (an earlier run's failure,
    /// issue 34); `None` when it is the latest run's.
    pub earlier: Option<String>,
}

pub use varar_core::verdict::current::Latest;

/// The `run-standing` warning at the top of an oath some of whose recorded
/// results (`recorded`, and `fresh`: every example of its fresh results)
/// the latest run does not vouch for.
pub fn standing_diagnostic(latest: Latest<'_>, earlier: bool) -> Option<Diagnostic> {
    let standing = latest.standing?;
    if !earlier || standing.judgeable() {
        return None;
    }
    let mut d = diagnostic(
        lsp_types::Range::default(),
        "run-standing",
        format!(
            "{}; the results of this oath that it does not vouch for are an earlier run's, \
             shown as information (run the tests again)",
            standing.headline()
        ),
    );
    d.severity = Some(DiagnosticSeverity::WARNING);
    Some(d)
}

/// Whether some result in `evidence` of the text as it is now that
/// belongs to `document` (its own oath's) holds an example the latest run
/// does not vouch for ([`varar_core::verdict::current::drawn`]).
pub fn holds_earlier(document: &str, evidence: &[OathEvidence], latest: Latest<'_>) -> bool {
    evidence.iter().any(|e| {
        let Ok((results, of_text)) = e.drawn(latest) else {
            return false;
        };
        results.oath_path == document
            && results.examples.iter().any(|x| of_text.example(x).is_err())
    })
}

/// Every diagnostic of an oath: those of its plan and of the plans that
/// splice its sections whose span lies in it, its drift, its notices, and
/// the failures recorded in it.
pub fn oath_diagnostics(analysis: &Analysis, recorded: &[RecordedFailure]) -> Vec<Diagnostic> {
    let own = analysis
        .plan
        .diagnostics
        .iter()
        .filter(|d| d.doc_path.is_none());
    let reused = analysis.reuses.diagnostics.iter().map(|(_, d)| d);
    let mut out = unique(own.chain(reused));
    out.extend(
        analysis
            .drifts
            .iter()
            .map(|d| diagnostic(range(&d.span), "drift", d.harness_message())),
    );
    out.extend(analysis.notices.iter().map(notice_diagnostic));
    let source = analysis.source();
    for r in recorded {
        out.extend(failure_diagnostics(&source, r));
    }
    out
}

/// A notice (issue 37) at its span, with its fix: a warning for a quirk of
/// planning, a hint for an example that checks nothing.
fn notice_diagnostic(notice: &Notice) -> Diagnostic {
    let severity = if notice.kind.is_quirk() {
        DiagnosticSeverity::WARNING
    } else {
        DiagnosticSeverity::HINT
    };
    Diagnostic {
        severity: Some(severity),
        ..diagnostic(
            range(&notice.span),
            notice.kind.as_str(),
            format!("{}\nfix: {}", notice.message, notice.fix),
        )
    }
}

/// The plan diagnostics of `analyses` whose span lies in `document` (an
/// oathPath other than theirs), once per span and code: what is shown on a
/// document the editor has not opened.
pub fn located_diagnostics(document: &str, analyses: &[&Analysis]) -> Vec<Diagnostic> {
    unique(
        analyses
            .iter()
            .flat_map(|a| &a.plan.diagnostics)
            .filter(|d| d.doc_path.as_deref() == Some(document)),
    )
}

/// Plan diagnostics as the protocol's, the first of each span and code
/// kept.
fn unique<'a>(diagnostics: impl Iterator<Item = &'a PlanDiagnostic>) -> Vec<Diagnostic> {
    let mut seen: HashSet<(u32, u32, &str)> = HashSet::new();
    diagnostics
        .filter(|d| seen.insert((d.span.start_offset, d.span.end_offset, d.code.as_str())))
        .map(|d| diagnostic(range(&d.span), d.code.as_str(), d.message.clone()))
        .collect()
}

/// The failures of results of the texts as they are now that belong to
/// `document` (an oathPath): its own oath's, and those of other oaths whose
/// `docPath` names it; each marked when the latest run does not vouch for
/// it ([`varar_core::verdict::current::drawn`], by example).
pub fn recorded_failures(
    document: &str,
    evidence: &[OathEvidence],
    latest: Latest<'_>,
) -> Vec<RecordedFailure> {
    let mut out = Vec::new();
    for e in evidence {
        let Ok((results, of_text)) = e.drawn(latest) else {
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
                let earlier = of_text.example(example).err();
                out.push(RecordedFailure {
                    oath_path: results.oath_path.clone(),
                    example: example.name.clone(),
                    failure: failure.clone(),
                    earlier,
                });
            }
        }
    }
    out
}

/// One failure at its place (spec 30 §30.6, rendering precedence).
fn failure_diagnostics(source: &Source<'_>, r: &RecordedFailure) -> Vec<Diagnostic> {
    let len = source.len_utf16();
    let note = match &r.earlier {
        None => format!("in example \"{}\" (last run of {})", r.example, r.oath_path),
        Some(why) => format!(
            "in example \"{}\" (an earlier run of {}, not the latest: {why})",
            r.example, r.oath_path
        ),
    };
    let found = placed_failure(source, r, len, &note);
    match &r.earlier {
        None => found,
        // Not the latest run's: information, never a current error.
        Some(_) => found
            .into_iter()
            .map(|mut d| {
                d.severity = Some(DiagnosticSeverity::INFORMATION);
                d
            })
            .collect(),
    }
}

/// The diagnostics of one failure at its place, with `note`.
fn placed_failure(
    source: &Source<'_>,
    r: &RecordedFailure,
    len: u32,
    note: &str,
) -> Vec<Diagnostic> {
    let f = &r.failure;
    let cells: Vec<Diagnostic> = f
        .cells
        .iter()
        .filter(|c| c.from <= c.to && c.to <= len)
        .map(|c| {
            let expected = source.slice_utf16(c.from, c.to);
            let mut d = diagnostic(
                range(&source.span(c.from, c.to)),
                "example-failed",
                format!("expected {expected} but was {}\n{note}", c.actual),
            );
            // The latest run's failure of a value with a text span: the
            // quick fix "write the observed value" (issue 37).
            if r.earlier.is_none()
                && writable_value(&r.oath_path, source.text(), c.from, c.to, &c.actual)
            {
                d.data = Some(observed_data(expected, &c.actual));
            }
            d
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
pub fn rust_diagnostics(file: &StepFile, problems: &[RefusedDefinition]) -> Vec<Diagnostic> {
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

/// The diagnostics of `varar.config.json`: a warning at each key it
/// writes again (at the file's start when the reader could not say where).
pub fn config_diagnostics(warnings: &[ConfigWarning]) -> Vec<Diagnostic> {
    warnings
        .iter()
        .map(|w| {
            // 1-based columns in UTF-16 units, as the protocol counts.
            let (line, start, end) = w
                .place()
                .map_or((0, 0, 0), |p| (p.line - 1, p.column - 1, p.end_column - 1));
            let at = |character| lsp_types::Position { line, character };
            Diagnostic {
                severity: Some(DiagnosticSeverity::WARNING),
                ..diagnostic(
                    lsp_types::Range::new(at(start), at(end)),
                    "duplicate-key",
                    w.reason(),
                )
            }
        })
        .collect()
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
