//! Planning oaths as the harness plans them (pure): [`plan_documents`] is
//! the **only** place the server calls the engine's planner and drift
//! detection.

use varar_core::drift::{Drift, detect_drift, oath_candidates};
use varar_core::lock::Lock;
use varar_core::plan::{Plan, plan_oath};
use varar_core::registry::Registry;
use varar_core::workspace::{Document, Workspace};

use super::model::{Analysis, PlanContext, Reuses};
use super::uses;

/// Plan the oaths `paths` of the workspace (each must be one of its oaths;
/// others are skipped): parse, plan with reuse by link, and drift, exactly
/// as the harness does. One engine workspace serves them all, so a
/// document several of them reach is parsed once.
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
    let plan = plan_oath(engine, path, registry).ok()?;
    let consumed = engine.consumed(document);
    let doc = document.doc();
    let drifts = drifts(context.lock, engine, document, &plan, registry);
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
        deps: context.oaths.deps(path, context.index.generation()),
    };
    analysis.sentences = uses::sentences(&analysis, source);
    Some(analysis)
}

/// Drift against the lock: the engine's own comparison (spec 40 §5 with
/// spec 70 §70.5 and §70.6.5), the one `cargo test` makes.
fn drifts(
    lock: Option<&Lock>,
    engine: &Workspace<'_>,
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
