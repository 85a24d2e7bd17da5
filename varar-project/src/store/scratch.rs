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

/// The bytes of the cache file `<root>/.varar/.cache/<name>`, when it is
/// a regular file of at most `limit` bytes (see [`read_cache_file`]).
pub fn read_cache(root: &Path, name: &str, limit: u64) -> Option<Vec<u8>> {
    read_cache_file(&cache_path(root, name), limit)
}

/// The bytes of the cache file at `path`, when it is a regular file of at
/// most `limit` bytes; otherwise `None`, as for a missing one. A cache may
/// be anything: a huge file must not fill a run's memory, nor anything
/// else hold it up (see [`open_cache_file`]).
pub fn read_cache_file(path: &Path, limit: u64) -> Option<Vec<u8>> {
    crate::files::read_own_within(path, limit).ok()
}

/// The cache file at `path`, opened to read, when it is a regular file
/// (`files::open_with`): a FIFO or a device in its place must not hold a
/// run up, and a symbolic link there is not ours.
pub fn open_cache_file(path: &Path) -> Option<std::fs::File> {
    crate::files::open_with(path, true).ok()
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

#[cfg(test)]
mod tests {
    use super::*;

    fn ok<T, E: std::fmt::Display>(r: Result<T, E>) -> T {
        r.unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn a_cache_is_read_only_when_it_is_a_regular_file_within_its_limit() {
        let dir = ok(tempfile::tempdir());
        let root = dir.path();
        assert_eq!(read_cache(root, "c", 8), None, "missing");
        let cache = ok(ensure_cache_dir(root));
        ok(std::fs::write(cache.join("c"), "12345678"));
        assert_eq!(read_cache(root, "c", 8).as_deref(), Some(&b"12345678"[..]));
        assert_eq!(read_cache(root, "c", 7), None, "over the limit");
        ok(std::fs::create_dir(cache.join("d")));
        assert_eq!(read_cache(root, "d", 8), None, "a directory");
    }

    #[cfg(unix)]
    #[test]
    fn a_link_in_a_caches_place_is_not_followed() {
        // (A FIFO there: `files`' tests and the harness's.)
        let dir = ok(tempfile::tempdir());
        let root = dir.path();
        let cache = ok(ensure_cache_dir(root));
        ok(std::fs::write(root.join("elsewhere"), "secret"));
        ok(std::os::unix::fs::symlink(
            root.join("elsewhere"),
            cache.join("link"),
        ));
        assert_eq!(read_cache(root, "link", 8), None);
    }
}
