//! Planning (spec 20 §20.5–20.9): a document and a registry become runnable
//! examples and diagnostics.
//!
//! The stages, one module each: `matching` resolves the hits of every
//! sentence of a text block, `units` plans one candidate (steps,
//! header-bound table, `error` fence, attachment), `grouping` merges units
//! into examples, and `json` writes the `plan.json` artifact. `notices`
//! says what planning drops or never checks (issue 37), beside the plan. Reuse by
//! link (spec 70) adds `reuse` (planning an oath of a workspace: consumed
//! sections left out, reference blocks set aside) and `resolve` (a reference
//! block's section turned into units, recursively).

mod grouping;
#[cfg(feature = "serde")]
mod json;
mod matching;
mod memo;
mod model;
mod notices;
mod resolve;
mod reuse;
mod split;
#[cfg(test)]
mod tests;
mod units;

pub use matching::TextMatch;
pub use memo::MatchMemo;
pub use model::*;
pub use notices::checks_nothing;
pub(crate) use reuse::plan_document_with;
pub use reuse::{Matched, plan_document, plan_oath, runs_alone};

use crate::doc::Doc;
use crate::registry::Registry;
use crate::source::Source;
use matching::{Matcher, RawHit};

/// Plan a document alone against a registry (§20.5–20.9): every sentence of
/// every candidate is matched, candidates become units, units are grouped
/// into examples. Every problem is collected as a [`Diagnostic`]; nothing
/// stops early.
///
/// The document is planned against the empty workspace (spec 70 §70.2.1):
/// a link to a section of the same file is replaced by that section's
/// steps, a link to another oath is `reference-not-found`, and nothing is
/// consumed. To plan an oath among the others of a run, build a
/// [`crate::workspace::Workspace`] and use [`plan_oath`].
///
/// `source` must be the text `doc` was parsed from.
pub fn plan(doc: &Doc, source: &Source<'_>, registry: &Registry) -> Plan {
    reuse::plan_alone(doc, source, registry, &split::split)
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

    fn may_match_in(&self, text: &str) -> bool {
        let prefilter = self.prefilter();
        // An index of other steps than these promises nothing.
        prefilter.step_count() != self.steps.len() || prefilter.may_match_in(text)
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
        self.steps.get(step).map_or("", |s| &*s.spec.expression)
    }

    fn shared_expression(&self, step: usize) -> std::sync::Arc<str> {
        self.steps
            .get(step)
            .map_or_else(|| "".into(), |s| std::sync::Arc::clone(&s.spec.expression))
    }

    fn location(&self, step: usize) -> (&str, u32) {
        self.steps
            .get(step)
            .map_or(("", 0), |s| (s.spec.file.as_str(), s.spec.line))
    }
}
