//! Reading the kept runs (shell), for `history`, `flaky` and the report's
//! strips: the project's
//! run history, or the `.varar/` trees (or history directories) given on
//! the command line, and the sources as they are now. Read run directory
//! by run directory (issue 34): a run some record of which cannot be read
//! is marked and never counted as evidence, and a run directory with no
//! readable record is listed as such. A history is read only when the
//! harness would write it (issue 34, `store::History::check_readable`).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use varar_core::env::VARAR_HISTORY;
use varar_core::record::{ProcessRecord, RunRecord};
use varar_core::verdict::kept::{UnjudgedRun, combine_kept};
use varar_core::verdict::records::{Code, ErrorRecord, display_path};
use varar_core::verdict::run_evidence::{RunDir, SourcesNow};
use varar_core::verdict::standing::Standing;

use super::records::ProjectRecords;
use super::sources_now;
use crate::root::ProjectRoot;
use crate::store::{
    History, RecordFileError, RunDirectory, StoreError, check_history_dir, read_run_dirs_under,
    runs_dir_in,
};

/// The kept runs and what could not be read.
pub struct Kept {
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
pub fn read_kept(project: &ProjectRoot, dirs: &[PathBuf]) -> Result<Kept, ErrorRecord> {
    let root = project.resolve().map_err(|e| ErrorRecord::root(&e))?;
    let mut found = Vec::new();
    let shown = if dirs.is_empty() {
        let (history, _) = History::from_env(&root);
        let Some(history) = history else {
            return Err(ErrorRecord::new(
                Code::InputError,
                format!(
                    "the run history is off ({VARAR_HISTORY}=off): unset it, or give the \
                     `.varar/` directories of the runs to compare"
                ),
            ));
        };
        let shown = display_path(&history.dir, &root);
        // The harness's own refusal (issue 34): a directory varar did not
        // make is not read as a history.
        history.check_readable().map_err(|e| {
            not_a_history(
                &e,
                &shown,
                &format!(
                    "point {VARAR_HISTORY} at the history varar writes, or give the `.varar/` \
                     directories of the runs to compare"
                ),
            )
        })?;
        found.push(read_run_dirs_under(&history.dir));
        shown
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
            let runs = read_dir_of_runs(dir).map_err(|e| {
                not_a_history(&e, &s, "give a `.varar/` tree or a history varar wrote")
            })?;
            found.push(runs);
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
/// `.runs/` (a history), which must be one (see [`check_history_dir`]).
fn read_dir_of_runs(dir: &Path) -> Result<Result<Vec<RunDirectory>, RecordFileError>, StoreError> {
    let runs = runs_dir_in(dir);
    if runs.is_dir() {
        Ok(read_run_dirs_under(&runs))
    } else {
        check_history_dir(dir)?;
        Ok(read_run_dirs_under(dir))
    }
}

/// The error of a directory not read as a history, named as `shown`, with
/// what to do instead (`fix`).
fn not_a_history(e: &StoreError, shown: &str, fix: &str) -> ErrorRecord {
    let why = match e {
        StoreError::HistoryRefused { reason, .. } => {
            format!("`{shown}` is not read as a run history: {reason}; {fix}")
        }
        other => format!("`{shown}` cannot be read as a run history: {other}"),
    };
    ErrorRecord::new(Code::InputError, why).with_path(shown)
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
