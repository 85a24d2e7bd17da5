//! The run record (issue 19): what one run of the oaths selected, what each
//! item did, and whether the run finished, kept beside the results in
//! `.varar/.runs/` so that it travels wherever `.varar/` goes.
//!
//! Every process of a run (`cargo test`, each `cargo nextest` process, each
//! retry and each partition) writes its own [`ProcessRecord`] twice: at the
//! start with `complete: false`, at the end with `complete: true`. A process
//! that never reaches the end (it exited, aborted, was killed, or hung and
//! was killed by nextest) leaves an incomplete record. The records of one
//! run id combine into one [`RunRecord`] ([`RunRecord::combine`]): every
//! item's attempts in order, its last attempt the run's evidence, a failed
//! attempt followed by a passing one a *recovered* item.
//!
//! The result files (`.varar/<oathPath>.json`) are a cross-port contract and
//! hold examples only; the record holds every item: examples, drift,
//! diagnostics and read errors. Its files end in `.run`, never `.json`, so no
//! oath's result path can name one and other ports' readers never see them.

mod combine;
mod model;
mod read;
#[cfg(test)]
mod tests;

pub use combine::{ItemEvidence, RunRecord};
pub use model::{
    Attempt, DocumentDigest, FileDigest, Item, ItemView, Manifest, NextestRun, Options, Outcome,
    ProcessRecord, RECORD_EXTENSION, RECORD_FORMAT, RECORD_VERSION, RecordItems, RemovedExample,
    RerunOf,
};
pub use read::{RecordError, RecordHeader, parse_process_record, parse_record_header};
