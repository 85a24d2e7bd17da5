//! The `.varar/` tree of run results (spec 30 §30.8.1, 40 §6): where
//! `<oathPath>.json` lives (only for an oathPath, which cannot leave the
//! tree: [`varar_core::oath_path`]), reading a result strictly, writing one
//! under its lock, and listing a tree's result files (a project's own, or a
//! CI shard's downloaded copy, laid out the same way).

use std::io::ErrorKind;
use std::path::{Component, Path, PathBuf};

use super::atomic::{write_disposable, write_pending};
use super::errors::{ResultFileError, StoreError, write_err};
use super::locks::acquire;
use super::scratch::scratch_dir;
use varar_core::oath_path::is_oath_path;
use varar_core::results::{OathResults, parse_run_result};

pub use varar_core::layout::result_path_shown;

/// `<root>/.varar/<oathPath>.json` (spec 40 §6).
pub fn run_result_path(root: &Path, oath_path: &str) -> Result<PathBuf, StoreError> {
    result_path_in(&scratch_dir(root), oath_path)
}

/// `<tree>/<oathPath>.json` in any results tree laid out like `.varar/` (a
/// merged one, a CI shard's): refused for what is not an oathPath.
pub fn result_path_in(tree: &Path, oath_path: &str) -> Result<PathBuf, StoreError> {
    if !is_oath_path(oath_path) {
        return Err(StoreError::BadOathPath {
            oath_path: oath_path.to_owned(),
        });
    }
    Ok(tree.join(format!("{oath_path}.json")))
}

/// The oathPath whose results `file` (under the results tree `tree`) holds:
/// its relative path, `/`-separated, without `.json`; `None` for anything
/// that is not a result file's name.
pub fn oath_path_of(tree: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(tree).ok()?;
    let segments: Vec<&str> = rel
        .components()
        .map(|c| match c {
            Component::Normal(s) => s.to_str(),
            _ => None,
        })
        .collect::<Option<_>>()?;
    let joined = segments.join("/");
    let oath_path = joined.strip_suffix(".json")?;
    is_oath_path(oath_path).then(|| oath_path.to_owned())
}

/// Every result file under the results tree `tree`, in file-name order:
/// what is not a result is left out (the sidecar locks under `.locks/`, the
/// caches under `.cache/`, the
/// `.gitignore`, pending `.new` candidates, our temporaries). Symbolic links
/// are followed, loops refused. A directory whose name ends in `.json` is
/// listed as a result file, so that reading it fails (as it does for
/// `gate`, `junit` and `report`) instead of it being skipped. An entry the walk could not read is an
/// error with the path it concerns.
pub fn result_files(tree: &Path) -> Vec<Result<(String, PathBuf), (PathBuf, walkdir::Error)>> {
    let walk = walkdir::WalkDir::new(tree)
        .follow_links(true)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            let own = e.file_name() == ".locks" || e.file_name() == super::CACHE_DIR;
            !(e.depth() == 1 && own && e.file_type().is_dir())
        });
    let mut out = Vec::new();
    for entry in walk {
        match entry {
            // A directory named like a result file is listed too: reading
            // it fails, so every reader refuses it the same way.
            Ok(entry) if entry.file_type().is_file() || entry.file_type().is_dir() => {
                if let Some(oath_path) = oath_path_of(tree, entry.path()) {
                    out.push(Ok((oath_path, entry.path().to_path_buf())));
                }
            }
            Ok(_) => {}
            Err(e) => {
                let at = e
                    .path()
                    .map_or_else(|| tree.to_path_buf(), Path::to_path_buf);
                out.push(Err((at, e)));
            }
        }
    }
    out
}

/// Read one run-result file with the strict reader.
pub fn read_run_result_file(path: &Path) -> Result<OathResults, ResultFileError> {
    let bytes = crate::files::read(path).map_err(|source| ResultFileError::Read {
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
    read_run_result_in(&scratch_dir(root), oath_path)
}

/// Read `<tree>/<oathPath>.json` strictly, as [`read_run_result`] does for
/// a project's own `.varar/`; `tree` is any directory laid out like it (a
/// CI shard's downloaded results, say).
pub fn read_run_result_in(
    tree: &Path,
    oath_path: &str,
) -> Result<Option<OathResults>, ResultFileError> {
    if !is_oath_path(oath_path) {
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
    let _guard = acquire(root, &results_lock(oath_path))?;
    let stored = match crate::files::read(&path) {
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
    // Under the lock the file holds what was read: unchanged bytes are not
    // read a second time to be compared, and a file read has its directory.
    if stored.as_deref() == Some(bytes.as_slice()) {
        return Ok(false);
    }
    if stored.is_none()
        && let Some(parent) = path.parent()
        && !parent.is_dir()
    {
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
    let _guard = acquire(root, &results_lock(oath_path))?;
    if let Some(parent) = path.parent()
        && !parent.is_dir()
    {
        std::fs::create_dir_all(parent).map_err(write_err(parent))?;
    }
    write_disposable(&path, bytes)
}

/// The sidecar lock (under `.varar/.locks/`) of the results of the oaths
/// in `oath_path`'s directory: one lock per directory of oaths, not one per
/// oath, so that a first run creates a lock file per directory (each is an
/// inode to allocate); a read-merge-write is short, and the oaths of one
/// directory take turns.
fn results_lock(oath_path: &str) -> String {
    match oath_path.rsplit_once('/') {
        Some((dir, _)) => format!("{dir}/.results"),
        None => ".results".to_owned(),
    }
}
