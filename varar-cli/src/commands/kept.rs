//! Reading the kept runs (shell), for `history` and `flaky`: the project's
//! run history, or the `.varar/` trees (or history directories) given on
//! the command line, and the sources as they are now. Read run directory
//! by run directory (issue 34): a run some record of which cannot be read
//! is marked and never counted as evidence, and a run directory with no
//! readable record is listed as such.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use varar_core::record::{ProcessRecord, RunRecord};
use varar_runner::store::{History, RUNS_DIR, RecordFileError, RunDirectory, read_run_dirs_under};

use crate::history::{UnjudgedRun, combine_kept};
use crate::project::sources_now;
use crate::records::{Code, ErrorRecord, display_path};
use crate::root::ProjectRoot;
use crate::run_evidence::{RunDir, SourcesNow};
use crate::standing::Standing;

/// The kept runs and what could not be read.
pub(crate) struct Kept {
    /// Where the runs were read from, as shown to people.
    pub shown: String,
    /// The runs, latest first.
    pub runs: Vec<RunRecord>,
    /// The runs (by id) some record of which could not be read: never
    /// evidence of anything.
    pub partial: BTreeSet<String>,
    /// The run directories without a readable record.
    pub unjudged: Vec<UnjudgedRun>,
    /// The sources now.
    pub now: SourcesNow,
    /// Records (or directories) that could not be read.
    pub unreadable: Vec<ErrorRecord>,
}

/// The runs of the project's history, or of `dirs` when some are given.
pub(crate) fn read_kept(project: &ProjectRoot, dirs: &[PathBuf]) -> Result<Kept, ErrorRecord> {
    let root = project.resolve().map_err(|e| ErrorRecord::root(&e))?;
    let mut found = Vec::new();
    let shown = if dirs.is_empty() {
        let (history, _) = History::from_env(&root);
        let Some(history) = history else {
            return Err(ErrorRecord::new(
                Code::InputError,
                "the run history is off (VARAR_HISTORY=off): unset it, or give the `.varar/` \
                 directories of the runs to compare",
            ));
        };
        found.push(read_run_dirs_under(&history.dir));
        display_path(&history.dir, &root)
    } else {
        let mut shown = Vec::new();
        for dir in dirs {
            let s = display_path(dir, &project.cwd);
            if !dir.is_dir() {
                return Err(ErrorRecord::new(
                    Code::InputError,
                    format!("`{s}` is not a directory of runs (a `.varar/` tree or a history)"),
                )
                .with_path(s));
            }
            found.push(read_dir_of_runs(dir));
            shown.push(s);
        }
        shown.join(", ")
    };
    let mut kept = split(found, &project.cwd);
    kept.shown = shown;
    kept.now = sources_now(&root, &kept.runs);
    Ok(kept)
}

/// A `.varar/` tree (its `.runs/`), or a directory laid out like one's
/// `.runs/` (the history).
fn read_dir_of_runs(dir: &Path) -> Result<Vec<RunDirectory>, RecordFileError> {
    if dir.join(RUNS_DIR).is_dir() {
        read_run_dirs_under(&dir.join(RUNS_DIR))
    } else {
        read_run_dirs_under(dir)
    }
}

/// The runs read, directory by directory: a record of a version this
/// reader does not know is left out, as absent; one that cannot be read is
/// a warning, and marks its run.
fn split(found: Vec<Result<Vec<RunDirectory>, RecordFileError>>, base: &Path) -> Kept {
    let mut records: Vec<ProcessRecord> = Vec::new();
    let mut partial = BTreeSet::new();
    let mut unjudged = Vec::new();
    let mut unreadable = Vec::new();
    for dirs in found {
        let dirs = match dirs {
            Ok(dirs) => dirs,
            Err(e) => {
                unreadable.push(ErrorRecord::record_file(&e, base));
                continue;
            }
        };
        for d in dirs {
            let mut dir = RunDir {
                name: d.name,
                modified: d.modified,
                foreign: d.foreign,
                ..RunDir::default()
            };
            for r in d.records {
                match r {
                    Ok(record) => {
                        dir.run_ids.insert(record.run_id.clone());
                        records.push(record);
                    }
                    Err(e) if e.is_unknown_version() => dir.unknown_version += 1,
                    Err(e) => dir.unreadable.push(ErrorRecord::record_file(&e, base)),
                }
            }
            if !dir.unreadable.is_empty() {
                partial.extend(dir.run_ids.iter().cloned());
            }
            let standing = if dir.holds_nothing() {
                Some(Standing::Unrecorded)
            } else if dir.run_ids.is_empty() && !dir.unreadable.is_empty() {
                Some(Standing::Unreadable)
            } else {
                None
            };
            if let Some(standing) = standing {
                unjudged.push(UnjudgedRun {
                    name: dir.name.clone(),
                    modified: dir.modified.clone(),
                    standing,
                });
            }
            unreadable.append(&mut dir.unreadable);
        }
    }
    Kept {
        shown: String::new(),
        runs: combine_kept(records),
        partial,
        unjudged,
        now: SourcesNow::default(),
        unreadable,
    }
}
