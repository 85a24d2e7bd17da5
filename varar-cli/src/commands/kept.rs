//! Reading the kept runs (shell), for `history` and `flaky`: the project's
//! run history, or the `.varar/` trees (or history directories) given on
//! the command line, and the sources as they are now.

use std::path::{Path, PathBuf};

use varar_core::record::{ProcessRecord, RunRecord};
use varar_runner::store::{
    History, RUNS_DIR, RecordFileError, StoreError, check_history_dir, read_history,
    read_records_in, read_records_under,
};

use crate::history::combine_kept;
use crate::project::sources_now;
use crate::records::{Code, ErrorRecord, display_path};
use crate::root::ProjectRoot;
use crate::run_evidence::SourcesNow;

/// The kept runs and what could not be read.
pub(crate) struct Kept {
    /// Where the runs were read from, as shown to people.
    pub shown: String,
    /// The runs, latest first.
    pub runs: Vec<RunRecord>,
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
        let shown = display_path(&history.dir, &root);
        // The harness's own refusal (issue 34): a directory varar did not
        // make is not read as a history.
        history.check_readable().map_err(|e| {
            not_a_history(
                &e,
                &shown,
                "point VARAR_HISTORY at the history varar writes, or give the `.varar/` \
                 directories of the runs to compare",
            )
        })?;
        found.extend(read_history(&history.dir));
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
            found.extend(runs);
            shown.push(s);
        }
        shown.join(", ")
    };
    let (records, unreadable) = split(found, &project.cwd);
    let runs = combine_kept(records);
    let now = sources_now(&root, &runs);
    Ok(Kept {
        shown,
        runs,
        now,
        unreadable,
    })
}

/// A `.varar/` tree (its `.runs/`), or a directory laid out like one's
/// `.runs/` (a history), which must be one (see [`check_history_dir`]).
fn read_dir_of_runs(dir: &Path) -> Result<Vec<Result<ProcessRecord, RecordFileError>>, StoreError> {
    if dir.join(RUNS_DIR).is_dir() {
        Ok(read_records_in(dir))
    } else {
        check_history_dir(dir)?;
        Ok(read_records_under(dir))
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

/// The records read, and the others as `invalid_run` (a record of a
/// version this reader does not know is left out, as absent).
fn split(
    found: Vec<Result<ProcessRecord, RecordFileError>>,
    base: &Path,
) -> (Vec<ProcessRecord>, Vec<ErrorRecord>) {
    let mut records = Vec::new();
    let mut unreadable = Vec::new();
    for r in found {
        match r {
            Ok(record) => records.push(record),
            Err(e) if e.is_unknown_version() => {}
            Err(e) => unreadable.push(ErrorRecord::record_file(&e, base)),
        }
    }
    (records, unreadable)
}
