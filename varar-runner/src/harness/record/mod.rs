//! This process's run record (issue 19): who it is (its run and process
//! ids, nextest's attempt, the run a rerun continues), what it selected,
//! the digests of its inputs, written at the start as incomplete and again
//! at the end with every item's outcome.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::hash::{BuildHasher, Hasher};
use std::path::Path;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{SystemTime, UNIX_EPOCH};

use libtest_mimic::Arguments;
use varar_core::config::CONFIG_FILE_NAME;
use varar_core::lock::LOCK_FILE_NAME;
use varar_core::record::{
    DocumentDigest, FileDigest, Item, Manifest, NextestRun, Options, Outcome, ProcessRecord,
    RECORD_FORMAT, RECORD_VERSION, RecordHeader, RerunOf, RunRecord,
};
use varar_core::time::rfc3339_millis;

use super::digests::{binary_digest, file_digest, lock_digest};
use super::history::HistoryWriter;
use super::items::{ItemMeta, RunLog};
use super::lock_save::LockSave;
use super::print;
use super::stamp::Stamp;
use crate::store::{self, StoreError};

/// The environment variable that names the run this process belongs to.
pub(crate) const VARAR_RUN_ID: &str = "VARAR_RUN_ID";

/// Who this process is in which run.
#[derive(Clone, Debug)]
pub(crate) struct Identity {
    /// The run: nextest's, the one a rerun continues, or a fresh one.
    pub run_id: String,
    /// This process.
    pub process_id: String,
    /// When it started.
    pub started_ms: u64,
    /// What nextest said.
    pub nextest: Option<NextestRun>,
    /// The run a rerun continues, and its items' last attempts.
    pub rerun: Option<Continuation>,
}

/// A rerun (`VARAR_RERUN=failed`): what it runs again, and the attempts so
/// far.
#[derive(Clone, Debug)]
pub(crate) struct Continuation {
    /// This invocation: nextest's run id, or this process's id.
    pub group: String,
    /// The items that failed or did not run in the continued run.
    pub items: BTreeSet<String>,
    /// Every item's last attempt in the continued run.
    pub previous: BTreeMap<String, u32>,
}

/// Milliseconds since the Unix epoch now.
pub(crate) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

impl Identity {
    /// This process, from the environment nextest sets (`NEXTEST_RUN_ID`,
    /// `NEXTEST_ATTEMPT`, `NEXTEST_TOTAL_ATTEMPTS`, `NEXTEST_TEST_NAME`)
    /// and `VARAR_RUN_ID`, which names the run when set.
    pub(crate) fn from_env() -> Identity {
        let started_ms = now_ms();
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        let number = |name: &str| var(name).and_then(|v| v.parse::<u32>().ok());
        let nextest = var("NEXTEST_RUN_ID").map(|run_id| NextestRun {
            run_id,
            attempt: number("NEXTEST_ATTEMPT"),
            total_attempts: number("NEXTEST_TOTAL_ATTEMPTS"),
            test_name: var("NEXTEST_TEST_NAME"),
        });
        let process_id = format!("{started_ms}-{}-{:08x}", std::process::id(), random32());
        // `VARAR_RUN_ID` joins invocations that cannot share one otherwise:
        // the `--partition` shards of one CI pipeline, several test targets.
        let run_id = match (var(VARAR_RUN_ID), &nextest) {
            (Some(id), _) => id,
            (None, Some(n)) => n.run_id.clone(),
            (None, None) => format!("varar-{started_ms}-{:08x}", random32()),
        };
        Identity {
            run_id,
            process_id,
            started_ms,
            nextest,
            rerun: None,
        }
    }

    /// The group of processes a rerun decides together: one nextest
    /// invocation, or this process alone.
    pub(crate) fn group(&self) -> String {
        match &self.nextest {
            Some(n) => n.run_id.clone(),
            None => self.process_id.clone(),
        }
    }

    /// Item `name`'s attempt in this process.
    fn attempt(&self, name: &str) -> u32 {
        let this = self.nextest.as_ref().and_then(|n| n.attempt).unwrap_or(1);
        let before = self
            .rerun
            .as_ref()
            .and_then(|r| r.previous.get(name))
            .copied()
            .unwrap_or(0);
        before + this
    }
}

/// 32 random bits, from the standard library's per-process hash keys (no
/// dependency for a run id's tail).
fn random32() -> u32 {
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(u128::from(now_ms()));
    hasher.finish() as u32
}

/// What the record says of the run's settings.
pub(crate) fn options(args: &Arguments, update: bool, timeout: Option<&str>) -> Options {
    Options {
        update,
        timeout: timeout.map(str::to_owned),
        threads: args.test_threads,
        runtime: if cfg!(feature = "tokio") {
            "tokio"
        } else {
            "built-in"
        }
        .to_owned(),
    }
}

/// The libtest arguments as an argument list (what selects and runs items).
pub(crate) fn arguments(args: &Arguments) -> Vec<String> {
    let mut out = Vec::new();
    let flag = |out: &mut Vec<String>, on: bool, name: &str| {
        if on {
            out.push(name.to_owned());
        }
    };
    flag(&mut out, args.exact, "--exact");
    flag(&mut out, args.ignored, "--ignored");
    flag(&mut out, args.include_ignored, "--include-ignored");
    flag(&mut out, args.nocapture, "--nocapture");
    for skip in &args.skip {
        out.push("--skip".to_owned());
        out.push(skip.clone());
    }
    if let Some(threads) = args.test_threads {
        out.push("--test-threads".to_owned());
        out.push(threads.to_string());
    }
    if let Some(filter) = &args.filter {
        out.push(filter.clone());
    }
    out
}

/// The limitations every Varar run has (seed 002's `reproducible: false`).
const LIMITATIONS: [&str; 2] = [
    "steps are Rust code: they may read external state (files, the network, the clock, the \
     environment) that the manifest does not record",
    "the test binary is recorded by digest only: its sources and dependencies are not",
];

/// This process's record while the run is on.
pub(crate) struct Recording<'a> {
    root: &'a Path,
    record: ProcessRecord,
    /// The trial index of each item in `record.items`.
    selected: Vec<usize>,
    /// Where the record is kept beyond the next run (issue 20).
    history: HistoryWriter,
    /// The lock's stamp when `lock_before` was taken.
    lock_stamp: Option<Stamp>,
    /// When this process began: what a killed writer's temporary predates.
    orphans: store::Orphans,
    /// The first process of a run's pruning and sweep, under way.
    tidying: Option<JoinHandle<()>>,
}

/// What the record is started from.
pub(crate) struct Start<'a> {
    pub identity: &'a Identity,
    pub args: &'a Arguments,
    pub options: Options,
    /// Every item this process planned, by trial index.
    pub meta: &'a [ItemMeta],
    /// The trial indices it selected.
    pub selected: Vec<usize>,
    /// The documents it used.
    pub documents: Vec<DocumentDigest>,
}

impl<'a> Recording<'a> {
    /// Write the record of a process that starts: `complete: false`.
    pub(crate) fn start(root: &'a Path, start: Start<'_>) -> Recording<'a> {
        let Start {
            identity,
            args,
            options,
            meta,
            selected,
            documents,
        } = start;
        let chosen: BTreeSet<usize> = selected.iter().copied().collect();
        let lock_stamp = Stamp::of_file(&root.join(LOCK_FILE_NAME));
        let mut items = Vec::with_capacity(selected.len());
        items.extend(selected.iter().filter_map(|&i| meta.get(i)).map(|m| Item {
            name: Arc::clone(&m.name),
            kind: m.kind,
            oath_path: Arc::clone(&m.oath_path),
            line: m.line,
            attempt: identity.attempt(&m.name),
            outcome: None,
            duration_ms: None,
            message: None,
        }));
        let unselected = meta
            .iter()
            .enumerate()
            .filter(|(i, _)| !chosen.contains(i))
            .map(|(_, m)| m.name.to_string())
            .collect();
        let record = ProcessRecord {
            version: RECORD_VERSION,
            format: RECORD_FORMAT.to_owned(),
            varar: env!("CARGO_PKG_VERSION").to_owned(),
            run_id: identity.run_id.clone(),
            process_id: identity.process_id.clone(),
            complete: false,
            started_at: rfc3339_millis(identity.started_ms),
            ended_at: None,
            arguments: arguments(args),
            options,
            nextest: identity.nextest.clone(),
            rerun: identity.rerun.as_ref().map(|r| RerunOf {
                mode: "failed".to_owned(),
                group: r.group.clone(),
            }),
            manifest: Manifest {
                config: file_digest(root, CONFIG_FILE_NAME),
                lock_before: lock_digest(root),
                lock_after: None,
                documents,
                test_binary: binary_digest(),
                reproducible: false,
                limitations: LIMITATIONS.iter().map(|l| (*l).to_owned()).collect(),
            },
            items,
            unselected,
        };
        let orphans = store::Orphans::since_ms(identity.started_ms);
        let mut recording = Recording {
            root,
            record,
            selected,
            history: HistoryWriter::from_env(root, identity.started_ms),
            lock_stamp,
            orphans,
            tidying: None,
        };
        if recording.write() {
            recording.tidying = tidy_when_new(root, &recording.record.run_id, orphans);
        }
        recording
    }

    /// Write the record of a process that ended: every item's outcome,
    /// the lock as the run left it, `complete: true`. A full run then
    /// replaces the earlier complete runs: `earlier`, what
    /// [`earlier_runs`] read of them at its start (a run still being
    /// written then is kept, even if it ends before this one).
    ///
    /// `lock`, the lock's write when this run writes it, goes on while the
    /// record is written: the record names the bytes being written, and is
    /// written again naming the lock on disk if that write failed. Returns
    /// how it ended.
    pub(crate) fn finish(
        mut self,
        log: &RunLog,
        earlier: Option<EarlierRuns>,
        lock: Option<LockSave>,
    ) -> Option<Result<bool, StoreError>> {
        for (item, &index) in self.record.items.iter_mut().zip(&self.selected) {
            if let Some(finished) = log.get(index) {
                item.outcome = Some(finished.outcome);
                item.duration_ms = Some(finished.duration_ms);
                item.message = match finished.outcome {
                    Outcome::Failed => finished.message,
                    _ => None,
                };
            }
        }
        self.record.manifest.lock_after = match &lock {
            Some(lock) => Some(lock.digest.clone()),
            None => self.lock_on_disk(),
        };
        self.record.complete = true;
        self.record.ended_at = Some(rfc3339_millis(now_ms()));
        let _ = self.write();
        let saved = lock.map(|lock| {
            let saved = lock.wait();
            if saved.is_err() {
                self.record.manifest.lock_after = self.lock_on_disk();
                let _ = self.write();
            }
            saved
        });
        if let Some(EarlierRuns(found)) = earlier {
            let headers = readable(found);
            store::remove_runs_before(
                self.root,
                &headers,
                &self.record.run_id,
                &self.record.started_at,
                &self.orphans,
            );
        }
        if let Some(tidying) = self.tidying.take() {
            // Best effort, and it never panics on what it finds.
            let _ = tidying.join();
        }
        saved
    }

    /// The lock's digest as it is on disk: the one taken at the start
    /// while the lock keeps its stamp.
    fn lock_on_disk(&self) -> Option<FileDigest> {
        let unchanged = self.lock_stamp.is_some()
            && Stamp::of_file(&self.root.join(LOCK_FILE_NAME)) == self.lock_stamp;
        match &self.record.manifest.lock_before {
            Some(before) if unchanged => Some(before.clone()),
            _ => lock_digest(self.root),
        }
    }

    /// Write the record (and its history's copy); whether this created
    /// the run's directory, as the first process of a run does.
    fn write(&self) -> bool {
        let written = match store::write_process_record(self.root, &self.record) {
            Ok(written) => Some(written),
            Err(e) => {
                print::warning(format_args!("the run record was not written: {e}"));
                None
            }
        };
        self.history
            .write(&self.record, written.as_ref().map(|w| w.path.as_path()));
        written.is_some_and(|w| w.new_run)
    }
}

/// The headers of the records of the project's other runs, which a full run
/// replaces: read apart from writing this run's record (reading a run of
/// thousands of items takes about as long as writing one), so that the two
/// can go on together.
pub(crate) struct EarlierRuns(Vec<Result<RecordHeader, store::RecordFileError>>);

/// Read [`EarlierRuns`]: the runs other than `run_id`.
pub(crate) fn earlier_runs(root: &Path, run_id: &str) -> EarlierRuns {
    EarlierRuns(store::read_other_headers(root, run_id))
}

/// Every readable run of the project; records that cannot be read are
/// reported (and left alone), records of an unknown version skipped.
pub(crate) fn store_runs(root: &Path) -> Vec<RunRecord> {
    records(store::read_records(root))
}

/// The runs of `found`, its unreadable records reported.
fn records(found: Vec<Result<ProcessRecord, store::RecordFileError>>) -> Vec<RunRecord> {
    RunRecord::combine(readable(found))
}

/// What of `found` could be read; the unreadable files reported, records
/// of an unknown version skipped.
fn readable<T>(found: Vec<Result<T, store::RecordFileError>>) -> Vec<T> {
    let mut read = Vec::new();
    for found in found {
        match found {
            Ok(record) => read.push(record),
            Err(e) if e.is_unknown_version() => {}
            Err(e) => print::warning(e),
        }
    }
    read
}

/// The first process of a new run prunes the oldest runs, keeping
/// [`store::KEPT_RUNS`] (by the time their directories last changed, so
/// that no record has to be read), and removes the temporaries killed
/// writers left anywhere under `.varar/` (issue 34): on a thread of its
/// own, which nothing of the run waits for until it ends.
fn tidy_when_new(root: &Path, run_id: &str, orphans: store::Orphans) -> Option<JoinHandle<()>> {
    fn tidy(root: &Path, run_id: &str, orphans: &store::Orphans) {
        store::prune_oldest_runs(root, run_id, orphans);
        store::sweep_scratch(root, orphans);
    }
    let (owned_root, owned_id) = (root.to_path_buf(), run_id.to_owned());
    let spawned = std::thread::Builder::new()
        .name("varar-tidy".to_owned())
        .spawn(move || tidy(&owned_root, &owned_id, &orphans));
    match spawned {
        Ok(handle) => Some(handle),
        // No thread to spare: tidy here.
        Err(_) => {
            tidy(root, run_id, &orphans);
            None
        }
    }
}

/// What a rerun (`VARAR_RERUN=failed`) continues: the latest complete run
/// of the current sources (`current`: every document's digest now), its
/// processes of this invocation (`group`) left out.
pub(crate) fn rerun_of(
    runs: Vec<RunRecord>,
    group: &str,
    current: &HashMap<String, String>,
) -> Result<(String, Continuation), String> {
    let runs: Vec<RunRecord> = runs
        .into_iter()
        .map(|run| {
            let processes = run
                .processes
                .into_iter()
                .filter(|p| p.rerun.as_ref().is_none_or(|r| r.group != group))
                .collect();
            RunRecord::of(run.run_id, processes)
        })
        .filter(|run| !run.processes.is_empty())
        .collect();
    let fresh = |run: &RunRecord| {
        let documents = run.documents();
        !documents.is_empty()
            && documents
                .iter()
                .all(|d| current.get(&d.path).is_some_and(|sha| *sha == d.sha256))
    };
    let Some(run) = runs.iter().find(|r| r.complete() && fresh(r)) else {
        return Err(if runs.is_empty() {
            "there is no run record in .varar/".to_owned()
        } else {
            "no complete run of the sources as they are now".to_owned()
        });
    };
    let mut items: BTreeSet<String> = run
        .items
        .iter()
        .filter(|i| i.outcome() != Some(Outcome::Passed))
        .map(|i| i.name.clone())
        .collect();
    items.extend(run.not_run().into_iter().map(str::to_owned));
    let previous = run
        .items
        .iter()
        .filter_map(|i| Some((i.name.clone(), i.last()?.attempt)))
        .collect();
    Ok((
        run.run_id.clone(),
        Continuation {
            group: group.to_owned(),
            items,
            previous,
        },
    ))
}

#[cfg(test)]
mod tests;
