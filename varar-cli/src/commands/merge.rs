//! `cargo varar merge OUT DIR...`: read every input tree, merge them
//! ([`crate::merge`]) and write the merged tree (shell).
//!
//! - Inputs are only read. OUT must not be an input, lie inside one or
//!   contain one (`invalid_arguments`), so no input can change.
//! - Everything is read and merged before anything is written: any
//!   unreadable input, `source_mismatch` or `conflicting_result` leaves OUT
//!   exactly as it was.
//! - Each file is written with the harness's own byte format
//!   (`OathResults::to_text`) and atomically (a temporary
//!   file in its directory, then a rename; unchanged files are not
//!   touched). A merged file replaces the one OUT had for that oath; files
//!   of OUT for other oaths are left alone, as a run leaves the results of
//!   oaths it did not run. A new OUT gets the `.gitignore` (`*`) a run gives
//!   `.varar/`.

use std::path::{Path, PathBuf};

use varar_runner::internal::results::OathResults;
use varar_runner::internal::store::{StoreError, write_atomic};

use super::Output;
use crate::cli::MergeArgs;
use crate::merge::{MergeOptions, merge};
use crate::records::{Code, ErrorRecord, display_path};
use crate::tree::read_tree;

/// Run `cargo varar merge` from `cwd`.
pub fn run(args: &MergeArgs, cwd: &Path) -> Output {
    let base = args.root.base(cwd);
    let out = base.join(&args.out);
    let dirs: Vec<PathBuf> = args.dirs.iter().map(|d| base.join(d)).collect();
    match merge_into(&out, &dirs, &base, args.prefer_failed) {
        Ok(summary) => Output {
            stdout: summary,
            stderr: Vec::new(),
            exit_code: 0,
        },
        Err(errors) => Output {
            stdout: String::new(),
            stderr: errors.iter().map(ToString::to_string).collect(),
            exit_code: 2,
        },
    }
}

/// Merge `dirs` into `out`; returns the summary line, or every problem.
pub fn merge_into(
    out: &Path,
    dirs: &[PathBuf],
    base: &Path,
    prefer_failed: bool,
) -> Result<String, Vec<ErrorRecord>> {
    check_out(out, dirs, base)?;
    let mut trees = Vec::with_capacity(dirs.len());
    let mut errors = Vec::new();
    for dir in dirs {
        match read_tree(dir, base) {
            Ok(tree) => trees.push(tree),
            Err(found) => errors.extend(found),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let merged = merge(&trees, MergeOptions { prefer_failed })?;
    write_tree(out, &merged, base)?;
    let examples: usize = merged.iter().map(|r| r.examples.len()).sum();
    Ok(format!(
        "merged {} result file(s) ({examples} example(s)) from {} tree(s) into `{}`\n",
        merged.len(),
        trees.len(),
        display_path(out, base)
    ))
}

/// Refuse an OUT that is, contains or lies inside an input.
fn check_out(out: &Path, dirs: &[PathBuf], base: &Path) -> Result<(), Vec<ErrorRecord>> {
    if out.exists() && !out.is_dir() {
        let shown = display_path(out, base);
        return Err(vec![
            ErrorRecord::new(
                Code::InvalidArguments,
                format!("the output `{shown}` exists and is not a directory"),
            )
            .with_path(shown),
        ]);
    }
    let out_c = canonical(out);
    let errors: Vec<ErrorRecord> = dirs
        .iter()
        .filter(|d| {
            let d = canonical(d);
            out_c.starts_with(&d) || d.starts_with(&out_c)
        })
        .map(|d| {
            let shown = display_path(d, base);
            ErrorRecord::new(
                Code::InvalidArguments,
                format!(
                    "the output `{}` overlaps the input `{shown}`; inputs are never written: \
                     choose another output directory",
                    display_path(out, base)
                ),
            )
            .with_path(shown)
        })
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// `path` with symlinks and `..` resolved as far as it exists, the rest
/// appended, so a directory not created yet still compares correctly.
fn canonical(path: &Path) -> PathBuf {
    let mut existing = path;
    let mut rest = Vec::new();
    loop {
        if let Ok(found) = existing.canonicalize() {
            let mut full = found;
            for name in rest.iter().rev() {
                full.push(name);
            }
            return full;
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                existing = parent;
            }
            _ => return path.to_path_buf(),
        }
    }
}

fn write_tree(out: &Path, merged: &[OathResults], base: &Path) -> Result<(), Vec<ErrorRecord>> {
    let failed = |path: &Path, e: &dyn std::fmt::Display| {
        let shown = display_path(path, base);
        vec![
            ErrorRecord::new(Code::OutputError, format!("cannot write `{shown}`: {e}"))
                .with_path(shown),
        ]
    };
    let created = !out.exists();
    std::fs::create_dir_all(out).map_err(|e| failed(out, &e))?;
    if created {
        let ignore = out.join(".gitignore");
        write_atomic(&ignore, b"*\n").map_err(|e| failed(&ignore, &reason(e)))?;
    }
    for results in merged {
        let path = out.join(format!("{}.json", results.oath_path));
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| failed(parent, &e))?;
        }
        let text = results.to_text().map_err(|e| failed(&path, &e))?;
        write_atomic(&path, text.as_bytes()).map_err(|e| failed(&path, &reason(e)))?;
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
