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
use super::model::{Diagnostic, DiagnosticCode, Plan};
use super::resolve::{Resolver, cycle_message};
use super::split::{SplitSentence, split};
use super::units::{ReferenceUnit, Unit, plan_one, plan_one_matched};
use crate::doc::Doc;
use crate::registry::Registry;
use crate::source::Source;
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
    matcher: &dyn Matcher,
    split: &dyn Fn(&str) -> Vec<SplitSentence>,
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
    matcher: &dyn Matcher,
    split: &dyn Fn(&str) -> Vec<SplitSentence>,
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
    let mut diagnostics = Vec::new();
    let mut notices = Vec::new();
    let mut units = Vec::with_capacity(oath.doc.examples.len());
    for (index, candidate) in oath.doc.examples.iter().enumerate() {
        let reference = oath.reference(index);
        if consumed.get(index).copied().unwrap_or(false) {
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
        units.push(match reference {
            // Never matched, never prose; attachments (an `error` fence
            // included) are ignored.
            Some(reference) => Unit::Reference(ReferenceUnit {
                candidate,
                reference,
            }),
            None => {
                let (unit, found) = plan_one_matched(
                    candidate,
                    oath.source,
                    matcher,
                    split,
                    &mut diagnostics,
                    &mut notices,
                );
                if let Some(slot) = matched.as_deref_mut().and_then(|m| m.get_mut(index)) {
                    *slot = Some(found);
                }
                unit
            }
        });
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
