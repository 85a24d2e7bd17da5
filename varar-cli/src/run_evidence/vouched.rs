//! Which text a result file describes, by SHA-256 (issue 34; STYLE §2.9).
//!
//! A result file names the text it was made from only by `sourceHash`, 32
//! bits that an edit can be made to collide with. The run records name
//! every document a run read by its SHA-256 as well. An oath's result was
//! written by the newest kept run that ran items of it (or, for an oath
//! no run has items of, one without examples, the newest that read it):
//! what that run read, by SHA-256, is the text the result describes.
//! [`crate::evidence::same_text`] decides with it.

use std::collections::{BTreeMap, BTreeSet};

use varar_core::record::{DocumentDigest, ProcessRecord, RunRecord};
use varar_runner::store::RecordFileError;

/// The digests of some documents as the run that wrote a result read
/// them, by path: a document without one is vouched for by no record.
pub type Vouched = BTreeMap<String, DocumentDigest>;

/// The kept runs, indexed once: which run wrote each oath's result, and
/// what each run read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunDigests {
    /// Per run (latest first), what it read, by path; a path its processes
    /// read with different digests is left out (unvouched).
    read: Vec<BTreeMap<String, DocumentDigest>>,
    /// The newest run with items of each oath.
    ran: BTreeMap<String, usize>,
    /// The newest run that read each document.
    newest_read: BTreeMap<String, usize>,
}

impl RunDigests {
    /// Index the runs of the records that could be read (the others say
    /// nothing).
    pub fn of_records(records: &[Result<ProcessRecord, RecordFileError>]) -> RunDigests {
        let read = records.iter().filter_map(|r| r.as_ref().ok()).cloned();
        RunDigests::new(&RunRecord::combine(read.collect()))
    }

    /// Index `runs`, latest first (as [`RunRecord::combine`] orders them).
    pub fn new(runs: &[RunRecord]) -> RunDigests {
        let mut index = RunDigests::default();
        for (i, run) in runs.iter().enumerate() {
            for item in &run.items {
                if !index.ran.contains_key(&item.oath_path) {
                    index.ran.insert(item.oath_path.clone(), i);
                }
            }
            let mut read: BTreeMap<String, DocumentDigest> = BTreeMap::new();
            let mut conflicting = BTreeSet::new();
            for d in run.processes.iter().flat_map(|p| &p.manifest.documents) {
                if !index.newest_read.contains_key(&d.path) {
                    index.newest_read.insert(d.path.clone(), i);
                }
                match read.get(&d.path) {
                    Some(seen) if seen != d => {
                        conflicting.insert(d.path.clone());
                    }
                    Some(_) => {}
                    None => {
                        read.insert(d.path.clone(), d.clone());
                    }
                }
            }
            for path in conflicting {
                read.remove(&path);
            }
            index.read.push(read);
        }
        index
    }

    /// The digests of `paths` as read by the run that wrote the result of
    /// `oath_path` (none when no kept run did).
    pub fn vouched<'p>(
        &self,
        oath_path: &str,
        paths: impl IntoIterator<Item = &'p str>,
    ) -> Vouched {
        let writer = self
            .ran
            .get(oath_path)
            .or_else(|| self.newest_read.get(oath_path));
        let Some(read) = writer.and_then(|&i| self.read.get(i)) else {
            return Vouched::new();
        };
        paths
            .into_iter()
            .filter_map(|p| read.get(p).map(|d| (p.to_owned(), d.clone())))
            .collect()
    }
}
