//! One oath planned among the others, with its drift against the lock: the
//! one function the `cargo test` harness, `cargo varar check` and the
//! language server plan with, so they cannot disagree on a plan, on what
//! drifted, or on the lock entry a run records.
//!
//! [`plan_with_drift`] plans the oath among the workspace's documents
//! (spec 70 §70.3: consumed sections left out, reference blocks replaced by
//! the steps of the sections they name), reads its candidates as drift sees
//! them (spec 40 §0, with spec 70 §70.5: a consumed candidate is never
//! live, and one that still runs alone elsewhere is not drift, §70.6.5),
//! and re-identifies its lock entry among them (spec 40 §5). Under
//! `VARAR_UPDATE` there is no drift (spec 40 §4.5): what would have drifted
//! is accepted as prose, and said. The same pass names the lock's examples
//! no candidate re-identifies any more (removed, spec 40 §5.2) and the new
//! ones (issue 37), under `VARAR_UPDATE` or not, so every consumer reports
//! the same removals. [`PlannedOath::record`] is what the run records for
//! the lock (spec 40 §4.2, §4.5). [`PlannedOath::notices`] is what every
//! consumer shows beside the plan (issue 37): the quirks planning met, and
//! the examples that check nothing.

use crate::drift::{
    BaselineChanges, CandidateInfo, Drift, compare_baseline, fresh_entry, into_fresh_entry,
    name_every, oath_candidates,
};
use crate::lock::{LockEntry, LockExample, OathRecord};
use crate::plan::{
    MatchMemo, Matched, Notice, Plan, checks_nothing, plan_document, plan_document_with,
};
use crate::registry::Registry;
use crate::workspace::{Document, Workspace};

/// What an oath's drift is judged against (spec 40 §4.5, §5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Against<'a> {
    /// The oath's entry in the committed lock, if it has one.
    pub entry: Option<&'a LockEntry>,
    /// Whether the run records the lock as it finds it (`VARAR_UPDATE`):
    /// then nothing drifts.
    pub update: bool,
}

impl<'a> Against<'a> {
    /// Drift detected against `entry`, as `cargo test` without
    /// `VARAR_UPDATE`, `cargo varar check` and the editor judge it.
    pub fn entry(entry: Option<&'a LockEntry>) -> Against<'a> {
        Against {
            entry,
            update: false,
        }
    }
}

/// An oath planned among the others, and its drift.
#[derive(Clone, Debug, PartialEq)]
pub struct PlannedOath {
    /// Its plan (spec 20 §20.5–20.9, 70 §70.3).
    pub plan: Plan,
    /// Its candidates as drift and the lock read them (spec 40 §0, 70
    /// §70.5): what the harness's plan cache keeps beside the plan.
    pub candidates: Vec<CandidateInfo>,
    /// The lock entry's examples that re-identify onto a dead candidate, in
    /// stored order (spec 40 §5): each is a failing test item.
    pub drifts: Vec<Drift>,
    /// Whether a lock entry's example re-identifies onto a candidate that
    /// is dead because it is ambiguous: the entry is then kept as it was,
    /// as for drift, while the ambiguity's diagnostic fails the run.
    pub held: bool,
    /// Under `VARAR_UPDATE`: the lock's examples that would have drifted,
    /// accepted as prose (empty otherwise).
    pub accepted: Vec<Drift>,
    /// The lock entry's examples no candidate re-identifies (spec 40 §5.2:
    /// deleted or rewritten past recognition), with their old name and
    /// line, in stored order: no longer checked, and dropped from the next
    /// lock unless the entry is kept for drift. Not a failure.
    pub removed: Vec<LockExample>,
    /// The examples no lock example re-identifies onto, in document order
    /// (every example of an oath the lock does not list).
    pub added: Vec<LockExample>,
}

/// Plan `document`, one of `workspace`'s documents (from
/// [`Workspace::document`] or [`Workspace::with_document`]), against
/// `registry`, and judge its drift `against` its lock entry.
///
/// ```
/// use varar_core::lock::{LockEntry, LockExample};
/// use varar_core::planned::{Against, plan_with_drift};
/// use varar_core::registry::{Registry, Role, StepSpec, Trailing};
/// use varar_core::workspace::Workspace;
///
/// let registry = Registry::build(
///     Vec::new(),
///     vec![StepSpec::new("I add {int}", Role::Stimulus, "steps.rs", 3, Trailing::None)],
/// )
/// .unwrap();
/// let ws = Workspace::build([("varar/a.md", "# Till\n\nI add 2.\n\nI remove 3.\n")]);
/// let entry = LockEntry {
///     source_hash: "fnv1a:00000000".into(),
///     examples: vec![LockExample { name: "I remove 3".into(), line: 5 }],
/// };
/// let document = ws.document("varar/a.md").unwrap();
/// let mut planned = plan_with_drift(&ws, document, &registry, Against::entry(Some(&entry)));
/// assert_eq!(planned.plan.examples.len(), 1);
/// // The lock's example no longer matches a step: drift, on its current line.
/// assert_eq!(planned.drifts[0].line, 5);
/// let record = planned.record("varar/a.md", "fnv1a:11111111");
/// assert!(record.drifted);
/// // A run takes the record, and the candidates with it.
/// assert_eq!(planned.take_record("varar/a.md", "fnv1a:11111111"), record);
/// assert!(planned.candidates.is_empty());
/// ```
pub fn plan_with_drift(
    workspace: &Workspace<'_>,
    document: &Document<'_>,
    registry: &Registry,
    against: Against<'_>,
) -> PlannedOath {
    let plan = plan_document(workspace, document, registry);
    judge(workspace, document, plan, registry, against)
}

/// [`plan_with_drift`], each block matched from what `memo` kept of an
/// earlier plan against the same registry, when it kept it (issue 39: the
/// editor re-plans a big oath on every keystroke, which changes one
/// block). The same [`PlannedOath`] as [`plan_with_drift`] gives: what a
/// block's matching gives depends only on its text and the registry.
/// Beside it, what matching each candidate of `document` gave (its
/// sentences: the editor shows them without splitting them again).
pub fn plan_with_drift_memo(
    workspace: &Workspace<'_>,
    document: &Document<'_>,
    registry: &Registry,
    against: Against<'_>,
    memo: &dyn MatchMemo,
) -> (PlannedOath, Matched) {
    let (plan, matched) = plan_document_with(workspace, document, registry, memo);
    (judge(workspace, document, plan, registry, against), matched)
}

/// The drift half of [`plan_with_drift`], given the plan.
fn judge(
    workspace: &Workspace<'_>,
    document: &Document<'_>,
    plan: Plan,
    registry: &Registry,
    against: Against<'_>,
) -> PlannedOath {
    // Whether a consumed candidate still runs alone is asked only when
    // there is an entry to compare (planning it alone costs a match per
    // sentence).
    let with_entry = against.entry.is_some();
    let mut candidates = oath_candidates(workspace, document, &plan, registry, with_entry);
    let changes = match compare_baseline(against.entry, &candidates) {
        Some(changes) => changes,
        None => {
            // The entry no longer reads as recorded: the dead candidates'
            // names are read too. Once they are made nothing is missing;
            // were anything, the entry would be kept as it was (held).
            name_every(document.doc(), &mut candidates);
            compare_baseline(against.entry, &candidates).unwrap_or(BaselineChanges {
                held: true,
                ..BaselineChanges::default()
            })
        }
    };
    PlannedOath::with_changes(plan, candidates, changes, against.update)
}

impl PlannedOath {
    /// An oath's `plan` and `candidates`, made earlier by
    /// [`plan_with_drift`] (the harness keeps them between runs), judged
    /// `against` its lock entry as [`plan_with_drift`] judges them. `None`
    /// when that needs a name the candidates were kept without (a dead
    /// one's, for an entry that no longer reads as recorded): the oath is
    /// then planned again.
    pub fn judged(
        plan: Plan,
        candidates: Vec<CandidateInfo>,
        against: Against<'_>,
    ) -> Option<Self> {
        let changes = compare_baseline(against.entry, &candidates)?;
        Some(PlannedOath::with_changes(
            plan,
            candidates,
            changes,
            against.update,
        ))
    }

    /// The oath of `plan` and `candidates`, given what its lock entry says
    /// of them (what is accepted instead of reported under `update`).
    fn with_changes(
        plan: Plan,
        candidates: Vec<CandidateInfo>,
        changes: BaselineChanges,
        update: bool,
    ) -> Self {
        let BaselineChanges {
            drifts,
            held,
            removed,
            added,
        } = changes;
        let (drifts, held, accepted) = if update {
            (Vec::new(), false, drifts)
        } else {
            (drifts, held, Vec::new())
        };
        PlannedOath {
            plan,
            candidates,
            drifts,
            held,
            accepted,
            removed,
            added,
        }
    }

    /// The oath's notices (issue 37), in document order: the quirks its
    /// plan met ([`Plan::notices`]) and its examples that check nothing
    /// against `registry`'s roles ([`checks_nothing`]). `cargo test` notes
    /// the quirks only ([`crate::plan::NoticeKind::is_quirk`]); `cargo
    /// varar check` and the editor show them all.
    pub fn notices(&self, registry: &Registry) -> Vec<Notice> {
        let mut all = self.plan.notices.clone();
        all.extend(checks_nothing(&self.plan, registry));
        all.sort_by_key(|n| (n.span.start_offset, n.span.end_offset, n.kind));
        all
    }

    /// Whether the oath's lock entry stays as it was (spec 40 §4.5): it
    /// drifted, or an ambiguity holds it.
    pub fn drifted(&self) -> bool {
        !self.drifts.is_empty() || self.held
    }

    /// What the run records of the oath at `oath_path`, whose text has the
    /// `sourceHash` `source_hash`, for the next lock (spec 40 §4.2, §4.5):
    /// the fresh entry, and whether it drifted.
    pub fn record(&self, oath_path: &str, source_hash: &str) -> OathRecord {
        OathRecord {
            oath_path: oath_path.to_owned(),
            entry: Some(fresh_entry(source_hash, &self.candidates)),
            drifted: self.drifted(),
        }
    }

    /// [`PlannedOath::record`], the candidates taken out for it (their
    /// names move into the entry): for a run, which needs them for nothing
    /// else, and frees them as soon as each oath is planned instead of
    /// once every oath is.
    pub fn take_record(&mut self, oath_path: &str, source_hash: &str) -> OathRecord {
        let candidates = std::mem::take(&mut self.candidates);
        OathRecord {
            oath_path: oath_path.to_owned(),
            entry: Some(into_fresh_entry(source_hash, candidates)),
            drifted: self.drifted(),
        }
    }
}
