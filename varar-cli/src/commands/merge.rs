//! `cargo varar merge OUT DIR...`: read every input tree, merge them
//! ([`crate::tree_merge`]) and write the merged tree (shell).
//!
//! - Inputs are only read. OUT must not be an input, lie inside one or
//!   contain one (`invalid_arguments`, checked with the arguments:
//!   [`crate::cli::invocation`]), so no input can change.
//! - Everything is read and merged before anything is written: any
//!   unreadable input, `source_mismatch`, `conflicting_result`,
//!   `invalid_run` or `conflicting_run` leaves OUT exactly as it was.
//! - Each file is written with the harness's own byte format
//!   (`OathResults::to_text`) and atomically (a temporary
//!   file in its directory, then a rename; unchanged files are not
//!   touched). A merged file replaces the one OUT had for that oath; files
//!   of OUT for other oaths are left alone, as a run leaves the results of
//!   oaths it did not run. A new OUT gets the `.gitignore` (`*`) a run gives
//!   `.varar/`.
//! - Every input's run records are copied, byte for byte, to OUT's
//!   `.runs/<run id>/` (issue 19), replacing a record of the same name OUT
//!   had; OUT's other records are left alone.

use std::path::Path;

use varar_core::results::OathResults;
use varar_runner::store::{self, StoreError};

use super::output::Output;
use crate::cli::MergeRun;
use crate::records::{Code, ErrorRecord, ErrorRecords, display_path};
use crate::tree::{TreeRecord, read_tree};
use crate::tree_merge::{MergeOptions, merge, merge_records};

/// Why nothing was merged: every problem, as records; OUT is as it was
/// unless every input was read and merged.
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct MergeError(#[from] pub ErrorRecords);

impl MergeError {
    /// Always 2.
    pub fn exit_code(&self) -> u8 {
        2
    }

    /// The problems.
    pub fn records(&self) -> &[ErrorRecord] {
        &self.0.0
    }
}

impl From<Vec<ErrorRecord>> for MergeError {
    fn from(records: Vec<ErrorRecord>) -> Self {
        MergeError(records.into())
    }
}

/// Run `cargo varar merge`: read every input, merge, write OUT; the
/// summary line on stdout.
pub fn run(run: &MergeRun) -> Result<Output, MergeError> {
    let (out, base) = (&run.out, &run.base);
    let mut trees = Vec::with_capacity(run.dirs.len());
    let mut errors = Vec::new();
    for dir in &run.dirs {
        match read_tree(dir, base) {
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
    write_tree(out, &merged, base)?;
    write_records(out, &records, base)?;
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
            display_path(out, base)
        ),
        stderr: Vec::new(),
        exit_code: 0,
    })
}

fn write_tree(out: &Path, merged: &[OathResults], base: &Path) -> Result<(), Vec<ErrorRecord>> {
    let failed = |path: &Path, e: &dyn std::fmt::Display| {
        let shown = display_path(path, base);
        vec![
            ErrorRecord::new(Code::OutputError, format!("cannot write `{shown}`: {e}"))
                .with_path(shown),
        ]
    };
    store::create_ignored_dir(out).map_err(|e| failed(out, &reason(e)))?;
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
    let runs = out.join(store::RUNS_DIR);
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
