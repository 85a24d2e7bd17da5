//! The run records on disk (issue 19): `.varar/.runs/<run id>/<process
//! id>.run`, one file per process, written atomically at its start and at
//! its end. The directory name starts with a dot and the files end in
//! `.run`, so no oath's result path (`.varar/<oathPath>.json`) can ever name
//! one, and other ports' readers, which open result paths only, never see
//! them. Each process writes only its own file, so concurrent runs (and the
//! processes of one nextest run) never tear each other's records.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use super::atomic::{TEMP_PREFIX, create_dir_noting_new, write_disposable, write_disposable_with};
use super::errors::StoreError;
use super::removal::{Orphans, is_real_dir, kind_of, remove_run_dir};
use super::scratch::{ensure_scratch_dir, scratch_dir};
use varar_core::hash::sha256_hex;
use varar_core::owned::{EntryKind, RunEntry, run_entry};
use varar_core::record::{
    ProcessRecord, RECORD_EXTENSION, RecordError, RecordHeader, RecordItems, RunRecord,
    parse_process_record, parse_record_header,
};
use varar_core::time::rfc3339_millis;

pub use varar_core::layout::{RUNS_DIR, file_name_of, runs_dir_shown};

/// How many runs are kept: older ones are pruned when a new run starts.
pub const KEPT_RUNS: usize = 16;

/// `<root>/.varar/.runs`.
pub fn runs_dir(root: &Path) -> PathBuf {
    runs_dir_in(&scratch_dir(root))
}

/// `<tree>/.runs`: the runs directory of a results tree laid out like
/// `.varar/` (a project's own, a CI shard's downloaded copy, a merged
/// one).
pub fn runs_dir_in(tree: &Path) -> PathBuf {
    tree.join(RUNS_DIR)
}

/// A process record on disk: its file, and whether writing it created its
/// run's directory (the first record of the run, which prunes the others).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrittenRecord {
    /// The file written.
    pub path: PathBuf,
    /// Whether the run's directory was created by this write.
    pub new_run: bool,
}

/// Write a process's record (its start, or its end) atomically, streamed
/// (a record of thousands of items is never held as text).
pub fn write_process_record(
    root: &Path,
    record: &ProcessRecord,
) -> Result<WrittenRecord, StoreError> {
    write_process_record_with(root, record, &record.items)
}

/// [`write_process_record`] of `record` with its items written from
/// `items` (`ProcessRecord::write_with_items_to`).
pub fn write_process_record_with(
    root: &Path,
    record: &ProcessRecord,
    items: &dyn RecordItems,
) -> Result<WrittenRecord, StoreError> {
    ensure_scratch_dir(root)?;
    let dir = runs_dir(root).join(file_name_of(&record.run_id));
    let new_run = create_dir_noting_new(&dir)?;
    let path = dir.join(format!(
        "{}.{RECORD_EXTENSION}",
        file_name_of(&record.process_id)
    ));
    write_disposable_with(&path, |sink| record.write_with_items_to(sink, items))?;
    Ok(WrittenRecord { path, new_run })
}

/// Make the directory of run `run_id` (`.varar/.runs/<run id>/`) before
/// anything else of the run is written (issue 34): `mkdir` needs no byte of
/// a file, so a file-size limit (`ulimit -f`) that kills the process at its
/// first write still leaves the directory, which a reader then sees as a
/// run that left no record. Returns whether this made it (the run is new).
/// `.varar/`'s `.gitignore` is written after the directories, when this
/// made `.varar/` too.
pub fn claim_run_dir(root: &Path, run_id: &str) -> Result<bool, StoreError> {
    let scratch = scratch_dir(root);
    let scratch_existed = scratch.is_dir();
    let new = create_dir_noting_new(&runs_dir(root).join(file_name_of(run_id)))?;
    if !scratch_existed {
        write_disposable(&scratch.join(".gitignore"), b"*\n")?;
    }
    Ok(new)
}

/// Remove the directory of run `run_id` if it is empty: what
/// [`claim_run_dir`] made for a run that stopped before it wrote anything
/// (`remove_dir` removes nothing else). So is what the claim may have made
/// around it: `.varar/.runs/` when it is left empty, and `.varar/` when it
/// holds nothing but the `.gitignore` a claim writes, so that a run stopped
/// by its settings (no config, nothing discovered) leaves no `.varar/`.
pub fn release_run_dir(root: &Path, run_id: &str) {
    let runs = runs_dir(root);
    if std::fs::remove_dir(runs.join(file_name_of(run_id))).is_err() {
        return;
    }
    if std::fs::remove_dir(&runs).is_err() {
        return;
    }
    let scratch = scratch_dir(root);
    let ignore = scratch.join(".gitignore");
    let only_ours = std::fs::read_dir(&scratch).is_ok_and(|entries| {
        let names: Vec<_> = entries.flatten().map(|e| e.file_name()).collect();
        names.len() == 1 && names[0] == ".gitignore"
    }) && std::fs::symlink_metadata(&ignore).is_ok_and(|m| m.is_file())
        && crate::files::read(&ignore).is_ok_and(|b| b == b"*\n");
    if only_ours && std::fs::remove_file(&ignore).is_ok() {
        let _ = std::fs::remove_dir(&scratch);
    }
}

/// The project's identity in its records ([`ProcessRecord::project`]):
/// the lowercase hexadecimal SHA-256 of the canonical path of `root` (as
/// it is, when it cannot be made canonical). The harness and the commands
/// compute it alike, so a command tells its project's runs apart in a run
/// history that a workspace's projects share.
pub fn project_id(root: &Path) -> String {
    let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    sha256_hex(root.to_string_lossy().as_bytes())
}

/// When `path` last changed, as RFC 3339 UTC with milliseconds (how
/// records write their instants, so the two compare as strings).
pub fn modified_at(path: &Path) -> Option<String> {
    let modified = std::fs::metadata(path).ok()?.modified().ok()?;
    let ms = modified.duration_since(UNIX_EPOCH).ok()?.as_millis();
    Some(rfc3339_millis(u64::try_from(ms).unwrap_or(u64::MAX)))
}

/// One run's directory in a directory of runs, as read.
#[derive(Debug)]
pub struct RunDirectory {
    /// Its name (a run id as a file name).
    pub name: String,
    /// When it last changed (a record written, renamed or removed in it),
    /// as RFC 3339 UTC; `None` when that could not be read.
    pub modified: Option<String>,
    /// Its record files, each read strictly, in path order (a directory
    /// that could not be listed is one error).
    pub records: Vec<Result<ProcessRecord, RecordFileError>>,
    /// Whether it holds anything but record files and temporaries of ours
    /// (`.varar-tmp-*`): a directory that is not only ours.
    pub foreign: bool,
}

/// Every run directory under a runs directory (`<tree>/.runs/`, where
/// `tree` is a project's `.varar/` or any results tree laid out like it),
/// by name, each with its records read strictly; `Err` when the runs
/// directory itself exists and cannot be listed. An absent directory
/// holds none.
pub fn read_run_dirs_in(tree: &Path) -> Result<Vec<RunDirectory>, RecordFileError> {
    read_run_dirs_under(&runs_dir_in(tree))
}

/// The project's run directories (`<root>/.varar/.runs`); see
/// [`read_run_dirs_in`].
pub fn read_run_dirs(root: &Path) -> Result<Vec<RunDirectory>, RecordFileError> {
    read_run_dirs_under(&runs_dir(root))
}

/// Every run directory of a directory of runs laid out like `.varar/.runs`
/// (`<dir>/<run>/*.run`: the history is one too); see [`read_run_dirs_in`].
pub fn read_run_dirs_under(dir: &Path) -> Result<Vec<RunDirectory>, RecordFileError> {
    let dir = dir.to_path_buf();
    let entries = match std::fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => return Err(RecordFileError::Read { path: dir, source }),
    };
    let mut found: Vec<RunDirectory> = entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| read_run_dir(&e.path(), e.file_name().to_string_lossy().into_owned()))
        .collect();
    found.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(found)
}

/// One run directory read (see [`RunDirectory`]).
fn read_run_dir(path: &Path, name: String) -> RunDirectory {
    let modified = modified_at(path);
    let mut files = Vec::new();
    let mut foreign = false;
    let mut records = Vec::new();
    match std::fs::read_dir(path) {
        Ok(entries) => {
            for entry in entries.flatten() {
                let file = entry.path();
                let is_record = file.extension().is_some_and(|e| e == RECORD_EXTENSION)
                    && entry.file_type().is_ok_and(|t| t.is_file());
                if is_record {
                    files.push(file);
                } else if !entry.file_name().to_string_lossy().starts_with(TEMP_PREFIX) {
                    foreign = true;
                }
            }
        }
        Err(source) => records.push(Err(RecordFileError::Read {
            path: path.to_path_buf(),
            source,
        })),
    }
    files.sort();
    records.extend(files.into_iter().map(|file| {
        let bytes = crate::files::read(&file).map_err(|source| RecordFileError::Read {
            path: file.clone(),
            source,
        })?;
        parse_process_record(&bytes)
            .map_err(|source| RecordFileError::Invalid { path: file, source })
    }));
    RunDirectory {
        name,
        modified,
        records,
        foreign,
    }
}

/// Why a record file was not read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RecordFileError {
    /// The file or directory could not be read.
    #[error("cannot read `{}`: {source}", path.display())]
    Read {
        /// The path.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The reader refused it (a record of an unknown version included:
    /// see [`RecordFileError::is_unknown_version`]).
    #[error("`{}` is not a valid run record: {source}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: RecordError,
    },
}

impl RecordFileError {
    /// Whether the file is a record of a version this reader does not
    /// know, which a consumer treats as absent.
    pub fn is_unknown_version(&self) -> bool {
        matches!(self, RecordFileError::Invalid { source, .. } if source.is_unknown_version())
    }

    /// The file concerned.
    pub fn path(&self) -> &Path {
        match self {
            RecordFileError::Read { path, .. } | RecordFileError::Invalid { path, .. } => path,
        }
    }
}

/// Every record file under a runs directory (`<tree>/.runs/<run>/*.run`,
/// where `tree` is a project's `.varar/` or any results tree laid out like
/// it), in path order, and every directory that could not be listed. An
/// absent directory holds none.
pub fn record_files_in(tree: &Path) -> Vec<Result<PathBuf, RecordFileError>> {
    record_files_of(&runs_dir_in(tree), None)
}

/// Every record file of a directory of runs laid out like `.varar/.runs`
/// (`<dir>/<run>/*.run`: the history is one too), in path order, and every
/// directory that could not be listed. An absent directory holds none.
pub fn record_files_under(dir: &Path) -> Vec<Result<PathBuf, RecordFileError>> {
    record_files_of(dir, None)
}

/// The record files of a directory of runs, the run `except` left out.
fn record_files_of(dir: &Path, except: Option<&str>) -> Vec<Result<PathBuf, RecordFileError>> {
    let dir = dir.to_path_buf();
    let skipped = except.map(file_name_of);
    let mut out = Vec::new();
    let runs = match std::fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return out,
        Err(source) => {
            out.push(Err(RecordFileError::Read { path: dir, source }));
            return out;
        }
    };
    let mut files = Vec::new();
    for run in runs.flatten() {
        let run_dir = run.path();
        if !run_dir.is_dir() || skipped.as_deref().is_some_and(|s| run.file_name() == s) {
            continue;
        }
        match std::fs::read_dir(&run_dir) {
            Ok(entries) => {
                files.extend(entries.flatten().map(|e| e.path()).filter(|p| {
                    p.extension().is_some_and(|e| e == RECORD_EXTENSION) && p.is_file()
                }))
            }
            Err(source) => out.push(Err(RecordFileError::Read {
                path: run_dir,
                source,
            })),
        }
    }
    files.sort();
    out.extend(files.into_iter().map(Ok));
    out
}

/// Every record under a runs directory (see [`record_files_in`]), each
/// read strictly, in path order. An absent directory holds none.
pub fn read_records_in(tree: &Path) -> Vec<Result<ProcessRecord, RecordFileError>> {
    read_records_of(&runs_dir_in(tree), None)
}

/// Every record of a directory of runs (see [`record_files_under`]), each
/// read strictly, in path order.
pub fn read_records_under(dir: &Path) -> Vec<Result<ProcessRecord, RecordFileError>> {
    read_records_of(dir, None)
}

/// The records of a directory of runs, the run `except` left out.
fn read_records_of(
    dir: &Path,
    except: Option<&str>,
) -> Vec<Result<ProcessRecord, RecordFileError>> {
    read_files_of(dir, except, |_| None, parse_process_record)
}

/// Each record file of a directory of runs (the run `except` left out)
/// read by `parse`.
fn read_files_of<T>(
    dir: &Path,
    except: Option<&str>,
    known: impl Fn(&Path) -> Option<T>,
    parse: impl Fn(&[u8]) -> Result<T, RecordError>,
) -> Vec<Result<T, RecordFileError>> {
    record_files_of(dir, except)
        .into_iter()
        .map(|found| {
            let path = found?;
            if let Some(known) = known(&path) {
                return Ok(known);
            }
            let bytes = crate::files::read(&path).map_err(|source| RecordFileError::Read {
                path: path.clone(),
                source,
            })?;
            parse(&bytes).map_err(|source| RecordFileError::Invalid { path, source })
        })
        .collect()
}

/// The project's records (`<root>/.varar/.runs`).
pub fn read_records(root: &Path) -> Vec<Result<ProcessRecord, RecordFileError>> {
    read_records_of(&runs_dir(root), None)
}

/// The headers of the project's records of every run but `run_id`: what
/// a run that replaces the earlier ones needs to know of them (its own
/// records are not read back, and no record's items are built). A record
/// whose header `known` gives (one its writer remembered, and the file
/// still holds) is not read.
pub fn read_other_headers(
    root: &Path,
    run_id: &str,
    known: impl Fn(&Path) -> Option<RecordHeader>,
) -> Vec<Result<RecordHeader, RecordFileError>> {
    read_files_of(&runs_dir(root), Some(run_id), known, parse_record_header)
}

/// `<root>/.varar/.runs` when it, and `.varar/`, are real directories:
/// runs are pruned only there, never through a link.
fn own_runs_dir(root: &Path) -> Option<PathBuf> {
    let scratch = scratch_dir(root);
    let runs = scratch.join(RUNS_DIR);
    (is_real_dir(&scratch) && is_real_dir(&runs)).then_some(runs)
}

/// Remove the directories of the runs of `headers` that started before
/// `started_at` and are complete (every process of theirs ended: a run
/// still being written, by a concurrent process, is never removed), except
/// `keep`; and the directories of the records of `unreadable` (files a
/// reader refused, issue 34) that were last written before `started_at`
/// and hold no record of a run still being written: an older run's broken
/// record is pruned like the older run. Only what we wrote goes (see
/// [`remove_run_dir`]: records and `orphans`), never through a link: a run
/// directory holding anything else stays whole. Best effort: what cannot
/// be removed stays.
pub fn remove_runs_before(
    root: &Path,
    headers: &[RecordHeader],
    unreadable: &[PathBuf],
    keep: &str,
    started_at: &str,
    orphans: &Orphans,
) {
    let Some(dir) = own_runs_dir(root) else {
        return;
    };
    let mut runs: BTreeMap<&str, (bool, &str)> = BTreeMap::new();
    for h in headers {
        let run = runs
            .entry(h.run_id.as_str())
            .or_insert((true, h.started_at.as_str()));
        run.0 &= h.complete;
        run.1 = run.1.min(h.started_at.as_str());
    }
    let busy: Vec<String> = runs
        .iter()
        .filter(|(_, (complete, _))| !complete)
        .map(|(run_id, _)| file_name_of(run_id))
        .collect();
    for (run_id, (complete, started)) in runs {
        if run_id != keep && complete && started < started_at {
            remove_run_dir(&dir.join(file_name_of(run_id)), orphans);
        }
    }
    let own = file_name_of(keep);
    let mut broken: Vec<&Path> = unreadable
        .iter()
        .filter_map(|file| file.parent())
        .filter(|run| run.parent() == Some(dir.as_path()))
        .collect();
    broken.dedup();
    for run in broken {
        let name = run.file_name().map(|n| n.to_string_lossy().into_owned());
        let older = modified_at(run).is_some_and(|m| m.as_str() < started_at);
        if older && name.is_some_and(|n| n != own && !busy.contains(&n)) {
            remove_run_dir(run, orphans);
        }
    }
}

/// Keep the newest [`KEPT_RUNS`] complete runs of `runs` (latest first, as
/// [`RunRecord::combine`] orders them) and `keep`; remove the others (only
/// what we wrote, see [`remove_run_dir`]).
pub fn prune_runs(root: &Path, runs: &[RunRecord], keep: &str, orphans: &Orphans) {
    let Some(dir) = own_runs_dir(root) else {
        return;
    };
    for run in runs.iter().filter(|r| r.run_id != keep).skip(KEPT_RUNS) {
        if run.complete() {
            remove_run_dir(&dir.join(file_name_of(&run.run_id)), orphans);
        }
    }
}

/// Keep the [`KEPT_RUNS`] run directories of `.varar/.runs/` that changed
/// last, and `keep`'s; remove the others (only what we wrote, see
/// [`remove_run_dir`]), by their directories' times, so that no record is
/// read. For the first process of a new run.
pub fn prune_oldest_runs(root: &Path, keep: &str, orphans: &Orphans) {
    let Some(dir) = own_runs_dir(root) else {
        return;
    };
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    let own = file_name_of(keep);
    let mut runs: Vec<(SystemTime, PathBuf)> = entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()) && e.file_name() != own.as_str())
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    if runs.len() <= KEPT_RUNS {
        return;
    }
    runs.sort_by_key(|r| std::cmp::Reverse(r.0));
    for (_, path) in runs.into_iter().skip(KEPT_RUNS) {
        remove_run_dir(&path, orphans);
    }
}

/// Remove the run directories of `.varar/.runs/` other than `keep`'s that
/// hold no record and only temporaries of writers gone (see
/// [`remove_run_dir`]): runs killed before they recorded anything (a
/// file-size limit at their first write), which the run `keep`, whose
/// start record is written, supersedes. For the first process of a run,
/// before the sweep of orphans (`sweep_scratch`): removing a killed run's
/// temporary alone would leave its directory empty and changed after this
/// run began, which the standing reads as a run of now that could not
/// record itself (issue 34). An empty directory (a run starting now) and
/// one holding a record are left alone.
pub fn prune_unrecorded_runs(root: &Path, keep: &str, orphans: &Orphans) {
    let Some(dir) = own_runs_dir(root) else {
        return;
    };
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    let own = file_name_of(keep);
    for run in entries.flatten() {
        if !run.file_type().is_ok_and(|t| t.is_dir()) || run.file_name() == own.as_str() {
            continue;
        }
        let Ok(listing) = std::fs::read_dir(run.path()) else {
            continue;
        };
        let mut temporaries = 0;
        let mut other = false;
        for entry in listing.flatten() {
            let kind = entry.file_type().map_or(EntryKind::Other, kind_of);
            match entry.file_name().to_str().map(|n| run_entry(n, kind)) {
                Some(RunEntry::Temporary) => temporaries += 1,
                _ => other = true,
            }
        }
        if temporaries > 0 && !other {
            remove_run_dir(&run.path(), orphans);
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;
