//! This process's run record (issue 19): who it is (its run and process
//! ids, nextest's attempt, the run a rerun continues), what it selected,
//! the digests of its inputs, written at the start as incomplete and again
//! at the end with every item's outcome.

use std::cell::Cell;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::thread::JoinHandle;

use libtest_mimic::Arguments;
use varar_core::config::CONFIG_FILE_NAME;
use varar_core::record::{
    DocumentDigest, FileDigest, ItemView, Manifest, Options, Outcome, ProcessRecord, RECORD_FORMAT,
    RECORD_VERSION, RecordHeader, RecordItems, RemovedExample, RerunOf, RunRecord,
};
use varar_core::time::rfc3339_millis;

use super::history::HistoryWriter;
use super::lock_save::LockSave;
use crate::harness::cache;
use crate::harness::cache::digests::{binary_digest, lock_digest};
use crate::harness::cache::stamp::Stamp;
use crate::harness::print;
use crate::harness::trials::items::{Finishes, ItemMeta, RunLog};
use varar_project::store::{self, StoreError};

mod identity;
pub(in crate::harness) mod rerun;

pub(crate) use identity::{Continuation, Identity, now_ms};

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
    /// The record, but its items: each write lists them from the run's own
    /// list of items ([`Listed`]), not from a copy of it held all the run
    /// (issue 39).
    record: ProcessRecord,
    /// The trial index of each item the record lists.
    selected: Vec<usize>,
    /// The attempt of each item the record lists.
    attempts: Vec<u32>,
    /// How each trial that finished ended, by trial index, once the run
    /// is over.
    finished: Finishes,
    /// Where the record is kept beyond the next run (issue 20).
    history: HistoryWriter,
    /// The lock's stamp when `lock_before` was taken.
    lock_stamp: Option<Stamp>,
    /// Whether a write of the record to `.varar/.runs/` failed (issue 34):
    /// the run then fails, whatever its items did.
    unrecorded: Cell<bool>,
    /// When this process began: what a killed writer's temporary predates.
    orphans: store::Orphans,
    /// The first process of a run's pruning and sweep, under way.
    tidying: Option<JoinHandle<()>>,
}

/// How a recorded process ended, for the run.
pub(crate) struct Finished {
    /// How the lock's write ended, when this run wrote it.
    pub lock: Option<Result<bool, StoreError>>,
    /// Whether the process's evidence is not whole (its record or a result
    /// file could not be written): the run fails (issue 34).
    pub failed: bool,
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
    /// The lock's examples no paragraph re-identifies any more (issue 37).
    pub removed: Vec<RemovedExample>,
    /// The SHA-256 of the config as the run read it (`None`: no config).
    pub config_sha256: Option<String>,
}

impl<'a> Recording<'a> {
    /// Write the record of a process that starts: `complete: false`. The
    /// first process of a run (`new_run`: it made the run's directory,
    /// [`Claim`]) prunes the oldest runs once its record is written.
    pub(crate) fn start(root: &'a Path, start: Start<'_>, new_run: bool) -> Recording<'a> {
        let Start {
            identity,
            args,
            options,
            meta,
            selected,
            documents,
            removed,
            config_sha256,
        } = start;
        let mut chosen = vec![false; meta.len()];
        for &i in &selected {
            if let Some(chosen) = chosen.get_mut(i) {
                *chosen = true;
            }
        }
        let lock_stamp = Stamp::of_file(&store::lock_path(root));
        let selected: Vec<usize> = selected.into_iter().filter(|&i| i < meta.len()).collect();
        let attempts = selected
            .iter()
            .map(|&i| identity.attempt(&meta[i].name))
            .collect();
        let unselected = meta
            .iter()
            .enumerate()
            .filter(|&(i, _)| !chosen[i])
            .map(|(_, m)| m.name.to_string())
            .collect();
        let record = ProcessRecord {
            version: RECORD_VERSION,
            format: RECORD_FORMAT.to_owned(),
            varar: env!("CARGO_PKG_VERSION").to_owned(),
            run_id: identity.run_id.clone(),
            process_id: identity.process_id.clone(),
            complete: false,
            project: Some(store::project_id(root)),
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
                config: config_sha256.map(|sha256| FileDigest {
                    path: CONFIG_FILE_NAME.to_owned(),
                    sha256,
                }),
                lock_before: lock_digest(root),
                lock_after: None,
                documents,
                test_binary: binary_digest(),
                reproducible: false,
                limitations: LIMITATIONS.iter().map(|l| (*l).to_owned()).collect(),
            },
            items: Vec::new(),
            unselected,
            unwritten: Vec::new(),
            removed,
        };
        let orphans = store::Orphans::since_ms(identity.started_ms);
        let mut recording = Recording {
            root,
            record,
            selected,
            attempts,
            finished: Finishes::default(),
            history: HistoryWriter::from_env(root, identity.started_ms),
            lock_stamp,
            unrecorded: Cell::new(false),
            orphans,
            tidying: None,
        };
        // Older runs are pruned (and killed writers' temporaries swept)
        // only once this run's record is written: a run that cannot record
        // itself destroys no evidence.
        match recording.write(meta) {
            Some(written) if new_run || written.new_run => {
                recording.tidying = tidy_when_new(root, &recording.record.run_id, orphans);
            }
            _ => {}
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
    ///
    /// `unwritten`: the oaths whose result files could not be written; the
    /// record then says so and stays `complete: false` (issue 34).
    pub(crate) fn finish(
        mut self,
        (meta, log): (&[ItemMeta], &RunLog),
        earlier: Option<EarlierRuns>,
        lock: Option<LockSave>,
        unwritten: Vec<String>,
    ) -> Finished {
        self.finished = log.take();
        self.record.manifest.lock_after = match &lock {
            Some(lock) => Some(lock.digest.clone()),
            None => self.lock_on_disk(),
        };
        if !unwritten.is_empty() {
            print::error(format_args!(
                "the results of {} could not be written to `.varar/` (see the warnings above): \
                 the files there are older than this run, and this run's record says so, so \
                 `cargo varar gate` refuses them; this run fails",
                unwritten
                    .iter()
                    .map(|o| format!("`{o}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        self.record.complete = unwritten.is_empty();
        self.record.unwritten = unwritten;
        self.record.ended_at = Some(rfc3339_millis(now_ms()));
        let mut written = self.write(meta);
        let saved = lock.map(|lock| {
            let saved = lock.wait();
            if saved.is_err() {
                self.record.manifest.lock_after = self.lock_on_disk();
                written = self.write(meta);
            }
            saved
        });
        // Its last write in place: the next run takes its header from the
        // cache instead of reading it whole. Not under nextest: the cache
        // holds one record, and a run there has one a process.
        if let Some(written) = written.as_ref().filter(|_| self.record.nextest.is_none()) {
            let header = RecordHeader::of(&self.record);
            cache::records::remember(self.root, &written.path, &header);
        }
        if let Some(EarlierRuns(found)) = earlier {
            let (headers, unreadable) = split_found(found);
            // Only a run whose own record stands replaces the earlier ones.
            if !self.unrecorded.get() {
                store::remove_runs_before(
                    self.root,
                    &headers,
                    &unreadable,
                    &self.record.run_id,
                    &self.record.started_at,
                    &self.orphans,
                );
            }
        }
        if let Some(tidying) = self.tidying.take() {
            // Best effort, and it never panics on what it finds.
            let _ = tidying.join();
        }
        Finished {
            lock: saved,
            failed: self.unrecorded.get() || !self.record.unwritten.is_empty(),
        }
    }

    /// The lock's digest as it is on disk: the one taken at the start
    /// while the lock keeps its stamp.
    fn lock_on_disk(&self) -> Option<FileDigest> {
        let unchanged = self.lock_stamp.is_some()
            && Stamp::of_file(&store::lock_path(self.root)) == self.lock_stamp;
        match &self.record.manifest.lock_before {
            Some(before) if unchanged => Some(before.clone()),
            _ => lock_digest(self.root),
        }
    }

    /// Write the record (and its history's copy). A record `.varar/.runs/`
    /// does not take is an error, said once: the run then fails, and the
    /// history's copy (when there is a history) is the witness that makes
    /// `cargo varar gate` refuse the older evidence (issue 34).
    fn write(&self, meta: &[ItemMeta]) -> Option<store::WrittenRecord> {
        let items = Listed {
            meta,
            selected: &self.selected,
            attempts: &self.attempts,
            finished: &self.finished,
        };
        let written = store::write_process_record_with(self.root, &self.record, &items);
        let kept = self.history.write(
            (&self.record, &items),
            written.as_ref().ok().map(|w| w.path.as_path()),
        );
        match written {
            Ok(written) => Some(written),
            Err(e) => {
                if !self.unrecorded.replace(true) {
                    print::error(unrecorded_message(&e, self.history.dir().filter(|_| kept)));
                }
                None
            }
        }
    }
}

/// The items a record lists, as the run keeps them: each selected trial's
/// metadata, its attempt and, once the run is over, how it ended.
struct Listed<'r> {
    meta: &'r [ItemMeta],
    selected: &'r [usize],
    attempts: &'r [u32],
    finished: &'r Finishes,
}

impl RecordItems for Listed<'_> {
    fn count(&self) -> usize {
        self.selected.len()
    }

    fn item(&self, index: usize) -> ItemView<'_> {
        let (selected, attempt) = (self.selected[index], self.attempts[index]);
        let meta = &self.meta[selected];
        let finished = self.finished.get(selected);
        ItemView {
            name: &meta.name,
            kind: meta.kind,
            oath_path: &meta.oath_path,
            line: meta.line,
            attempt,
            outcome: finished.map(|f| f.outcome),
            duration_ms: finished.map(|f| f.duration_ms),
            message: finished
                .filter(|f| f.outcome == Outcome::Failed)
                .and_then(|f| f.message.as_deref()),
        }
    }
}

/// What is said when this run's record could not be written to
/// `.varar/.runs/`: where, why, and whether anything else witnesses the
/// run (`history`: the run history that kept the record).
fn unrecorded_message(e: &StoreError, history: Option<&Path>) -> String {
    let then = match history {
        Some(dir) => format!(
            "the run history keeps it (`{}`), so `cargo varar gate` refuses the older evidence \
             in `.varar/` (unrecorded_run)",
            dir.display()
        ),
        None => "nothing else records this run (the run history is off or could not be \
                 written), so `cargo varar gate` may take the older evidence in `.varar/` for \
                 this run's: do not judge it until a run records itself"
            .to_owned(),
    };
    format!(
        "this run's record could not be written to `.varar/.runs/` ({e}): {then}; this run fails \
         (free the disk, make `.varar/` writable, or raise the file-size limit, and run the \
         tests again)"
    )
}

/// The directory of this process's run, made before the run writes
/// anything else (see [`store::claim_run_dir`]; one that cannot be made is
/// said when the record cannot be written either). Dropped before the run
/// records itself (it stopped early, with an error), the directory this
/// made goes again if it is still empty; kept, it is the run's.
pub(crate) struct Claim<'a> {
    root: &'a Path,
    run_id: String,
    made: bool,
}

impl<'a> Claim<'a> {
    /// Make the directory of run `run_id`.
    pub(crate) fn new(root: &'a Path, run_id: &str) -> Claim<'a> {
        Claim {
            root,
            run_id: run_id.to_owned(),
            made: store::claim_run_dir(root, run_id).unwrap_or(false),
        }
    }

    /// Keep the directory for the run; whether this made it (the run is
    /// new).
    pub(crate) fn keep(mut self) -> bool {
        std::mem::take(&mut self.made)
    }
}

impl Drop for Claim<'_> {
    fn drop(&mut self) {
        if self.made {
            store::release_run_dir(self.root, &self.run_id);
        }
    }
}

/// The headers of the records of the project's other runs, which a full run
/// replaces: read apart from writing this run's record (reading a run of
/// thousands of items takes about as long as writing one), so that the two
/// can go on together.
pub(crate) struct EarlierRuns(Vec<Result<RecordHeader, store::RecordFileError>>);

/// Read [`EarlierRuns`]: the runs other than `run_id`.
pub(crate) fn earlier_runs(root: &Path, run_id: &str) -> EarlierRuns {
    EarlierRuns(store::read_other_headers(
        root,
        run_id,
        cache::records::known(root),
    ))
}

/// Every readable run of the project, and how many record files could not
/// be read (each reported, and left alone); records of an unknown version
/// skipped.
pub(crate) fn store_runs(root: &Path) -> (Vec<RunRecord>, usize) {
    let (read, unreadable) = split_found(store::read_records(root));
    (RunRecord::combine(read), unreadable.len())
}

/// What of `found` could be read, and the files that could not (each
/// reported as a warning naming the file and what to do: issue 34);
/// records of an unknown version skipped.
fn split_found<T>(found: Vec<Result<T, store::RecordFileError>>) -> (Vec<T>, Vec<PathBuf>) {
    let mut read = Vec::new();
    let mut unreadable = Vec::new();
    for found in found {
        match found {
            Ok(record) => read.push(record),
            Err(e) if e.is_unknown_version() => {}
            Err(e) => {
                print::warning(format_args!(
                    "{e}; it is left out (the first full run that starts after it was written \
                     removes it with the earlier runs; or delete it)"
                ));
                unreadable.push(e.path().to_path_buf());
            }
        }
    }
    (read, unreadable)
}

/// The first process of a new run, once its start record is written,
/// prunes the oldest runs, keeping [`store::KEPT_RUNS`] (by the time their
/// directories last changed, so that no record has to be read), and the
/// runs killed before they recorded anything, and removes the temporaries
/// killed writers left anywhere under `.varar/` (issue 34): on a thread of
/// its own, which nothing of the run waits for until it ends.
fn tidy_when_new(root: &Path, run_id: &str, orphans: store::Orphans) -> Option<JoinHandle<()>> {
    fn tidy(root: &Path, run_id: &str, orphans: &store::Orphans) {
        store::prune_oldest_runs(root, run_id, orphans);
        // Before the sweep: a killed run's directory goes whole, never
        // emptied and left changed after this run began.
        store::prune_unrecorded_runs(root, run_id, orphans);
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
///
/// `unreadable`: how many record files could not be read (already
/// reported): the latest readable run is continued all the same.
pub(crate) fn rerun_of(
    (runs, unreadable): (Vec<RunRecord>, usize),
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
        return Err(if runs.is_empty() && unreadable > 0 {
            format!(
                "there is no readable run record in .varar/.runs/ ({} could not be read: see \
                 the warnings above)",
                if unreadable == 1 {
                    "1 record file".to_owned()
                } else {
                    format!("{unreadable} record files")
                }
            )
        } else if runs.is_empty() {
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
