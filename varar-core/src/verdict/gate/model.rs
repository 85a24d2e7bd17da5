//! What the gate says, as printed by `--format json` (version 2).

use crate::names::ItemKind;
use crate::record::{ItemEvidence, RemovedExample, RunRecord};
use serde::Serialize;

use crate::verdict::records::ErrorRecord;
use crate::verdict::run_evidence::{ItemCounts, attempts, counts, last_failure};
use crate::verdict::standing::Standing;

/// The version of the JSON output: 2 since the gate judges the run
/// (issue 19).
pub const VERSION: u32 = 2;

/// How the gate judges.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GateOptions {
    /// `--deny-recovered`: an item that failed and then passed on a retry
    /// fails the gate.
    pub deny_recovered: bool,
    /// `--deny-removed`: an example the lock listed that the latest run
    /// found no more (deleted, or reworded past recognition) fails the
    /// gate (issue 37).
    pub deny_removed: bool,
}

/// The verdict, as printed by `--format json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GateReport {
    /// [`VERSION`].
    pub version: u32,
    /// The verdict.
    pub status: GateStatus,
    /// The exit code: 0, 1 or 2.
    pub exit_code: u8,
    /// Whether recovered items fail the gate (`--deny-recovered`).
    pub deny_recovered: bool,
    /// Whether removed examples fail the gate (`--deny-removed`).
    pub deny_removed: bool,
    /// The latest run, when the project records one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run: Option<RunSummary>,
    /// Every selected oath, in discovery order.
    pub oaths: Vec<OathGate>,
    /// Every failed example of a fresh result, with its result file's
    /// detail.
    pub failures: Vec<FailureRecord>,
    /// Every item of the latest run whose last attempt failed: examples,
    /// drift, diagnostics and read errors, in the run's order.
    pub item_failures: Vec<ItemFailure>,
    /// Every item of the latest run that failed (or never ended) and then
    /// passed on a retry.
    pub recovered: Vec<RecoveredItem>,
    /// Every example the lock listed that no paragraph of its oath
    /// re-identifies in the latest run (issue 37: deleted, or reworded past
    /// recognition), by oathPath, with its old name and line: no longer
    /// checked.
    pub removed: Vec<RemovedExample>,
    /// The latest run's standing (issue 34): `complete` when the run can
    /// be judged; what every consumer shows.
    pub standing: Standing,
    /// Every problem with the evidence.
    pub errors: Vec<ErrorRecord>,
    /// What does not stop the judging: records of earlier runs that cannot
    /// be read (each names the file and what to do).
    pub warnings: Vec<ErrorRecord>,
}

/// The verdict in one word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GateStatus {
    /// Exit 0.
    Passed,
    /// Exit 1.
    Failed,
    /// Exit 2.
    Error,
}

/// The latest run in brief.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunSummary {
    /// Its id (nextest's run id, or the harness's own).
    pub run_id: String,
    /// When its first process started (RFC 3339).
    pub started_at: String,
    /// When its last process ended, once every process ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ended_at: Option<String>,
    /// Whether every process reached its end.
    pub complete: bool,
    /// How many processes it had.
    pub processes: usize,
    /// Its items.
    pub counts: ItemCounts,
}

impl RunSummary {
    /// The summary of `run`.
    pub fn of(run: &RunRecord) -> RunSummary {
        RunSummary {
            run_id: run.run_id.clone(),
            started_at: run.started_at().to_owned(),
            ended_at: run.ended_at().map(str::to_owned),
            complete: run.complete(),
            processes: run.processes.len(),
            counts: counts(run),
        }
    }
}

/// One oath's evidence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OathGate {
    /// Its oathPath.
    pub path: String,
    /// What its evidence says.
    pub status: OathStatus,
    /// Passed examples in its result file (0 without one).
    pub passed: usize,
    /// Failed examples in its result file (0 without one).
    pub failed: usize,
    /// The hash of the oath's text now (absent when it could not be read).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_hash: Option<String>,
    /// Whether its result is of its text as it is now.
    pub fresh: bool,
}

/// What one oath's evidence says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OathStatus {
    /// Fresh, every example and every other item of it passed.
    Passed,
    /// Fresh, some example failed, or an item of it in the latest run
    /// (drift, a diagnostic) failed.
    Failed,
    /// No result file.
    Missing,
    /// No result file, and none is expected: every paragraph of the oath
    /// lies in a section other oaths link to, which runs there (spec 70).
    Linked,
    /// A result of another version of the oath, or of a text no record
    /// of the latest run names by SHA-256.
    Stale,
    /// The result file could not be read or was refused.
    Invalid,
    /// The oath (or a document its result names) could not be read.
    Unreadable,
}

/// One failed example, from its result file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FailureRecord {
    /// The oath.
    pub oath_path: String,
    /// The line of the failure (in `docPath` when present).
    pub line: u32,
    /// The example's name.
    pub example: String,
    /// The failure message.
    pub message: String,
    /// Version 2: the document `line` is in, when not the oath.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc_path: Option<String>,
}

/// One item of the latest run whose last attempt failed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ItemFailure {
    /// Its full test name.
    pub name: String,
    /// `example`, `drift`, `diagnostic` or `read-error`.
    pub kind: ItemKind,
    /// Its oath (for a diagnostic, the document it is written in; for a
    /// read error, the path that could not be read).
    pub oath_path: String,
    /// Its line (0 for a read error).
    pub line: u32,
    /// Why it failed, as plain text (for an example, the first line: the
    /// result file holds the whole failure).
    pub message: String,
    /// How many attempts it had.
    pub attempts: usize,
}

impl ItemFailure {
    /// The failure of `item`.
    pub fn of(item: &ItemEvidence) -> ItemFailure {
        ItemFailure {
            name: item.name.clone(),
            kind: item.kind,
            oath_path: item.oath_path.clone(),
            line: item.line,
            message: last_failure(item)
                .unwrap_or("failed (the run record holds no message)")
                .to_owned(),
            attempts: attempts(item),
        }
    }
}

/// One item of the latest run that failed and then passed on a retry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RecoveredItem {
    /// Its full test name.
    pub name: String,
    /// Its kind.
    pub kind: ItemKind,
    /// Its oath.
    pub oath_path: String,
    /// Its line.
    pub line: u32,
    /// How many attempts it had (the last one passed).
    pub attempts: usize,
    /// Why its last failed attempt failed, when it failed rather than never
    /// ending.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

impl RecoveredItem {
    /// The recovery of `item`.
    pub fn of(item: &ItemEvidence) -> RecoveredItem {
        RecoveredItem {
            name: item.name.clone(),
            kind: item.kind,
            oath_path: item.oath_path.clone(),
            line: item.line,
            attempts: attempts(item),
            message: last_failure(item).map(str::to_owned),
        }
    }
}
