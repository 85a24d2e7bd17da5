//! The kept runs (issues 20, 34): the runs of the run history or of
//! downloaded `.varar/` trees, combined with each process record counted
//! once, and the run directories that hold no readable record, which are
//! listed and never counted as evidence. Pure: `varar_project::evidence`'s
//! `kept` reads them; `history`, `flaky` and the report's strips use them.

use std::collections::BTreeSet;

use crate::record::{ProcessRecord, RunRecord};
use crate::verdict::standing::Standing;

/// The runs of `records` (from one history or several downloaded
/// `.varar/` trees), latest first. A process record found twice (the same
/// run and process ids in two trees) counts once: the first found.
pub fn combine_kept(records: Vec<ProcessRecord>) -> Vec<RunRecord> {
    let mut seen = BTreeSet::new();
    let unique = records
        .into_iter()
        .filter(|r| seen.insert((r.run_id.clone(), r.process_id.clone())))
        .collect();
    RunRecord::combine(unique)
}

/// A run directory that holds no readable record (issue 34).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnjudgedRun {
    /// Its name (the run id as a file name).
    pub name: String,
    /// When it last changed (RFC 3339), if known.
    pub modified: Option<String>,
    /// `unreadable` (it holds records that cannot be read) or `unrecorded`
    /// (it holds none).
    pub standing: Standing,
}
