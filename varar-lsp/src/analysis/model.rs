//! What an analysis holds (pure): the plan of one oath and what the editor
//! features read from it, with the lookups by offset they share.

use std::sync::Arc;
use varar_core::doc::Doc;
use varar_core::drift::Drift;
use varar_core::expression::ArgValue;
use varar_core::lock::{Lock, LockExample};
use varar_core::names::OathItems;
use varar_core::plan::{self, Notice, Plan};
use varar_core::reference::Reference;
use varar_core::source::{Source, Span, Tables};

use crate::analysis::oaths::{Deps, Oaths};
use crate::analysis::step_index::StepIndex;

/// What planning an oath takes besides its text.
#[derive(Clone, Copy, Debug)]
pub struct PlanContext<'a> {
    /// The package's steps and registry.
    pub index: &'a StepIndex,
    /// The committed `varar.lock.json`, when it could be read.
    pub lock: Option<&'a Lock>,
    /// Every oath of the project (texts and links).
    pub oaths: &'a Oaths,
}

/// One oath, planned.
#[derive(Debug)]
pub struct Analysis {
    /// Its oathPath.
    pub oath_path: String,
    /// The text planned (shared with the project's oaths it was read
    /// from: not a copy per plan).
    pub text: Arc<str>,
    /// Its position tables ([`Analysis::source`]).
    pub(crate) tables: Arc<Tables>,
    /// The document model.
    pub doc: Doc,
    /// The engine's plan.
    pub plan: Plan,
    /// Paragraphs the lock records as examples that match no step now.
    pub drifts: Vec<Drift>,
    /// The lock's examples no paragraph re-identifies any more (spec 40
    /// §5.2, issue 37), with their old name and line.
    pub removed: Vec<LockExample>,
    /// What planning drops or never checks in this text (issue 37), in
    /// document order: the engine's `PlannedOath::notices`.
    pub notices: Vec<Notice>,
    /// Every sentence of this text the plan matched, once, in document
    /// order (spliced steps from sections of this same file included).
    pub steps: Vec<StepUse>,
    /// The plan's steps written in other documents, each once.
    pub spliced: Vec<Spliced>,
    /// The reference blocks of this text, in document order.
    pub links: Vec<LinkUse>,
    /// What the plans of other oaths find in this text.
    pub reuses: Reuses,
    /// Every sentence of every text block (reference blocks left out), in
    /// document order.
    pub sentences: Vec<SentenceInfo>,
    /// What the plan was made from.
    pub deps: Deps,
}

/// A sentence matched by a step.
#[derive(Clone, Debug, PartialEq)]
pub struct StepUse {
    /// The step's index in the registry.
    pub step: usize,
    /// The matched text's range (for a header-bound table: in the sentence
    /// above the table, not the row).
    pub span: Span,
    /// The matched text (shared with the plan).
    pub text: Arc<str>,
    /// Its parameters, in order.
    pub params: Vec<ParamUse>,
    /// The other oaths whose plans run it (spliced by a reference block);
    /// empty for a step of the analysed oath's own plan.
    pub reused_by: Vec<String>,
}

/// A step of a plan that is written in another document.
#[derive(Clone, Debug, PartialEq)]
pub struct Spliced {
    /// That document's oathPath.
    pub doc_path: String,
    /// The step, with its spans in that document.
    pub step: StepUse,
}

/// One captured parameter of a matched sentence.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamUse {
    /// The whole notation (quotes and emphasis markers included).
    pub span: Span,
    /// What editors highlight (inside quotes and markers).
    pub inner: Span,
    /// The parameter type name (`""` for `{}`).
    pub parameter_type: Arc<str>,
    /// The source text under `span` (shared with the plan).
    pub raw: Arc<str>,
    /// The value the step function receives (shared with the plan).
    pub value: Arc<ArgValue>,
}

/// A reference block (spec 70 §70.1) of the analysed text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkUse {
    /// The link, from `[` to `)`.
    pub span: Span,
    /// The whole block: where the reference diagnostics are.
    pub block: Span,
    /// Where it points.
    pub reference: Reference,
    /// It stands in a section of this oath that some link names: it is
    /// resolved where that section is spliced, never from this oath.
    pub consumed: bool,
}

/// What the plans of other oaths find in one document's text.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reuses {
    /// The sentences of this text they splice, once each (with the oaths
    /// that run them), in document order.
    pub steps: Vec<StepUse>,
    /// Their diagnostics whose span lies in this text, with the oath whose
    /// plan raised each.
    pub diagnostics: Vec<(String, plan::Diagnostic)>,
}

/// A sentence of a text block (spec 10 §8).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SentenceInfo {
    /// The sentence, terminator included.
    pub text: String,
    /// Its range in the source.
    pub span: Span,
    /// Whether some step matched part of it (in this oath's plan or in a
    /// plan that splices it).
    pub matched: bool,
}

impl Analysis {
    /// Its text with the position tables planning built, not built again.
    pub fn source(&self) -> Source<'_> {
        Source::with_tables(&self.text, Arc::clone(&self.tables))
    }

    /// The step (and parameter, if any) under a UTF-16 offset: one of this
    /// oath's plan, else one another oath's plan splices from this text.
    pub fn step_at(&self, offset: u32) -> Option<(&StepUse, Option<usize>)> {
        let step = self.steps.iter().chain(&self.reuses.steps).find(|s| {
            s.span.start_offset <= offset && offset < s.span.end_offset.max(s.span.start_offset + 1)
        })?;
        let param = step
            .params
            .iter()
            .position(|p| p.span.start_offset <= offset && offset < p.span.end_offset);
        Some((step, param))
    }

    /// The reference block under a UTF-16 offset.
    pub fn link_at(&self, offset: u32) -> Option<&LinkUse> {
        self.links
            .iter()
            .find(|l| l.block.start_offset <= offset && offset < l.block.end_offset)
    }

    /// The sentence under a UTF-16 offset (its end included, where the
    /// cursor sits after typing it).
    pub fn sentence_at(&self, offset: u32) -> Option<&SentenceInfo> {
        self.sentences
            .iter()
            .find(|s| s.span.start_offset <= offset && offset <= s.span.end_offset)
    }

    /// This oath as the engine names its items ([`varar_core::names::items`]):
    /// its plan and drift, the way the harness, `check` and `cargo varar
    /// test` all hand it over.
    pub fn items(&self) -> OathItems<'_> {
        OathItems::Planned {
            path: &self.oath_path,
            plan: &self.plan,
            drifts: &self.drifts,
            names: None,
        }
    }

    /// Every sentence of this text that some plan runs: this oath's own
    /// steps and the ones other oaths splice, in document order.
    pub fn all_steps(&self) -> Vec<&StepUse> {
        let mut all: Vec<&StepUse> = self.steps.iter().chain(&self.reuses.steps).collect();
        all.sort_by_key(|s| (s.span.start_offset, s.span.end_offset));
        all
    }
}
