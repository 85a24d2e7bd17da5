//! What an analysis derives from its plan (pure): the sentences steps
//! matched, split by the document they are written in, the reference
//! blocks, the sentences of every text block, and what other oaths' plans
//! find in a document ([`reuses`]).
//!
//! Everything here is linear (or `n log n`) in the examples of the oath:
//! spans are looked up in hash sets and sorted lists, never by scanning
//! what was found so far (issue 21: a 5 MB oath took minutes).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use varar_core::doc::Doc;
use varar_core::plan::{Matched, Plan, PlannedStep};
use varar_core::sentences::split_sentences;
use varar_core::source::{Source, Span, utf16_len};
use varar_core::workspace::Document;

use super::model::{Analysis, LinkUse, ParamUse, Reuses, SentenceInfo, Spliced, StepUse};

/// The plan's steps written in the oath itself (once per span, in document
/// order), and those written in other documents (once per document and
/// span).
pub(super) fn step_uses(
    doc: &Doc,
    plan: &Plan,
    source: &Source<'_>,
) -> (Vec<StepUse>, Vec<Spliced>) {
    let mut own: Vec<StepUse> = Vec::new();
    let mut spliced: Vec<Spliced> = Vec::new();
    let steps: usize = plan.examples.iter().map(|e| e.steps.len()).sum();
    own.reserve(steps);
    let mut spliced_spans: HashSet<(&str, u32, u32)> = HashSet::new();
    for example in &plan.examples {
        for step in &example.steps {
            if let Some(doc_path) = &step.doc_path {
                let key = (
                    doc_path.as_str(),
                    step.match_span.start_offset,
                    step.match_span.end_offset,
                );
                if spliced_spans.insert(key) {
                    spliced.push(Spliced {
                        doc_path: doc_path.clone(),
                        step: step_use(step, step.match_span),
                    });
                }
                continue;
            }
            let span = if example.row.is_some() {
                match sentence_of_row(doc, example.span, step, source) {
                    Some(span) => span,
                    None => continue,
                }
            } else {
                step.match_span
            };
            // The rows of a table, one after another, share their sentence.
            if own
                .last()
                .is_some_and(|last| key_of(&last.span) == key_of(&span))
            {
                continue;
            }
            own.push(step_use(step, span));
        }
    }
    // Once per span, the first planned kept: a stable sort by span puts
    // the uses of one span side by side in the order they were planned
    // (rows share their sentence's; a section linked within its own oath
    // is planned twice). Hashing every span cost more than the sort of
    // uses already in order (issue 39).
    own.sort_by_key(|s| key_of(&s.span));
    own.dedup_by_key(|s| key_of(&s.span));
    (own, spliced)
}

/// A span's identity within one document.
fn key_of(span: &Span) -> (u32, u32) {
    (span.start_offset, span.end_offset)
}

fn step_use(step: &PlannedStep, span: Span) -> StepUse {
    StepUse {
        step: step.step,
        span,
        text: Arc::clone(&step.text),
        params: step
            .args
            .iter()
            .zip(step.param_spans.iter().zip(&step.inner_spans))
            .map(|(arg, (span, inner))| ParamUse {
                span: *span,
                inner: *inner,
                // Shared with the plan: one type name per step, not a
                // copy per sentence (issue 39).
                parameter_type: Arc::clone(&arg.parameter_type),
                raw: Arc::clone(&arg.raw),
                value: Arc::clone(&arg.value),
            })
            .collect(),
        reused_by: Vec::new(),
    }
}

/// A row example's step keeps the sentence's text but not its range: find
/// the bound (last) occurrence of that text in the block above the table.
fn sentence_of_row(doc: &Doc, row: Span, step: &PlannedStep, source: &Source<'_>) -> Option<Span> {
    // Candidates are in document order and do not overlap.
    let after = doc
        .examples
        .partition_point(|c| c.span.start_offset <= row.start_offset);
    let candidate = doc
        .examples
        .get(after.checked_sub(1)?)
        .filter(|c| row.end_offset <= c.span.end_offset)?;
    let block = &candidate.body.text;
    let byte = block.text.rfind(&*step.text)?;
    let start = utf16_len(&block.text[..byte]);
    let end = start + utf16_len(&step.text);
    Some(source.span(block.lift(start), block.lift(end)))
}

/// The reference blocks of a document, each with the range of its link
/// (the block text trimmed: it starts with `[` and ends with `)`).
pub(super) fn links(document: &Document<'_>, consumed: &[bool]) -> Vec<LinkUse> {
    let doc = document.doc();
    let source = document.source();
    document
        .references()
        .filter_map(|(i, reference)| {
            let candidate = doc.examples.get(i)?;
            let block = &candidate.body.text;
            let start = block.text.find('[')?;
            let end = block.text.rfind(')')? + 1;
            let from = block.lift(utf16_len(&block.text[..start]));
            let to = block.lift(utf16_len(&block.text[..end]));
            Some(LinkUse {
                span: source.span(from, to),
                block: candidate.span,
                reference: reference.clone(),
                consumed: consumed.get(i).copied().unwrap_or(false),
            })
        })
        .collect()
}

/// Every sentence of every text block but the reference blocks, with
/// whether a step (of this plan, or of one that splices it) matched it.
/// A candidate whose sentences planning hands over in `matched` (by
/// candidate index) is not split again. None is marked matched yet: see
/// [`mark_matched`], once the analysis has its steps (the sentences are
/// gathered beside them, issue 39).
pub(super) fn sentences(
    doc: &Doc,
    links: &[LinkUse],
    source: &Source<'_>,
    matched: &Matched,
) -> Vec<SentenceInfo> {
    let links: HashSet<u32> = links.iter().map(|l| l.block.start_offset).collect();
    let mut out = Vec::with_capacity(matched.iter().flatten().map(|m| m.sentences().len()).sum());
    let mut lines = Lines::new(source);
    for (i, candidate) in doc.examples.iter().enumerate() {
        if links.contains(&candidate.span.start_offset) {
            continue;
        }
        let block = &candidate.body.text;
        let mut push = |text: String, start: u32, end: u32| {
            let span = lines.span(block.lift(start), block.lift(end));
            out.push(SentenceInfo {
                text,
                span,
                matched: false,
            });
        };
        match matched.get(i).and_then(Option::as_ref) {
            Some(found) => {
                for (text, start) in found.sentences() {
                    push(text.to_owned(), start, start + utf16_len(text));
                }
            }
            None => {
                for sentence in split_sentences(&block.text) {
                    push(sentence.text, sentence.start, sentence.end);
                }
            }
        }
    }
    out
}

/// Set whether a step (of this plan, or of one that splices it) matched
/// each sentence.
pub(super) fn mark_matched(analysis: &Analysis, sentences: &mut [SentenceInfo]) {
    let steps = analysis.all_steps();
    // Sorted by start: the furthest end among the first `i` steps tells
    // whether any of them reaches into a span.
    let starts: Vec<u32> = steps.iter().map(|s| s.span.start_offset).collect();
    let reach: Vec<u32> = steps
        .iter()
        .scan(0, |end, s| {
            *end = s.span.end_offset.max(*end);
            Some(*end)
        })
        .collect();
    for sentence in sentences {
        let span = sentence.span;
        let before = starts.partition_point(|&start| start < span.end_offset);
        sentence.matched = before > 0 && reach[before - 1] > span.start_offset;
    }
}

/// Spans of offsets that mostly come in document order: each line found by
/// walking on from the last one, not by a search from scratch (issue 34:
/// two searches per sentence were a tenth of `cargo varar check` on a
/// 10 MB oath).
pub(super) struct Lines<'s, 'a> {
    source: &'s Source<'a>,
    /// The 1-based line of the last offset, and where it starts.
    line: u32,
    start: u32,
}

impl<'s, 'a> Lines<'s, 'a> {
    pub(super) fn new(source: &'s Source<'a>) -> Lines<'s, 'a> {
        Lines {
            source,
            line: 1,
            start: 0,
        }
    }

    /// `Source::position`, walking forward from the last offset's line.
    fn position(&mut self, u: u32) -> (u32, u32) {
        if u < self.start {
            (self.line, _) = self.source.position(u);
            self.start = self.source.line_start(self.line).unwrap_or(0);
        }
        while let Some(next) = self.source.line_start(self.line + 1) {
            if next > u {
                break;
            }
            self.line += 1;
            self.start = next;
        }
        (self.line, u - self.start + 1)
    }

    /// `Source::span`, as [`Lines::position`] finds lines.
    pub(super) fn span(&mut self, from: u32, to: u32) -> Span {
        let (start_line, start_col) = self.position(from);
        let (end_line, end_col) = self.position(to);
        Span {
            start_offset: from,
            end_offset: to,
            start_line,
            start_col,
            end_line,
            end_col,
        }
    }
}

/// What the plans of `others` find in the text of `document` (an
/// oathPath): the steps they splice from it, once per span with every oath
/// that runs it, and their diagnostics whose span lies in it.
pub fn reuses(document: &str, others: &[&Analysis]) -> Reuses {
    let mut steps: Vec<StepUse> = Vec::new();
    let mut at: HashMap<(u32, u32), usize> = HashMap::new();
    let mut diagnostics = Vec::new();
    for other in others {
        if other.oath_path == document {
            continue;
        }
        for spliced in other.spliced.iter().filter(|s| s.doc_path == document) {
            let span = spliced.step.span;
            let i = *at.entry(key_of(&span)).or_insert_with(|| {
                steps.push(spliced.step.clone());
                steps.len() - 1
            });
            if !steps[i].reused_by.contains(&other.oath_path) {
                steps[i].reused_by.push(other.oath_path.clone());
            }
        }
        diagnostics.extend(
            other
                .plan
                .diagnostics
                .iter()
                .filter(|d| d.doc_path.as_deref() == Some(document))
                .map(|d| (other.oath_path.clone(), d.clone())),
        );
    }
    steps.sort_by_key(|s| s.span.start_offset);
    for step in &mut steps {
        step.reused_by.sort();
    }
    Reuses { steps, diagnostics }
}

/// Merge `reuses` into the steps of `own` that have the same span (a
/// section of this file spliced here and elsewhere): those get the other
/// oaths in `reused_by` and leave the reuses.
pub(super) fn merge(own: &mut [StepUse], reuses: &mut Reuses) {
    for step in own.iter_mut() {
        step.reused_by.clear();
    }
    let at: HashMap<(u32, u32), usize> = own
        .iter()
        .enumerate()
        .map(|(i, s)| (key_of(&s.span), i))
        .collect();
    reuses.steps.retain(|r| match at.get(&key_of(&r.span)) {
        Some(&i) => {
            own[i].reused_by.clone_from(&r.reused_by);
            false
        }
        None => true,
    });
}

impl Analysis {
    /// Take what the plans of other oaths find in this text (from
    /// [`reuses`]), replacing what was taken before.
    pub fn set_reuses(&mut self, mut reuses: Reuses) {
        merge(&mut self.steps, &mut reuses);
        self.reuses = reuses;
        // The sentences stay; only whether a step matches them changes.
        let mut sentences = std::mem::take(&mut self.sentences);
        mark_matched(self, &mut sentences);
        self.sentences = sentences;
    }
}
