//! The lock's synced write (spec 40 §4.5) on a thread of its own: once the
//! baseline is reconciled, its digest is known from its bytes, so the run
//! record that names it (`lockAfter`) is written while the lock is, instead
//! of after it. A synced write is the slowest of a run wherever the disk
//! syncs slowly; the record is the largest.

use std::path::Path;
use std::sync::Arc;
use std::thread::JoinHandle;

use varar_core::hash::sha256_hex;
use varar_core::lock::{LOCK_FILE_NAME, Reconciled};
use varar_core::record::FileDigest;

use varar_project::store::{FileLockGuard, StoreError, lock_baseline, save_lock};

/// A lock being written: its digest, and the write.
pub(crate) struct LockSave {
    /// The digest of the bytes being written.
    pub digest: FileDigest,
    write: Write,
}

enum Write {
    /// On its thread, which holds the baseline's advisory lock until done.
    Running(JoinHandle<Result<bool, StoreError>>),
    /// Written on the caller's thread (no thread could be started).
    Done(Result<bool, StoreError>),
}

impl LockSave {
    /// Write `reconciled` to `<root>/varar.lock.json` under `guard` (the
    /// baseline's advisory lock, released when the write is done).
    pub(crate) fn start(
        root: &Path,
        reconciled: Reconciled,
        guard: Option<FileLockGuard>,
    ) -> LockSave {
        let digest = FileDigest {
            path: LOCK_FILE_NAME.to_owned(),
            sha256: sha256_hex(reconciled.text.as_bytes()),
        };
        let reconciled = Arc::new(reconciled);
        let spawned = std::thread::Builder::new()
            .name("varar-lock".to_owned())
            .spawn({
                let root = root.to_path_buf();
                let reconciled = Arc::clone(&reconciled);
                move || {
                    let saved = save_lock(&root, &reconciled);
                    drop(guard);
                    saved
                }
            });
        let write = match spawned {
            Ok(handle) => Write::Running(handle),
            // The guard went with the closure: taken again, and the lock
            // written here.
            Err(_) => {
                let _guard = lock_baseline(root).ok();
                Write::Done(save_lock(root, &reconciled))
            }
        };
        LockSave { digest, write }
    }

    /// Wait until the lock is written: whether it was (`false` when it
    /// already held these bytes), or why not.
    pub(crate) fn wait(self) -> Result<bool, StoreError> {
        match self.write {
            Write::Running(handle) => handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            Write::Done(saved) => saved,
        }
    }
}

#[cfg(test)]
impl LockSave {
    /// A write of bytes whose digest is `sha256` that ended as `saved`.
    pub(crate) fn ended(sha256: &str, saved: Result<bool, StoreError>) -> LockSave {
        LockSave {
            digest: FileDigest {
                path: LOCK_FILE_NAME.to_owned(),
                sha256: sha256.to_owned(),
            },
            write: Write::Done(saved),
        }
    }
}
