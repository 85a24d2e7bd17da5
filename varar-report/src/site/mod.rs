//! Writing the site into its output directory (shell).
//!
//! - The directory must be new, empty, or a previous report: a marker file
//!   `.varar-report` lists the files the last report wrote. Any other
//!   directory is refused, so `--out src` can never clear a source tree.
//! - Each file is written atomically by the store's writer (a temporary
//!   file in the same directory, then a rename; no fsync: the site is
//!   disposable) and only when its bytes changed.
//! - A re-run removes the files of the previous report that the new one no
//!   longer has (pages of oaths that were deleted), and only those: never a
//!   file the marker does not list, never anything outside the directory.
//!   The marker is rewritten first with both lists and last with the new
//!   one, so a run killed half-way still knows every file it owns.
//! - A symbolic link anywhere inside the directory, on the way to a file
//!   the report would write or remove (or that file itself), is refused
//!   before anything is written: following it would write or delete
//!   outside `--out`.

use std::collections::BTreeSet;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use varar_core::oath_path::is_oath_path;
use varar_project::store;

use crate::html_report::Site;

/// The marker of a report directory.
pub const MARKER: &str = ".varar-report";

/// The first line of the marker.
const MARKER_HEADER: &str = "# cargo varar report: files of the last report (do not edit)";

/// Why the site could not be written. Every variant names the path.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SiteError {
    /// The output directory holds files but is not a previous report.
    #[error(
        "`{}` is not empty and is not a previous report (it has no {MARKER} file); \
         refusing to write into it: choose another --out or empty it",
        out.display()
    )]
    NotAReport {
        /// The output directory.
        out: PathBuf,
    },
    /// A path inside the output directory is a symbolic link.
    #[error(
        "`{}` is a symbolic link inside the report directory; refusing to write through it \
         (it could lead outside `{}`): remove it or choose another --out",
        path.display(),
        out.display()
    )]
    Symlink {
        /// The output directory.
        out: PathBuf,
        /// The link.
        path: PathBuf,
    },
    /// The output path exists and is not a directory.
    #[error("`{}` exists and is not a directory", out.display())]
    NotADirectory {
        /// The output path.
        out: PathBuf,
    },
    /// A directory or file could not be read.
    #[error("cannot read `{}`: {source}", path.display())]
    Read {
        /// The path.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// A file could not be written.
    #[error("{source}")]
    Store {
        /// The file.
        path: PathBuf,
        /// Why, naming the file.
        #[source]
        source: store::StoreError,
    },
    /// A directory or file could not be written or removed.
    #[error("cannot write `{}`: {source}", path.display())]
    Write {
        /// The path.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
}

fn write_err(path: &Path) -> impl FnOnce(std::io::Error) -> SiteError + '_ {
    move |source| SiteError::Write {
        path: path.to_path_buf(),
        source,
    }
}

/// The files a previous report lists in its marker: none when `out` is
/// absent or empty, an error when it holds anything but a previous report.
fn previous_files(out: &Path) -> Result<BTreeSet<String>, SiteError> {
    match std::fs::symlink_metadata(out) {
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(BTreeSet::new()),
        Err(source) => {
            return Err(SiteError::Read {
                path: out.to_path_buf(),
                source,
            });
        }
        Ok(meta) if !meta.is_dir() => {
            return Err(SiteError::NotADirectory {
                out: out.to_path_buf(),
            });
        }
        Ok(_) => {}
    }
    let marker = out.join(MARKER);
    match varar_project::files::read_to_string(&marker) {
        Ok(text) if text.lines().next() == Some(MARKER_HEADER) => Ok(text
            .lines()
            .skip(1)
            .filter(|l| is_oath_path(l))
            .map(str::to_owned)
            .collect()),
        Ok(_) => Err(SiteError::NotAReport {
            out: out.to_path_buf(),
        }),
        Err(e) if e.kind() == ErrorKind::NotFound => {
            let mut entries = std::fs::read_dir(out).map_err(|source| SiteError::Read {
                path: out.to_path_buf(),
                source,
            })?;
            if entries.next().is_some() {
                Err(SiteError::NotAReport {
                    out: out.to_path_buf(),
                })
            } else {
                Ok(BTreeSet::new())
            }
        }
        Err(source) => Err(SiteError::Read {
            path: marker,
            source,
        }),
    }
}

fn marker_text(files: &BTreeSet<String>) -> String {
    let mut text = String::from(MARKER_HEADER);
    text.push('\n');
    for f in files {
        text.push_str(f);
        text.push('\n');
    }
    text
}

/// Write `bytes` to `path` atomically (the store's writer: a temporary
/// file beside it, then a rename), unless the file already holds them.
fn write_file(path: &Path, bytes: &[u8]) -> Result<(), SiteError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(write_err(dir))?;
    store::write_disposable(path, bytes).map_err(|e| SiteError::Store {
        path: path.to_path_buf(),
        source: e,
    })?;
    Ok(())
}

/// Write `site` into `out` (see the module docs). Returns the path of
/// `index.html`.
pub fn write_site(out: &Path, site: &Site) -> Result<PathBuf, SiteError> {
    let previous = previous_files(out)?;
    let current: BTreeSet<String> = site
        .files
        .iter()
        .map(|f| f.path.clone())
        .filter(|p| is_oath_path(p))
        .collect();
    let union: BTreeSet<String> = previous.union(&current).cloned().collect();
    for rel in union.iter().map(String::as_str).chain([MARKER]) {
        refuse_symlinks(out, rel)?;
    }
    std::fs::create_dir_all(out).map_err(write_err(out))?;
    write_file(&out.join(MARKER), marker_text(&union).as_bytes())?;
    for file in site.files.iter().filter(|f| is_oath_path(&f.path)) {
        write_file(&out.join(&file.path), file.contents.as_bytes())?;
    }
    for gone in previous.difference(&current) {
        let path = out.join(gone);
        match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.is_file() || meta.file_type().is_symlink() => {
                std::fs::remove_file(&path).map_err(write_err(&path))?;
                remove_empty_parents(out, &path);
            }
            _ => {}
        }
    }
    write_file(&out.join(MARKER), marker_text(&current).as_bytes())?;
    Ok(out.join("index.html"))
}

/// Refuse when `out/rel`, or a directory between it and `out`, is a
/// symbolic link (what does not exist yet is no link).
fn refuse_symlinks(out: &Path, rel: &str) -> Result<(), SiteError> {
    let mut path = out.to_path_buf();
    for segment in rel.split('/') {
        path.push(segment);
        match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                return Err(SiteError::Symlink {
                    out: out.to_path_buf(),
                    path,
                });
            }
            Ok(_) => {}
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok(()),
            Err(source) => return Err(SiteError::Read { path, source }),
        }
    }
    Ok(())
}

/// Remove the directories between `file` and `out` that are now empty.
fn remove_empty_parents(out: &Path, file: &Path) {
    let mut dir = file.parent();
    while let Some(d) = dir {
        if d == out || !d.starts_with(out) || std::fs::remove_dir(d).is_err() {
            break;
        }
        dir = d.parent();
    }
}

#[cfg(test)]
mod tests;
