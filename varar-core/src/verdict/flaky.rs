//! Which items both passed and failed over the kept runs of the current
//! sources (issue 20; seed 003's same-revision repetitions), and each
//! item's outcome in each kept run: what `cargo varar flaky` says and the
//! report draws as strips. Pure.
//!
//! - **Comparable runs**: complete runs (every process ended, every
//!   planned item ran, every record of theirs could be read: issue 34)
//!   whose documents and config have the digests they recorded
//!   ([`same_sources`]); the lock is what runs write, not an
//!   input, so it is not compared. `--runs N` keeps the newest N of them.
//! - **Counts** per item, over the comparable runs that have it: runs,
//!   attempts, passes, failures (an attempt that never ended counts as
//!   one), and the runs in which it recovered. They are descriptive: no
//!   probability, no quarantine.
//! - **Flaky**: an item with a passed and a failed attempt, in one run (a
//!   retry recovered it) or across runs.
//! - **Exit**: 2 when the evidence could not be read, else 3 when fewer
//!   than two comparable runs exist (missing evidence wins over the
//!   mixture), else 1 when some item is flaky, else 0.

use std::collections::{BTreeMap, BTreeSet};

use crate::names::ItemKind;
use crate::record::{Outcome, RunRecord};
use serde::Serialize;

use crate::verdict::records::{Code, ErrorRecord};
use crate::verdict::run_evidence::{
    SourcesNow, finished, plural, same_config, same_document, same_sources,
};

/// The version of `flaky --format json`.
pub const VERSION: u32 = 1;

/// How to compare.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FlakyOptions {
    /// `--runs N`: the newest N comparable runs only.
    pub runs: Option<usize>,
}

/// What `flaky` prints.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FlakyReport {
    /// [`VERSION`].
    pub version: u32,
    /// The verdict in one word.
    pub status: FlakyStatus,
    /// 0, 1, 2 or 3.
    pub exit_code: u8,
    /// The runs compared, oldest first.
    pub runs: Vec<ComparedRun>,
    /// The runs kept that were not compared, and why.
    pub left_out: LeftOut,
    /// Every item of the compared runs: flaky ones first, then by oath,
    /// line and name.
    pub items: Vec<FlakyItem>,
    /// Why the evidence could not be compared (`too_few_runs`: exit 3;
    /// any other: exit 2).
    pub errors: Vec<ErrorRecord>,
}

/// The verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FlakyStatus {
    /// Exit 0: no item had mixed outcomes.
    Stable,
    /// Exit 1: some item had.
    Flaky,
    /// Exit 3: fewer than two comparable runs.
    Insufficient,
    /// Exit 2: the evidence could not be read.
    Error,
}

/// A run compared.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ComparedRun {
    /// Its id.
    pub run_id: String,
    /// When it started.
    pub started_at: String,
}

/// The runs not compared.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LeftOut {
    /// Not complete: a process never ended, or a planned item did not run.
    pub incomplete: usize,
    /// A record of it could not be read (issue 34): what the others say
    /// is not the whole run.
    pub unreadable: usize,
    /// Of other sources (a document or the config changed since).
    pub other_sources: usize,
    /// Older than the newest `--runs N`.
    pub beyond_limit: usize,
}

/// One item over the compared runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FlakyItem {
    /// Its full test name.
    pub name: String,
    /// Its kind.
    pub kind: ItemKind,
    /// Its oath.
    pub oath_path: String,
    /// Its line.
    pub line: u32,
    /// The compared runs that have it.
    pub runs: usize,
    /// Its attempts in them.
    pub attempts: usize,
    /// Attempts that passed.
    pub passes: usize,
    /// Attempts that failed or never ended.
    pub failures: usize,
    /// Runs in which it failed and then passed on a retry.
    pub recovered: usize,
    /// Whether it both passed and failed.
    pub flaky: bool,
    /// How each run that has it ended it, oldest first.
    pub history: Vec<RunOutcome>,
}

/// How one run ended an item.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunOutcome {
    /// The run.
    pub run_id: String,
    /// Its outcome there.
    pub outcome: ItemOutcome,
}

/// An item's outcome in one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ItemOutcome {
    /// Its only or last attempt passed, and no earlier one failed.
    Passed,
    /// An attempt failed (or never ended), then the last one passed.
    Recovered,
    /// Its last attempt failed.
    Failed,
    /// libtest ignored it.
    Ignored,
}

impl ItemOutcome {
    /// The outcome as written in JSON and text.
    pub fn as_str(self) -> &'static str {
        match self {
            ItemOutcome::Passed => "passed",
            ItemOutcome::Recovered => "recovered",
            ItemOutcome::Failed => "failed",
            ItemOutcome::Ignored => "ignored",
        }
    }
}

/// Compare the kept `runs` (in any order; those of `partial` have records
/// that could not be read, and are left out) of the sources `now`;
/// `errors`: what stopped the reading (each makes the exit 2).
pub fn compare(
    (runs, partial): (&[RunRecord], &BTreeSet<String>),
    now: &SourcesNow,
    options: FlakyOptions,
    errors: Vec<ErrorRecord>,
) -> FlakyReport {
    let mut left_out = LeftOut::default();
    let mut comparable: Vec<&RunRecord> = Vec::new();
    for run in runs {
        if partial.contains(&run.run_id) {
            left_out.unreadable += 1;
        } else if !finished(run) {
            left_out.incomplete += 1;
        } else if !same_sources(run, now) {
            left_out.other_sources += 1;
        } else {
            comparable.push(run);
        }
    }
    comparable.sort_by(|a, b| {
        a.started_at()
            .cmp(b.started_at())
            .then(a.run_id.cmp(&b.run_id))
    });
    if let Some(n) = options.runs {
        let extra = comparable.len().saturating_sub(n);
        left_out.beyond_limit = extra;
        comparable.drain(..extra);
    }
    let items = items_of(&comparable, |_, _| true);
    let mut errors = errors;
    let unreadable = !errors.is_empty();
    if comparable.len() < 2 && !unreadable {
        errors.push(too_few(comparable.len(), &left_out));
    }
    let (status, exit_code) = if unreadable {
        (FlakyStatus::Error, 2)
    } else if comparable.len() < 2 {
        (FlakyStatus::Insufficient, 3)
    } else if items.iter().any(|i| i.flaky) {
        (FlakyStatus::Flaky, 1)
    } else {
        (FlakyStatus::Stable, 0)
    };
    FlakyReport {
        version: VERSION,
        status,
        exit_code,
        runs: comparable
            .iter()
            .map(|r| ComparedRun {
                run_id: r.run_id.clone(),
                started_at: r.started_at().to_owned(),
            })
            .collect(),
        left_out,
        items,
        errors,
    }
}

/// The outcomes of every item over the kept complete runs (any order;
/// those of `partial`, some record of which could not be read, left out)
/// that read the config as it is now, each item counted in the runs that
/// read its oath (its `oathPath`) as it is now: what the report draws as
/// an example's strip, oath by oath, even when another oath changed.
pub fn strips(
    (runs, partial): (&[RunRecord], &BTreeSet<String>),
    now: &SourcesNow,
) -> Vec<FlakyItem> {
    let mut comparable: Vec<&RunRecord> = runs
        .iter()
        .filter(|r| !partial.contains(&r.run_id) && finished(r) && same_config(r, now))
        .collect();
    comparable.sort_by(|a, b| {
        a.started_at()
            .cmp(b.started_at())
            .then(a.run_id.cmp(&b.run_id))
    });
    items_of(&comparable, |run, oath| same_document(run, now, oath))
}

/// Every item of `runs` (oldest first) for which `counts(run, oath)`
/// holds, counted.
fn items_of(runs: &[&RunRecord], counts: impl Fn(&RunRecord, &str) -> bool) -> Vec<FlakyItem> {
    let mut by_name: BTreeMap<&str, FlakyItem> = BTreeMap::new();
    for run in runs {
        for evidence in run.items.iter().filter(|i| counts(run, &i.oath_path)) {
            let item = by_name
                .entry(evidence.name.as_str())
                .or_insert_with(|| FlakyItem {
                    name: evidence.name.clone(),
                    kind: evidence.kind,
                    oath_path: evidence.oath_path.clone(),
                    line: evidence.line,
                    runs: 0,
                    attempts: 0,
                    passes: 0,
                    failures: 0,
                    recovered: 0,
                    flaky: false,
                    history: Vec::new(),
                });
            item.runs += 1;
            for a in &evidence.attempts {
                item.attempts += 1;
                match a.outcome {
                    Some(Outcome::Passed) => item.passes += 1,
                    Some(Outcome::Failed) | None => item.failures += 1,
                    Some(Outcome::Ignored) => {}
                }
            }
            let outcome = if evidence.recovered() {
                item.recovered += 1;
                ItemOutcome::Recovered
            } else {
                match evidence.outcome() {
                    Some(Outcome::Passed) => ItemOutcome::Passed,
                    Some(Outcome::Ignored) => ItemOutcome::Ignored,
                    Some(Outcome::Failed) | None => ItemOutcome::Failed,
                }
            };
            item.history.push(RunOutcome {
                run_id: run.run_id.clone(),
                outcome,
            });
        }
    }
    let mut items: Vec<FlakyItem> = by_name
        .into_values()
        .map(|mut i| {
            i.flaky = i.passes > 0 && i.failures > 0;
            i
        })
        .collect();
    items.sort_by(|a, b| {
        b.flaky
            .cmp(&a.flaky)
            .then_with(|| a.oath_path.cmp(&b.oath_path))
            .then(a.line.cmp(&b.line))
            .then_with(|| a.name.cmp(&b.name))
    });
    items
}

fn too_few(found: usize, left_out: &LeftOut) -> ErrorRecord {
    let mut why = Vec::new();
    if left_out.incomplete > 0 {
        why.push(format!("{} incomplete", left_out.incomplete));
    }
    if left_out.unreadable > 0 {
        why.push(format!("{} unreadable", left_out.unreadable));
    }
    if left_out.other_sources > 0 {
        why.push(format!("{} of other sources", left_out.other_sources));
    }
    if left_out.beyond_limit > 0 {
        why.push(format!("{} beyond --runs", left_out.beyond_limit));
    }
    let left = if why.is_empty() {
        String::new()
    } else {
        format!("; left out: {}", why.join(", "))
    };
    ErrorRecord::new(
        Code::TooFewRuns,
        format!(
            "fewer than two complete runs of the current sources to compare ({} found{left}): \
             run the tests again, every run is kept in the history",
            plural(found, "run")
        ),
    )
}
