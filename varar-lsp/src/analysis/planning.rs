//! Planning oaths as the harness plans them (pure): [`plan_documents`] is
//! the **only** place the server plans an oath with its drift, through the
//! engine's one function for it (`varar_core::planned::plan_with_drift`,
//! the harness's and `cargo varar check`'s too). [`plan_documents_with`]
//! is the same through the server's memo of what matching each block gave
//! (`plan_with_drift_memo`, issue 39): the same analyses.

use std::sync::Arc;

use varar_core::doc::Doc;
use varar_core::plan::Matched;
use varar_core::planned::{Against, plan_with_drift, plan_with_drift_memo};
use varar_core::threads::{TWO_THREADS_FROM, side_by_side};
use varar_core::workspace::{Document, Workspace};

use super::memo::{BlockMemo, PlanMemo};
use super::model::{Analysis, PlanContext, Reuses};
use super::uses;

/// Plan the oaths `paths` of the workspace (each must be one of its oaths;
/// others are skipped): parse, plan with reuse by link, and drift against
/// the lock, by the engine's `plan_with_drift` as the harness does. One
/// engine workspace serves them all, so a document several of them reach
/// is parsed once.
pub fn plan_documents(context: &PlanContext<'_>, paths: &[&str]) -> Vec<Analysis> {
    plan_all(context, paths, None)
}

/// [`plan_documents`], every block matched from what `memo` kept of
/// earlier plans when it kept it, and kept there (the server's way, issue
/// 39): the same analyses.
pub fn plan_documents_with(
    context: &PlanContext<'_>,
    paths: &[&str],
    memo: &BlockMemo,
) -> Vec<Analysis> {
    let memo = memo.plan(context.index.generation());
    plan_all(context, paths, Some(&memo))
}

/// [`plan_documents_with`] for one oath.
pub fn plan_document_with(
    context: &PlanContext<'_>,
    oath_path: &str,
    memo: &BlockMemo,
) -> Option<Analysis> {
    plan_documents_with(context, &[oath_path], memo).pop()
}

fn plan_all(
    context: &PlanContext<'_>,
    paths: &[&str],
    memo: Option<&PlanMemo<'_>>,
) -> Vec<Analysis> {
    let paths: Vec<&str> = paths
        .iter()
        .copied()
        .filter(|p| context.oaths.text(p).is_some())
        .collect();
    let engine = context.oaths.workspace(&paths);
    let mut analyses: Vec<Analysis> = paths
        .iter()
        .filter_map(|p| analyse(context, &engine, p, memo))
        .collect();
    // Planning is over: each analysis takes its document's model from the
    // engine rather than a copy of it (copying a 5 MB oath's model cost
    // milliseconds a keystroke, issue 39).
    let mut documents = engine.into_documents();
    for i in 0..analyses.len() {
        let doc = match documents.remove(&analyses[i].oath_path) {
            Some(document) => document.into_doc(),
            // A path asked for twice: its model went to the first.
            None => match analyses[..i]
                .iter()
                .find(|a| a.oath_path == analyses[i].oath_path)
            {
                Some(first) => first.doc.clone(),
                // Planning parsed every document it planned: not reached,
                // but the model would be the same parsed again.
                None => {
                    let analysis = &analyses[i];
                    Document::parse(&analysis.oath_path, &analysis.text).into_doc()
                }
            },
        };
        let analysis = &mut analyses[i];
        analysis.doc = doc;
        let mut sentences = std::mem::take(&mut analysis.sentences);
        uses::mark_matched(analysis, &mut sentences);
        analysis.sentences = sentences;
    }
    analyses
}

/// [`plan_documents`] for one oath.
pub fn plan_document(context: &PlanContext<'_>, oath_path: &str) -> Option<Analysis> {
    plan_documents(context, &[oath_path]).pop()
}

/// The analysis of `path` but its model (see [`plan_all`]), its sentences
/// not yet marked matched. Through a memo, the sentences are those
/// matching gave; else they are split afresh.
fn analyse(
    context: &PlanContext<'_>,
    engine: &Workspace<'_>,
    path: &str,
    memo: Option<&PlanMemo<'_>>,
) -> Option<Analysis> {
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
    let against = Against::entry(entry);
    let (planned, matched) = match memo {
        Some(memo) => plan_with_drift_memo(engine, document, registry, against, memo),
        None => (
            plan_with_drift(engine, document, registry, against),
            Matched::new(),
        ),
    };
    let notices = planned.notices(registry);
    let (plan, drifts, removed) = (planned.plan, planned.drifts, planned.removed);
    let consumed = engine.consumed(document);
    let doc = document.doc();
    let links = uses::links(document, &consumed);
    let gather = || uses::sentences(doc, &links, &source.clone(), &matched);
    // A long oath's step uses and sentences are gathered side by side
    // (both took 12 ms of a keystroke in a 5 MB oath, issue 39).
    let ((steps, spliced), sentences) = if doc.examples.len() >= TWO_THREADS_FROM {
        side_by_side(|| uses::step_uses(doc, &plan, source), &gather)
    } else {
        (uses::step_uses(doc, &plan, source), gather())
    };
    let analysis = Analysis {
        oath_path: path.to_string(),
        // The engine's document was parsed from the oaths' text: the
        // same text, shared.
        text: context
            .oaths
            .shared_text(path)
            .filter(|t| std::ptr::eq(&**t, text))
            .unwrap_or_else(|| Arc::from(text)),
        tables: source.tables(),
        doc: Doc {
            path: doc.path.clone(),
            examples: Vec::new(),
            orphan_attachments: Vec::new(),
            headings: Vec::new(),
        },
        plan,
        drifts,
        removed,
        notices,
        steps,
        spliced,
        links,
        reuses: Reuses::default(),
        sentences,
        deps: context.oaths.deps(path, context.index.generation()),
    };
    Some(analysis)
}
