//! Planning oaths as the harness plans them (pure): [`plan_documents`] is
//! the **only** place the server plans an oath with its drift, through the
//! engine's one function for it (`varar_core::planned::plan_with_drift`,
//! the harness's and `cargo varar check`'s too).

use varar_core::planned::{Against, plan_with_drift};
use varar_core::workspace::Workspace;

use super::model::{Analysis, PlanContext, Reuses};
use super::uses;

/// Plan the oaths `paths` of the workspace (each must be one of its oaths;
/// others are skipped): parse, plan with reuse by link, and drift against
/// the lock, by the engine's `plan_with_drift` as the harness does. One
/// engine workspace serves them all, so a document several of them reach
/// is parsed once.
pub fn plan_documents(context: &PlanContext<'_>, paths: &[&str]) -> Vec<Analysis> {
    let paths: Vec<&str> = paths
        .iter()
        .copied()
        .filter(|p| context.oaths.text(p).is_some())
        .collect();
    let engine = context.oaths.workspace(&paths);
    paths
        .iter()
        .filter_map(|p| analyse(context, &engine, p))
        .collect()
}

/// [`plan_documents`] for one oath.
pub fn plan_document(context: &PlanContext<'_>, oath_path: &str) -> Option<Analysis> {
    plan_documents(context, &[oath_path]).pop()
}

fn analyse(context: &PlanContext<'_>, engine: &Workspace<'_>, path: &str) -> Option<Analysis> {
    let document = engine.document(path)?;
    let source = document.source();
    let text = source.text();
    // The whole registry: the engine's literal index picks the steps
    // worth scanning in each sentence (a reduced copy per plan, found by
    // running every step's regex over the whole text, cost more than the
    // plan on a big oath, issue 21). `path` is one of the engine
    // workspace's documents.
    let registry = context.index.registry();
    let entry = context.lock.and_then(|l| l.oaths.get(path));
    let planned = plan_with_drift(engine, document, registry, Against::entry(entry));
    let notices = planned.notices(registry);
    let (plan, drifts, removed) = (planned.plan, planned.drifts, planned.removed);
    let consumed = engine.consumed(document);
    let doc = document.doc();
    let (steps, spliced) = uses::step_uses(doc, &plan, source);
    let links = uses::links(document, &consumed);
    let mut analysis = Analysis {
        oath_path: path.to_string(),
        text: text.to_string(),
        doc: doc.clone(),
        plan,
        drifts,
        removed,
        notices,
        steps,
        spliced,
        links,
        reuses: Reuses::default(),
        sentences: Vec::new(),
        deps: context.oaths.deps(path, context.index.generation()),
    };
    analysis.sentences = uses::sentences(&analysis, source);
    Some(analysis)
}
