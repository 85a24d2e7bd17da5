//! The run directories of a directory of runs, as the standing places them
//! against the latest run (issue 34), and the records another place holds
//! of runs the directory does not (pure).

use crate::verdict::records::{Code, ErrorRecord};
use std::collections::BTreeSet;

/// One run directory (`<dir>/<run>/`) as the standing sees it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunDir {
    /// Its name.
    pub name: String,
    /// When it last changed (RFC 3339 UTC, as records write instants);
    /// `None` when that could not be read.
    pub modified: Option<String>,
    /// The runs its readable records belong to.
    pub run_ids: BTreeSet<String>,
    /// How many of its records are of a version this reader does not know.
    pub unknown_version: usize,
    /// Its records that could not be read (`invalid_run`).
    pub unreadable: Vec<ErrorRecord>,
    /// Whether it holds files that are not records or temporaries of ours.
    pub foreign: bool,
}

impl RunDir {
    /// Whether it holds no record at all, and nothing but what a run
    /// writes: a run that made its directory and wrote no record.
    pub fn holds_nothing(&self) -> bool {
        self.run_ids.is_empty()
            && self.unknown_version == 0
            && self.unreadable.is_empty()
            && !self.foreign
    }
}

/// A record of a run that another place holds and the directory of runs
/// does not: a run that could not write to `.varar/` (issue 34).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ElsewhereRecord {
    /// The file, as shown to people.
    pub path: String,
    /// Its run.
    pub run_id: String,
    /// Its process.
    pub process_id: String,
    /// When the process started.
    pub started_at: String,
}

impl ElsewhereRecord {
    /// `unrecorded_run`: `runs` (the directory of runs, as shown) does not
    /// hold this record.
    pub fn problem(&self, runs: &str) -> ErrorRecord {
        ErrorRecord::new(
            Code::UnrecordedRun,
            format!(
                "the run history holds `{}`, the record of process `{}` of run `{}` (started \
                 {}), which `{runs}` does not: the run could not write to `.varar/` (read-only, \
                 a full disk), so the evidence there is older than it; make `.varar/` \
                 writable and run the tests again",
                self.path, self.process_id, self.run_id, self.started_at
            ),
        )
        .with_path(self.path.clone())
    }
}
