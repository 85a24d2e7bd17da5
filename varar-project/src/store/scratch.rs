//! The project's scratch directory `.varar/` (spec 40 §6): run results,
//! the sidecar locks and the harness's caches live there, and it is never
//! committed.

use std::path::{Path, PathBuf};

use super::atomic::create_ignored_dir;
use super::errors::StoreError;
use super::removal::{Orphans, remove_orphans_under};

pub use varar_core::layout::SCRATCH_DIR;

/// `<root>/.varar`: the project's own results tree (a CI shard's downloaded
/// copy, laid out the same way, is read with the `*_in` functions).
pub fn scratch_dir(root: &Path) -> PathBuf {
    root.join(SCRATCH_DIR)
}

/// Create `<root>/.varar/` if needed (with its `.gitignore`); returns its
/// path.
pub fn ensure_scratch_dir(root: &Path) -> Result<PathBuf, StoreError> {
    let dir = scratch_dir(root);
    create_ignored_dir(&dir)?;
    Ok(dir)
}

/// The directory, under `.varar/`, of what a run remembers for the next
/// ones (the lock's digest, the link index): never results, and any of it
/// may be deleted.
pub const CACHE_DIR: &str = ".cache";

/// `<root>/.varar/.cache`, whether or not it exists (to make it,
/// [`ensure_cache_dir`]).
pub fn cache_dir(root: &Path) -> PathBuf {
    scratch_dir(root).join(CACHE_DIR)
}

/// `<root>/.varar/.cache/<name>`: one file a run remembers for the next
/// ones, to read (to write one, [`ensure_cache_dir`] first).
pub fn cache_path(root: &Path, name: &str) -> PathBuf {
    cache_dir(root).join(name)
}

/// Create `<root>/.varar/.cache/` if needed; returns its path.
pub fn ensure_cache_dir(root: &Path) -> Result<PathBuf, StoreError> {
    let dir = ensure_scratch_dir(root)?.join(CACHE_DIR);
    std::fs::create_dir_all(&dir).map_err(|source| StoreError::Write {
        path: dir.clone(),
        source,
    })?;
    Ok(dir)
}

/// Remove the orphaned temporaries anywhere under the project's `.varar/`
/// (issue 34): what writers killed before this run began left, never
/// through a symbolic link (links are not followed, and a `.varar` that is
/// one is left alone). For the first process of a run, once. Best effort;
/// returns how many went.
pub fn sweep_scratch(root: &Path, orphans: &Orphans) -> usize {
    remove_orphans_under(&scratch_dir(root), orphans)
}
