//! The run history on disk (issue 20): every process record a run writes
//! to `.varar/.runs/` is also written to `<history>/<run id>/<process
//! id>.run` (see `varar_core::history` for where and how much), so that a
//! run survives the next one, which replaces `.varar/.runs/`. The layout is
//! that of `.varar/.runs/`, so the same reader reads both.
//!
//! Writing history never breaks a run: every failure is returned for the
//! harness to print as one warning. Pruning runs once per run (when its
//! first process creates the run's directory) and reads directory listings
//! and file sizes only, never a record.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use varar_core::history::{
    HISTORY_VAR, HistoryLimits, KeptRun, LimitError, history_dir, runs_to_prune,
};
use varar_core::record::{ProcessRecord, RECORD_EXTENSION, RecordHeader, parse_record_header};

use super::atomic::{TEMP_PREFIX, create_dir_noting_new, write_disposable_with};
use super::errors::StoreError;
use super::runs::{RecordFileError, file_name_of, modified_at, read_records_under};

/// Where the history is kept, and how much of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct History {
    /// The directory of runs.
    pub dir: PathBuf,
    /// What is kept.
    pub limits: HistoryLimits,
}

impl History {
    /// The history of the project at `root` as the environment sets it
    /// (`VARAR_HISTORY`, `CARGO_TARGET_DIR`, the limits) or cargo's target
    /// directory (the nearest `target/` at or above `root` holding cargo's
    /// `CACHEDIR.TAG`); `None` when it is `off`. Bad limits are returned beside the defaults used instead.
    pub fn from_env(root: &Path) -> (Option<History>, Vec<LimitError>) {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        let (limits, errors) = HistoryLimits::from_vars(var);
        let found = root
            .ancestors()
            .map(|a| a.join("target"))
            .find(|t| t.join("CACHEDIR.TAG").is_file());
        let dir = history_dir(
            root,
            var(HISTORY_VAR).as_deref(),
            var("CARGO_TARGET_DIR").as_deref(),
            found.as_deref(),
        );
        (dir.map(|dir| History { dir, limits }), errors)
    }

    /// The directory of run `run_id`.
    pub fn run_dir(&self, run_id: &str) -> PathBuf {
        self.dir.join(file_name_of(run_id))
    }

    /// Write `record` into the history atomically. Returns whether this
    /// created the run's directory (the run is new to the history).
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
        let dir = self.run_dir(&record.run_id);
        let new = create_dir_noting_new(&dir)?;
        let path = dir.join(format!(
            "{}.{RECORD_EXTENSION}",
            file_name_of(&record.process_id)
        ));
        let linked = written.is_some_and(|source| {
            let temporary = dir.join(format!(
                "{TEMP_PREFIX}{}.link",
                file_name_of(&record.process_id)
            ));
            link_into(source, &temporary, &path)
        });
        if !linked {
            write_disposable_with(&path, |sink| record.write_to(sink))?;
        }
        Ok(new)
    }

    /// Every run kept, as its directory listing shows it (directories that
    /// cannot be listed are left out).
    pub fn kept_runs(&self) -> Vec<KeptRun> {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        entries
            .flatten()
            .filter(|e| e.path().is_dir())
            .filter_map(|e| {
                let modified = e.metadata().ok()?.modified().ok()?;
                Some(KeptRun {
                    name: e.file_name().to_string_lossy().into_owned(),
                    modified_ms: millis(modified),
                    bytes: dir_bytes(&e.path()),
                })
            })
            .collect()
    }

    /// Remove the runs beyond the limits at `now`, keeping `keep` (the run
    /// being written). Best effort: returns the runs removed.
    pub fn prune(&self, keep: &str, now: SystemTime) -> Vec<String> {
        let runs = self.kept_runs();
        let mut removed = Vec::new();
        for name in runs_to_prune(&runs, &file_name_of(keep), &self.limits, millis(now)) {
            if std::fs::remove_dir_all(self.dir.join(&name)).is_ok() {
                removed.push(name);
            }
        }
        removed
    }
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
    if std::fs::rename(temporary, target).is_err() {
        let _ = std::fs::remove_file(temporary);
        return false;
    }
    true
}

/// The records the history at `dir` holds that the runs directory `runs`
/// (a project's `.varar/.runs`) does not, of the runs whose directory
/// changed at or after `since` (RFC 3339; every run when `None`): each
/// file and its header. A run that wrote its record to the history and
/// could not write it to `.varar/` (read-only, full) leaves one (issue 34).
/// Only directory listings are read, and the headers of the files found;
/// a file whose header cannot be read is left out.
pub fn records_missing_from(
    dir: &Path,
    runs: &Path,
    since: Option<&str>,
) -> Vec<(PathBuf, RecordHeader)> {
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
            let file = file.path();
            let is_record = file.extension().is_some_and(|e| e == RECORD_EXTENSION);
            let Some(name) = file.file_name().filter(|_| is_record) else {
                continue;
            };
            if local.join(name).is_file() {
                continue;
            }
            let header = std::fs::read(&file)
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

fn millis(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// The bytes of the files directly in `dir`.
fn dir_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.metadata().ok())
        .filter(|m| m.is_file())
        .map(|m| m.len())
        .sum()
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::store::runs::tests::record;

    fn history(dir: &Path, limits: HistoryLimits) -> History {
        History {
            dir: dir.to_path_buf(),
            limits,
        }
    }

    #[test]
    fn a_record_written_to_the_history_reads_back_and_says_when_its_run_is_new() {
        let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let h = history(&tmp.path().join("h"), HistoryLimits::default());
        let first = record("nextest/1", "p1", "2026-12-01T07:00:00.000Z", false);
        assert!(h.write(&first).unwrap_or_else(|e| panic!("{e}")));
        let second = record("nextest/1", "p2", "2026-12-01T07:00:01.000Z", true);
        assert!(!h.write(&second).unwrap_or_else(|e| panic!("{e}")));
        let read: Vec<ProcessRecord> = read_history(&h.dir)
            .into_iter()
            .map(|r| r.unwrap_or_else(|e| panic!("{e}")))
            .collect();
        assert_eq!(read, [first, second]);
        assert!(h.dir.join("nextest_1").is_dir(), "the id as a file name");
    }

    #[test]
    fn a_record_already_written_is_linked_into_the_history_not_copied() {
        let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let root = tmp.path().join("project");
        std::fs::create_dir_all(&root).unwrap_or_else(|e| panic!("{e}"));
        let h = history(&tmp.path().join("h"), HistoryLimits::default());
        let read = |p: &Path| std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{e}"));
        let start = record("r", "p", "2026-12-01T07:00:00.000Z", false);
        let text = start.to_text().unwrap_or_default();
        let runs_file = crate::store::write_process_record(&root, &start)
            .map_or_else(|e| panic!("{e}"), |w| w.path);
        assert_eq!(read(&runs_file), text, "streamed, the same bytes");
        h.write_linked(&start, Some(&runs_file))
            .unwrap_or_else(|e| panic!("{e}"));
        let kept = h.run_dir("r").join("p.run");
        assert_eq!(read(&kept), text);
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt as _;
            let ino = |p: &Path| std::fs::metadata(p).map(|m| m.ino()).unwrap_or_default();
            assert_eq!(ino(&kept), ino(&runs_file), "one file, two names");
        }
        // The end of the process replaces its record: the history keeps
        // the start until it is given the end too.
        let end = record("r", "p", "2026-12-01T07:00:00.000Z", true);
        let end_text = end.to_text().unwrap_or_default();
        let runs_file = crate::store::write_process_record(&root, &end)
            .map_or_else(|e| panic!("{e}"), |w| w.path);
        assert_eq!(read(&kept), text);
        h.write_linked(&end, Some(&runs_file))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(read(&kept), end_text);
        // No link to make: the text is written instead, and no temporary
        // is left behind.
        let other = record("r", "q", "2026-12-01T07:00:00.000Z", true);
        let other_text = other.to_text().unwrap_or_default();
        h.write_linked(&other, Some(&root.join("missing.run")))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(read(&h.run_dir("r").join("q.run")), other_text);
        let names: Vec<String> = std::fs::read_dir(h.run_dir("r"))
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.len(), 2, "{names:?}");
    }

    #[test]
    fn a_temporary_left_in_the_way_is_replaced_by_the_link() {
        let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let root = tmp.path().join("project");
        std::fs::create_dir_all(&root).unwrap_or_else(|e| panic!("{e}"));
        let h = history(&tmp.path().join("h"), HistoryLimits::default());
        let end = record("r", "p", "2026-12-01T07:00:00.000Z", true);
        let runs_file = crate::store::write_process_record(&root, &end)
            .map_or_else(|e| panic!("{e}"), |w| w.path);
        // What a process killed between its link and its rename leaves.
        let dir = h.run_dir("r");
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
        let stale = dir.join(format!("{TEMP_PREFIX}p.link"));
        std::fs::write(&stale, "stale").unwrap_or_else(|e| panic!("{e}"));
        h.write_linked(&end, Some(&runs_file))
            .unwrap_or_else(|e| panic!("{e}"));
        let read = |p: &Path| std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(read(&dir.join("p.run")), read(&runs_file));
        assert!(!stale.exists(), "the temporary was renamed into place");
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt as _;
            let ino = |p: &Path| std::fs::metadata(p).map(|m| m.ino()).unwrap_or_default();
            assert_eq!(
                ino(&dir.join("p.run")),
                ino(&runs_file),
                "linked, not copied"
            );
        }
    }

    #[test]
    fn a_history_that_cannot_be_written_is_an_error_naming_the_directory() {
        let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let file = tmp.path().join("file");
        std::fs::write(&file, "").unwrap_or_else(|e| panic!("{e}"));
        let h = history(&file.join("history"), HistoryLimits::default());
        let err = h
            .write(&record("r", "p", "2026-12-01T07:00:00.000Z", true))
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(err.contains("file/history/r"), "{err}");
    }

    #[test]
    fn pruning_keeps_the_newest_runs_within_the_count() {
        let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let limits = HistoryLimits {
            runs: 2,
            ..HistoryLimits::default()
        };
        let h = history(tmp.path(), limits);
        for run in ["r1", "r2", "r3"] {
            h.write(&record(run, "p", "2026-12-01T07:00:00.000Z", true))
                .unwrap_or_else(|e| panic!("{e}"));
            // Directory times are what pruning orders by.
            std::thread::sleep(Duration::from_millis(20));
        }
        let removed = h.prune("r3", SystemTime::now());
        assert_eq!(removed, ["r1"]);
        let mut left: Vec<String> = h.kept_runs().into_iter().map(|r| r.name).collect();
        left.sort();
        assert_eq!(left, ["r2", "r3"]);
        assert!(h.kept_runs().iter().all(|r| r.bytes > 0));
    }

    #[test]
    fn issue34_records_the_history_holds_and_varar_does_not_are_found_by_their_headers() {
        let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let h = history(&tmp.path().join("h"), HistoryLimits::default());
        let runs = tmp.path().join(".varar/.runs");
        let both = record("both", "p1", "2026-12-01T07:00:00.000Z", true);
        h.write(&both).unwrap_or_else(|e| panic!("{e}"));
        std::fs::create_dir_all(runs.join("both")).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(runs.join("both/p1.run"), b"{}").unwrap_or_else(|e| panic!("{e}"));
        let only = record("only", "p2", "2026-12-01T08:00:00.000Z", false);
        h.write(&only).unwrap_or_else(|e| panic!("{e}"));
        let found = records_missing_from(&h.dir, &runs, None);
        let ids: Vec<(&str, &str)> = found
            .iter()
            .map(|(_, h)| (h.run_id.as_str(), h.process_id.as_str()))
            .collect();
        assert_eq!(ids, [("only", "p2")]);
        assert!(found[0].0.ends_with("only/p2.run"));
        assert!(
            records_missing_from(&h.dir, &runs, Some("9999-01-01T00:00:00.000Z")).is_empty(),
            "only runs written since"
        );
    }
}
