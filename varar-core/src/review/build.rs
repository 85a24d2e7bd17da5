//! The review of a run, from its record and the oaths' result files.

use std::collections::BTreeMap;

use super::model::{Acceptance, Change, ChangeKind, Refusal, Review, ValueCell, removed_id};
use crate::doc::{Attachment, Doc};
use crate::drift::drift_message;
use crate::hash::sha256_hex;
use crate::names::ItemKind;
use crate::parse::parse;
use crate::record::{ItemEvidence, Outcome, RunRecord};
use crate::results::{ExampleResult, OathResults, Status};
use crate::source::Source;
use crate::untrusted::cut_to;
use crate::verdict::current::RunRead;
use crate::verdict::run_evidence::last_failure;

/// One oath as it is now, with its stored result file.
#[derive(Clone, Copy, Debug)]
pub struct OathInput<'a> {
    /// Its oathPath.
    pub oath_path: &'a str,
    /// Its text now (`None`: it could not be read).
    pub text: Option<&'a str>,
    /// Its result file (`None`: none, or unreadable).
    pub results: Option<&'a OathResults>,
}

/// The changes `run` asks a person to review, given the oaths as they are
/// now (see the module docs). A change from an oath whose text is not the
/// one the run read (by the SHA-256 the run recorded) is listed with why it
/// cannot be accepted.
pub fn review(run: &RunRecord, oaths: &[OathInput<'_>]) -> Review {
    let read = RunRead::of(Some(run));
    let by_path: BTreeMap<&str, &OathInput<'_>> = oaths.iter().map(|o| (o.oath_path, o)).collect();
    let changed = |path: &str| -> Option<Refusal> {
        let recorded = read.vouched([path]).remove(path);
        let now = by_path.get(path).and_then(|o| o.text);
        match (recorded, now) {
            (Some(d), Some(text)) if d.sha256 == sha256_hex(text.as_bytes()) => None,
            (None, _) => Some(Refusal::NotRecorded(path.to_owned())),
            (_, None) => Some(Refusal::Unreadable(path.to_owned())),
            (Some(_), Some(_)) => Some(Refusal::ChangedSinceRun(path.to_owned())),
        }
    };
    let mut changes = Vec::new();
    for item in &run.items {
        if item.outcome() != Some(Outcome::Failed) {
            continue;
        }
        let change = match item.kind {
            ItemKind::Drift => drift_change(item),
            ItemKind::Example => by_path
                .get(item.oath_path.as_str())
                .and_then(|o| value_change(item, o, &read)),
            _ => None,
        };
        if let Some(mut change) = change {
            // The text first: a span of another text says nothing.
            change.refused = changed(&change.oath_path).or(change.refused);
            changes.push(change);
        }
    }
    for removed in run.removed() {
        changes.push(Change {
            id: removed_id(&removed.oath_path, removed.line),
            kind: ChangeKind::Removed,
            oath_path: removed.oath_path.clone(),
            line: removed.line,
            summary: format!(
                "the lock listed \"{}\", which no paragraph matches any more: nothing checks it",
                cut_to(&removed.name, 200)
            ),
            acceptance: Acceptance::DropFromLock {
                name: removed.name.clone(),
                line: removed.line,
            },
            refused: changed(&removed.oath_path),
        });
    }
    Review {
        run_id: run.run_id.clone(),
        changes,
    }
}

/// A failed drift item: its lock example's name is the one its message
/// (spec 40 §5.4) quotes.
fn drift_change(item: &ItemEvidence) -> Option<Change> {
    let message = last_failure(item)?;
    let name = drift_name(message);
    let refused = name.is_none().then_some(Refusal::Unnamed);
    let name = name.unwrap_or_default();
    Some(Change {
        id: item.name.clone(),
        kind: ChangeKind::Drift,
        oath_path: item.oath_path.clone(),
        line: i64::from(item.line),
        summary: format!(
            "\"{}\" was an example and no longer matches any step: accept it as prose",
            cut_to(&name, 200)
        ),
        acceptance: Acceptance::DropFromLock {
            name,
            line: i64::from(item.line),
        },
        refused,
    })
}

/// The baseline name inside a drift item's failure text (the harness
/// renders it after a `path:line:col: ` header, with a snippet and a hint
/// after it): between the fixed text of spec 40 §5.4 before it and the
/// fixed text after it (the last occurrence: the snippet's lines start with
/// a gutter, so they never hold it).
pub(super) fn drift_name(message: &str) -> Option<String> {
    let template = drift_message("\u{0}");
    let (before, after) = template.split_once('\u{0}')?;
    let start = message.find(before)? + before.len();
    let end = message.rfind(after).filter(|&end| end >= start)?;
    Some(message[start..end].to_owned())
}

/// A failed example whose result records failing cells of this oath.
fn value_change(item: &ItemEvidence, oath: &OathInput<'_>, read: &RunRead) -> Option<Change> {
    let results = oath.results?;
    // The result file must be of the text the run read.
    let digest = read.vouched([oath.oath_path]).remove(oath.oath_path)?;
    if results.source_hash != digest.source_hash {
        return None;
    }
    let example = results.examples.iter().find(|e| is_failure_of(e, item))?;
    let failure = example.failure.as_ref()?;
    if failure.cells.is_empty() || failure.doc_path.is_some() {
        return None;
    }
    let text = oath
        .text
        .filter(|t| sha256_hex(t.as_bytes()) == digest.sha256);
    let source = text.map(Source::new);
    let doc = source.as_ref().map(|s| parse(oath.oath_path, s));
    let mut refused = None;
    let mut cells = Vec::new();
    for c in &failure.cells {
        let expected = source
            .as_ref()
            .filter(|s| c.from <= c.to && c.to <= s.len_utf16())
            .map(|s| s.slice_utf16(c.from, c.to).to_owned())
            .unwrap_or_default();
        if let Some(doc) = &doc
            && !writable(doc, c.from, c.to, &expected)
        {
            refused = Some(Refusal::NoTextSpan);
        } else if !fits(&c.actual) {
            refused = refused.or(Some(Refusal::UnfitValue));
        }
        cells.push(ValueCell {
            from: c.from,
            to: c.to,
            expected,
            actual: c.actual.clone(),
        });
    }
    cells.sort_by_key(|c| c.from);
    let shown: Vec<String> = cells
        .iter()
        .map(|c| {
            format!(
                "`{}` → `{}`",
                cut_to(&c.expected, 80),
                cut_to(&c.actual, 80)
            )
        })
        .collect();
    Some(Change {
        id: item.name.clone(),
        kind: ChangeKind::Value,
        oath_path: item.oath_path.clone(),
        line: i64::from(item.line),
        summary: format!(
            "the step answered otherwise: {} (expected → observed)",
            shown.join(", ")
        ),
        acceptance: Acceptance::WriteValues { cells },
        refused,
    })
}

/// Whether `example` is the failed result of `item`: its first line.
fn is_failure_of(example: &ExampleResult, item: &ItemEvidence) -> bool {
    example.status == Status::Failed && example.lines.first() == Some(&item.line)
}

/// Whether the compared value at `from..to` (UTF-16 offsets) of the oath
/// `text` can take the observed value `actual` in its place: its expected
/// text is a table cell or part of a paragraph (an inline parameter), on
/// one line, never a doc string; and `actual` fits there: not empty, no
/// line break or other control character, no `|`. What `review` and the
/// editor's quick fix offer.
pub fn writable_value(oath_path: &str, text: &str, from: u32, to: u32, actual: &str) -> bool {
    let source = Source::new(text);
    if from > to || to > source.len_utf16() || !fits(actual) {
        return false;
    }
    let expected = source.slice_utf16(from, to);
    writable(&parse(oath_path, &source), from, to, expected)
}

/// Whether an observed value can be written into a line of Markdown without
/// changing its structure: not empty, no control character (a line break
/// would end the paragraph or the row), no `|` (it would split the cell).
fn fits(actual: &str) -> bool {
    !actual.trim().is_empty() && !actual.chars().any(|c| c.is_control() || c == '|')
}

/// Whether the expected text at `from..to` is a table cell or part of a
/// paragraph (an inline parameter), on one line: never a doc string, whose
/// observed value is rendered JSON-quoted.
fn writable(doc: &Doc, from: u32, to: u32, expected: &str) -> bool {
    let within = |s: &crate::source::Span| s.start_offset <= from && to <= s.end_offset;
    if expected.is_empty() || expected.contains('\n') {
        return false;
    }
    doc.examples.iter().any(|c| {
        within(&c.body.text.span)
            || c.body
                .attachments
                .iter()
                .any(|a| matches!(a, Attachment::Table(t) if within(&t.span)))
    })
}
