//! The run records of a results tree as the store read them, turned into
//! the engine's [`RunEvidence`] (issue 19, 34): every run directory as the
//! standing places it, the readable records combined into runs, the
//! record files of an unknown version (left out, as absent), and the
//! problems of what could not be read, paths shown relative to a base.

use std::path::Path;

use varar_core::record::{ProcessRecord, RunRecord};
use varar_core::verdict::records::{ErrorRecord, display_path};
use varar_core::verdict::run_evidence::{RunDir, RunEvidence};

use super::records::ProjectRecords;
use crate::store::{RecordFileError, RunDirectory};

/// The evidence of the directories of runs under `shown` (as the store
/// read them, `Err` when the directory of runs could not be listed),
/// paths shown relative to `base`; the sources are not looked at (see
/// [`RunEvidence::now`]).
pub fn of_dirs(
    shown: impl Into<String>,
    read: Result<Vec<RunDirectory>, RecordFileError>,
    base: &Path,
) -> RunEvidence {
    let (dirs, records, unknown_version, invalid) = split(read, base);
    let runs = RunRecord::combine(records);
    RunEvidence {
        dir: shown.into(),
        runs: runs.len(),
        latest: runs.into_iter().next(),
        unknown_version,
        invalid,
        dirs,
        ..RunEvidence::default()
    }
}

/// What the store read of a directory of runs, split: every run directory
/// as the standing sees it, every readable record, the record files of an
/// unknown version (as shown), and the problem of a directory of runs that
/// could not be listed; paths shown relative to `base`.
fn split(
    read: Result<Vec<RunDirectory>, RecordFileError>,
    base: &Path,
) -> (
    Vec<RunDir>,
    Vec<ProcessRecord>,
    Vec<String>,
    Vec<ErrorRecord>,
) {
    let found = match read {
        Ok(found) => found,
        Err(e) => {
            return (
                Vec::new(),
                Vec::new(),
                Vec::new(),
                vec![ErrorRecord::record_file(&e, base)],
            );
        }
    };
    let (mut dirs, mut records, mut unknown) = (Vec::new(), Vec::new(), Vec::new());
    for d in found {
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
                Err(e) if e.is_unknown_version() => {
                    dir.unknown_version += 1;
                    unknown.push(display_path(e.path(), base));
                }
                Err(e) => dir.unreadable.push(ErrorRecord::record_file(&e, base)),
            }
        }
        dirs.push(dir);
    }
    (dirs, records, unknown, Vec::new())
}
