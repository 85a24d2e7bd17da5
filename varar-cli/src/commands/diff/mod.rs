//! `cargo varar diff OLD NEW`: what changed between two runs' results
//! (pure; the shell is [`crate::commands::diff`]).
//!
//! Examples are matched by oath path and example name; repeated names in
//! one oath are paired in document order (the first with the first).
//! Each pair or orphan is one of:
//!
//! - `regressed`: passed in OLD, failed in NEW;
//! - `fixed`: failed in OLD, passed in NEW;
//! - `added`: only in NEW (with its status);
//! - `removed`: only in OLD;
//! - `stillFailing`: failed in both, with whether the message changed;
//! - unchanged passes are only counted.
//!
//! The items results files do not hold (drift, diagnostics, read errors;
//! issue 19) are compared too, from the latest run of each tree (its run
//! records in `.runs/`), by their full item name, as changes of the oath
//! (or document) they belong to: a drift that passed in OLD and fails in
//! NEW regressed, one only NEW has and that fails was added failing. An
//! item whose last attempt did not end is left out, and a tree without run
//! records has no such items.
//!
//! Each tree's run is judged as the gate judges a project's
//! ([`varar_core::verdict::standing`], issue 34; its sources are another checkout's, so
//! they are not compared with the files here): a tree whose latest run is
//! unreadable, unrecorded or incomplete is not compared at all (exit 2,
//! the reasons as records, each naming its tree), because its result files
//! may be an earlier run's; a tree without run records (another port's)
//! is compared by its result files, and the JSON says so (`oldRun`,
//! `newRun`: each tree's standing).
//!
//! The examples NEW's latest run found no more in its lock (issue 37:
//! deleted, or reworded past recognition, which `cargo test` does not
//! fail) are listed apart (`removedFromLock`, with their old text and
//! line), whatever the result files say: such an example shows in them
//! only as `removed`, its rewording as `added`.
//!
//! Exit 1 when something regressed **or an added example failed** (a new
//! failing example is as much a new failure as a regression; seed 003's
//! historical gate counts "an added adverse testcase" the same way), 0
//! otherwise, 2 when a tree could not be read or its run cannot be judged. Whether an oath's source
//! changed between the runs (`sourceHash`, `documents`, `version`) is
//! reported per oath; it does not prevent the comparison, which is by
//! name.

pub mod args;
pub mod shell;
pub mod text;

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use varar_core::names::ItemKind;
use varar_core::record::{Outcome as RunOutcome, RemovedExample, RunRecord};
use varar_core::results::{ExampleResult, OathResults, Status};
use varar_project::discovery::cmp_oath_paths;

use crate::tree::Tree;
use varar_core::verdict::records::{ErrorRecord, exit_code};
use varar_core::verdict::run_evidence::last_failure;
use varar_core::verdict::standing::{Against, RunStanding, Standing};

/// The version of the JSON output.
pub const VERSION: u32 = 1;

/// The comparison, as printed by `--format json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DiffReport {
    /// [`VERSION`].
    pub version: u32,
    /// The verdict in one word.
    pub status: DiffStatus,
    /// 0, 1 (regressed) or 2 (unusable input).
    pub exit_code: u8,
    /// The OLD tree as given.
    pub old: String,
    /// The NEW tree as given.
    pub new: String,
    /// Counts of every kind of change.
    pub summary: Summary,
    /// Every oath with at least one change, in oathPath order.
    pub oaths: Vec<OathDiff>,
    /// The standing of OLD's latest run (absent when OLD could not be read).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_run: Option<Standing>,
    /// The standing of NEW's latest run (absent when NEW could not be read).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_run: Option<Standing>,
    /// The examples NEW's latest run found no more in its lock (issue 37),
    /// by oathPath, with their old name and line: no longer checked.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub removed_from_lock: Vec<RemovedExample>,
    /// Every problem with the inputs.
    pub errors: Vec<ErrorRecord>,
    /// What does not stop the comparison: a tree without a run record, a
    /// record of an earlier run that cannot be read.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<ErrorRecord>,
}

/// The verdict in one word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum DiffStatus {
    /// Nothing changed.
    Unchanged,
    /// Something changed, nothing regressed (exit 0).
    Changed,
    /// Something regressed or a new example fails (exit 1).
    Regressed,
    /// An input could not be used (exit 2).
    Error,
}

/// How many examples of each kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    /// Passed → failed.
    pub regressed: usize,
    /// Failed → passed.
    pub fixed: usize,
    /// Only in NEW.
    pub added: usize,
    /// Only in OLD.
    pub removed: usize,
    /// Failed → failed.
    pub still_failing: usize,
    /// Passed → passed.
    pub unchanged: usize,
}

/// The changes of one oath.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OathDiff {
    /// Its oathPath.
    pub path: String,
    /// Whether the oath's source differs between the runs; absent when it
    /// has results in only one of them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_changed: Option<bool>,
    /// Its changes: NEW's examples in document order, then removed ones.
    pub changes: Vec<Change>,
}

/// The kind of a change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ChangeKind {
    /// Passed → failed.
    Regressed,
    /// Failed → passed.
    Fixed,
    /// Only in NEW.
    Added,
    /// Only in OLD.
    Removed,
    /// Failed → failed.
    StillFailing,
}

/// One changed example.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Change {
    /// What changed.
    pub kind: ChangeKind,
    /// The example's name.
    pub example: String,
    /// Its outcome in OLD (absent when added).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old: Option<Outcome>,
    /// Its outcome in NEW (absent when removed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new: Option<Outcome>,
    /// `stillFailing` only: whether the failure message differs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message_changed: Option<bool>,
}

/// An example's outcome in one run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Outcome {
    /// `passed` or `failed`.
    pub status: &'static str,
    /// Its first line (absent when it has none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// The failure message, when it failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

impl Outcome {
    fn of(e: &ExampleResult) -> Outcome {
        Outcome {
            status: match e.status {
                Status::Passed => "passed",
                Status::Failed => "failed",
            },
            line: e
                .failure
                .as_ref()
                .map(|f| f.line)
                .or(e.lines.first().copied()),
            message: e.failure.as_ref().map(|f| f.message.clone()),
        }
    }
}

impl DiffReport {
    /// The report of a comparison that could not read its inputs.
    pub fn unusable(old: String, new: String, errors: Vec<ErrorRecord>) -> DiffReport {
        DiffReport {
            version: VERSION,
            status: DiffStatus::Error,
            exit_code: exit_code(&errors, 0),
            old,
            new,
            summary: Summary::default(),
            oaths: Vec::new(),
            old_run: None,
            new_run: None,
            removed_from_lock: Vec::new(),
            errors,
            warnings: Vec::new(),
        }
    }
}

/// Each tree's run standing, its problems and warnings named by the tree.
fn standing_of(tree: &Tree) -> RunStanding {
    let mut s = tree.run.standing(Against {
        expected: &BTreeSet::new(),
        sources: false,
    });
    let named = |e: &mut ErrorRecord| e.message = format!("`{}`: {}", tree.shown, e.message);
    s.problems.iter_mut().for_each(named);
    s.warnings.iter_mut().for_each(named);
    if s.standing == Standing::Missing {
        // Another port's tree: its result files are compared, and nothing
        // else is.
        s.warnings.append(&mut s.problems);
        s.warnings.iter_mut().for_each(|w| {
            w.message
                .push_str("; its drift, diagnostics and read errors are not compared")
        });
    }
    s
}

/// Compare two trees, each only when its run can be judged.
pub fn compare(old: &Tree, new: &Tree) -> DiffReport {
    let (o, n) = (standing_of(old), standing_of(new));
    let mut warnings: Vec<ErrorRecord> = o.warnings.iter().chain(&n.warnings).cloned().collect();
    if !o.problems.is_empty() || !n.problems.is_empty() {
        let errors = o.problems.iter().chain(&n.problems).cloned().collect();
        let mut report = DiffReport::unusable(old.shown.clone(), new.shown.clone(), errors);
        report.old_run = Some(o.standing);
        report.new_run = Some(n.standing);
        report.warnings = warnings;
        return report;
    }
    let mut report = compare_judged(old, new);
    report.old_run = Some(o.standing);
    report.new_run = Some(n.standing);
    report.warnings.append(&mut warnings);
    report
}

/// Compare two trees whose runs can be judged.
fn compare_judged(old: &Tree, new: &Tree) -> DiffReport {
    type Side<'a> = (Option<&'a OathResults>, Vec<Item>);
    let mut pairs: BTreeMap<String, (Side<'_>, Side<'_>)> = BTreeMap::new();
    for f in &old.files {
        pairs.entry(f.oath_path.clone()).or_default().0.0 = Some(&f.results);
    }
    for f in &new.files {
        pairs.entry(f.oath_path.clone()).or_default().1.0 = Some(&f.results);
    }
    for (oath, item) in items(old.latest_run()) {
        pairs.entry(oath).or_default().0.1.push(item);
    }
    for (oath, item) in items(new.latest_run()) {
        pairs.entry(oath).or_default().1.1.push(item);
    }
    let mut ordered: Vec<_> = pairs.into_iter().collect();
    ordered.sort_by(|a, b| cmp_oath_paths(&a.0, &b.0));
    let mut summary = Summary::default();
    let mut oaths = Vec::new();
    let mut adverse = false;
    for (path, ((o, old_items), (n, new_items))) in ordered {
        let none: &[ExampleResult] = &[];
        let mut changes = compare_examples(
            o.map_or(none, |r| &r.examples),
            n.map_or(none, |r| &r.examples),
            &mut summary,
        );
        changes.extend(compare_items(&old_items, &new_items, &mut summary));
        adverse |= changes.iter().any(|c| {
            c.kind == ChangeKind::Regressed
                || (c.kind == ChangeKind::Added
                    && c.new.as_ref().is_some_and(|o| o.status == "failed"))
        });
        if changes.is_empty() {
            continue;
        }
        let source_changed = match (o, n) {
            (Some(o), Some(n)) => Some(
                o.source_hash != n.source_hash
                    || o.documents != n.documents
                    || o.version != n.version,
            ),
            _ => None,
        };
        oaths.push(OathDiff {
            path,
            source_changed,
            changes,
        });
    }
    let (status, exit_code) = match (adverse, oaths.is_empty()) {
        (true, _) => (DiffStatus::Regressed, 1),
        (false, true) => (DiffStatus::Unchanged, 0),
        (false, false) => (DiffStatus::Changed, 0),
    };
    DiffReport {
        version: VERSION,
        status,
        exit_code,
        old: old.shown.clone(),
        new: new.shown.clone(),
        summary,
        oaths,
        old_run: None,
        new_run: None,
        removed_from_lock: new
            .latest_run()
            .map(|run| run.removed().into_iter().cloned().collect())
            .unwrap_or_default(),
        errors: Vec::new(),
        warnings: Vec::new(),
    }
}

/// A drift, diagnostic or read-error item of a run and how its last
/// attempt ended.
#[derive(Clone, Debug)]
struct Item {
    name: String,
    outcome: Outcome,
}

/// The ended non-example items of `run`, with the oath each belongs to.
fn items(run: Option<&RunRecord>) -> Vec<(String, Item)> {
    let Some(run) = run else {
        return Vec::new();
    };
    run.items
        .iter()
        .filter(|i| i.kind != ItemKind::Example)
        .filter_map(|i| {
            let status = match i.outcome()? {
                RunOutcome::Passed => "passed",
                RunOutcome::Failed => "failed",
                _ => return None,
            };
            let outcome = Outcome {
                status,
                line: (i.line > 0).then_some(i.line),
                message: (status == "failed")
                    .then(|| last_failure(i).unwrap_or("failed").to_owned()),
            };
            Some((
                i.oath_path.clone(),
                Item {
                    name: i.name.clone(),
                    outcome,
                },
            ))
        })
        .collect()
}

fn compare_examples(
    old: &[ExampleResult],
    new: &[ExampleResult],
    summary: &mut Summary,
) -> Vec<Change> {
    let mut used = vec![false; old.len()];
    let mut changes = Vec::new();
    for n in new {
        let found = old
            .iter()
            .enumerate()
            .position(|(i, o)| !used[i] && o.name == n.name);
        let o = found.map(|i| {
            used[i] = true;
            Outcome::of(&old[i])
        });
        changes.extend(change(&n.name, o, Some(Outcome::of(n)), summary));
    }
    for (o, _) in old.iter().zip(&used).filter(|(_, used)| !**used) {
        changes.extend(change(&o.name, Some(Outcome::of(o)), None, summary));
    }
    changes
}

/// The changes of items, paired by name: NEW's in order, then removed ones.
fn compare_items(old: &[Item], new: &[Item], summary: &mut Summary) -> Vec<Change> {
    let mut changes = Vec::new();
    for n in new {
        let o = old.iter().find(|o| o.name == n.name);
        changes.extend(change(
            &n.name,
            o.map(|o| o.outcome.clone()),
            Some(n.outcome.clone()),
            summary,
        ));
    }
    for o in old.iter().filter(|o| !new.iter().any(|n| n.name == o.name)) {
        changes.extend(change(&o.name, Some(o.outcome.clone()), None, summary));
    }
    changes
}

/// The change of `name` between its outcome in OLD and in NEW, counted in
/// `summary`; `None` when it passed in both.
fn change(
    name: &str,
    old: Option<Outcome>,
    new: Option<Outcome>,
    summary: &mut Summary,
) -> Option<Change> {
    let failed = |o: &Option<Outcome>| o.as_ref().map(|o| o.status == "failed");
    let (kind, message_changed) = match (failed(&old), failed(&new)) {
        (None, None) => return None,
        (None, Some(_)) => (ChangeKind::Added, None),
        (Some(_), None) => (ChangeKind::Removed, None),
        (Some(false), Some(false)) => {
            summary.unchanged += 1;
            return None;
        }
        (Some(false), Some(true)) => (ChangeKind::Regressed, None),
        (Some(true), Some(false)) => (ChangeKind::Fixed, None),
        (Some(true), Some(true)) => {
            let message = |o: &Option<Outcome>| o.as_ref().and_then(|o| o.message.clone());
            (
                ChangeKind::StillFailing,
                Some(message(&old) != message(&new)),
            )
        }
    };
    match kind {
        ChangeKind::Regressed => summary.regressed += 1,
        ChangeKind::Fixed => summary.fixed += 1,
        ChangeKind::Added => summary.added += 1,
        ChangeKind::Removed => summary.removed += 1,
        ChangeKind::StillFailing => summary.still_failing += 1,
    }
    Some(Change {
        kind,
        example: name.to_owned(),
        old,
        new,
        message_changed,
    })
}
