//! `cargo varar merge`: several results trees (CI shards) combined into
//! one, as if one run had produced it (pure; the shell is
//! [`crate::commands::merge`]).
//!
//! Per oath, the union of the shards' examples in document order:
//!
//! - Every file of one oath must be of the same run source: the same
//!   `version`, `sourceHash` and `documents` (spec 70 §70.6.7: a version-1
//!   and a version-2 file of one oath are runs of different sources).
//!   Otherwise the oath is refused with `source_mismatch`.
//! - Examples are matched by name and `lines`. An example recorded
//!   identically by several shards is kept once. Recorded differently, it
//!   is refused with `conflicting_result`, unless `--prefer-failed`: then a
//!   failure wins over a pass, and of two different failures the one from
//!   the earlier tree on the command line is kept.
//! - Order: by first line (`lines[0]`), stable, so ties keep the order of
//!   the trees on the command line, as the harness sorts (spec 30 §30.8.3).
//!   An example with empty `lines` (version 2: made only of steps spliced
//!   from another document) is sorted by the line of its link, which the
//!   file does not record (spec 70 §70.6.3); without the plan it is placed
//!   right after the example that precedes it in its own file (first when
//!   it is first). This is exact unless another shard ran an example whose
//!   first line lies between that neighbour and the link.
//!
//! The trees' run records (issue 19) are combined by [`merge_records`]:
//! every record file of every tree, under its own name (`<run id>/<process
//! id>.run`); a name held by several trees must have the same bytes in each
//! (`conflicting_run` otherwise: two different records cannot be one
//! process's). Each run keeps its id, so the processes of one run split
//! across shards (nextest's) combine again into that run.
//!
//! Any problem refuses the whole merge: the shell then writes nothing.

pub mod args;
pub mod shell;

use std::collections::BTreeMap;

use varar_core::results::{ExampleResult, OathResults, Status};
use varar_project::discovery::cmp_oath_paths;

use crate::tree::{Tree, TreeFile, TreeRecord};
use varar_core::verdict::records::{Code, ErrorRecord};

/// How disagreements are settled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MergeOptions {
    /// Keep a failure instead of refusing an example recorded differently.
    pub prefer_failed: bool,
}

/// Merge `trees` (in command-line order) into one result per oath, in
/// oathPath order.
pub fn merge(trees: &[Tree], options: MergeOptions) -> Result<Vec<OathResults>, Vec<ErrorRecord>> {
    let mut by_oath: BTreeMap<&str, Vec<&TreeFile>> = BTreeMap::new();
    for tree in trees {
        for file in &tree.files {
            by_oath.entry(&file.oath_path).or_default().push(file);
        }
    }
    let mut oaths: Vec<(&str, Vec<&TreeFile>)> = by_oath.into_iter().collect();
    oaths.sort_by(|a, b| cmp_oath_paths(a.0, b.0));
    let mut merged = Vec::with_capacity(oaths.len());
    let mut errors = Vec::new();
    for (_, files) in oaths {
        match merge_oath(&files, options) {
            Ok(results) => merged.push(results),
            Err(found) => errors.extend(found),
        }
    }
    if errors.is_empty() {
        Ok(merged)
    } else {
        Err(errors)
    }
}

/// One example on its way into the merged file.
struct Entry<'a> {
    example: &'a ExampleResult,
    /// The file it comes from.
    from: &'a TreeFile,
    /// Where it sorts: `lines[0]`, or its predecessor's key (see the module
    /// docs).
    key: u32,
}

fn merge_oath(files: &[&TreeFile], options: MergeOptions) -> Result<OathResults, Vec<ErrorRecord>> {
    let Some(first) = files.first() else {
        return Err(Vec::new());
    };
    let mut errors: Vec<ErrorRecord> = files[1..]
        .iter()
        .filter_map(|other| source_mismatch(first, other))
        .collect();
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut entries: Vec<Entry<'_>> = Vec::new();
    for file in files {
        let mut key = 0;
        for example in &file.results.examples {
            key = example.lines.first().copied().unwrap_or(key);
            let same = entries
                .iter()
                .position(|e| e.example.name == example.name && e.example.lines == example.lines);
            let Some(at) = same else {
                entries.push(Entry {
                    example,
                    from: file,
                    key,
                });
                continue;
            };
            let kept = &entries[at];
            if kept.example == example {
                continue;
            }
            if !options.prefer_failed {
                errors.push(conflict(kept, example, file));
            } else if kept.example.status == Status::Passed && example.status == Status::Failed {
                entries[at].example = example;
                entries[at].from = file;
            }
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    entries.sort_by_key(|e| e.key);
    Ok(OathResults {
        version: first.results.version,
        oath_path: first.results.oath_path.clone(),
        source_hash: first.results.source_hash.clone(),
        documents: first.results.documents.clone(),
        examples: entries.into_iter().map(|e| e.example.clone()).collect(),
    })
}

/// `source_mismatch` when `other` is not of the same run source as `first`.
fn source_mismatch(first: &TreeFile, other: &TreeFile) -> Option<ErrorRecord> {
    let (a, b) = (&first.results, &other.results);
    let what = if a.version != b.version {
        format!("version {} and version {}", a.version, b.version)
    } else if a.source_hash != b.source_hash {
        format!("sourceHash {} and {}", a.source_hash, b.source_hash)
    } else if a.documents != b.documents {
        let list = |r: &OathResults| {
            r.documents
                .iter()
                .map(|d| format!("{} {}", d.path, d.source_hash))
                .collect::<Vec<_>>()
                .join(", ")
        };
        format!("documents [{}] and [{}]", list(a), list(b))
    } else {
        return None;
    };
    Some(
        ErrorRecord::new(
            Code::SourceMismatch,
            format!(
                "`{}` and `{}` record runs of different sources of `{}` ({what}); run every \
                 shard on the same commit",
                first.shown, other.shown, a.oath_path
            ),
        )
        .with_path(other.shown.clone())
        .with_oath(a.oath_path.clone()),
    )
}

/// `conflicting_result` for an example `file` records differently from
/// the kept entry.
fn conflict(kept: &Entry<'_>, example: &ExampleResult, file: &TreeFile) -> ErrorRecord {
    let word = |e: &ExampleResult| match e.status {
        Status::Passed => "passed",
        Status::Failed => "failed",
    };
    let how = if kept.example.status == example.status {
        format!(
            "failed differently in `{}` and `{}`",
            kept.from.shown, file.shown
        )
    } else {
        format!(
            "{} in `{}` but {} in `{}`",
            word(kept.example),
            kept.from.shown,
            word(example),
            file.shown
        )
    };
    ErrorRecord::new(
        Code::ConflictingResult,
        format!(
            "example \"{}\" of `{}` {how}; pass --prefer-failed to keep the failure",
            example.name, file.oath_path
        ),
    )
    .with_path(file.shown.clone())
    .with_oath(file.oath_path.clone())
    .with_example(example.name.clone(), example.lines.first().copied())
}

/// Every run record of `trees` (in command-line order) once, by name, or
/// `conflicting_run` for each name held with different bytes.
pub fn merge_records(trees: &[Tree]) -> Result<Vec<&TreeRecord>, Vec<ErrorRecord>> {
    let mut by_name: BTreeMap<&str, &TreeRecord> = BTreeMap::new();
    let mut errors = Vec::new();
    for tree in trees {
        for record in &tree.records {
            match by_name.get(record.name.as_str()) {
                None => {
                    by_name.insert(&record.name, record);
                }
                Some(kept) if kept.bytes == record.bytes => {}
                Some(kept) => errors.push(
                    ErrorRecord::new(
                        Code::ConflictingRun,
                        format!(
                            "`{}` and `{}` are different run records of the same process \
                             (`{}`); merge each shard's tree once",
                            kept.shown, record.shown, record.name
                        ),
                    )
                    .with_path(record.shown.clone()),
                ),
            }
        }
    }
    if errors.is_empty() {
        Ok(by_name.into_values().collect())
    } else {
        Err(errors)
    }
}
