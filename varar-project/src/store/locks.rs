//! Advisory locks on sidecar files under `.varar/.locks/` around every
//! read-modify-write, so a `cargo test` and a `cargo nextest` run side by
//! side never lose each other's updates. The lock is on a sidecar, not on
//! the target, because the rename replaces the target's inode.

use std::fs::File;
use std::io::ErrorKind;
use std::path::Path;

use super::errors::{StoreError, write_err};
use super::scratch::{ensure_scratch_dir, scratch_dir};

/// An advisory lock held until dropped (closing the file releases it).
#[derive(Debug)]
pub struct FileLockGuard {
    _file: File,
}

/// Take the advisory lock of sidecar `name` under `.varar/.locks/`,
/// blocking until it is free.
pub(super) fn acquire(root: &Path, name: &str) -> Result<FileLockGuard, StoreError> {
    let path = scratch_dir(root)
        .join(".locks")
        .join(format!("{name}.lock"));
    let lock_err = |source| StoreError::Lock {
        path: path.clone(),
        source,
    };
    let open = || {
        File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
    };
    // Opened first: its directories exist at every lock of a run but the
    // project's first, and looking for them first was two `stat`s a lock
    // (one a result file). Made, `.varar/` ignored as ever, only when the
    // open finds them missing.
    let file = match open() {
        Err(e) if e.kind() == ErrorKind::NotFound => {
            ensure_scratch_dir(root)?;
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(write_err(parent))?;
            }
            open()
        }
        opened => opened,
    }
    .map_err(lock_err)?;
    file.lock().map_err(lock_err)?;
    Ok(FileLockGuard { _file: file })
}
