//! Planning one candidate (spec 20 §20.7): its steps, a header-bound table,
//! the `error` fence, the attachment of `body[1]`, and the two diagnostics.

use std::sync::{Arc, OnceLock};

use regex::Regex;

use super::matching::{BlockHit, BlockMatch, Matcher, SentenceRef, TextMatch};
use super::model::{
    Diagnostic, DiagnosticCode, Expectation, Notice, PlannedArg, PlannedDocString, PlannedExample,
    PlannedStep, RowBinding, RowCheck,
};
use super::notices;
use super::split::SplitSentence;
use crate::doc::{Attachment, Candidate, Fence, Table, TextBlock};
use crate::reference::Reference;
use crate::source::{Source, Span, utf16_len};
use crate::text::example_name;
use crate::text::js_trim;

/// What one candidate contributes to grouping (§20.8).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Unit<'d> {
    /// No runnable step: prose, an ambiguous block, or error-fence-only.
    Unmatched,
    /// At least one step; may merge with its neighbours.
    Matched(MatchedUnit<'d>),
    /// A header-bound table: one standalone example per data row.
    HeaderBound(Vec<PlannedExample>),
    /// A reference block (spec 70 §70.1), resolved while grouping.
    Reference(ReferenceUnit<'d>),
}

/// A candidate with steps.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct MatchedUnit<'d> {
    /// The candidate it comes from.
    pub candidate: &'d Candidate,
    /// Its steps in text order, attachment applied.
    pub steps: Vec<PlannedStep>,
    /// `Fail` when the body holds an `error` fence.
    pub expected: Expectation,
    /// Its sentences that matched no step.
    pub unmatched: Vec<Span>,
    /// The name of an example it starts (spec 40 §0), made with the unit:
    /// a long oath's units are made on two threads, its examples put
    /// together on one.
    pub name: String,
}

/// Plan one candidate whose `sentences` matched as `matched`; its
/// diagnostics are appended to `diagnostics` in order (ambiguities, then
/// the error fence), and the quirks it meets to `notices` (issue 37).
pub(crate) fn plan_candidate<'d>(
    candidate: &'d Candidate,
    sentences: &[SentenceRef<'_>],
    matched: &BlockMatch,
    source: &Source<'_>,
    matcher: &dyn Matcher,
    diagnostics: &mut Vec<Diagnostic>,
    notices: &mut Vec<Notice>,
) -> Unit<'d> {
    let block = &candidate.body.text;
    push_ambiguities(matched, block, source, matcher, diagnostics);
    let mut steps: Vec<PlannedStep> = matched
        .hits
        .iter()
        .map(|h| lift_step(h, block, source, matcher))
        .collect();

    let error_fence = candidate.body.attachments.iter().find_map(|a| match a {
        Attachment::Fence(f) if f.is_error() => Some(f),
        _ => None,
    });

    if let Some(Attachment::Table(table)) = candidate.body.attachments.first()
        && let Some(last) = steps.last()
        && is_header_bound(&block.text, table)
    {
        // The block's other steps and any `error` fence are dropped: said
        // by a notice, the plan as the spec has it.
        notices::header_bound(&steps, table, error_fence, notices);
        return Unit::HeaderBound(row_examples(candidate, last, table));
    }

    if steps.is_empty() {
        if let Some(fence) = error_fence {
            diagnostics.push(Diagnostic {
                code: DiagnosticCode::ErrorFenceWithoutStep,
                span: fence.span,
                message: "This `error` fence marks the example as expected-to-fail, but the \
                          example has no step to run."
                    .to_string(),
                doc_path: None,
            });
        }
        return Unit::Unmatched;
    }

    // Only `body[1]` attaches, and only to the block's last step.
    if let Some(last) = steps.last_mut() {
        match candidate.body.attachments.first() {
            Some(Attachment::Table(t)) => {
                notices::attached_elsewhere(sentences, matched, last, block, source, notices);
                last.data_table = Some(Box::new(t.clone()));
            }
            Some(Attachment::Fence(f)) if !f.is_error() => {
                last.doc_string = Some(Box::new(PlannedDocString {
                    content: f.body.clone(),
                    content_type: f.info.clone(),
                    span: f.body_span,
                    fence_line: f.span.start_line,
                    closed: f.is_closed(),
                }));
            }
            _ => {}
        }
    }

    Unit::Matched(MatchedUnit {
        candidate,
        steps,
        expected: error_fence.map_or(Expectation::Pass, expectation_of),
        unmatched: unmatched_sentences(sentences, matched, block, source),
        name: example_name(&block.text),
    })
}

/// The sentences no selected hit touches, as source spans (blank ones
/// left out).
fn unmatched_sentences(
    sentences: &[SentenceRef<'_>],
    matched: &BlockMatch,
    block: &TextBlock,
    source: &Source<'_>,
) -> Vec<Span> {
    sentences
        .iter()
        .filter(|s| !s.text.trim().is_empty())
        .filter_map(|s| {
            let end = s.start + utf16_len(s.text);
            let hit = matched
                .hits
                .iter()
                .any(|h| h.start < end && s.start < h.end);
            (!hit).then(|| lift(block, source, s.start, end))
        })
        .collect()
}

/// `fail`, with the trimmed fence body as message when it is not empty.
fn expectation_of(fence: &Fence) -> Expectation {
    let message = js_trim(&fence.body);
    Expectation::Fail {
        message: (!message.is_empty()).then(|| message.to_string()),
    }
}

fn push_ambiguities(
    matched: &BlockMatch,
    block: &TextBlock,
    source: &Source<'_>,
    matcher: &dyn Matcher,
    diagnostics: &mut Vec<Diagnostic>,
) {
    for c in &matched.collisions {
        let lines: Vec<String> = c
            .steps
            .iter()
            .map(|&s| {
                let (file, line) = matcher.location(s);
                format!("  '{}'    at {file}:{line}", matcher.expression(s))
            })
            .collect();
        diagnostics.push(Diagnostic {
            code: DiagnosticCode::AmbiguousMatch,
            span: lift(block, source, c.start, c.end),
            message: format!(
                "Ambiguous step: \"{}\"\nMatched by:\n{}",
                c.text,
                lines.join("\n")
            ),
            doc_path: None,
        });
    }
}

/// A block-text range as a source span, through the segment map.
fn lift(block: &TextBlock, source: &Source<'_>, start: u32, end: u32) -> Span {
    source.span(block.lift(start), block.lift(end))
}

fn lift_step(
    hit: &BlockHit,
    block: &TextBlock,
    source: &Source<'_>,
    matcher: &dyn Matcher,
) -> PlannedStep {
    let params = hit.params.as_deref().unwrap_or(&[]);
    let param_spans: Vec<Span> = params
        .iter()
        .map(|p| lift(block, source, p.start, p.end))
        .collect();
    let args = params
        .iter()
        .zip(&param_spans)
        .map(|(p, span)| {
            // The source under the span is most often the block's own text
            // (a value broken across lines is not).
            let raw = source.slice_utf16(span.start_offset, span.end_offset);
            PlannedArg {
                raw: if raw == &*p.raw {
                    Arc::clone(&p.raw)
                } else {
                    Arc::from(raw)
                },
                parameter_type: Arc::clone(&p.type_name),
                value: Arc::clone(&p.value),
            }
        })
        .collect();
    PlannedStep {
        text: Arc::clone(&hit.text),
        match_span: lift(block, source, hit.start, hit.end),
        inner_spans: params
            .iter()
            .map(|p| lift(block, source, p.inner_start, p.inner_end))
            .collect(),
        param_spans,
        step: hit.step,
        matched_expression: matcher.shared_expression(hit.step),
        args,
        data_table: None,
        doc_string: None,
        doc_path: None,
    }
}

/// One example per data row of a header-bound table (§20.7 step 2).
fn row_examples(candidate: &Candidate, bound: &PlannedStep, table: &Table) -> Vec<PlannedExample> {
    let header = &table.header.cells;
    // Shared by every row's example.
    let scope_stack: Arc<[String]> = candidate
        .scope_stack
        .iter()
        .cloned()
        .chain(std::iter::once(bound.text.to_string()))
        .collect();
    let columns: Vec<Arc<str>> = header.iter().map(|c| Arc::from(c.as_str())).collect();
    table
        .rows
        .iter()
        .map(|row| {
            let mut checks = Vec::with_capacity(header.len());
            for (i, column) in columns.iter().enumerate() {
                checks.push(RowCheck {
                    column: Arc::clone(column),
                    value: row.cells.get(i).cloned().unwrap_or_default(),
                    span: row.cell_spans.get(i).copied().unwrap_or(row.span),
                });
            }
            let mut step = bound.clone();
            step.match_span = row.span;
            step.data_table = None;
            step.doc_string = None;
            PlannedExample {
                name: row.cells.join(" / "),
                scope_stack: scope_stack.clone(),
                span: row.span,
                expected: Expectation::Pass,
                steps: vec![step],
                row: Some(RowBinding { checks }),
                unmatched: Vec::new(),
            }
        })
        .collect()
}

/// Whether every header cell occurs as a whole word in the block text.
fn is_header_bound(text: &str, table: &Table) -> bool {
    table
        .header
        .cells
        .iter()
        .all(|cell| find_whole_word(text, cell).is_some())
}

/// The byte offset of the first occurrence of `word` in `text` whose
/// neighbouring code points (if any) are not letters, numbers or `_`. The
/// `regex` crate has no lookbehind, so the neighbours are checked here.
pub(crate) fn find_whole_word(text: &str, word: &str) -> Option<usize> {
    let starts = text.char_indices().map(|(i, _)| i).chain([text.len()]);
    starts.filter(|&i| text[i..].starts_with(word)).find(|&i| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(is_word_char) && !after.is_some_and(is_word_char)
    })
}

/// `[\p{L}\p{N}_]`: Rust's `char::is_alphabetic` is wider than `\p{L}`
/// (it includes marks), so the class comes from the regex crate.
fn is_word_char(c: char) -> bool {
    // In ASCII the class is exactly letters, digits and `_`; the Unicode
    // regex is only compiled (once, at a cost) for other characters.
    if c.is_ascii() {
        return c.is_ascii_alphanumeric() || c == '_';
    }
    static WORD: OnceLock<Option<Regex>> = OnceLock::new();
    let re = WORD.get_or_init(|| Regex::new(r"^[\p{L}\p{N}_]$").ok());
    match re {
        Some(re) => {
            let mut buf = [0u8; 4];
            re.is_match(c.encode_utf8(&mut buf))
        }
        None => c == '_' || c.is_alphanumeric(),
    }
}

/// A reference block of the oath being planned, waiting for phase 2.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ReferenceUnit<'d> {
    /// The candidate whose text is the link.
    pub candidate: &'d Candidate,
    /// Where it points.
    pub reference: &'d Reference,
}

/// Plan one ordinary candidate (spec 20 §20.7), its diagnostics and
/// notices appended.
pub(crate) fn plan_one<'d>(
    candidate: &'d Candidate,
    source: &Source<'_>,
    matcher: &dyn Matcher,
    split: &dyn Fn(&str) -> Vec<SplitSentence>,
    diagnostics: &mut Vec<Diagnostic>,
    notices: &mut Vec<Notice>,
) -> Unit<'d> {
    let text = &candidate.body.text.text;
    if !matcher.may_match_in(text) {
        // No sentence of it can hold a step (prose, most often): it plans
        // as its sentences would, each without a hit, unsplit.
        let nothing = BlockMatch::default();
        return plan_candidate(
            candidate,
            &[],
            &nothing,
            source,
            matcher,
            diagnostics,
            notices,
        );
    }
    plan_one_matched(candidate, source, matcher, split, diagnostics, notices).0
}

/// [`plan_one`], with what matching the candidate's block gave.
pub(crate) fn plan_one_matched<'d>(
    candidate: &'d Candidate,
    source: &Source<'_>,
    matcher: &dyn Matcher,
    split: &dyn Fn(&str) -> Vec<SplitSentence>,
    diagnostics: &mut Vec<Diagnostic>,
    notices: &mut Vec<Notice>,
) -> (Unit<'d>, Arc<TextMatch>) {
    let text = &candidate.body.text.text;
    // A block matches the same whatever it stands in: a matcher that
    // keeps what it matched answers an unchanged block from that.
    let found = matcher.remembered(text).unwrap_or_else(|| {
        let found = Arc::new(TextMatch::of(text, matcher, split));
        matcher.remember(text, &found);
        found
    });
    let unit = plan_candidate(
        candidate,
        &found.refs(),
        &found.matched,
        source,
        matcher,
        diagnostics,
        notices,
    );
    (unit, found)
}

#[cfg(test)]
mod tests;
