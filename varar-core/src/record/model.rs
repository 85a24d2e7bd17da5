//! What one process writes: its record, version 1.
//!
//! Two members were added to version 1 without a bump (the reader ignores
//! members it does not know, so older readers read such a record): `project`
//! names the project a record belongs to, for readers of a run history that
//! several projects share; `unwritten` lists the oaths whose result files
//! the process could not write. A process that could not write every result
//! file records itself `complete: false` even when it reached its end, so
//! that a reader that does not know `unwritten` still refuses the run
//! instead of passing on the older result files left in place (issue 34).
//! `removed` (issue 37) lists the examples the lock listed that the
//! process found no more ([`RemovedExample`]); a reader that does not know
//! it sees a record without removals, as before.
//!
//! The run record is this port's own evidence file (issue 19), not a
//! cross-port contract: the result files (`.varar/<oathPath>.json`) are,
//! and they are unchanged.

#[cfg(feature = "serde")]
use serde::Serialize;

use std::sync::Arc;

use crate::json::Pretty;
use crate::json::write::{Key, key};
use crate::names::ItemKind;

/// The version of [`ProcessRecord`] this crate reads and writes.
pub const RECORD_VERSION: u32 = 1;

/// The `format` member every record carries, so a file is recognised as a
/// run record whatever its name.
pub const RECORD_FORMAT: &str = "varar-run-record";

/// The extension of a record file: never `.json`, so a record can never be
/// taken for an oath's result file.
pub const RECORD_EXTENSION: &str = "run";

/// The record one process writes of its share of a run.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct ProcessRecord {
    /// [`RECORD_VERSION`].
    pub version: u32,
    /// [`RECORD_FORMAT`].
    pub format: String,
    /// The version of Varar that wrote it.
    pub varar: String,
    /// The run this process belongs to: nextest's run id, the run a rerun
    /// continues, or a fresh id.
    pub run_id: String,
    /// This process, unique within the run.
    pub process_id: String,
    /// Whether the process reached its end with its evidence written: its
    /// record, and every result file it had to write (see
    /// [`ProcessRecord::unwritten`]).
    pub complete: bool,
    /// The project it ran, as [`ProcessRecord::project`] names it: a
    /// lowercase hexadecimal SHA-256 of the project root's canonical path
    /// (no path is written into a record, which travels with `.varar/`).
    /// Absent in records written before issue 34.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub project: Option<String>,
    /// When it started, RFC 3339 UTC with milliseconds.
    pub started_at: String,
    /// When it ended; absent while incomplete.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub ended_at: Option<String>,
    /// The libtest arguments it was given (filters, `--exact`, `--skip`).
    pub arguments: Vec<String>,
    /// The options in effect.
    pub options: Options,
    /// Set when nextest started the process.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub nextest: Option<NextestRun>,
    /// Set when the process is a rerun (`VARAR_RERUN=failed`) that
    /// continues the run `run_id` names.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub rerun: Option<RerunOf>,
    /// The inputs, by digest.
    pub manifest: Manifest,
    /// Every item the process selected, in the order it listed them.
    pub items: Vec<Item>,
    /// The items of the oaths this process planned that it did not select:
    /// with [`ProcessRecord::items`], every item those oaths have.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub unselected: Vec<String>,
    /// The oaths whose result files (`.varar/<oathPath>.json`) this process
    /// had to write and could not, in oathPath order: the files on disk
    /// are older than this run. A process that lists any records itself
    /// `complete: false`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub unwritten: Vec<String>,
    /// The examples the lock listed for the oaths this process planned that
    /// no paragraph re-identifies any more (spec 40 §5.2: deleted or
    /// rewritten past recognition), in discovery and stored order: no
    /// longer checked (issue 37). Absent when there are none.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub removed: Vec<RemovedExample>,
}

/// An example the lock listed that no paragraph of its oath re-identifies
/// any more (issue 37): its oath, and its name and line as the lock
/// recorded them.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct RemovedExample {
    /// Its oathPath.
    pub oath_path: String,
    /// Its name, as the lock recorded it (the old text).
    pub name: String,
    /// Its line, as the lock recorded it (the old line).
    pub line: i64,
}

/// The options of a process (what changes what it does).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Options {
    /// Whether drift was accepted (`VARAR_UPDATE` or `Runner::accept_drift`).
    pub update: bool,
    /// The example time limit as written (`VARAR_TIMEOUT`), if any.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub timeout: Option<String>,
    /// libtest's threads (`--test-threads`), when given.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub threads: Option<usize>,
    /// `built-in` or `tokio`: what drives async steps.
    pub runtime: String,
}

/// What nextest said about the process (nextest ≥ 0.9.138 sets all four).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct NextestRun {
    /// `NEXTEST_RUN_ID`.
    pub run_id: String,
    /// `NEXTEST_ATTEMPT`: 1 for the first try, 2 for the first retry…
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub attempt: Option<u32>,
    /// `NEXTEST_TOTAL_ATTEMPTS`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub total_attempts: Option<u32>,
    /// `NEXTEST_TEST_NAME`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub test_name: Option<String>,
}

/// A rerun: which items of the earlier run it was asked to run again.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct RerunOf {
    /// `failed`: the items that failed or did not run.
    pub mode: String,
    /// The invocation this process is part of (nextest's run id, or this
    /// process's own id): processes of one rerun leave each other out when
    /// they decide what to rerun.
    pub group: String,
}

/// The inputs of a process, by SHA-256 (seed 002's manifest).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Manifest {
    /// `varar.config.json`; absent when the project has none.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub config: Option<FileDigest>,
    /// `varar.lock.json` as the run found it; absent when there was none.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub lock_before: Option<FileDigest>,
    /// `varar.lock.json` as the run left it; absent while incomplete or
    /// when there is none.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub lock_after: Option<FileDigest>,
    /// Every document the process read (oaths and the documents they link
    /// to), in oathPath order.
    pub documents: Vec<DocumentDigest>,
    /// The test binary that ran; absent when it could not be read.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub test_binary: Option<FileDigest>,
    /// Whether the run can be reproduced from these inputs alone. Always
    /// `false` for Varar: see `limitations`.
    pub reproducible: bool,
    /// Why it cannot.
    pub limitations: Vec<String>,
}

/// A file and its SHA-256.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct FileDigest {
    /// The file, relative to the project root (`/`-separated), or the test
    /// binary's file name.
    pub path: String,
    /// Lowercase hexadecimal SHA-256 of its bytes.
    pub sha256: String,
}

/// A document the process read.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct DocumentDigest {
    /// Its oathPath.
    pub path: String,
    /// Lowercase hexadecimal SHA-256 of its bytes.
    pub sha256: String,
    /// Its `sourceHash` (spec 40 §3), what results name it by.
    pub source_hash: String,
}

/// One selected item and what it did.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Item {
    /// Its full test name, as `--list` prints it without the kind prefix
    /// (shared with the harness's own copy of the name).
    pub name: Arc<str>,
    /// What kind of item it is.
    pub kind: ItemKind,
    /// The oath it belongs to (for a diagnostic: the document it is written
    /// in; for a read error: the path that could not be read). Shared by
    /// the items of one oath.
    pub oath_path: Arc<str>,
    /// Its line: an example's first line, a drift's or diagnostic's line; 0
    /// for a read error.
    pub line: u32,
    /// Its attempt in the run: 1, or the retry or rerun it is.
    pub attempt: u32,
    /// How it ended; absent when the process ended before it did.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub outcome: Option<Outcome>,
    /// How long it ran, in milliseconds; absent when it did not end.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub duration_ms: Option<f64>,
    /// Why it failed, as plain text: the first line for an example (its
    /// result file holds the whole failure), the whole text otherwise.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub message: Option<String>,
}

/// How an item ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Outcome {
    /// It passed.
    Passed,
    /// It failed.
    Failed,
    /// libtest ignored it.
    Ignored,
}

/// One attempt of an item, as the combined run sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct Attempt {
    /// The attempt number.
    pub attempt: u32,
    /// How it ended; `None` when its process ended first.
    pub outcome: Option<Outcome>,
    /// Its duration in milliseconds.
    pub duration_ms: Option<f64>,
    /// Its message.
    pub message: Option<String>,
    /// The process that ran it.
    pub process_id: String,
    /// When that process started.
    pub started_at: String,
}

impl ItemKind {
    /// The kind as a record writes it (see [`ItemKind::as_str`]).
    pub(crate) fn from_str(s: &str) -> Option<ItemKind> {
        Some(match s {
            "example" => ItemKind::Example,
            "drift" => ItemKind::Drift,
            "diagnostic" => ItemKind::Diagnostic,
            "read-error" => ItemKind::ReadError,
            _ => return None,
        })
    }
}

#[cfg(feature = "serde")]
impl Serialize for ItemKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl ProcessRecord {
    /// The file's bytes: pretty JSON in declaration order, LF, a trailing
    /// newline (what `serde_json::to_string_pretty` gives for the model,
    /// written without serde's generic serialiser).
    pub fn to_text(&self) -> Result<String, serde_json::Error> {
        let mut w = Pretty::new();
        self.write(&mut w);
        Ok(w.finish())
    }

    /// The same bytes, written to `sink` in chunks as they are made: a
    /// record of thousands of items is never held whole.
    pub fn write_to(&self, sink: &mut dyn std::io::Write) -> std::io::Result<()> {
        self.write_with_items_to(sink, &self.items)
    }

    /// [`ProcessRecord::write_to`], its `items` being `items` (its own list
    /// is not written): a process that runs writes its record from its own
    /// list of items, not from a copy of every one of them (issue 39).
    pub fn write_with_items_to(
        &self,
        sink: &mut dyn std::io::Write,
        items: &dyn RecordItems,
    ) -> std::io::Result<()> {
        let mut w = Pretty::streaming(sink);
        self.write_with(&mut w, items);
        w.finish_into()
    }

    fn write(&self, w: &mut Pretty<'_>) {
        self.write_with(w, &self.items);
    }

    fn write_with(&self, w: &mut Pretty<'_>, items: &dyn RecordItems) {
        w.object(None);
        w.uint(key!("version"), self.version);
        w.string(key!("format"), &self.format);
        w.string(key!("varar"), &self.varar);
        w.string(key!("runId"), &self.run_id);
        w.string(key!("processId"), &self.process_id);
        w.bool(key!("complete"), self.complete);
        if let Some(project) = &self.project {
            w.string(key!("project"), project);
        }
        w.string(key!("startedAt"), &self.started_at);
        if let Some(ended) = &self.ended_at {
            w.string(key!("endedAt"), ended);
        }
        w.strings(key!("arguments"), self.arguments.iter().map(String::as_str));
        self.options.write(w);
        if let Some(nextest) = &self.nextest {
            nextest.write(w);
        }
        if let Some(rerun) = &self.rerun {
            w.object(key!("rerun"));
            w.string(key!("mode"), &rerun.mode);
            w.string(key!("group"), &rerun.group);
            w.end_object();
        }
        self.manifest.write(w);
        w.array(key!("items"));
        w.elements_indexed(items.count(), |w, i| items.item(i).write(w));
        w.end_array();
        if !self.unselected.is_empty() {
            w.strings(
                key!("unselected"),
                self.unselected.iter().map(String::as_str),
            );
        }
        if !self.unwritten.is_empty() {
            w.strings(key!("unwritten"), self.unwritten.iter().map(String::as_str));
        }
        if !self.removed.is_empty() {
            w.array(key!("removed"));
            for r in &self.removed {
                w.object(None);
                w.string(key!("oathPath"), &r.oath_path);
                w.string(key!("name"), &r.name);
                w.raw(key!("line"), r.line);
                w.end_object();
            }
            w.end_array();
        }
        w.end_object();
    }

    /// Whether the process reached its end (it wrote its end record),
    /// whether or not its evidence is whole.
    pub fn ended(&self) -> bool {
        self.complete || (self.ended_at.is_some() && !self.unwritten.is_empty())
    }

    /// Whether its libtest arguments select items: a name filter, `--skip`
    /// or `--ignored` (`--exact` only changes how a filter matches).
    pub fn filtered(&self) -> bool {
        let mut args = self.arguments.iter();
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--skip" | "--ignored" => return true,
                "--test-threads" => {
                    args.next();
                }
                a if !a.starts_with("--") => return true,
                _ => {}
            }
        }
        false
    }
}

impl Options {
    fn write(&self, w: &mut Pretty) {
        w.object(key!("options"));
        w.bool(key!("update"), self.update);
        if let Some(timeout) = &self.timeout {
            w.string(key!("timeout"), timeout);
        }
        if let Some(threads) = self.threads {
            w.raw(key!("threads"), threads);
        }
        w.string(key!("runtime"), &self.runtime);
        w.end_object();
    }
}

impl NextestRun {
    fn write(&self, w: &mut Pretty) {
        w.object(key!("nextest"));
        w.string(key!("runId"), &self.run_id);
        if let Some(attempt) = self.attempt {
            w.uint(key!("attempt"), attempt);
        }
        if let Some(total) = self.total_attempts {
            w.uint(key!("totalAttempts"), total);
        }
        if let Some(name) = &self.test_name {
            w.string(key!("testName"), name);
        }
        w.end_object();
    }
}

impl Manifest {
    fn write(&self, w: &mut Pretty) {
        w.object(key!("manifest"));
        let file = |w: &mut Pretty, key: Option<Key>, digest: &Option<FileDigest>| {
            if let Some(d) = digest {
                w.object(key);
                w.string(key!("path"), &d.path);
                w.string(key!("sha256"), &d.sha256);
                w.end_object();
            }
        };
        file(w, key!("config"), &self.config);
        file(w, key!("lockBefore"), &self.lock_before);
        file(w, key!("lockAfter"), &self.lock_after);
        w.array(key!("documents"));
        for d in &self.documents {
            w.object(None);
            w.string(key!("path"), &d.path);
            w.string(key!("sha256"), &d.sha256);
            w.string(key!("sourceHash"), &d.source_hash);
            w.end_object();
        }
        w.end_array();
        file(w, key!("testBinary"), &self.test_binary);
        w.bool(key!("reproducible"), self.reproducible);
        w.strings(
            key!("limitations"),
            self.limitations.iter().map(String::as_str),
        );
        w.end_object();
    }
}

/// An item of a record as it is written, borrowed from wherever it is
/// kept (the fields of an [`Item`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ItemView<'a> {
    /// [`Item::name`].
    pub name: &'a str,
    /// [`Item::kind`].
    pub kind: ItemKind,
    /// [`Item::oath_path`].
    pub oath_path: &'a str,
    /// [`Item::line`].
    pub line: u32,
    /// [`Item::attempt`].
    pub attempt: u32,
    /// [`Item::outcome`].
    pub outcome: Option<Outcome>,
    /// [`Item::duration_ms`].
    pub duration_ms: Option<f64>,
    /// [`Item::message`].
    pub message: Option<&'a str>,
}

/// The items a record is written with
/// ([`ProcessRecord::write_with_items_to`]): its own list, or what a
/// running process keeps of its items.
pub trait RecordItems: Sync {
    /// How many items there are.
    fn count(&self) -> usize;
    /// Item `index`, below [`RecordItems::count`].
    fn item(&self, index: usize) -> ItemView<'_>;
}

impl RecordItems for Vec<Item> {
    fn count(&self) -> usize {
        self.len()
    }

    fn item(&self, index: usize) -> ItemView<'_> {
        self[index].view()
    }
}

impl Item {
    /// Its fields, borrowed.
    pub fn view(&self) -> ItemView<'_> {
        ItemView {
            name: &self.name,
            kind: self.kind,
            oath_path: &self.oath_path,
            line: self.line,
            attempt: self.attempt,
            outcome: self.outcome,
            duration_ms: self.duration_ms,
            message: self.message.as_deref(),
        }
    }
}

impl ItemView<'_> {
    fn write(&self, w: &mut Pretty) {
        w.object(None);
        w.string(key!("name"), self.name);
        w.string(key!("kind"), self.kind.as_str());
        w.string(key!("oathPath"), self.oath_path);
        w.uint(key!("line"), self.line);
        w.uint(key!("attempt"), self.attempt);
        if let Some(outcome) = self.outcome {
            w.string(key!("outcome"), outcome.as_str());
        }
        if let Some(ms) = self.duration_ms {
            w.float(key!("durationMs"), ms);
        }
        if let Some(message) = self.message {
            w.string(key!("message"), message);
        }
        w.end_object();
    }
}

impl Outcome {
    /// The outcome as a record writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Passed => "passed",
            Outcome::Failed => "failed",
            Outcome::Ignored => "ignored",
        }
    }
}
