//! The files of a project on disk (STYLE §2.7, spec 40 §4.4–4.5, §6):
//! the only writer of files, and the only module that knows where they
//! are. Shell.
//!
//! - Where: [`lock_path`], [`scratch_dir`] (`.varar/`), [`run_result_path`],
//!   [`runs_dir`], [`cache_path`], and their `*_in` forms for a results tree
//!   laid out like `.varar/` (a CI shard's, a merge's). No other module
//!   joins these paths (the architecture test checks it).
//! - Atomic writes: a temporary file in the target's own directory, written
//!   and flushed, then renamed over the target; skipped when the bytes are
//!   unchanged, so unchanged runs leave files (and their mtimes) alone. Only
//!   the committed baseline is also synced to disk ([`write_atomic`]); the
//!   disposable `.varar/` files ([`write_disposable`]) are not: a crash
//!   leaves the old file or the new one, and either is fine to regenerate.
//! - Advisory locks (`File::lock`) on sidecar files under
//!   `.varar/.locks/` around every read-modify-write, so a `cargo test` and a
//!   `cargo nextest` run side by side never lose each other's updates. The
//!   lock is on a sidecar, not on the target, because the rename replaces
//!   the target's inode.
//! - A file that exists but cannot be read is never overwritten; a
//!   `<name>.new` candidate is written beside it instead.
//! - `.varar/` gets a `.gitignore` containing `*` when we create it.
//! - A temporary file a killed run left behind (`.varar-tmp-<pid>-*`, our
//!   own naming, with the writer's process id) is an orphan once that
//!   process is gone (or once it is older than [`STALE_TEMPORARY`], whatever
//!   its name): a later process's first write to its directory removes it
//!   (issue 10), and the first process of each run removes every orphan
//!   under `.varar/` and in the history's runs (issue 34, `removal`).
//! - Only what we wrote is ever deleted (issue 34, `removal`): a run
//!   directory goes entry by entry, records and orphans only, never
//!   through a symbolic link, and is left whole when it holds anything
//!   else; the history is pruned only in a directory varar made and marked.
//!
//! The store moves bytes only: what a run-result file holds, and how a run
//! merges into it, is the pure `results` module's business.

mod atomic;
mod baseline;
mod errors;
mod history;
mod locks;
mod removal;
pub(crate) mod runs;
mod scratch;
#[cfg(test)]
mod tests;
mod tree;

pub use atomic::{
    STALE_TEMPORARY, TEMP_PREFIX, create_ignored_dir, pending_path, write_atomic, write_disposable,
    write_disposable_with, write_pending,
};
pub use baseline::{lock_baseline, lock_path, read_lock, read_lock_for, reread_lock, save_lock};
pub use errors::{ResultFileError, StoreError};
pub use history::{History, check_history_dir, read_history, records_missing_from};
pub use locks::FileLockGuard;
pub use removal::{Orphans, remove_run_dir};
pub use runs::{
    KEPT_RUNS, RUNS_DIR, RecordFileError, RunDirectory, WrittenRecord, claim_run_dir, file_name_of,
    modified_at, project_id, prune_oldest_runs, prune_runs, prune_unrecorded_runs,
    read_other_headers, read_records, read_records_in, read_records_under, read_run_dirs,
    read_run_dirs_in, read_run_dirs_under, record_files_in, record_files_under, release_run_dir,
    remove_runs_before, runs_dir, runs_dir_in, runs_dir_shown, write_process_record,
    write_process_record_with,
};
pub use scratch::{
    CACHE_DIR, SCRATCH_DIR, cache_dir, cache_path, ensure_cache_dir, ensure_scratch_dir,
    open_cache_file, read_cache, read_cache_file, scratch_dir, sweep_scratch,
};
pub use tree::{
    oath_path_of, read_run_result, read_run_result_file, read_run_result_in, replace_run_result,
    result_files, result_path_in, result_path_shown, run_result_path, update_run_result,
};
