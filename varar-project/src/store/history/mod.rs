//! The run history on disk (issue 20): every process record a run writes
//! to `.varar/.runs/` is also written to `<history>/<run id>/<process
//! id>.run` (see `varar_core::history` for where and how much), so that a
//! run survives the next one, which replaces `.varar/.runs/`. The layout is
//! that of `.varar/.runs/`, so the same reader reads both.
//!
//! Pruning deletes, so a run uses the history only after
//! [`History::open`] judged its place (`varar_core::history::judge_history`,
//! issue 34): a directory varar made and marked with `.varar-history`, never
//! a symbolic link, never the project, cargo's target directory or a
//! parent of either. Pruning removes only the run directories it finds
//! there that hold nothing but our records and orphaned temporaries
//! (`removal`), and the orphaned temporaries of the runs it keeps.
//!
//! Writing history never breaks a run: every failure, a refused place
//! included, is returned for the harness to print as one warning. Pruning
//! runs once per run (when its first process creates the run's directory)
//! and reads directory listings and file sizes only, never a record.

use std::fs::Metadata;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use varar_core::env::{CARGO_TARGET_DIR, VARAR_HISTORY};
use varar_core::history::{
    HISTORY_MARKER, HistoryLimits, HistoryOrigin, HistorySeen, HistoryUse, KeptRun, LimitError,
    MARKER_TEXT, SeenEntry, clash, history_dir, judge_history, runs_to_prune, target_dir,
};
use varar_core::owned::{EntryKind, is_temporary, temporary_prefix};
use varar_core::record::{
    ProcessRecord, RECORD_EXTENSION, RecordHeader, RecordItems, parse_record_header,
};

use super::atomic::{create_dir_noting_new, exchange, write_disposable_with};
use super::errors::{StoreError, write_err};
use super::removal::{Orphans, is_real_dir, kind_of, millis, remove_run_dir};
use super::runs::{RecordFileError, file_name_of, modified_at, read_records_under};
use super::scratch::SCRATCH_DIR;

/// Where the history is kept, and how much of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct History {
    /// The directory of runs.
    pub dir: PathBuf,
    /// Whether `VARAR_HISTORY` named it, or it is the default place.
    pub origin: HistoryOrigin,
    /// What is kept.
    pub limits: HistoryLimits,
    /// The project's directory, which the history must never be (nor a
    /// parent of it).
    pub project: PathBuf,
    /// Cargo's target directory, likewise.
    pub target: PathBuf,
}

impl History {
    /// The history of the project at `root` as the environment sets it
    /// (`VARAR_HISTORY`, `CARGO_TARGET_DIR`, the limits) or cargo's target
    /// directory (the nearest `target/` at or above `root` holding cargo's
    /// `CACHEDIR.TAG`); `None` when it is `off`. Bad limits are returned
    /// beside the defaults used instead. Nothing is looked at yet: see
    /// [`History::open`].
    pub fn from_env(root: &Path) -> (Option<History>, Vec<LimitError>) {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        let (limits, errors) = HistoryLimits::from_vars(var);
        let found = root
            .ancestors()
            .map(|a| a.join("target"))
            .find(|t| t.join("CACHEDIR.TAG").is_file());
        let target_var = var(CARGO_TARGET_DIR);
        let place = history_dir(
            root,
            var(VARAR_HISTORY).as_deref(),
            target_var.as_deref(),
            found.as_deref(),
        );
        let history = place.map(|(dir, origin)| History {
            dir,
            origin,
            limits,
            project: root.to_path_buf(),
            target: target_dir(root, target_var.as_deref(), found.as_deref()),
        });
        (history, errors)
    }

    /// Judge the history's place (see `varar_core::history::judge_history`)
    /// and make it ready to write: created with its marker when missing,
    /// marked when empty (or an earlier version's history at the default
    /// place). A place refused is [`StoreError::HistoryRefused`], naming it
    /// and why; nothing there is touched.
    pub fn open(&self) -> Result<(), StoreError> {
        match self.judge()? {
            HistoryUse::Use => Ok(()),
            HistoryUse::Create => {
                std::fs::create_dir_all(&self.dir).map_err(write_err(&self.dir))?;
                self.mark()
            }
            HistoryUse::Adopt => self.mark(),
        }
    }

    /// Judge the history's place for reading (`cargo varar history`,
    /// `flaky`): the same refusal as [`History::open`], nothing written. A
    /// missing history holds no runs.
    pub fn check_readable(&self) -> Result<(), StoreError> {
        self.judge().map(drop)
    }

    /// What a run does with the history's place.
    fn judge(&self) -> Result<HistoryUse, StoreError> {
        let place = resolved(&self.dir);
        let seen = look(&self.dir, &place, self.origin)?;
        let clashes = clash(
            &place,
            &resolved(&self.project),
            &resolved(&self.target),
            &resolved(&self.project.join(SCRATCH_DIR)),
        );
        judge_history(self.origin, clashes, &seen).map_err(|reason| StoreError::HistoryRefused {
            path: self.dir.clone(),
            reason,
        })
    }

    /// Write the marker (a concurrent process may have written it first).
    fn mark(&self) -> Result<(), StoreError> {
        let path = self.dir.join(HISTORY_MARKER);
        let created = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path);
        match created {
            Ok(mut file) => file
                .write_all(MARKER_TEXT.as_bytes())
                .map_err(write_err(&path)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
            Err(source) => Err(StoreError::Write { path, source }),
        }
    }

    /// The directory of run `run_id`.
    pub fn run_dir(&self, run_id: &str) -> PathBuf {
        self.dir.join(file_name_of(run_id))
    }

    /// Write `record` into the history atomically. Returns whether this
    /// created the run's directory (the run is new to the history). The
    /// history must be [opened](History::open) first.
    pub fn write(&self, record: &ProcessRecord) -> Result<bool, StoreError> {
        self.write_linked(record, None)
    }

    /// [`History::write`] of a record that, when `written` is given, is
    /// already written there (its file in `.varar/.runs/`). The history
    /// then gives that file a second name (a hard link, renamed into
    /// place) instead of writing a copy: no inode to allocate, no bytes to
    /// write, in every process of a nextest run. Neither name is ever
    /// written in place (every write renames a new file over it), so the
    /// two never change together. Where no link can be made (another file
    /// system, say), the copy is written.
    pub fn write_linked(
        &self,
        record: &ProcessRecord,
        written: Option<&Path>,
    ) -> Result<bool, StoreError> {
        self.write_linked_with(record, &record.items, written)
    }

    /// [`History::write_linked`] of `record` with its items written from
    /// `items` (`ProcessRecord::write_with_items_to`).
    pub fn write_linked_with(
        &self,
        record: &ProcessRecord,
        items: &dyn RecordItems,
        written: Option<&Path>,
    ) -> Result<bool, StoreError> {
        let dir = self.run_dir(&record.run_id);
        let new = create_dir_noting_new(&dir)?;
        let path = dir.join(format!(
            "{}.{RECORD_EXTENSION}",
            file_name_of(&record.process_id)
        ));
        let linked = written.is_some_and(|source| {
            let temporary = dir.join(format!(
                "{}{}.link",
                temporary_prefix(std::process::id()),
                file_name_of(&record.process_id)
            ));
            link_into(source, &temporary, &path)
        });
        if !linked {
            write_disposable_with(&path, |sink| record.write_with_items_to(sink, items))?;
        }
        Ok(new)
    }

    /// Every run kept, as its directory listing shows it: the real
    /// directories of the history (links and files are no run), each with
    /// the bytes of its files. Nothing when the history is not marked.
    pub fn kept_runs(&self) -> Vec<KeptRun> {
        self.listed_runs()
            .into_iter()
            .map(|(run, ..)| run)
            .collect()
    }

    /// [`History::kept_runs`], each with its directory and its files.
    fn listed_runs(&self) -> Vec<(KeptRun, PathBuf, RunFiles)> {
        if !is_real_dir(&self.dir) || !is_marked(&self.dir) {
            return Vec::new();
        }
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        entries
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
            .filter_map(|e| {
                let modified = e.metadata().ok()?.modified().ok()?;
                let files = run_files(&e.path());
                let run = KeptRun {
                    name: e.file_name().to_str()?.to_owned(),
                    modified_ms: millis(modified),
                    bytes: files.bytes,
                };
                Some((run, e.path(), files))
            })
            .collect()
    }

    /// Remove the runs beyond the limits at `now`, keeping `keep` (the run
    /// being written), and the orphaned temporaries of the runs kept.
    /// Only a marked history is pruned, and only what we wrote goes (see
    /// [`remove_run_dir`]): a run directory holding anything else stays.
    /// Best effort: returns the runs removed.
    pub fn prune(&self, keep: &str, now: SystemTime, orphans: &Orphans) -> Vec<String> {
        let runs = self.listed_runs();
        let listed: Vec<KeptRun> = runs.iter().map(|(run, ..)| run.clone()).collect();
        let doomed = runs_to_prune(&listed, &file_name_of(keep), &self.limits, millis(now));
        let mut removed = Vec::new();
        for (run, path, files) in runs {
            if doomed.contains(&run.name) {
                if remove_run_dir(&path, orphans) {
                    removed.push(run.name);
                }
                continue;
            }
            // The runs kept lose what killed writers left: one listing
            // served both.
            for (name, temporary, meta) in files.temporaries {
                if orphans.orphan(&name, &meta, now) {
                    let _ = std::fs::remove_file(temporary);
                }
            }
        }
        removed
    }
}

/// What is at `place`, the history `dir` resolved (its last component not
/// followed). An unmarked directory's run directories are listed when an
/// earlier version's history may be adopted (`origin`).
fn look(dir: &Path, place: &Path, origin: HistoryOrigin) -> Result<HistorySeen, StoreError> {
    let meta = match std::fs::symlink_metadata(place) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(HistorySeen::Missing),
        Err(source) => {
            return Err(StoreError::Read {
                path: dir.to_path_buf(),
                source,
            });
        }
    };
    if meta.file_type().is_symlink() {
        return Ok(HistorySeen::Symlink);
    }
    if !meta.is_dir() {
        return Ok(HistorySeen::NotADirectory);
    }
    if is_marked(place) {
        return Ok(HistorySeen::Marked);
    }
    let read = |path: &Path| {
        std::fs::read_dir(path).map_err(|source| StoreError::Read {
            path: path.to_path_buf(),
            source,
        })
    };
    let mut seen = Vec::new();
    for entry in read(place)? {
        let entry = entry.map_err(|source| StoreError::Read {
            path: dir.to_path_buf(),
            source,
        })?;
        let kind = entry.file_type().map_or(EntryKind::Other, kind_of);
        // An earlier version's runs are recognised at the default
        // place only: their directories are listed there alone.
        let entries = (origin == HistoryOrigin::Default && kind == EntryKind::Dir)
            .then(|| listing(&entry.path()))
            .flatten();
        seen.push(SeenEntry {
            name: entry.file_name().to_str().map(str::to_owned),
            kind,
            entries,
        });
    }
    Ok(HistorySeen::Unmarked(seen))
}

/// Whether `dir` holds our marker, a regular file (not a link to one).
fn is_marked(dir: &Path) -> bool {
    std::fs::symlink_metadata(dir.join(HISTORY_MARKER)).is_ok_and(|m| m.is_file())
}

/// `path` with its parent's links and `..` resolved and its last component
/// kept as it is (so that a link there is seen as a link): `.` and a
/// trailing `/`, which would make the system follow it, are dropped.
/// Where the parent does not exist, `path` with `.` dropped.
fn resolved(path: &Path) -> PathBuf {
    let path: PathBuf = path.components().collect();
    match (path.parent(), path.file_name()) {
        (Some(parent), Some(name)) => match std::fs::canonicalize(parent) {
            Ok(parent) => parent.join(name),
            Err(_) => path,
        },
        // `/`, or a path ending in `..`: no link to keep.
        _ => std::fs::canonicalize(&path).unwrap_or(path),
    }
}

/// The entries of `dir`, or `None` when it cannot be listed (or holds a
/// name that is not UTF-8, never ours).
fn listing(dir: &Path) -> Option<Vec<(String, EntryKind)>> {
    std::fs::read_dir(dir)
        .ok()?
        .map(|e| {
            let e = e.ok()?;
            Some((
                e.file_name().to_str()?.to_owned(),
                kind_of(e.file_type().ok()?),
            ))
        })
        .collect()
}

/// Give `source` the name `target` atomically: a hard link at `temporary`,
/// renamed over `target`. `false` (and nothing left behind) when it cannot.
fn link_into(source: &Path, temporary: &Path, target: &Path) -> bool {
    // A temporary left by a process that died between the two steps is
    // removed only when it is in the way: the usual case costs one call.
    let linked = std::fs::hard_link(source, temporary).is_ok() || {
        let _ = std::fs::remove_file(temporary);
        std::fs::hard_link(source, temporary).is_ok()
    };
    if !linked {
        return false;
    }
    // The link replaces the one an earlier write of this process made
    // (the record at its start) without a rename over it: see `exchange`.
    if exchange(temporary, target) {
        let _ = std::fs::remove_file(temporary);
        return true;
    }
    if std::fs::rename(temporary, target).is_err() {
        let _ = std::fs::remove_file(temporary);
        return false;
    }
    true
}

/// Whether `dir`, given to be read as a history (a downloaded one, say),
/// is one: marked, empty, or holding only run directories. Otherwise
/// [`StoreError::HistoryRefused`]: a foreign directory is not read as a
/// history.
pub fn check_history_dir(dir: &Path) -> Result<(), StoreError> {
    let seen = look(dir, &resolved(dir), HistoryOrigin::Default)?;
    judge_history(HistoryOrigin::Default, None, &seen)
        .map(drop)
        .map_err(|reason| StoreError::HistoryRefused {
            path: dir.to_path_buf(),
            reason,
        })
}

/// The records the history at `dir` holds that the runs directory `runs`
/// (a project's `.varar/.runs`) does not, of the runs whose directory
/// changed at or after `since` (RFC 3339; every run when `None`): each
/// file and its header. A run that wrote its record to the history and
/// could not write it to `.varar/` (read-only, full) leaves one (issue 34).
/// Only a history varar marked is read (the harness writes to no other),
/// never through a link; only directory listings are read, and the headers
/// of the files found; a file whose header cannot be read is left out.
pub fn records_missing_from(
    dir: &Path,
    runs: &Path,
    since: Option<&str>,
) -> Vec<(PathBuf, RecordHeader)> {
    if !is_real_dir(dir) || !is_marked(dir) {
        return Vec::new();
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for run in entries.flatten() {
        let path = run.path();
        let recent = since.is_none_or(|since| modified_at(&path).is_none_or(|m| *m >= *since));
        if !recent || !run.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        let Ok(files) = std::fs::read_dir(&path) else {
            continue;
        };
        let local = runs.join(run.file_name());
        for file in files.flatten() {
            if !file.file_type().is_ok_and(|t| t.is_file()) {
                continue;
            }
            let file = file.path();
            let is_record = file.extension().is_some_and(|e| e == RECORD_EXTENSION);
            let Some(name) = file.file_name().filter(|_| is_record) else {
                continue;
            };
            if local.join(name).is_file() {
                continue;
            }
            let header = crate::files::read(&file)
                .ok()
                .and_then(|bytes| parse_record_header(&bytes).ok());
            if let Some(header) = header {
                found.push((file, header));
            }
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    found
}

/// Every record of the history at `dir`, read strictly, in path order.
pub fn read_history(dir: &Path) -> Vec<Result<ProcessRecord, RecordFileError>> {
    read_records_under(dir)
}

/// What one listing of a run's directory tells: the bytes of its files,
/// and its temporaries of ours (usually none), each with its metadata.
struct RunFiles {
    bytes: u64,
    temporaries: Vec<(String, PathBuf, Metadata)>,
}

/// The files directly in `dir` (links not followed).
fn run_files(dir: &Path) -> RunFiles {
    let mut files = RunFiles {
        bytes: 0,
        temporaries: Vec::new(),
    };
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let Ok(meta) = entry.metadata() else {
            continue;
        };
        if !meta.is_file() {
            continue;
        }
        files.bytes += meta.len();
        if let Some(name) = entry.file_name().to_str().filter(|n| is_temporary(n)) {
            files
                .temporaries
                .push((name.to_owned(), entry.path(), meta));
        }
    }
    files
}

#[cfg(test)]
mod tests;
