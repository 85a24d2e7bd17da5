//! `cargo varar merge OUT DIR...`: read every input tree, merge them
//! ([`super::merge()`]) and write the merged tree (shell).
//!
//! - Inputs are only read. OUT must not be an input, lie inside one or
//!   contain one (`invalid_arguments`, checked with the arguments:
//!   [`super::args`]), so no input can change.
//! - OUT must be new, an empty directory, or a previous merge output: a
//!   directory holding the marker file [`MARKER`] that every merge writes.
//!   Anything else (a project's `.varar/` that a run wrote, a source tree)
//!   is refused (`output_error`) before any input is read, so no stale
//!   result of an oath no shard has can survive into the merged tree.
//! - Everything is read and merged before anything is written: any
//!   unreadable input, `source_mismatch`, `conflicting_result`,
//!   `invalid_run` or `conflicting_run` leaves OUT exactly as it was.
//! - The merged tree is written whole into a new directory beside OUT
//!   (each file with the harness's own byte format, `OathResults::to_text`;
//!   the `.gitignore` (`*`) a run gives `.varar/`; every input's run
//!   records, byte for byte, under `.runs/<run id>/`, issue 19; the
//!   marker), which then replaces OUT as a whole: a previous merge output
//!   is renamed away and removed, so nothing of it is left.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use varar_core::results::OathResults;
use varar_core::untrusted::terminal_line;
use varar_project::store::{self, StoreError};

use super::args::MergeRun;
use super::{MergeOptions, merge, merge_records};
use crate::error::Error;
use crate::output::Output;
use crate::tree::{TreeRecord, read_tree};
use varar_core::verdict::records::{Code, ErrorRecord, display_path};

/// Run `cargo varar merge`: read every input, merge, write OUT; the
/// summary line on stdout. When nothing is merged, every problem is a
/// record, and OUT is as it was unless every input was read and merged.
pub fn run(run: &MergeRun) -> Result<Output, Error> {
    let (out, base) = (&run.out, &run.base);
    let existing = existing_out(out, base)?;
    let mut trees = Vec::with_capacity(run.dirs.len());
    let mut errors = Vec::new();
    for dir in &run.dirs {
        match read_tree(dir, base) {
            // A record that cannot be read is never copied: the tree is
            // refused for it.
            Ok(tree) if !tree.unreadable.is_empty() => errors.extend(tree.unreadable),
            Ok(tree) => trees.push(tree),
            Err(found) => errors.extend(found),
        }
    }
    if !errors.is_empty() {
        return Err(errors.into());
    }
    let options = MergeOptions {
        prefer_failed: run.prefer_failed,
    };
    let merged = merge(&trees, options);
    let records = merge_records(&trees);
    let (merged, records) = match (merged, records) {
        (Ok(merged), Ok(records)) => (merged, records),
        (merged, records) => {
            let errors = [merged.err(), records.err()];
            return Err(errors
                .into_iter()
                .flatten()
                .flatten()
                .collect::<Vec<_>>()
                .into());
        }
    };
    let staging = staging_dir(out, base)?;
    write_tree(staging.path(), &merged, base)?;
    write_records(staging.path(), &records, base)?;
    let mut stderr: Vec<String> = trees
        .iter()
        .flat_map(|t| &t.absent)
        .map(|why| format!("warning: {why}; it is left out of the merge"))
        .collect();
    stderr.extend(replace_out(staging, out, existing, base)?);
    let examples: usize = merged.iter().map(|r| r.examples.len()).sum();
    let runs = match records.len() {
        0 => String::new(),
        n => format!(" and {n} run record(s)"),
    };
    Ok(Output {
        stdout: format!(
            "merged {} result file(s) ({examples} example(s)){runs} from {} tree(s) into `{}`\n",
            merged.len(),
            trees.len(),
            terminal_line(&display_path(out, base))
        ),
        stderr,
        exit_code: 0,
    })
}

/// The marker file of a merge output: a directory holding it is replaced
/// whole by the next merge into it.
pub const MARKER: &str = ".varar-merge";

/// The marker's text.
const MARKER_TEXT: &str = "# cargo varar merge: this directory is a merge output; the next merge \
                           into it replaces it whole (do not edit)\n";

/// What OUT is before the merge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Existing {
    /// It does not exist.
    New,
    /// An empty directory, or a previous merge output.
    Replaced,
}

fn output_error(path: &Path, base: &Path, why: &str) -> Vec<ErrorRecord> {
    let shown = display_path(path, base);
    vec![ErrorRecord::new(Code::OutputError, format!("`{shown}` {why}")).with_path(shown)]
}

/// Whether OUT may be written (see the module docs).
fn existing_out(out: &Path, base: &Path) -> Result<Existing, Vec<ErrorRecord>> {
    let cannot_read = |path: &Path, e: &std::io::Error| {
        let shown = display_path(path, base);
        vec![
            ErrorRecord::new(Code::OutputError, format!("cannot write `{shown}`: {e}"))
                .with_path(shown),
        ]
    };
    let meta = match std::fs::symlink_metadata(out) {
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(Existing::New),
        Err(e) => return Err(cannot_read(out, &e)),
        Ok(meta) => meta,
    };
    if meta.file_type().is_symlink() {
        return Err(output_error(
            out,
            base,
            "is a symbolic link; refusing to merge into it: name the directory itself",
        ));
    }
    if !meta.is_dir() {
        return Err(output_error(out, base, "exists and is not a directory"));
    }
    match std::fs::symlink_metadata(out.join(MARKER)) {
        Ok(m) if m.is_file() => return Ok(Existing::Replaced),
        Ok(_) => {}
        Err(e) if e.kind() == ErrorKind::NotFound => {}
        Err(e) => return Err(cannot_read(&out.join(MARKER), &e)),
    }
    let mut entries = std::fs::read_dir(out).map_err(|e| cannot_read(out, &e))?;
    if entries.next().is_none() {
        return Ok(Existing::Replaced);
    }
    Err(output_error(
        out,
        base,
        &format!(
            "is not empty and is not a previous merge output (it has no {MARKER} file); \
             refusing to merge into it, which would keep results no shard has: choose a new \
             OUT or empty it"
        ),
    ))
}

/// A new directory beside OUT for the merged tree.
fn staging_dir(out: &Path, base: &Path) -> Result<tempfile::TempDir, Vec<ErrorRecord>> {
    let parent = out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let failed = |e: &dyn std::fmt::Display| {
        let shown = display_path(out, base);
        vec![
            ErrorRecord::new(Code::OutputError, format!("cannot write `{shown}`: {e}"))
                .with_path(shown),
        ]
    };
    std::fs::create_dir_all(parent).map_err(|e| failed(&e))?;
    tempfile::Builder::new()
        .prefix(".varar-merge-")
        .tempdir_in(parent)
        .map_err(|e| failed(&e))
}

/// Put the staged tree in OUT's place; what OUT held is removed (a
/// warning when it cannot be: OUT is already the merged tree).
fn replace_out(
    staging: tempfile::TempDir,
    out: &Path,
    existing: Existing,
    base: &Path,
) -> Result<Vec<String>, Vec<ErrorRecord>> {
    let failed = |path: &Path, e: &dyn std::fmt::Display| {
        let shown = display_path(path, base);
        vec![
            ErrorRecord::new(Code::OutputError, format!("cannot write `{shown}`: {e}"))
                .with_path(shown),
        ]
    };
    let old: Option<PathBuf> = match existing {
        Existing::New => None,
        Existing::Replaced => {
            let mut name = staging.path().as_os_str().to_owned();
            name.push(".old");
            let old = PathBuf::from(name);
            std::fs::rename(out, &old).map_err(|e| failed(out, &e))?;
            Some(old)
        }
    };
    if let Err(e) = std::fs::rename(staging.path(), out) {
        if let Some(old) = &old {
            // Put OUT back as it was.
            let _ = std::fs::rename(old, out);
        }
        return Err(failed(out, &e));
    }
    // Renamed away: nothing left for the guard to remove.
    let _ = staging.keep();
    let mut warnings = Vec::new();
    if let Some(old) = old
        && let Err(e) = std::fs::remove_dir_all(&old)
    {
        warnings.push(format!(
            "warning: cannot remove `{}`, the previous content of `{}`: {e}",
            display_path(&old, base),
            display_path(out, base)
        ));
    }
    Ok(warnings)
}

fn write_tree(out: &Path, merged: &[OathResults], base: &Path) -> Result<(), Vec<ErrorRecord>> {
    let failed = |path: &Path, e: &dyn std::fmt::Display| {
        let shown = display_path(path, base);
        vec![
            ErrorRecord::new(Code::OutputError, format!("cannot write `{shown}`: {e}"))
                .with_path(shown),
        ]
    };
    store::write_disposable(&out.join(".gitignore"), b"*\n")
        .map_err(|e| failed(out, &reason(e)))?;
    store::write_disposable(&out.join(MARKER), MARKER_TEXT.as_bytes())
        .map_err(|e| failed(out, &reason(e)))?;
    for results in merged {
        let path =
            store::result_path_in(out, &results.oath_path).map_err(|e| failed(out, &reason(e)))?;
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| failed(parent, &e))?;
        }
        let text = results.to_text().map_err(|e| failed(&path, &e))?;
        store::write_disposable(&path, text.as_bytes()).map_err(|e| failed(&path, &reason(e)))?;
    }
    Ok(())
}

/// Copy the run records into `OUT/.runs/`, each under its own name.
fn write_records(out: &Path, records: &[&TreeRecord], base: &Path) -> Result<(), Vec<ErrorRecord>> {
    let runs = store::runs_dir_in(out);
    for record in records {
        let path = runs.join(&record.name);
        let failed = |e: &dyn std::fmt::Display| {
            let shown = display_path(&path, base);
            vec![
                ErrorRecord::new(Code::OutputError, format!("cannot write `{shown}`: {e}"))
                    .with_path(shown),
            ]
        };
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| failed(&e))?;
        }
        store::write_disposable(&path, &record.bytes).map_err(|e| failed(&reason(e)))?;
    }
    Ok(())
}

/// The cause of a store error, without the path the record already names.
fn reason(e: StoreError) -> String {
    match e {
        StoreError::Write { source, .. } => source.to_string(),
        other => other.to_string(),
    }
}
