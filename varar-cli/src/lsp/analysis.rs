//! One oath as the editor sees it (pure): its text planned by the engine
//! among the other oaths of its project, with what the editor features need
//! derived from the plan once.
//!
//! [`plan_documents`] is the **only** place the server calls the engine's
//! planner and drift detection, through the same entry point as the
//! harness for oaths that reuse sections by link (`plan_oath` on a
//! workspace, spec 70), so the server and `cargo test` cannot disagree.
//!
//! A plan's steps are not all written in the oath planned: a reference
//! block splices in the steps of a section of another document. The
//! analysis keeps the two apart: [`Analysis::steps`] are the oath's own
//! (their spans are in its text, so tokens, hover and definition use
//! them), [`Analysis::spliced`] are the others, with their document. What
//! the plans of *other* oaths find in this document's text (the steps of
//! its sections they splice, the diagnostics they raise there) arrives
//! later, in [`Analysis::reuses`], from [`reuses`].

use varar_runner::internal::doc::Doc;
use varar_runner::internal::drift::{Drift, detect_drift, oath_candidates};
use varar_runner::internal::lock::Lock;
use varar_runner::internal::plan::{self, Plan, plan_oath};
use varar_runner::internal::reference::Reference;
use varar_runner::internal::registry::Registry;
use varar_runner::internal::source::{Source, Span};
use varar_runner::internal::step::ArgValue;
use varar_runner::internal::workspace::{Document, Workspace as EngineWorkspace};

use super::index::StepIndex;
use super::oaths::{Deps, Oaths};

mod contribution;
mod uses;

pub use contribution::{Contribution, SplicedStep, contribution};
pub use uses::reuses;

/// What planning an oath takes besides its text.
#[derive(Clone, Copy, Debug)]
pub struct Workspace<'a> {
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
    /// The text planned.
    pub text: String,
    /// The document model.
    pub doc: Doc,
    /// The engine's plan.
    pub plan: Plan,
    /// Paragraphs the lock records as examples that match no step now.
    pub drifts: Vec<Drift>,
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
    /// The matched text.
    pub text: String,
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
    pub parameter_type: String,
    /// The source text under `span`.
    pub raw: String,
    /// The value the step function receives.
    pub value: ArgValue,
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
    /// Whether it is the last of a block of two or more sentences (the
    /// reference's guess for a sensor, spec 20 §20.12).
    pub last_of_several: bool,
}

/// Plan the oaths `paths` of the workspace (each must be one of its oaths;
/// others are skipped): parse, plan with reuse by link, and drift, exactly
/// as the harness does. One engine workspace serves them all, so a
/// document several of them reach is parsed once.
pub fn plan_documents(workspace: &Workspace<'_>, paths: &[&str]) -> Vec<Analysis> {
    let paths: Vec<&str> = paths
        .iter()
        .copied()
        .filter(|p| workspace.oaths.text(p).is_some())
        .collect();
    let engine = workspace.oaths.workspace(&paths);
    paths
        .iter()
        .filter_map(|p| analyse(workspace, &engine, p))
        .collect()
}

/// [`plan_documents`] for one oath.
pub fn plan_document(workspace: &Workspace<'_>, oath_path: &str) -> Option<Analysis> {
    plan_documents(workspace, &[oath_path]).pop()
}

fn analyse(
    workspace: &Workspace<'_>,
    engine: &EngineWorkspace<'_>,
    path: &str,
) -> Option<Analysis> {
    let document = engine.document(path)?;
    let source = document.source();
    let text = source.text();
    let reached = workspace.oaths.reaches(path);
    let texts: Vec<&str> = std::iter::once(text)
        .chain(reached.iter().filter_map(|p| workspace.oaths.text(p)))
        .collect();
    let (registry, kept) = workspace.index.registry_for(&texts);
    // `path` is one of the engine workspace's documents.
    let mut plan = plan_oath(engine, path, &registry).ok()?;
    for step in plan.examples.iter_mut().flat_map(|e| e.steps.iter_mut()) {
        step.step = kept.get(step.step).copied().unwrap_or(step.step);
    }
    let consumed = engine.consumed(document);
    let doc = document.doc();
    let drifts = drifts(workspace.lock, engine, document, &plan, &registry);
    let (steps, spliced) = uses::step_uses(doc, &plan, source);
    let links = uses::links(document, &consumed);
    let mut analysis = Analysis {
        oath_path: path.to_string(),
        text: text.to_string(),
        doc: doc.clone(),
        plan,
        drifts,
        steps,
        spliced,
        links,
        reuses: Reuses::default(),
        sentences: Vec::new(),
        deps: workspace.oaths.deps(path, workspace.index.generation()),
    };
    analysis.sentences = uses::sentences(&analysis, source);
    Some(analysis)
}

/// Drift against the lock: the engine's own comparison (spec 40 §5 with
/// spec 70 §70.5 and §70.6.5), the one `cargo test` makes.
fn drifts(
    lock: Option<&Lock>,
    engine: &EngineWorkspace<'_>,
    document: &Document<'_>,
    plan: &Plan,
    registry: &Registry,
) -> Vec<Drift> {
    let entry = lock.and_then(|l| l.oaths.get(document.path()));
    detect_drift(
        entry,
        &oath_candidates(engine, document, plan, registry, entry.is_some()),
    )
}

impl Analysis {
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

    /// Every sentence of this text that some plan runs: this oath's own
    /// steps and the ones other oaths splice, in document order.
    pub fn all_steps(&self) -> Vec<&StepUse> {
        let mut all: Vec<&StepUse> = self.steps.iter().chain(&self.reuses.steps).collect();
        all.sort_by_key(|s| (s.span.start_offset, s.span.end_offset));
        all
    }

    /// Take what the plans of other oaths find in this text (from
    /// [`reuses`]), replacing what was taken before.
    pub fn set_reuses(&mut self, mut reuses: Reuses) {
        uses::merge(&mut self.steps, &mut reuses);
        self.reuses = reuses;
        let source = Source::new(&self.text);
        self.sentences = uses::sentences(self, &source);
    }
}

#[cfg(test)]
mod tests;
