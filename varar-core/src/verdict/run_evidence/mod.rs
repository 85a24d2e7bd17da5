//! What the run records say about the latest run (pure; issue 19), which
//! `gate`, `junit`, `report` and `diff` share; what that means for the
//! judging, once for every consumer, is [`crate::verdict::standing`] (issue 34).
//!
//! Every process of a run writes a record under `.varar/.runs/` (see
//! `crate::record`): at its start with `complete: false`, at its end
//! with every item it selected (examples, drift, diagnostics, read errors)
//! and how each attempt ended. The **latest run** is the one whose first
//! process started last (`RunRecord::combine(records)[0]`). Its evidence is
//! usable when:
//!
//! - some record could be read (`missing_run` otherwise) and every record
//!   of it, or of a run that may be later, could (`invalid_run`; one of an
//!   earlier run is a warning); no later run left its directory without a
//!   record, or its record in the run history only (`unrecorded_run`); a
//!   record of a version this reader does not know is treated as absent
//!   (the stability policy of seed 000);
//! - it is **fresh**: every document its processes read still has the
//!   SHA-256 they recorded, and so has `varar.config.json` (`stale_run`);
//!   the lock is what runs write, not an input, so it is not compared;
//! - it is **complete**: every process reached its end, every item it
//!   planned ended an attempt (`RunRecord::not_run`), and every oath that
//!   has examples (in its fresh result file or in `varar.lock.json`) has
//!   items in it (`incomplete_run`).
//!
//! An item whose last attempt failed fails the run; one that failed (or
//! never ended) before its last attempt passed is **recovered**.
//!
//! Which text each result file describes is known by SHA-256 from the
//! latest run's record ([`crate::verdict::current::RunRead`]).
//!
//! The shell reads the records and the files as they are now
//! (`varar_project::evidence`, and `cargo varar`'s `tree` for a results tree);
//! everything here is values.

use std::collections::{BTreeMap, BTreeSet};

use crate::names::{ItemKind, ItemName};
use crate::record::{ItemEvidence, Outcome, RunRecord};
use crate::results::ExampleResult;

use crate::layout::{SCRATCH_DIR, file_name_of, runs_dir_shown};

use crate::verdict::records::{Code, ErrorRecord};

mod dirs;

pub use dirs::{ElsewhereRecord, RunDir};

/// The file the config digest is of.
pub const CONFIG_PATH: &str = "varar.config.json";

/// What a project's (or a results tree's) run records hold.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunEvidence {
    /// Where the records are, as shown to people (`.varar/.runs`).
    pub dir: String,
    /// The latest run, when some record could be read.
    pub latest: Option<RunRecord>,
    /// How many runs the readable records hold.
    pub runs: usize,
    /// Record files of a version this reader does not know, as shown to
    /// people: left out, as if absent.
    pub unknown_version: Vec<String>,
    /// Problems reading the directory of runs itself (`invalid_run`: they
    /// cannot be placed against the latest run).
    pub invalid: Vec<ErrorRecord>,
    /// Every run directory (issue 34): what is placed against the latest
    /// run, by [`crate::verdict::standing`].
    pub dirs: Vec<RunDir>,
    /// Records that another place (the run history) holds of this
    /// project's runs and `dir` does not, of runs that started at or after
    /// the latest run (issue 34).
    pub elsewhere: Vec<ElsewhereRecord>,
    /// The files the latest run used, as they are now.
    pub now: SourcesNow,
}

/// The config and the documents the latest run used, as they are now.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourcesNow {
    /// `varar.config.json` now (`None`: not looked at).
    pub config: Option<FileNow>,
    /// Every document the latest run's manifests name, by path.
    pub documents: BTreeMap<String, FileNow>,
}

/// A file as it is now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileNow {
    /// Its SHA-256, lowercase hexadecimal.
    Sha256(String),
    /// It does not exist.
    Missing,
    /// It could not be read (or is not a path inside the project).
    Unreadable(ErrorRecord),
}

impl RunEvidence {
    /// No record at all, in the project's `.varar/.runs`.
    pub fn none() -> RunEvidence {
        RunEvidence {
            dir: runs_dir_shown(SCRATCH_DIR),
            ..RunEvidence::default()
        }
    }

    /// The evidence of `runs` (combined, latest first), the other fields
    /// empty: what tests start from.
    pub fn of_runs(dir: impl Into<String>, runs: Vec<RunRecord>) -> RunEvidence {
        RunEvidence {
            dir: dir.into(),
            runs: runs.len(),
            latest: runs.into_iter().next(),
            ..RunEvidence::default()
        }
    }

    /// `missing_run`: no record at all.
    pub(crate) fn missing(&self) -> ErrorRecord {
        let mut message = format!(
            "there is no run record in `{}`: run the tests (`cargo test` or `cargo nextest \
             run`) to record one",
            self.dir
        );
        if !self.unknown_version.is_empty() {
            message.push_str(&format!(
                " ({} left out: a record of a version this reader does not know)",
                plural(self.unknown_version.len(), "record file")
            ));
        }
        ErrorRecord::new(Code::MissingRun, message).with_path(self.dir.clone())
    }

    /// `stale_run` for every source that changed since the run.
    pub(crate) fn stale(&self, run: &RunRecord) -> Vec<ErrorRecord> {
        let id = &run.run_id;
        let again = "run the tests again";
        let mut out = Vec::new();
        if let Some(now) = &self.now.config {
            for recorded in configs(run) {
                let why = match (recorded, now) {
                    (Some(r), FileNow::Sha256(n)) if r == n => continue,
                    (_, FileNow::Unreadable(e)) => {
                        out.push(e.clone());
                        continue;
                    }
                    (Some(r), FileNow::Sha256(n)) => format!(
                        "`{CONFIG_PATH}` changed after the latest run (`{id}`: it read sha256 {}, \
                         the file is now {})",
                        short(r),
                        short(n)
                    ),
                    (Some(_), FileNow::Missing) => format!(
                        "`{CONFIG_PATH}`, which the latest run (`{id}`) read, no longer exists"
                    ),
                    (None, FileNow::Missing) => continue,
                    (None, FileNow::Sha256(_)) => format!(
                        "the latest run (`{id}`) ran without `{CONFIG_PATH}`, which exists now"
                    ),
                };
                out.push(
                    ErrorRecord::new(Code::StaleRun, format!("{why}; {again}"))
                        .with_path(CONFIG_PATH),
                );
                break;
            }
        }
        for d in run.documents() {
            let why = match self.now.documents.get(&d.path) {
                Some(FileNow::Sha256(now)) if *now == d.sha256 => continue,
                Some(FileNow::Unreadable(e)) => {
                    if !out.contains(e) {
                        out.push(e.clone());
                    }
                    continue;
                }
                Some(FileNow::Sha256(now)) => format!(
                    "`{}` changed after the latest run (`{id}`: it read sha256 {}, the file is \
                     now {})",
                    d.path,
                    short(&d.sha256),
                    short(now)
                ),
                Some(FileNow::Missing) | None => format!(
                    "`{}`, which the latest run (`{id}`) read, no longer exists",
                    d.path
                ),
            };
            out.push(
                ErrorRecord::new(Code::StaleRun, format!("{why}; {again}"))
                    .with_path(d.path.clone())
                    .with_oath(d.path.clone()),
            );
        }
        out
    }

    /// `incomplete_run`: processes that never ended, planned items that did
    /// not run (by oath), and `expected` oaths without any item.
    pub(crate) fn incomplete(
        &self,
        run: &RunRecord,
        expected: &BTreeSet<String>,
    ) -> Vec<ErrorRecord> {
        let id = &run.run_id;
        let mut out = Vec::new();
        // A process that ended without writing every result file says so
        // (`unrecorded_run`), not that it never ended.
        for p in run.processes.iter().filter(|p| !p.ended()) {
            let path = format!(
                "{}/{}/{}.run",
                self.dir,
                file_name_of(id),
                file_name_of(&p.process_id)
            );
            out.push(
                ErrorRecord::new(
                    Code::IncompleteRun,
                    format!(
                        "the latest run (`{id}`) is incomplete: its process `{}` (started {}) \
                         never reached its end (it exited early, aborted, or was killed); run \
                         the tests again",
                        p.process_id, p.started_at
                    ),
                )
                .with_path(path),
            );
        }
        let mut by_oath: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for name in run.not_run() {
            let oath = run
                .item(name)
                .map_or_else(|| oath_of_name(name), |i| i.oath_path.as_str());
            by_oath.entry(oath).or_default().push(name);
        }
        for (oath, names) in by_oath {
            let unselected = names.iter().all(|n| run.item(n).is_none());
            let message = if unselected && filtered(run) {
                format!(
                    "the latest run (`{id}`) did not select {} of `{oath}` (`{}`{}): a filter left \
                     {} out; run every item",
                    plural(names.len(), "item"),
                    names[0],
                    if names.len() > 1 { ", …" } else { "" },
                    if names.len() > 1 { "them" } else { "it" }
                )
            } else {
                format!(
                    "the latest run (`{id}`) planned {} of `{oath}` that did not run (`{}`{}): \
                     a filtered, cancelled or interrupted run; run every item",
                    plural(names.len(), "item"),
                    names[0],
                    if names.len() > 1 { ", …" } else { "" }
                )
            };
            let mut record = ErrorRecord::new(Code::IncompleteRun, message).with_oath(oath);
            if let [only] = names.as_slice() {
                let line = run
                    .item(only)
                    .map(|i| i.line)
                    .or(ItemName::parse(only).line);
                record = record.with_example(*only, line);
            }
            out.push(record);
        }
        for oath in expected {
            let has = run.items.iter().any(|i| i.oath_path == *oath)
                || run
                    .planned
                    .iter()
                    .any(|n| ItemName::parse(n).belongs_to(oath));
            if !has {
                out.push(
                    ErrorRecord::new(
                        Code::IncompleteRun,
                        format!(
                            "`{oath}` has examples, but the latest run (`{id}`) has no item of \
                             it: a filter or a partition left it out, or the run stopped before \
                             it (fail-fast); run every oath"
                        ),
                    )
                    .with_oath(oath.clone()),
                );
            }
        }
        out
    }
}

/// The config digest of each process (`None`: it ran without one), once
/// each.
fn configs(run: &RunRecord) -> Vec<Option<&String>> {
    let mut out: Vec<Option<&String>> = Vec::new();
    for p in &run.processes {
        let c = p.manifest.config.as_ref().map(|c| &c.sha256);
        if !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

/// The oath (or document, or path) an item name belongs to, from the name
/// alone: what precedes `::varar:` or, for an example, the first `::`.
pub fn oath_of_name(name: &str) -> &str {
    let parsed = ItemName::parse(name);
    match parsed.path {
        Some(path) => path,
        None => parsed.name.split_once("::").map_or(parsed.name, |(p, _)| p),
    }
}

/// The items of `run` whose last attempt failed, in listing order.
pub fn failed_items(run: &RunRecord) -> impl Iterator<Item = &ItemEvidence> {
    run.items
        .iter()
        .filter(|i| i.outcome() == Some(Outcome::Failed))
}

/// The items of `run` that recovered: an attempt failed (or never ended)
/// before the last one passed.
pub fn recovered_items(run: &RunRecord) -> impl Iterator<Item = &ItemEvidence> {
    run.items.iter().filter(|i| i.recovered())
}

/// The message of an item's last failed attempt (its last attempt's when
/// that failed), if one was recorded.
pub fn last_failure(item: &ItemEvidence) -> Option<&str> {
    item.attempts
        .iter()
        .rev()
        .find(|a| a.outcome == Some(Outcome::Failed))
        .and_then(|a| a.message.as_deref())
}

/// Whether the item name `item` names the example `example` (its bare name
/// as the result file records it): the name ends with `::` and the
/// example's name, whitespace collapsed, before any `[n]` of a repeat.
pub fn names_example(item: &str, example: &str) -> bool {
    let base = match item.rfind('[') {
        Some(i) if item.ends_with(']') && item[i + 1..item.len() - 1].parse::<u32>().is_ok() => {
            &item[..i]
        }
        _ => item,
    };
    let wanted = example.split_whitespace().collect::<Vec<_>>().join(" ");
    !wanted.is_empty()
        && base
            .strip_suffix(wanted.as_str())
            .is_some_and(|head| head.ends_with("::"))
}

/// The item of `run` that ran the example `example` of `oath_path`: an
/// example item of that oath whose name ends with the example's; of
/// several (the same name under other headings), the one on its first
/// line.
pub fn example_item<'r>(
    run: &'r RunRecord,
    oath_path: &str,
    example: &ExampleResult,
) -> Option<&'r ItemEvidence> {
    let mut found = run.items.iter().filter(|i| {
        i.kind == ItemKind::Example
            && i.oath_path == oath_path
            && names_example(&i.name, &example.name)
    });
    let first = found.next()?;
    let line = example.lines.first().copied();
    if first.line == line.unwrap_or(first.line) {
        return Some(first);
    }
    Some(found.find(|i| Some(i.line) == line).unwrap_or(first))
}

/// How many attempts an item had.
pub fn attempts(item: &ItemEvidence) -> usize {
    item.attempts.len()
}

/// The counts of a run's items (also the gate's `run.counts`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ItemCounts {
    /// Every item its processes planned.
    pub planned: usize,
    /// Last attempt passed (recovered ones included).
    pub passed: usize,
    /// Last attempt failed.
    pub failed: usize,
    /// Last attempt ignored by libtest.
    pub ignored: usize,
    /// Planned items whose last attempt did not end (or never started).
    pub not_run: usize,
    /// Of those, the items no process selected: a filter left them out
    /// (issue 37).
    pub not_selected: usize,
    /// Passed after an earlier attempt failed or never ended.
    pub recovered: usize,
}

/// Count `run`'s items.
pub fn counts(run: &RunRecord) -> ItemCounts {
    let mut c = ItemCounts {
        planned: run.planned.len(),
        ..ItemCounts::default()
    };
    for item in &run.items {
        match item.outcome() {
            Some(Outcome::Passed) => c.passed += 1,
            Some(Outcome::Failed) => c.failed += 1,
            Some(Outcome::Ignored) => c.ignored += 1,
            None => {}
        }
        c.recovered += usize::from(item.recovered());
    }
    c.not_run = c.planned.saturating_sub(c.passed + c.failed + c.ignored);
    c.not_selected = run.not_selected().len();
    c
}

/// The documents the run read whose digest is the one recorded, by path:
/// where the run's items may be drawn. `sha256_now` gives a document's
/// digest now (`None`: unknown).
pub fn fresh_documents<'a>(
    run: &RunRecord,
    sha256_now: impl Fn(&str) -> Option<&'a str>,
) -> BTreeSet<String> {
    let mut digests: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for d in run.documents() {
        digests.entry(&d.path).or_default().push(&d.sha256);
    }
    digests
        .into_iter()
        .filter(|(path, recorded)| {
            sha256_now(path).is_some_and(|now| recorded.iter().all(|r| *r == now))
        })
        .map(|(path, _)| path.to_owned())
        .collect()
}

/// Whether `run` is of the sources as they are now (`now` holds every
/// document it read and the config): every document it read, and the
/// config, have the digest it recorded (no config then, none now). The
/// lock is what runs write, not an input: it is not compared.
pub fn same_sources(run: &RunRecord, now: &SourcesNow) -> bool {
    same_config(run, now)
        && run
            .documents()
            .iter()
            .all(|d| same_document(run, now, &d.path))
}

/// Whether every process of `run` read the config as it is now (none then,
/// none now).
pub fn same_config(run: &RunRecord, now: &SourcesNow) -> bool {
    let config_now = match &now.config {
        Some(FileNow::Sha256(sha)) => Some(sha),
        Some(FileNow::Missing) => None,
        Some(FileNow::Unreadable(_)) | None => return false,
    };
    configs(run).into_iter().all(|c| c == config_now)
}

/// Whether `run` read the document `path`, every time with the digest it
/// has now.
pub fn same_document(run: &RunRecord, now: &SourcesNow, path: &str) -> bool {
    let Some(FileNow::Sha256(sha)) = now.documents.get(path) else {
        return false;
    };
    let mut read = run
        .documents()
        .into_iter()
        .filter(|d| d.path == path)
        .peekable();
    read.peek().is_some() && read.all(|d| d.sha256 == *sha)
}

/// Whether every process of `run` reached its end and every item it
/// planned ended an attempt: a run whose evidence is whole.
pub fn finished(run: &RunRecord) -> bool {
    run.complete() && run.not_run().is_empty()
}

/// Whether `run` left items out only because it was filtered (issue 37):
/// every process reached its end, every item a process selected ended an
/// attempt, and a libtest filter (a name, `--skip`, `--exact`, `--ignored`)
/// or nextest's filter set left the others out: planned items no process
/// selected, or a process given a filter. A nextest run with a failure and
/// items it never started is not filtered: fail-fast may have cancelled
/// them.
pub fn filtered(run: &RunRecord) -> bool {
    if !run.complete() {
        return false;
    }
    if run
        .items
        .iter()
        .any(|i| i.attempts.iter().all(|a| a.outcome.is_none()))
    {
        return false;
    }
    let not_selected = run.not_selected().len();
    let cancelled = not_selected > 0
        && run.processes.iter().any(|p| p.nextest.is_some())
        && run
            .items
            .iter()
            .any(|i| i.outcome() == Some(Outcome::Failed));
    !cancelled && (not_selected > 0 || run.processes.iter().any(|p| p.filtered()))
}

/// `n word` or `n words`.
pub fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// The first 12 digits of a digest, for people.
fn short(sha: &str) -> String {
    match sha.get(..12) {
        Some(head) if sha.len() > 12 => format!("{head}…"),
        _ => sha.to_owned(),
    }
}

#[cfg(test)]
pub(crate) mod tests;
