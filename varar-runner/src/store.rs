//! The only writer of files (STYLE §2.7, spec 40 §4.4–4.5, §6). Shell.
//!
//! - Atomic writes: a temporary file in the target's own directory, written
//!   and flushed, then renamed over the target; skipped when the bytes are
//!   unchanged, so unchanged runs leave files (and their mtimes) alone. Only
//!   the committed baseline is also synced to disk ([`write_atomic`]); the
//!   disposable `.varar/` files ([`write_disposable`]) are not: a crash
//!   leaves the old file or the new one, and either is fine to regenerate.
//! - Advisory locks (`File::lock`) on sidecar files under
//!   `.varar/.locks/` around every read-modify-write, so a `cargo test` and a
//!   `cargo nextest` run side by side never lose each other's updates. The
//!   lock is on a sidecar, not on the target, because the rename replaces
//!   the target's inode.
//! - A file that exists but cannot be read is never overwritten; a
//!   `<name>.new` candidate is written beside it instead.
//! - `.varar/` gets a `.gitignore` containing `*` when we create it.
//! - A temporary file a killed run left behind (`.varar-tmp-*`, our own
//!   naming) is removed by the next write to its directory once it is
//!   older than [`STALE_TEMPORARY`]: no write takes that long, so it can
//!   only be an orphan (issue 10).
//!
//! The store moves bytes only: what a run-result file holds, and how a run
//! merges into it, is the pure `results` module's business.

use std::fs::File;
use std::io::{ErrorKind, Write as _};
use std::path::{Component, Path, PathBuf};
use std::time::{Duration, SystemTime};

use crate::lock::{
    Baseline, LOCK_FILE_NAME, LockError, ParsedLock, Reconciled, parse_lock, parse_lock_for,
};
use crate::results::{OathResults, ResultsError, parse_run_result};

/// The scratch directory for run results and lock sidecars (spec 40 §6).
pub const SCRATCH_DIR: &str = ".varar";

/// Why the store could not read or write a file. Every variant names it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// An existing file could not be read.
    #[error("cannot read `{}`: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The lock exists but is not a valid version-2 lock (spec 40 §4.4).
    #[error(
        "`{}` is not a valid drift baseline: {source}; fix the file or delete it to re-record",
        path.display()
    )]
    InvalidLock {
        /// The lock file.
        path: PathBuf,
        /// What is wrong, with line and column for JSON errors.
        #[source]
        source: LockError,
    },
    /// An existing file could not be read, so the new content went to a
    /// `.new` candidate beside it.
    #[error(
        "cannot read `{}` ({source}); left it untouched and wrote `{}` instead",
        path.display(),
        candidate.display()
    )]
    KeptUnreadable {
        /// The file that was kept.
        path: PathBuf,
        /// Where the new content went.
        candidate: PathBuf,
        /// Why it could not be read.
        #[source]
        source: std::io::Error,
    },
    /// A file or directory could not be written.
    #[error("cannot write `{}`: {source}", path.display())]
    Write {
        /// The file or directory.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The advisory lock could not be taken.
    #[error("cannot lock `{}`: {source}", path.display())]
    Lock {
        /// The sidecar lock file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// An oathPath that is not a plain relative path.
    #[error("`{oath_path}` is not a relative path inside the project")]
    BadOathPath {
        /// The offending path.
        oath_path: String,
    },
}

fn write_err(path: &Path) -> impl FnOnce(std::io::Error) -> StoreError + '_ {
    move |source| StoreError::Write {
        path: path.to_path_buf(),
        source,
    }
}

/// Whether a write must reach the disk before the call returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Durability {
    /// The file and the rename are synced (`varar.lock.json`, which is
    /// committed and hard to rebuild).
    Synced,
    /// Atomic rename only: a crash leaves the old file or the new one, never
    /// a torn one; either can be regenerated (`.varar/` results, reports).
    Disposable,
}

/// Write `bytes` to `path` atomically and durably (synced to disk) unless it
/// already holds exactly them. Returns whether the file was written. The
/// parent directory must exist. For committed files such as the baseline.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<bool, StoreError> {
    write_replacing(path, bytes, Durability::Synced)
}

/// Write `bytes` to `path` atomically (temporary file, then rename) without
/// syncing, unless it already holds exactly them. Returns whether the file
/// was written. For disposable artifacts: run results, reports.
pub fn write_disposable(path: &Path, bytes: &[u8]) -> Result<bool, StoreError> {
    write_replacing(path, bytes, Durability::Disposable)
}

fn write_replacing(path: &Path, bytes: &[u8], durability: Durability) -> Result<bool, StoreError> {
    let existing = match std::fs::read(path) {
        Ok(existing) => Some(existing),
        Err(e) if e.kind() == ErrorKind::NotFound => None,
        // Unreadable: still replaceable by rename; the callers that must
        // not overwrite unreadable files check before calling.
        Err(_) => None,
    };
    if existing.as_deref() == Some(bytes) {
        return Ok(false);
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    remove_stale_temporaries(dir, SystemTime::now());
    let mut builder = tempfile::Builder::new();
    builder.prefix(TEMP_PREFIX);
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
    if let Ok(meta) = std::fs::metadata(path) {
        tmp.as_file()
            .set_permissions(meta.permissions())
            .map_err(write_err(path))?;
    }
    tmp.write_all(bytes).map_err(write_err(path))?;
    tmp.flush().map_err(write_err(path))?;
    if durability == Durability::Synced {
        tmp.as_file().sync_all().map_err(write_err(path))?;
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
    Ok(true)
}

/// The name every temporary file of ours starts with.
const TEMP_PREFIX: &str = ".varar-tmp-";

/// How old a temporary file of ours must be before a later write removes
/// it: far longer than any write takes, so only orphans of killed runs
/// qualify, and a concurrent run's temporary is never touched.
pub const STALE_TEMPORARY: Duration = Duration::from_secs(10 * 60);

/// Remove the temporaries of ours in `dir` last modified before `now −
/// STALE_TEMPORARY`. Best effort: a file that vanished or cannot be
/// removed is left to the next write.
fn remove_stale_temporaries(dir: &Path, now: SystemTime) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let ours = entry
            .file_name()
            .to_str()
            .is_some_and(|n| n.starts_with(TEMP_PREFIX));
        let Ok(meta) = entry.metadata() else {
            continue;
        };
        let stale = meta
            .modified()
            .ok()
            .and_then(|m| now.duration_since(m).ok())
            .is_some_and(|age| age > STALE_TEMPORARY);
        if ours && stale && meta.is_file() {
            let _ = std::fs::remove_file(entry.path());
        }
    }
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

/// Create `<root>/.varar/` if needed; when we create it, put a `.gitignore`
/// containing `*` in it. Returns its path.
pub fn ensure_scratch_dir(root: &Path) -> Result<PathBuf, StoreError> {
    let dir = root.join(SCRATCH_DIR);
    match std::fs::create_dir(&dir) {
        Ok(()) => {
            write_disposable(&dir.join(".gitignore"), b"*\n")?;
        }
        Err(e) if e.kind() == ErrorKind::AlreadyExists && dir.is_dir() => {}
        Err(source) => return Err(StoreError::Write { path: dir, source }),
    }
    Ok(dir)
}

/// An advisory lock held until dropped (closing the file releases it).
#[derive(Debug)]
pub struct FileLockGuard {
    _file: File,
}

/// Take the advisory lock of sidecar `name` under `.varar/.locks/`,
/// blocking until it is free.
fn acquire(root: &Path, name: &str) -> Result<FileLockGuard, StoreError> {
    let dir = ensure_scratch_dir(root)?.join(".locks");
    let path = dir.join(format!("{name}.lock"));
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(write_err(parent))?;
    }
    let lock_err = |source| StoreError::Lock {
        path: path.clone(),
        source,
    };
    let file = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(lock_err)?;
    file.lock().map_err(lock_err)?;
    Ok(FileLockGuard { _file: file })
}

/// Lock the baseline for a read-modify-write: hold the guard from
/// [`read_lock`] to [`save_lock`].
pub fn lock_baseline(root: &Path) -> Result<FileLockGuard, StoreError> {
    acquire(root, LOCK_FILE_NAME)
}

/// Read `<root>/varar.lock.json` (spec 40 §4.4): absent → no baseline,
/// another version → [`Baseline::Unsupported`], anything unreadable or
/// invalid → an error (the file must then be left alone).
pub fn read_lock(root: &Path) -> Result<Baseline, StoreError> {
    let path = root.join(LOCK_FILE_NAME);
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(Baseline::Absent),
        Err(source) => return Err(StoreError::Read { path, source }),
    };
    match parse_lock(&bytes) {
        Ok(ParsedLock::Valid(lock)) => Ok(Baseline::Present { lock, bytes }),
        Ok(ParsedLock::UnsupportedVersion { version }) => Ok(Baseline::Unsupported { version }),
        Err(source) => Err(StoreError::InvalidLock { path, source }),
    }
}

/// [`read_lock`] again, for recording: when the file still holds exactly the
/// bytes `earlier` was read from, `earlier` is returned without parsing the
/// file a second time.
pub fn reread_lock(root: &Path, earlier: Baseline) -> Result<Baseline, StoreError> {
    let Baseline::Present { bytes: old, .. } = &earlier else {
        return read_lock(root);
    };
    let path = root.join(LOCK_FILE_NAME);
    match std::fs::read(&path) {
        Ok(bytes) if bytes == *old => Ok(earlier),
        Ok(bytes) => match parse_lock(&bytes) {
            Ok(ParsedLock::Valid(lock)) => Ok(Baseline::Present { lock, bytes }),
            Ok(ParsedLock::UnsupportedVersion { version }) => Ok(Baseline::Unsupported { version }),
            Err(source) => Err(StoreError::InvalidLock { path, source }),
        },
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(Baseline::Absent),
        Err(source) => Err(StoreError::Read { path, source }),
    }
}

/// [`read_lock`] keeping only the entries of the oaths for which `wanted`
/// holds; the others are skipped unread (see [`parse_lock_for`]). For runs
/// that never write the lock.
pub fn read_lock_for(root: &Path, wanted: &dyn Fn(&str) -> bool) -> Result<Baseline, StoreError> {
    let path = root.join(LOCK_FILE_NAME);
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(Baseline::Absent),
        Err(source) => return Err(StoreError::Read { path, source }),
    };
    match parse_lock_for(&bytes, wanted) {
        Ok(ParsedLock::Valid(lock)) => Ok(Baseline::Present { lock, bytes }),
        Ok(ParsedLock::UnsupportedVersion { version }) => Ok(Baseline::Unsupported { version }),
        Err(source) => Err(StoreError::InvalidLock { path, source }),
    }
}

/// Write the reconciled lock if reconciliation says so (spec 40 §4.5 step 3).
/// Returns whether the file changed.
pub fn save_lock(root: &Path, reconciled: &Reconciled) -> Result<bool, StoreError> {
    if !reconciled.write {
        return Ok(false);
    }
    write_atomic(&root.join(LOCK_FILE_NAME), reconciled.text.as_bytes())
}

/// `<root>/.varar/<oathPath>.json` (spec 40 §6).
pub fn run_result_path(root: &Path, oath_path: &str) -> Result<PathBuf, StoreError> {
    if !is_plain(oath_path) {
        return Err(StoreError::BadOathPath {
            oath_path: oath_path.to_owned(),
        });
    }
    Ok(root.join(SCRATCH_DIR).join(format!("{oath_path}.json")))
}

/// Whether `oath_path` is a non-empty relative path with no `.`, `..` or
/// root component, so it cannot point outside the tree it is joined to.
fn is_plain(oath_path: &str) -> bool {
    !oath_path.is_empty()
        && Path::new(oath_path)
            .components()
            .all(|c| matches!(c, Component::Normal(_)))
}

/// Why a run-result file was not read. Every variant names the file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ResultFileError {
    /// The file exists but could not be read.
    #[error("cannot read `{}`: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The strict reader refused the content.
    #[error("`{}` is not a valid run result: {source}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// Why, with the place in the document.
        #[source]
        source: ResultsError,
    },
    /// The file is valid but records another oath than its location says.
    #[error("`{}` holds the results of `{found}`, not of `{expected}`", path.display())]
    OtherOath {
        /// The file.
        path: PathBuf,
        /// The `oathPath` it records.
        found: String,
        /// The oathPath its location gives.
        expected: String,
    },
    /// An oathPath that is not a plain relative path.
    #[error("`{oath_path}` is not a relative path inside the project")]
    BadOathPath {
        /// The offending path.
        oath_path: String,
    },
}

impl ResultFileError {
    /// The file concerned (`None` for a bad oathPath, which names no file).
    pub fn path(&self) -> Option<&Path> {
        match self {
            ResultFileError::Read { path, .. }
            | ResultFileError::Invalid { path, .. }
            | ResultFileError::OtherOath { path, .. } => Some(path),
            ResultFileError::BadOathPath { .. } => None,
        }
    }
}

/// Read one run-result file with the strict reader.
pub fn read_run_result_file(path: &Path) -> Result<OathResults, ResultFileError> {
    let bytes = std::fs::read(path).map_err(|source| ResultFileError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    parse_run_result(&bytes).map_err(|source| ResultFileError::Invalid {
        path: path.to_path_buf(),
        source,
    })
}

/// Read `<root>/.varar/<oathPath>.json` strictly: `None` when there is no
/// such file (nothing ran), an error when it cannot be read, is refused by
/// the reader, or records another oath.
pub fn read_run_result(
    root: &Path,
    oath_path: &str,
) -> Result<Option<OathResults>, ResultFileError> {
    read_run_result_in(&root.join(SCRATCH_DIR), oath_path)
}

/// Read `<tree>/<oathPath>.json` strictly, as [`read_run_result`] does for
/// a project's own `.varar/`; `tree` is any directory laid out like it (a
/// CI shard's downloaded results, say).
pub fn read_run_result_in(
    tree: &Path,
    oath_path: &str,
) -> Result<Option<OathResults>, ResultFileError> {
    if !is_plain(oath_path) {
        return Err(ResultFileError::BadOathPath {
            oath_path: oath_path.to_owned(),
        });
    }
    let path = tree.join(format!("{oath_path}.json"));
    let results = match read_run_result_file(&path) {
        Ok(results) => results,
        Err(ResultFileError::Read { source, .. }) if source.kind() == ErrorKind::NotFound => {
            return Ok(None);
        }
        Err(e) => return Err(e),
    };
    if results.oath_path != oath_path {
        return Err(ResultFileError::OtherOath {
            path,
            found: results.oath_path,
            expected: oath_path.to_owned(),
        });
    }
    Ok(Some(results))
}

/// Read-modify-write `<root>/.varar/<oathPath>.json` under its advisory
/// lock (spec 40 §6): `update` gets the stored bytes (`None` when there is
/// no file) and returns the new ones, or `None` to leave the file as it is.
/// An existing file that cannot be read is kept, and what `update` makes of
/// no file goes to `<name>.new` beside it. Returns whether the file changed.
pub fn update_run_result(
    root: &Path,
    oath_path: &str,
    update: impl FnOnce(Option<&[u8]>) -> Option<Vec<u8>>,
) -> Result<bool, StoreError> {
    let path = run_result_path(root, oath_path)?;
    let _guard = acquire(root, &format!("{oath_path}.json"))?;
    let stored = match std::fs::read(&path) {
        Ok(bytes) => Some(bytes),
        Err(e) if e.kind() == ErrorKind::NotFound => None,
        Err(source) => {
            let Some(bytes) = update(None) else {
                return Ok(false);
            };
            let candidate = write_pending(&path, &bytes)?;
            return Err(StoreError::KeptUnreadable {
                path,
                candidate,
                source,
            });
        }
    };
    let Some(bytes) = update(stored.as_deref()) else {
        return Ok(false);
    };
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(write_err(parent))?;
    }
    write_disposable(&path, &bytes)
}

/// Write `<root>/.varar/<oathPath>.json` without reading it, under the same
/// advisory lock as [`update_run_result`]: for a run in which every example
/// of the oath ran, whose results nothing stored can add to. Returns
/// whether the file changed.
pub fn replace_run_result(root: &Path, oath_path: &str, bytes: &[u8]) -> Result<bool, StoreError> {
    let path = run_result_path(root, oath_path)?;
    let _guard = acquire(root, &format!("{oath_path}.json"))?;
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(write_err(parent))?;
    }
    write_disposable(&path, bytes)
}

#[cfg(test)]
mod tests;
