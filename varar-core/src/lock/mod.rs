//! The drift baseline `varar.lock.json`, version 2 (spec 40 §4): its model,
//! strict reading (`read`, §4.4), byte-exact writing (`write`, §4.3)
//! and the per-run reconciliation (`reconcile`, §4.5) as pure functions, with
//! what a run says of it beyond the spec (`notices`, issue 37).
//! The file itself is read and written by the runner's store; nothing here
//! touches the file system.

mod model;
mod notices;
mod quick;
mod read;
mod reconcile;
#[cfg(test)]
mod tests;
mod write;

pub use model::{LOCK_FILE_NAME, LOCK_VERSION, Lock, LockEntry, LockExample};
pub use notices::{
    SHOWN_NAME, SUMMARY_NAMES, UpdateSummary, removed_message, removed_notice, shown_name,
};
pub use read::{LockError, ParsedLock, parse_lock, parse_lock_for};
pub use reconcile::{
    Baseline, LockBytes, OathRecord, Reconciled, pruned_notice, reconcile, stale_notice,
    stale_paths, unsupported_version_error,
};
pub use write::serialize_lock;
