//! Writing a file atomically: a temporary file in the target's own
//! directory, written and flushed (and synced, for committed files), then
//! renamed over the target (a disposable file swapped with it, see
//! `exchange`); skipped when the bytes are unchanged. Every
//! writer of the project's files goes through here: the harness's results
//! and baseline, `cargo varar merge`'s results tree, the report's pages.

use std::collections::BTreeSet;
use std::fs::File;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, SystemTime};

use varar_core::owned::{STALE_TEMPORARY_MS, temporary_prefix};

use super::errors::{StoreError, write_err};
use super::removal::{Orphans, remove_orphans_in};

/// Whether a write must reach the disk before the call returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Durability {
    /// The file and the rename are synced (`varar.lock.json`, which is
    /// committed and hard to rebuild).
    Synced,
    /// Atomic replacement only (see [`exchange`]): a process that dies
    /// leaves the old file or the new one, never a torn one; a machine that
    /// loses power may leave an empty one, which every reader refuses and
    /// the next run rewrites (`.varar/` results, records, reports).
    Disposable,
}

/// Write `bytes` to `path` atomically and durably (synced to disk) unless it
/// already holds exactly them. Returns whether the file was written. The
/// parent directory must exist. For committed files such as the baseline.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<bool, StoreError> {
    write_replacing(path, bytes, Durability::Synced)
}

/// Write `bytes` to `path` atomically (temporary file, then rename, or a
/// swap with the file it replaces) without syncing, unless it already
/// holds exactly them. Returns whether the file was written. For
/// disposable artifacts: run results, reports.
pub fn write_disposable(path: &Path, bytes: &[u8]) -> Result<bool, StoreError> {
    write_replacing(path, bytes, Durability::Disposable)
}

/// Write what `fill` writes to `path` atomically (temporary file, then
/// rename) without syncing, streamed: for a file too large to be worth
/// holding whole (a run record of thousands of items). Always written.
///
/// For a file in a directory of one run (`.varar/.runs/<run>/`, a history
/// run): its directory is not swept for orphaned temporaries at each
/// write, since it holds one record per process and every process of a
/// nextest run writes twice (listing it at each write made a run of n
/// processes list n² entries). The first process of the next run sweeps
/// them (`sweep_scratch`, the history's pruning), or they go with their
/// run's directory.
pub fn write_disposable_with(
    path: &Path,
    fill: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> Result<(), StoreError> {
    let existing = std::fs::metadata(path).ok();
    replace_with(path, existing, Durability::Disposable, Sweep::No, |tmp| {
        let mut buffered = std::io::BufWriter::new(tmp);
        fill(&mut buffered)?;
        buffered.flush()
    })
}

fn write_replacing(path: &Path, bytes: &[u8], durability: Durability) -> Result<bool, StoreError> {
    let existing = std::fs::metadata(path).ok();
    if existing
        .as_ref()
        .is_some_and(|m| holds_exactly(path, m, bytes))
    {
        return Ok(false);
    }
    replace_with(path, existing, durability, Sweep::StaleTemporaries, |tmp| {
        tmp.write_all(bytes)
    })?;
    Ok(true)
}

/// Whether a write first removes its directory's stale temporaries.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Sweep {
    StaleTemporaries,
    No,
}

/// Replace `path`, which is `existing` now (its mode is kept), by a
/// temporary file that `fill` writes, then renames.
fn replace_with(
    path: &Path,
    existing: Option<std::fs::Metadata>,
    durability: Durability,
    sweep: Sweep,
    fill: impl FnOnce(&mut File) -> std::io::Result<()>,
) -> Result<(), StoreError> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if sweep == Sweep::StaleTemporaries && first_write_to(dir) {
        remove_stale_temporaries(dir, SystemTime::now());
    }
    let mut builder = tempfile::Builder::new();
    // Our process id in the name: a later process removes it once this
    // one is gone (see `removal`).
    let prefix = temporary_prefix(std::process::id());
    builder.prefix(&prefix);
    // NamedTempFile is private (0600) by default: give a new file the usual
    // 0644 (less the umask) so a committed lock stays readable, and keep an
    // existing file's mode exactly (set after creation, which the umask does
    // not touch).
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        builder.permissions(std::fs::Permissions::from_mode(0o644));
    }
    let mut tmp = builder.tempfile_in(dir).map_err(write_err(path))?;
    #[cfg(unix)]
    if let Some(meta) = &existing {
        tmp.as_file()
            .set_permissions(meta.permissions())
            .map_err(write_err(path))?;
    }
    fill(tmp.as_file_mut()).map_err(write_err(path))?;
    if durability == Durability::Synced {
        tmp.as_file().sync_all().map_err(write_err(path))?;
    }
    if durability == Durability::Disposable && existing.is_some() && exchange(tmp.path(), path) {
        // The temporary's name now holds the old file, which dropping it
        // removes.
        drop(tmp);
        return Ok(());
    }
    tmp.persist(path).map_err(|e| StoreError::Write {
        path: path.to_path_buf(),
        source: e.error,
    })?;
    #[cfg(unix)]
    if durability == Durability::Synced {
        // Make the rename itself durable; best effort, the data is safe.
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
    Ok(())
}

/// Swap our new file at `ours` with the file at `target`, atomically:
/// whether they were swapped, and `ours` then names the old file, for the
/// caller to remove. Otherwise (no file at `target`, a platform or file
/// system without `RENAME_EXCHANGE`) nothing changed and the caller
/// renames.
///
/// For a disposable file only. On ext4 (the usual Linux file system), a
/// rename over an existing file first writes the new file's data out (its
/// `auto_da_alloc` guard for programs that never sync): about 0.1 ms,
/// paid at every result file and run record a run replaces, twice in
/// every process of a nextest run. A swap does not start that write; a
/// disposable file is never synced anyway.
///
/// Only a file (or a link) is replaced: a directory found at `target` by
/// the swap is swapped back, and the caller's rename fails on it as it
/// always did.
pub(crate) fn exchange(ours: &Path, target: &Path) -> bool {
    #[cfg(target_os = "linux")]
    {
        use rustix::fs::{CWD, RenameFlags, renameat_with};
        if renameat_with(CWD, ours, CWD, target, RenameFlags::EXCHANGE).is_err() {
            return false;
        }
        let swapped_a_directory = std::fs::symlink_metadata(ours).is_ok_and(|m| m.is_dir());
        // Swapped back, nothing changed; if that fails, `target` holds our
        // file and `ours` the directory, which the caller's removal of a
        // file leaves where it is.
        !(swapped_a_directory
            && renameat_with(CWD, ours, CWD, target, RenameFlags::EXCHANGE).is_ok())
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (ours, target);
        false
    }
}

/// Whether the file at `path` (`meta`) holds exactly `bytes`. A file of another
/// size is not read (a run record rewritten at the end of a run, say); one
/// that cannot be read does not (it is still replaceable by rename; the
/// callers that must not overwrite unreadable files check before calling).
fn holds_exactly(path: &Path, meta: &std::fs::Metadata, bytes: &[u8]) -> bool {
    let same_size = meta.is_file() && u64::try_from(bytes.len()).is_ok_and(|n| n == meta.len());
    same_size && crate::files::read(path).is_ok_and(|existing| existing == bytes)
}

/// The name every temporary file of ours starts with (then this
/// process's id and a `-`: `varar_core::owned::temporary_prefix`).
pub use varar_core::owned::TEMP_PREFIX;

/// How old a temporary file of ours must be before a later write removes
/// it whatever its name says: far longer than any write takes, so only
/// orphans of killed runs qualify, and a concurrent run's temporary is
/// never touched. A temporary whose writer is gone goes sooner (see
/// `removal`).
pub const STALE_TEMPORARY: Duration = Duration::from_millis(STALE_TEMPORARY_MS);

/// Whether this process writes to `dir` for the first time: a directory
/// is swept once per process, not at every write (a first run writes a
/// hundred result files into one directory; an orphan is an orphan of an
/// earlier process, which one sweep finds).
fn first_write_to(dir: &Path) -> bool {
    static SWEPT: Mutex<BTreeSet<PathBuf>> = Mutex::new(BTreeSet::new());
    let mut swept = SWEPT
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    swept.insert(dir.to_path_buf())
}

/// Remove the orphaned temporaries of ours in `dir` at `now`: those older
/// than [`STALE_TEMPORARY`], and those of a process that no longer runs
/// last modified before this process first wrote (the next `site`, `merge`
/// or run removes what a killed one left). Best effort: a file that
/// vanished or cannot be removed is left to a later process.
fn remove_stale_temporaries(dir: &Path, now: SystemTime) {
    static FIRST_WRITE: OnceLock<SystemTime> = OnceLock::new();
    let since = *FIRST_WRITE.get_or_init(|| now);
    remove_orphans_in(dir, &Orphans::since(since), now);
}

/// `<name>.new` beside `path`.
pub fn pending_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".new");
    path.with_file_name(name)
}

/// Write a candidate `<name>.new` beside a file that must be kept (STYLE
/// §2.7) and return its path.
pub fn write_pending(path: &Path, bytes: &[u8]) -> Result<PathBuf, StoreError> {
    let candidate = pending_path(path);
    write_atomic(&candidate, bytes)?;
    Ok(candidate)
}

/// Create `dir` (and its parents) if needed; when this call creates it,
/// put a `.gitignore` containing `*` in it, so a scratch directory
/// (`.varar/`, a merged results tree) is never committed by accident.
/// Returns whether it was created.
pub fn create_ignored_dir(dir: &Path) -> Result<bool, StoreError> {
    if dir.is_dir() {
        return Ok(false);
    }
    std::fs::create_dir_all(dir).map_err(write_err(dir))?;
    write_disposable(&dir.join(".gitignore"), b"*\n")?;
    Ok(true)
}

/// Create the directory `dir` (and its parents), returning whether this
/// call created it: one `mkdir` where the parent exists, so that the
/// processes of a run, which all write into the run's directory, learn
/// which one came first without a `stat` apiece.
pub(crate) fn create_dir_noting_new(dir: &Path) -> Result<bool, StoreError> {
    match std::fs::create_dir(dir) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && dir.is_dir() => Ok(false),
        Err(_) => {
            // A missing parent (or a race with another process creating
            // it): what `create_dir_all` cannot make is the error.
            let existed = dir.is_dir();
            std::fs::create_dir_all(dir).map_err(write_err(dir))?;
            Ok(!existed)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok<T, E: std::fmt::Display>(r: Result<T, E>) -> T {
        r.unwrap_or_else(|e| panic!("{e}"))
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = ok(std::fs::read_dir(dir))
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    /// The swap itself, where the platform has it: what makes replacing a
    /// disposable file cheap on ext4 is that it is taken, not only that
    /// the result is right.
    #[cfg(target_os = "linux")]
    #[test]
    fn exchange_swaps_two_files_and_nothing_when_the_target_is_missing() {
        let dir = ok(tempfile::tempdir());
        let (ours, target) = (dir.path().join("ours"), dir.path().join("target"));
        ok(std::fs::write(&ours, "new"));
        assert!(!exchange(&ours, &target), "no target: the caller renames");
        assert_eq!(ok(std::fs::read_to_string(&ours)), "new");
        ok(std::fs::write(&target, "old"));
        assert!(exchange(&ours, &target));
        assert_eq!(ok(std::fs::read_to_string(&target)), "new");
        assert_eq!(ok(std::fs::read_to_string(&ours)), "old");
    }

    #[test]
    fn a_directory_in_the_way_stays_whole_and_the_write_fails_as_before() {
        let dir = ok(tempfile::tempdir());
        let path = dir.path().join("f.json");
        ok(std::fs::create_dir(&path));
        ok(std::fs::write(path.join("inside"), "kept"));
        #[cfg(target_os = "linux")]
        {
            let ours = dir.path().join("ours");
            ok(std::fs::write(&ours, "new"));
            assert!(!exchange(&ours, &path), "a directory is swapped back");
            assert_eq!(ok(std::fs::read_to_string(&ours)), "new");
            ok(std::fs::remove_file(&ours));
        }
        assert!(write_disposable(&path, b"new").is_err());
        assert!(write_disposable_with(&path, |w| w.write_all(b"new")).is_err());
        assert_eq!(ok(std::fs::read_to_string(path.join("inside"))), "kept");
        assert_eq!(names(dir.path()), ["f.json"], "no temporary left");
    }

    #[cfg(unix)]
    #[test]
    fn a_link_in_the_way_is_replaced_and_what_it_names_is_kept() {
        let dir = ok(tempfile::tempdir());
        let elsewhere = dir.path().join("elsewhere");
        ok(std::fs::write(&elsewhere, "theirs"));
        let path = dir.path().join("f.json");
        ok(std::os::unix::fs::symlink(&elsewhere, &path));
        assert!(ok(write_disposable(&path, b"ours")));
        assert!(ok(std::fs::symlink_metadata(&path)).is_file());
        assert_eq!(ok(std::fs::read_to_string(&path)), "ours");
        assert_eq!(ok(std::fs::read_to_string(&elsewhere)), "theirs");
        assert_eq!(names(dir.path()), ["elsewhere", "f.json"]);
    }

    #[test]
    fn a_replaced_record_leaves_only_itself() {
        let dir = ok(tempfile::tempdir());
        let path = dir.path().join("p.run");
        ok(write_disposable_with(&path, |w| w.write_all(b"start")));
        ok(write_disposable_with(&path, |w| w.write_all(b"end")));
        assert_eq!(ok(std::fs::read_to_string(&path)), "end");
        assert_eq!(names(dir.path()), ["p.run"]);
    }
}
