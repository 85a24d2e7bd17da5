//! Planning (spec 20 §20.5–20.9): a document and a registry become runnable
//! examples and diagnostics.
//!
//! The stages, one module each: `matching` resolves the hits of every
//! sentence of a text block, `units` plans one candidate (steps,
//! header-bound table, `error` fence, attachment), `grouping` merges units
//! into examples, and `json` writes the `plan.json` artifact.

mod grouping;
mod json;
mod matching;
mod model;
pub(crate) mod prefilter;
#[cfg(test)]
mod prefilter_tests;
#[cfg(test)]
mod tests;
mod units;

pub use model::*;

use crate::doc::Doc;
use crate::registry::Registry;
use crate::sentences::split_sentences;
use crate::source::Source;
use matching::{Matcher, RawHit, SentenceRef};

/// A sentence as the splitter hands it over: its text and UTF-16 start in
/// the block text.
type SplitSentence = (String, u32);

/// Plan a document against a registry (§20.5–20.9): every sentence of every
/// candidate is matched, candidates become units, units are grouped into
/// examples. Every problem is collected as a [`Diagnostic`]; nothing stops
/// early.
///
/// `source` must be the text `doc` was parsed from.
pub fn plan(doc: &Doc, source: &Source<'_>, registry: &Registry) -> Plan {
    let split = |text: &str| -> Vec<SplitSentence> {
        split_sentences(text)
            .into_iter()
            .map(|s| (s.text, s.start))
            .collect()
    };
    plan_with(doc, source, registry, &split)
}

impl Matcher for Registry {
    fn step_count(&self) -> usize {
        self.steps.len()
    }

    fn steps_for(&self, sentence: &str, out: &mut Vec<usize>) {
        let prefilter = self.prefilter();
        if prefilter.step_count() == self.steps.len() {
            prefilter.steps_for(sentence, out);
        } else {
            // `steps` changed after the index was built: scan them all.
            out.clear();
            out.extend(0..self.steps.len());
        }
    }

    fn scan(&self, step: usize, sentence: &str) -> Vec<RawHit> {
        let Some(registered) = self.steps.get(step) else {
            return Vec::new();
        };
        registered
            .expression
            .scan(sentence)
            .into_iter()
            .map(|h| RawHit {
                step,
                start: h.start,
                end: h.end,
                params: h.params,
            })
            .collect()
    }

    fn expression(&self, step: usize) -> &str {
        self.steps
            .get(step)
            .map_or("", |s| s.spec.expression.as_str())
    }

    fn location(&self, step: usize) -> (&str, u32) {
        self.steps
            .get(step)
            .map_or(("", 0), |s| (s.spec.file.as_str(), s.spec.line))
    }
}

/// [`plan`] with any set of step definitions and any sentence splitter, so
/// the stages can be tested with hand-made hits.
pub(crate) fn plan_with(
    doc: &Doc,
    source: &Source<'_>,
    matcher: &dyn Matcher,
    split: &dyn Fn(&str) -> Vec<SplitSentence>,
) -> Plan {
    let mut diagnostics = Vec::new();
    let mut units = Vec::with_capacity(doc.examples.len());
    for candidate in &doc.examples {
        let sentences = split(&candidate.body.text.text);
        let refs: Vec<SentenceRef<'_>> = sentences
            .iter()
            .map(|(text, start)| SentenceRef {
                text: text.as_str(),
                start: *start,
            })
            .collect();
        units.push(units::plan_candidate(
            candidate,
            &refs,
            source,
            matcher,
            &mut diagnostics,
        ));
    }
    Plan {
        examples: grouping::group(units),
        diagnostics,
    }
}
