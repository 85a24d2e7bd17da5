//! Reading a results tree for `merge` and `diff` (shell): a directory laid
//! out like `.varar/` (a project's own, or a CI shard's downloaded
//! artifact), every `<oathPath>.json` under it read with the one strict
//! reader (`varar_project::store::read_run_result_in`). Which files of a
//! tree are results is the store's business (`result_files`: the sidecar
//! locks, the `.gitignore`, pending `.new` candidates and temporaries are
//! not).
//!
//! Its run records (`.runs/<run id>/<process id>.run`, issue 19) are read
//! too, with their bytes (which `merge` copies as they are), each checked
//! by the strict reader; one of a version this reader does not know is kept
//! (and copied) but read as absent. A record holding a cut message (the
//! reader cuts an over-long one, issue 34) is copied as read, written
//! again by the record's one writer, so no merge stores again megabytes an
//! older or crafted record held.
//!
//! A result file written by a newer results format (an unknown `version`)
//! is treated as absent, as seed 000's stability policy asks: left out, with
//! the reason in [`Tree::absent`] for the command to warn with.
//!
//! A tree is read whole or not at all: every result file that cannot be
//! read or is refused becomes a record, and the caller then uses none of
//! it. A run record that cannot be read is kept apart
//! ([`Tree::unreadable`]): `merge` refuses the tree for it, `diff` leaves
//! it to the tree's run standing ([`Tree::run`], [`varar_core::verdict::standing`]),
//! where one of an earlier run is a warning (issue 34).

use std::path::Path;

use varar_core::record::{ProcessRecord, RunRecord, parse_process_record};
use varar_core::results::OathResults;
use varar_core::untrusted::was_cut;
use varar_project::discovery::cmp_oath_paths;
use varar_project::store::{
    RecordFileError, read_run_dirs_in, read_run_result_in, record_files_in, result_files,
    runs_dir_in, runs_dir_shown,
};

use varar_core::verdict::records::{Code, ErrorRecord, display_path};
use varar_core::verdict::run_evidence::RunEvidence;
use varar_project::evidence::records::ProjectRecords;

/// One result file of a tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeFile {
    /// Its oathPath (its location under the tree, without `.json`).
    pub oath_path: String,
    /// The file as shown to people (relative to the base directory).
    pub shown: String,
    /// Its content.
    pub results: OathResults,
}

/// One run record file of a tree.
#[derive(Clone, Debug, PartialEq)]
pub struct TreeRecord {
    /// Its name under `.runs/`: `<run directory>/<file name>`.
    pub name: String,
    /// The file as shown to people (relative to the base directory).
    pub shown: String,
    /// Its bytes, as they are (or as read, when a message was cut).
    pub bytes: Vec<u8>,
    /// What it records; `None` for a record of a version this reader does
    /// not know (treated as absent).
    pub record: Option<ProcessRecord>,
}

/// A whole tree, files in oathPath order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tree {
    /// The directory as shown to people.
    pub shown: String,
    /// Its result files.
    pub files: Vec<TreeFile>,
    /// Its run records, by name.
    pub records: Vec<TreeRecord>,
    /// Why result files of it were left out (written by a newer format).
    pub absent: Vec<String>,
    /// Its run records that could not be read (`invalid_run`).
    pub unreadable: Vec<ErrorRecord>,
    /// What its run records say, run directory by run directory: what its
    /// run standing is judged from.
    pub run: RunEvidence,
}

impl Tree {
    /// The tree's latest run (the one whose first process started last),
    /// if it holds a readable record.
    pub fn latest_run(&self) -> Option<&RunRecord> {
        self.run.latest.as_ref()
    }
}

/// Read the tree at `dir`; paths in records are shown relative to `base`.
pub fn read_tree(dir: &Path, base: &Path) -> Result<Tree, Vec<ErrorRecord>> {
    let shown = display_path(dir, base);
    if !dir.is_dir() {
        let why = if dir.exists() {
            "is not a directory"
        } else {
            "does not exist"
        };
        return Err(vec![
            ErrorRecord::new(
                Code::InputError,
                format!("results directory `{shown}` {why}"),
            )
            .with_path(shown),
        ]);
    }
    let mut files = Vec::new();
    let mut absent = Vec::new();
    let mut errors = Vec::new();
    for entry in result_files(dir) {
        let (oath_path, path) = match entry {
            Ok(found) => found,
            Err((at, e)) => {
                let at = display_path(&at, base);
                errors.push(
                    ErrorRecord::new(Code::InputError, format!("cannot list `{at}`: {e}"))
                        .with_path(at),
                );
                continue;
            }
        };
        match read_run_result_in(dir, &oath_path) {
            Ok(Some(results)) => files.push(TreeFile {
                shown: display_path(&path, base),
                oath_path,
                results,
            }),
            // Removed while we walked: as if it had never been there.
            Ok(None) => {}
            Err(e) if e.unknown_version().is_some() => {
                absent.extend(e.newer_format_reason(&display_path(&path, base)));
            }
            Err(e) => errors.push(ErrorRecord::result_file(&e, base).with_oath(oath_path)),
        }
    }
    let mut unreadable = Vec::new();
    let records = read_records(dir, base, &mut unreadable);
    if !errors.is_empty() {
        errors.extend(unreadable);
        return Err(errors);
    }
    files.sort_by(|a, b| cmp_oath_paths(&a.oath_path, &b.oath_path));
    let run =
        varar_project::evidence::runs::of_dirs(runs_dir_shown(&shown), read_run_dirs_in(dir), base);
    Ok(Tree {
        shown,
        files,
        records,
        absent,
        unreadable,
        run,
    })
}

/// Every run record of the tree at `dir`, with its bytes; the records
/// that cannot be read go to `unreadable` (`invalid_run`).
fn read_records(dir: &Path, base: &Path, unreadable: &mut Vec<ErrorRecord>) -> Vec<TreeRecord> {
    let runs = runs_dir_in(dir);
    let mut records = Vec::new();
    for found in record_files_in(dir) {
        let read = found.and_then(|path| {
            let bytes =
                varar_project::files::read(&path).map_err(|source| RecordFileError::Read {
                    path: path.clone(),
                    source,
                })?;
            let record = match parse_process_record(&bytes) {
                Ok(record) => Some(record),
                Err(e) if e.is_unknown_version() => None,
                Err(source) => return Err(RecordFileError::Invalid { path, source }),
            };
            Ok((path, bounded(bytes, record.as_ref()), record))
        });
        match read {
            Ok((path, bytes, record)) => records.push(TreeRecord {
                name: display_path(&path, &runs),
                shown: display_path(&path, base),
                bytes,
                record,
            }),
            Err(e) => unreadable.push(ErrorRecord::record_file(&e, base)),
        }
    }
    records
}

/// The bytes of a record to copy: as they are, unless the reader cut one
/// of its messages; then the record as read, by its one writer.
fn bounded(bytes: Vec<u8>, record: Option<&ProcessRecord>) -> Vec<u8> {
    let cut = |r: &&ProcessRecord| {
        r.items
            .iter()
            .any(|i| i.message.as_deref().is_some_and(was_cut))
    };
    match record.filter(cut).map(ProcessRecord::to_text) {
        Some(Ok(text)) => text.into_bytes(),
        _ => bytes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap_or_else(|e| panic!("{e}"));
        }
        std::fs::write(path, text).unwrap_or_else(|e| panic!("{e}"));
    }

    fn result(oath: &str) -> String {
        format!(r#"{{"version": 1, "oathPath": "{oath}", "sourceHash": "h", "examples": []}}"#)
    }

    #[test]
    fn every_result_file_is_read_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let tree = dir.path().join("shard");
        write(&tree.join("varar/b.md.json"), &result("varar/b.md"));
        write(&tree.join("varar/a/c.md.json"), &result("varar/a/c.md"));
        write(&tree.join(".gitignore"), "*\n");
        write(&tree.join(".locks/varar/b.md.json.lock"), "");
        write(&tree.join("varar/b.md.json.new"), "not json");
        let read = read_tree(&tree, dir.path()).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(read.shown, "shard");
        let found: Vec<_> = read.files.iter().map(|f| f.oath_path.as_str()).collect();
        assert_eq!(found, ["varar/a/c.md", "varar/b.md"]);
        assert_eq!(read.files[1].shown, "shard/varar/b.md.json");
    }

    #[test]
    fn every_bad_file_is_reported_and_nothing_is_returned() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let tree = dir.path().join("t");
        write(&tree.join("a.md.json"), &result("a.md"));
        write(&tree.join("b.md.json"), r#"{"version": 2.5}"#);
        write(&tree.join("c.md.json"), &result("other.md"));
        let errors = read_tree(&tree, dir.path()).err().unwrap_or_default();
        let codes: Vec<_> = errors.iter().map(|e| (e.code, e.path.clone())).collect();
        assert_eq!(
            codes,
            [
                (Code::InvalidResult, Some("t/b.md.json".to_owned())),
                (Code::InvalidResult, Some("t/c.md.json".to_owned())),
            ]
        );
        assert!(
            errors[0].message.contains("unsupported version 2.5"),
            "{errors:?}"
        );
        let missing = read_tree(&dir.path().join("nope"), dir.path())
            .err()
            .unwrap_or_default();
        assert_eq!(missing[0].code, Code::InputError);
        assert_eq!(
            missing[0].message,
            "results directory `nope` does not exist"
        );
    }
}
