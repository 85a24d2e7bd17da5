//! Advisory locks on sidecar files under `.varar/.locks/` around every
//! read-modify-write, so a `cargo test` and a `cargo nextest` run side by
//! side never lose each other's updates. The lock is on a sidecar, not on
//! the target, because the rename replaces the target's inode.

use std::fs::File;
use std::path::Path;

use super::errors::{StoreError, write_err};
use super::scratch::ensure_scratch_dir;

/// An advisory lock held until dropped (closing the file releases it).
#[derive(Debug)]
pub struct FileLockGuard {
    _file: File,
}

/// Take the advisory lock of sidecar `name` under `.varar/.locks/`,
/// blocking until it is free.
pub(super) fn acquire(root: &Path, name: &str) -> Result<FileLockGuard, StoreError> {
    let dir = ensure_scratch_dir(root)?.join(".locks");
    let path = dir.join(format!("{name}.lock"));
    if let Some(parent) = path.parent()
        && !parent.is_dir()
    {
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
