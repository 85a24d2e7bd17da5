//! One oath as the editor sees it (pure): its text planned by the engine,
//! with what the editor features need derived from the plan once.
//!
//! [`plan_document`] is the **only** place the server calls the engine's
//! parser, planner and drift detection, so the server and `cargo test`
//! cannot disagree, and so workspace-aware planning (reuse by link, spec
//! 70) replaces one function: see [`Workspace`].

use varar_runner::internal::doc::Doc;
use varar_runner::internal::drift::{Drift, candidates, detect_drift};
use varar_runner::internal::lock::Lock;
use varar_runner::internal::parse::parse;
use varar_runner::internal::plan::{Plan, PlannedStep, plan};
use varar_runner::internal::sentences::split_sentences;
use varar_runner::internal::source::{Source, Span, utf16_len};
use varar_runner::internal::step::ArgValue;

use super::index::StepIndex;

/// What planning one document takes besides its text.
///
/// Reuse by link (issue 11) adds the other oaths of the project here
/// (`oaths: &BTreeMap<oathPath, text>`) and switches [`plan_document`] to
/// the engine's workspace-aware entry point; nothing else changes.
#[derive(Clone, Copy, Debug)]
pub struct Workspace<'a> {
    /// The package's steps and registry.
    pub index: &'a StepIndex,
    /// The committed `varar.lock.json`, when it could be read.
    pub lock: Option<&'a Lock>,
}

/// One oath, planned.
#[derive(Debug)]
pub struct Analysis {
    /// Its oathPath.
    pub oath_path: String,
    /// The text planned.
    pub text: String,
    /// The document model.
    pub doc: Doc,
    /// The engine's plan.
    pub plan: Plan,
    /// Paragraphs the lock records as examples that match no step now.
    pub drifts: Vec<Drift>,
    /// Every matched sentence, once, in document order.
    pub steps: Vec<StepUse>,
    /// Every sentence of every text block, in document order.
    pub sentences: Vec<SentenceInfo>,
    /// The registry generation it was planned against.
    pub generation: u64,
}

/// A sentence matched by a step.
#[derive(Clone, Debug, PartialEq)]
pub struct StepUse {
    /// The step's index in the registry.
    pub step: usize,
    /// The matched text's range (for a header-bound table: in the sentence
    /// above the table, not the row).
    pub span: Span,
    /// The matched text.
    pub text: String,
    /// Its parameters, in order.
    pub params: Vec<ParamUse>,
}

/// One captured parameter of a matched sentence.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamUse {
    /// The whole notation (quotes and emphasis markers included).
    pub span: Span,
    /// What editors highlight (inside quotes and markers).
    pub inner: Span,
    /// The parameter type name (`""` for `{}`).
    pub parameter_type: String,
    /// The source text under `span`.
    pub raw: String,
    /// The value the step function receives.
    pub value: ArgValue,
}

/// A sentence of a text block (spec 10 §8).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SentenceInfo {
    /// The sentence, terminator included.
    pub text: String,
    /// Its range in the source.
    pub span: Span,
    /// Whether some step matched part of it.
    pub matched: bool,
    /// Whether it is the last of a block of two or more sentences (the
    /// reference's guess for a sensor, spec 20 §20.12).
    pub last_of_several: bool,
}

/// Plan `text` (the oath at `oath_path`) against the workspace: parse,
/// plan and drift, exactly as the harness does for one oath.
pub fn plan_document(workspace: &Workspace<'_>, oath_path: &str, text: &str) -> Analysis {
    let source = Source::new(text);
    let doc = parse(oath_path, &source);
    let (registry, kept) = workspace.index.registry_for(text);
    let mut plan = plan(&doc, &source, &registry);
    for step in plan.examples.iter_mut().flat_map(|e| e.steps.iter_mut()) {
        step.step = kept.get(step.step).copied().unwrap_or(step.step);
    }
    let baseline = workspace.lock.and_then(|l| l.oaths.get(oath_path));
    let drifts = detect_drift(baseline, &candidates(&doc, &plan));
    let steps = step_uses(&doc, &plan, &source);
    let sentences = sentences(&doc, &steps, &source);
    Analysis {
        oath_path: oath_path.to_string(),
        text: text.to_string(),
        doc,
        plan,
        drifts,
        steps,
        sentences,
        generation: workspace.index.generation(),
    }
}

impl Analysis {
    /// The step (and parameter, if any) under a UTF-16 offset.
    pub fn step_at(&self, offset: u32) -> Option<(&StepUse, Option<usize>)> {
        let step = self.steps.iter().find(|s| {
            s.span.start_offset <= offset && offset < s.span.end_offset.max(s.span.start_offset + 1)
        })?;
        let param = step
            .params
            .iter()
            .position(|p| p.span.start_offset <= offset && offset < p.span.end_offset);
        Some((step, param))
    }

    /// The sentence under a UTF-16 offset (its end included, where the
    /// cursor sits after typing it).
    pub fn sentence_at(&self, offset: u32) -> Option<&SentenceInfo> {
        self.sentences
            .iter()
            .find(|s| s.span.start_offset <= offset && offset <= s.span.end_offset)
    }
}

fn step_uses(doc: &Doc, plan: &Plan, source: &Source<'_>) -> Vec<StepUse> {
    let mut out: Vec<StepUse> = Vec::new();
    for example in &plan.examples {
        for step in &example.steps {
            let span = if example.row.is_some() {
                match sentence_of_row(doc, example.span, step, source) {
                    Some(span) => span,
                    None => continue,
                }
            } else {
                step.match_span
            };
            if out.iter().any(|s| s.span == span) {
                continue;
            }
            out.push(StepUse {
                step: step.step,
                span,
                text: step.text.clone(),
                params: step
                    .args
                    .iter()
                    .zip(step.param_spans.iter().zip(&step.inner_spans))
                    .map(|(arg, (span, inner))| ParamUse {
                        span: *span,
                        inner: *inner,
                        parameter_type: arg.parameter_type.clone(),
                        raw: arg.raw.clone(),
                        value: arg.value.clone(),
                    })
                    .collect(),
            });
        }
    }
    out.sort_by_key(|s| s.span.start_offset);
    out
}

/// A row example's step keeps the sentence's text but not its range: find
/// the bound (last) occurrence of that text in the block above the table.
fn sentence_of_row(doc: &Doc, row: Span, step: &PlannedStep, source: &Source<'_>) -> Option<Span> {
    let candidate = doc
        .examples
        .iter()
        .find(|c| c.span.start_offset <= row.start_offset && row.end_offset <= c.span.end_offset)?;
    let block = &candidate.body.text;
    let byte = block.text.rfind(&step.text)?;
    let start = utf16_len(&block.text[..byte]);
    let end = start + utf16_len(&step.text);
    Some(source.span(block.lift(start), block.lift(end)))
}

fn sentences(doc: &Doc, steps: &[StepUse], source: &Source<'_>) -> Vec<SentenceInfo> {
    let mut out = Vec::new();
    for candidate in &doc.examples {
        let block = &candidate.body.text;
        let split = split_sentences(&block.text);
        let several = split.len() > 1;
        let count = split.len();
        for (i, sentence) in split.into_iter().enumerate() {
            let span = source.span(block.lift(sentence.start), block.lift(sentence.end));
            let matched = steps.iter().any(|s| {
                s.span.start_offset < span.end_offset && span.start_offset < s.span.end_offset
            });
            out.push(SentenceInfo {
                text: sentence.text,
                span,
                matched,
                last_of_several: several && i + 1 == count,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests;
