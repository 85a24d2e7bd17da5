//! Reports for each kind of failing item: an example's failure, a drift, a
//! plan diagnostic.

use super::parts::{expected_actual, header};
use super::snippet::snippet;
use super::styles::Styles;
use crate::drift::{Drift, HARNESS_DRIFT_HINT};
use crate::failure::{Failure, FailureKind, PanicSite};
use crate::plan::{Diagnostic, Expectation, PlannedExample};
use crate::source::Source;
use crate::untrusted::{cut, cut_string, terminal_line, terminal_text};

/// How many failing cells are shown in full; the rest are counted.
const MAX_CELLS: usize = 12;

/// The text of a failed example: `path:line:col: message`, where a
/// panicking step panicked (and its own frames when `RUST_BACKTRACE` asked
/// for them), the source excerpt under the anchor, then one excerpt and
/// expected/actual pair per failing cell, then notes.
///
/// The failing step may have been spliced in
/// from another document by a link (spec 70 §70.4.4): `step_doc` is that
/// document's oathPath and source, and the location, the excerpts and the
/// cells are drawn from it; `oath` is the running oath, named on the last
/// line.
///
/// A source of `None` is a document whose text is not the one planned (it
/// changed during the run, issue 39): no excerpt is drawn from it, and the
/// sentences of it that matched no step are named by their line alone.
pub fn failure_in(
    oath: (&str, Option<&Source<'_>>),
    step_doc: Option<(&str, Option<&Source<'_>>)>,
    example: &PlannedExample,
    failure: &Failure,
    styles: &Styles,
) -> String {
    let (oath_path, oath_source) = oath;
    let (path, source) = step_doc.unwrap_or(oath);
    let fallback = example
        .steps
        .iter()
        .find(|s| s.doc_path.is_none())
        .map(|s| s.match_span.start_line)
        .unwrap_or(example.span.start_line);
    let message = failure.bounded_message();
    let mut out = match (failure.anchor(), step_doc) {
        (None, Some(_)) => header(oath_path, None, fallback, &message),
        (anchor, _) => header(path, anchor, fallback, &message),
    };
    out.push('\n');
    match failure {
        Failure::CellMismatch { cells, .. } => {
            for cell in cells.iter().take(MAX_CELLS) {
                if let Some(source) = source {
                    out.push_str(&snippet(source, cell.span, &cell.column, styles));
                }
                out.push_str(&expected_actual("", &cell.expected, &cell.actual, styles));
            }
            if cells.len() > MAX_CELLS {
                out.push_str(&format!(
                    "  … and {} more failing cell(s)\n",
                    cells.len() - MAX_CELLS
                ));
            }
        }
        other => {
            for extra in message.lines().skip(1) {
                out.push_str("  ");
                out.push_str(&terminal_line(extra));
                out.push('\n');
            }
            if let Some(site) = other.panic() {
                out.push_str(&format!(
                    "  panicked at {}\n",
                    terminal_line(&site.location)
                ));
            }
            if let Some(anchor) = other.anchor() {
                let label = match other.kind() {
                    FailureKind::Thrown => "this step failed",
                    FailureKind::ReturnShape => "this step's return does not fit its slots",
                    _ => "the last step passed",
                };
                if let Some(source) = source {
                    out.push_str(&snippet(source, anchor, label, styles));
                }
            }
            if let Some(site) = other.panic() {
                out.push_str(&backtrace(site, styles));
            }
        }
    }
    if let Expectation::Fail { message } = &example.expected {
        let note = match (failure.kind(), message) {
            (FailureKind::UnexpectedPass, _) => {
                "note: an `error` fence says this example must fail".to_string()
            }
            (_, Some(m)) => format!(
                "note: the `error` fence expects a failure whose message contains {}",
                terminal_line(&format!("{:?}", cut(m)))
            ),
            (_, None) => String::new(),
        };
        if !note.is_empty() {
            out.push_str(&styles.paint(styles.hint, &note));
            out.push('\n');
        }
    }
    out.push_str(&unmatched_note(oath_source, example, styles));
    let name = terminal_line(&example.name);
    if step_doc.is_some() {
        out.push_str(&format!(
            "  in example \"{name}\" of {}, which reaches this step through a link\n",
            terminal_line(oath_path)
        ));
    } else {
        out.push_str(&format!("  in example \"{name}\"\n"));
    }
    out
}

/// The step's own frames of a panic's backtrace, or how to get them.
fn backtrace(site: &PanicSite, styles: &Styles) -> String {
    match &site.backtrace {
        Some(frames) => format!(
            "  stack backtrace (the step's frames):\n{}",
            terminal_text(&cut(frames))
        ),
        None => {
            let mut out = styles.paint(
                styles.hint,
                "note: run with `RUST_BACKTRACE=1` to see the step's backtrace",
            );
            out.push('\n');
            out
        }
    }
}

/// The sentences of the example's paragraphs that matched no step: prose
/// to the planner, but often a step renamed in code (issue 10).
fn unmatched_note(
    source: Option<&Source<'_>>,
    example: &PlannedExample,
    styles: &Styles,
) -> String {
    if example.unmatched.is_empty() {
        return String::new();
    }
    let mut out = styles.paint(
        styles.hint,
        "note: these sentences of the example match no step, so they did not run:",
    );
    out.push('\n');
    for span in &example.unmatched {
        let Some(source) = source else {
            out.push_str(&format!("  line {}\n", span.start_line));
            continue;
        };
        let text = source.slice_utf16(span.start_offset, span.end_offset);
        out.push_str(&format!(
            "  line {}: {}\n",
            span.start_line,
            terminal_line(&cut(&crate::text::collapse_whitespace(text)))
        ));
    }
    out
}

/// The note of a failure whose excerpts could not be drawn: the document
/// `path` its step was written in changed since it was planned (the run
/// reads a failing example's text again, issue 39).
pub fn no_excerpt_note(path: &str, styles: &Styles) -> String {
    let note = format!(
        "note: {} changed since it was planned: no excerpt of it is shown",
        terminal_line(path)
    );
    let mut out = styles.paint(styles.hint, &note);
    out.push('\n');
    out
}

/// The failed state teardowns of an example, after its own failure (spec
/// 60.6); the one that became the failure itself is not repeated. Each is
/// cut and escaped for a terminal.
pub fn teardown_notes(messages: &[String], failure: &Failure, styles: &Styles) -> String {
    let own = failure.to_string();
    let mut out = String::new();
    for message in messages.iter().filter(|m| **m != own) {
        let message = terminal_text(&cut(message)).into_owned();
        out.push_str(&styles.paint(styles.hint, &format!("also: {message}")));
        out.push('\n');
    }
    out
}

/// The text of a drift item (spec 40 §5.4 plus how to accept it).
pub fn drift(path: &str, source: &Source<'_>, drift: &Drift, styles: &Styles) -> String {
    let message = cut_string(drift.message());
    let mut out = header(path, Some(drift.span), drift.line, &message);
    out.push('\n');
    for extra in message.lines().skip(1) {
        out.push_str(&terminal_line(extra));
        out.push('\n');
    }
    out.push_str(&snippet(
        source,
        drift.span,
        "no step matches this any more",
        styles,
    ));
    out.push_str(&styles.paint(styles.hint, HARNESS_DRIFT_HINT));
    out.push('\n');
    out
}

/// The text of a plan diagnostic item: `path:line:col: message` and the span.
pub fn diagnostic(path: &str, source: &Source<'_>, d: &Diagnostic, styles: &Styles) -> String {
    let message = cut(&d.message);
    let mut out = header(path, Some(d.span), d.span.start_line, &message);
    out.push('\n');
    for extra in message.lines().skip(1) {
        out.push_str(&terminal_line(extra));
        out.push('\n');
    }
    out.push_str(&snippet(source, d.span, d.code.as_str(), styles));
    out
}
