//! The committed baseline `<root>/varar.lock.json` (spec 40 §4.4–4.5): read
//! strictly, never overwritten when it could not be read, written durably.

use std::io::{ErrorKind, Read as _};
use std::path::{Path, PathBuf};

use super::atomic::write_atomic;
use super::errors::StoreError;
use super::locks::{FileLockGuard, acquire};
use varar_core::hash::Sha256;
use varar_core::lock::{
    Baseline, LOCK_FILE_NAME, LockBytes, ParsedLock, Reconciled, parse_lock, parse_lock_for,
};

/// `<root>/varar.lock.json`, the committed baseline.
pub fn lock_path(root: &Path) -> PathBuf {
    root.join(LOCK_FILE_NAME)
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
    let path = lock_path(root);
    let bytes = match crate::files::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(Baseline::Absent),
        Err(source) => return Err(StoreError::Read { path, source }),
    };
    match parse_lock(&bytes) {
        Ok(ParsedLock::Valid(lock)) => Ok(Baseline::Present {
            lock,
            bytes: LockBytes::of(&bytes),
        }),
        Ok(ParsedLock::UnsupportedVersion { version }) => Ok(Baseline::Unsupported { version }),
        Err(source) => Err(StoreError::InvalidLock { path, source }),
    }
}

/// [`read_lock`] again, for recording: when the file still holds exactly the
/// bytes `earlier` was read from, `earlier` is returned without parsing the
/// file a second time.
///
/// The file is hashed a chunk at a time first, and read whole only when
/// it changed: a lock no other run touched (the usual case) is not held a
/// second time at the run's end, where a copy of it was the last growth
/// of a run's peak memory (issue 39: 0.6 MB on 200 oaths).
pub fn reread_lock(root: &Path, earlier: Baseline) -> Result<Baseline, StoreError> {
    let Baseline::Present { bytes: old, .. } = &earlier else {
        return read_lock(root);
    };
    let path = lock_path(root);
    match still_holds(&path, old) {
        Ok(true) => Ok(earlier),
        Ok(false) => read_lock(root),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(Baseline::Absent),
        Err(source) => Err(StoreError::Read { path, source }),
    }
}

/// Whether the file at `path` holds exactly `old`: compared by length,
/// then by the digest of what it holds, read a chunk at a time (see the
/// files module's rules: only a regular file is read).
fn still_holds(path: &Path, old: &LockBytes) -> std::io::Result<bool> {
    let (mut file, meta) = crate::files::open_with_metadata(path)?;
    if meta.len() != old.byte_len() {
        return Ok(false);
    }
    let mut hasher = Sha256::new();
    let mut chunk = [0u8; 64 * 1024];
    let mut seen: u64 = 0;
    loop {
        let n = match file.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        seen += n as u64;
        if seen > old.byte_len() {
            // It grew while it was read: not those bytes.
            return Ok(false);
        }
        hasher.update(&chunk[..n]);
    }
    Ok(old.same_digest(seen, &hasher.finish_hex()))
}

/// [`read_lock`] keeping only the entries of the oaths for which `wanted`
/// holds; the others are skipped unread (see [`parse_lock_for`]). For runs
/// that never write the lock.
pub fn read_lock_for(root: &Path, wanted: &dyn Fn(&str) -> bool) -> Result<Baseline, StoreError> {
    let path = lock_path(root);
    let bytes = match crate::files::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(Baseline::Absent),
        Err(source) => return Err(StoreError::Read { path, source }),
    };
    match parse_lock_for(&bytes, wanted) {
        Ok(ParsedLock::Valid(lock)) => Ok(Baseline::Present {
            lock,
            bytes: LockBytes::of(&bytes),
        }),
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
    write_atomic(&lock_path(root), reconciled.text.as_bytes())
}
