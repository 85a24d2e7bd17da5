//! Planning with reuse by link (spec 70 §70.3): phase 1 plans the oath's
//! own candidates that no reference consumes, reference blocks set aside;
//! phase 2 groups them (spec 20 §20.8, with §70.3.2 for reference units),
//! resolving each reference block where it stands.
//!
//! [`plan_oath`] plans one oath of a workspace; [`super::plan`] plans a
//! document alone, against the empty workspace.

use std::sync::{Arc, OnceLock};

use super::grouping;
use super::matching::Matcher;
use super::matching::TextMatch;
use super::memo::{MatchMemo, Memoised};
use super::model::{Diagnostic, DiagnosticCode, Notice, Plan};
use super::resolve::{Resolver, cycle_message};
use super::split::{SplitSentence, split};
use super::units::{ReferenceUnit, Unit, plan_one, plan_one_matched};
use crate::doc::Doc;
use crate::registry::Registry;
use crate::source::Source;
use crate::threads::{TWO_THREADS_FROM, map_in_halves};
use crate::workspace::{Document, View, Workspace, WorkspaceError, consumed, recognise_all};

/// Plan the oath `oath_path` of `workspace` against `registry` (spec 70
/// §70.3): consumed sections are left out, reference blocks are replaced by
/// the steps of the sections they name, and every problem, the four
/// reference diagnostics included, is collected.
///
/// ```
/// use varar_core::{plan::plan_oath, registry::Registry, workspace::Workspace};
/// let ws = Workspace::build([
///     ("varar/checkout.md", "# Pay\n\n[Fill](shared.md#fill)\n"),
///     ("varar/shared.md", "## Fill\n\nI add 2.\n"),
/// ]);
/// let registry = Registry::build(Vec::new(), Vec::new()).unwrap();
/// let plan = plan_oath(&ws, "varar/checkout.md", &registry).unwrap();
/// // No step is registered, so the section contributes nothing.
/// assert_eq!(plan.diagnostics[0].code.as_str(), "reference-empty");
/// ```
pub fn plan_oath(
    workspace: &Workspace<'_>,
    oath_path: &str,
    registry: &Registry,
) -> Result<Plan, WorkspaceError> {
    let document = workspace
        .document(oath_path)
        .ok_or_else(|| WorkspaceError::NotInWorkspace {
            oath_path: oath_path.to_owned(),
        })?;
    Ok(plan_document(workspace, document, registry))
}

/// [`plan_oath`] of a document already in hand: one of `workspace`'s
/// documents (from [`Workspace::document`] or [`Workspace::with_document`]).
pub fn plan_document(
    workspace: &Workspace<'_>,
    document: &Document<'_>,
    registry: &Registry,
) -> Plan {
    plan_view(workspace, document.view(), registry, &split, None)
}

/// [`plan_document`] with `registry` asking `memo` before it matches a
/// block: the same plan, made from what `memo` kept of earlier ones, with
/// what matching each candidate of the document gave ([`Matched`]).
pub(crate) fn plan_document_with(
    workspace: &Workspace<'_>,
    document: &Document<'_>,
    registry: &Registry,
    memo: &dyn MatchMemo,
) -> (Plan, Matched) {
    let matcher = Memoised { registry, memo };
    let mut matched = Matched::new();
    let plan = plan_view(
        workspace,
        document.view(),
        &matcher,
        &split,
        Some(&mut matched),
    );
    (plan, matched)
}

/// Plan `doc` alone, against the empty workspace.
pub(crate) fn plan_alone(
    doc: &Doc,
    source: &Source<'_>,
    matcher: &(dyn Matcher + Sync),
    split: &(dyn Fn(&str) -> Vec<SplitSentence> + Sync),
) -> Plan {
    let references = recognise_all(doc);
    let slugs = OnceLock::new();
    let view = View {
        path: &doc.path,
        doc,
        source,
        references: &references,
        slugs: &slugs,
    };
    plan_view(&Workspace::empty(), view, matcher, split, None)
}

/// What matching each candidate of a document gave, by candidate index:
/// `None` for a reference block and for a candidate a reference consumes
/// (neither is matched in its own oath).
pub type Matched = Vec<Option<Arc<TextMatch>>>;

/// Phase 1 and phase 2 of spec 70 §70.3 for the document `oath`; into
/// `matched`, when given, what matching each of its candidates gave.
pub(crate) fn plan_view<'d>(
    workspace: &'d Workspace<'_>,
    oath: View<'d>,
    matcher: &(dyn Matcher + Sync),
    split: &(dyn Fn(&str) -> Vec<SplitSentence> + Sync),
    mut matched: Option<&mut Matched>,
) -> Plan {
    let consumed = consumed(workspace, &oath);
    // Kept only when asked for: a plan made afresh frees each block's
    // match as soon as its unit is made (holding them all to the end made
    // opening a 5 MB oath half as slow again).
    if let Some(matched) = matched.as_deref_mut() {
        matched.clear();
        matched.resize(oath.doc.examples.len(), None);
    }
    let is_consumed = |index: usize| consumed.get(index).copied().unwrap_or(false);
    // Each ordinary candidate (neither consumed nor a reference block) is
    // planned on its own: those of a long oath on two threads, before the
    // units are put in order.
    let ordinary = |index: usize| !is_consumed(index) && oath.reference(index).is_none();
    let keep_matched = matched.is_some();
    let mut planned = plan_ordinary(&oath, matcher, split, &ordinary, keep_matched).into_iter();
    let mut diagnostics = Vec::new();
    let mut notices = Vec::new();
    let mut units = Vec::with_capacity(oath.doc.examples.len());
    for (index, candidate) in oath.doc.examples.iter().enumerate() {
        if ordinary(index) {
            if let Some(Some(mut one)) = planned.next() {
                diagnostics.append(&mut one.diagnostics);
                notices.append(&mut one.notices);
                units.push(one.unit);
                if let Some(slot) = matched.as_deref_mut().and_then(|m| m.get_mut(index)) {
                    *slot = one.found;
                }
            }
            continue;
        }
        planned.next();
        let reference = oath.reference(index);
        if is_consumed(index) {
            // A link inside the very section it names can never run: say so
            // rather than plan nothing in silence (spec 70 §70.6.8).
            if let Some(r) = reference
                && r.path == oath.path
                && (r.is_whole_file() || oath.scope_has(index, &r.slug))
            {
                diagnostics.push(Diagnostic {
                    code: DiagnosticCode::ReferenceCycle,
                    span: candidate.span,
                    message: cycle_message(&[r.key(), r.key()]),
                    doc_path: None,
                });
            }
            continue;
        }
        // Never matched, never prose; attachments (an `error` fence
        // included) are ignored.
        if let Some(reference) = reference {
            units.push(Unit::Reference(ReferenceUnit {
                candidate,
                reference,
            }));
        }
    }
    let mut resolver = Resolver {
        workspace,
        oath,
        matcher,
        split,
        diagnostics: Vec::new(),
    };
    let examples = grouping::group_with(units, &mut |unit| resolver.resolve(unit));
    diagnostics.append(&mut resolver.diagnostics);
    Plan {
        examples,
        diagnostics,
        notices,
    }
}

/// One ordinary candidate planned: its unit, and the diagnostics and
/// notices planning it appended.
struct PlannedOne<'d> {
    unit: Unit<'d>,
    diagnostics: Vec<Diagnostic>,
    notices: Vec<Notice>,
    /// What matching its block gave, when the caller keeps it.
    found: Option<Arc<TextMatch>>,
}

/// Each candidate of `oath` planned alone when it is `ordinary` (`None`
/// for the others), in order: on two threads, each a half of the oath,
/// when the oath is long (the harness plans one long oath on one thread,
/// and the plan is the same either way).
fn plan_ordinary<'d>(
    oath: &View<'d>,
    matcher: &(dyn Matcher + Sync),
    split: &(dyn Fn(&str) -> Vec<SplitSentence> + Sync),
    ordinary: &(dyn Fn(usize) -> bool + Sync),
    keep_matched: bool,
) -> Vec<Option<PlannedOne<'d>>> {
    let candidates = &oath.doc.examples;
    // Each thread its own copy of the source (the tables shared): a source
    // remembers the line it was last asked for, and two threads asking in
    // two halves of the oath would each undo the other's (a search for
    // every span instead of a step on).
    let source = || oath.source.clone();
    map_in_halves(
        candidates.len(),
        TWO_THREADS_FROM,
        &source,
        &|source, index| {
            if !ordinary(index) {
                return None;
            }
            let mut one = PlannedOne {
                unit: Unit::Unmatched,
                diagnostics: Vec::new(),
                notices: Vec::new(),
                found: None,
            };
            let candidate = &candidates[index];
            let (diagnostics, notices) = (&mut one.diagnostics, &mut one.notices);
            if keep_matched {
                let (unit, found) =
                    plan_one_matched(candidate, source, matcher, split, diagnostics, notices);
                (one.unit, one.found) = (unit, Some(found));
            } else {
                one.unit = plan_one(candidate, source, matcher, split, diagnostics, notices);
            }
            Some(one)
        },
    )
}

/// Whether candidate `index` of the oath `oath_path`, planned alone, has a
/// step (a matched paragraph or a header-bound table), or is itself a
/// reference block: what a consumed candidate needs to run where it is
/// referenced (spec 70 §70.6.5). `false` when the oath or the candidate
/// does not exist.
pub fn runs_alone(
    workspace: &Workspace<'_>,
    oath_path: &str,
    index: usize,
    registry: &Registry,
) -> bool {
    let Some(document) = workspace.document(oath_path) else {
        return false;
    };
    let view = document.view();
    if view.reference(index).is_some() {
        return true;
    }
    let Some(candidate) = view.doc.examples.get(index) else {
        return false;
    };
    let unit = plan_one(
        candidate,
        view.source,
        registry,
        &split,
        &mut Vec::new(),
        &mut Vec::new(),
    );
    matches!(unit, Unit::Matched(_) | Unit::HeaderBound(_))
}
