//! The shell of the run's **finish** stage (spec 40 §6, §4.5, spec 60.6),
//! which `stages/` sequences: the trials' results written to `.varar/`,
//! the baseline reconciled and its write started, the outcome of that
//! write judged, and the run's resources torn down.
//!
//! Beside it: the lock's synced write on a thread of its own
//! (`lock_save.rs`, spec 40 §4.5), this process's run record with the
//! digests of its inputs (`record/`, seed 002, issue 19) and its share of
//! the run history (`history.rs`, issue 20).

pub(super) mod history;
pub(super) mod lock_save;
pub(super) mod record;

use std::path::Path;
use std::sync::Arc;

use super::cache::canonical::remember_canonical_lock;
use super::error::HarnessError;
use super::print;
use super::run::trial::RunShared;
use super::trials::enumerate::OathRun;
use crate::lifecycle::ResourceTeardown;
use lock_save::LockSave;
use varar_core::lock::{
    Baseline, OathRecord, UpdateSummary, pruned_notice, reconcile, stale_notice,
};
use varar_core::results::{merge_results, parse_run_result};
use varar_project::store::{StoreError, lock_baseline, reread_lock, update_run_result};

/// Write each planned oath's results to `.varar/` (spec 40 §6, issue
/// 10): exactly the examples of its current plan, each as this run
/// recorded it or, when it did not run now, as the stored file of the
/// same source did. A file whose every example ran is replaced without
/// being read (most were, by the trial of their last example, while the
/// others ran); nothing is created for an oath none of whose examples
/// ran. Failures are warnings.
pub(super) fn write_results(root: &Path, oaths: &[Arc<OathRun>]) {
    for oath in oaths {
        if oath.complete() {
            oath.replace_results(root);
            continue;
        }
        let fresh = oath.results();
        let written = update_run_result(root, &oath.path, |stored| {
            let stored = stored.and_then(|bytes| parse_run_result(bytes).ok());
            if stored.is_none() && fresh.examples.is_empty() {
                return None;
            }
            let merged = merge_results(stored.as_ref(), &fresh, &oath.keys(), &oath.ran());
            match merged.to_text() {
                Ok(text) => Some(text.into_bytes()),
                Err(e) => {
                    print::unserialisable(&oath.path, &e);
                    None
                }
            }
        });
        if let Err(e) = written {
            oath.not_written(e);
        }
    }
}

/// Record the baseline (spec 40 §4.5) after the trials: under the
/// advisory lock, re-read it (another run may have written it since this
/// one started), reconcile this run's records with it and start writing
/// it (the write holds the advisory lock until it is done). `summary` is
/// set under `VARAR_UPDATE`: what the run accepts, printed after the
/// pruning notices with the oaths pruned (issue 37).
pub(super) fn record_baseline(
    root: &Path,
    earlier: Baseline,
    records: Vec<OathRecord>,
    discovered: &[String],
    summary: Option<UpdateSummary>,
) -> Result<Option<LockSave>, HarnessError> {
    let update = summary.is_some();
    let guard = match lock_baseline(root) {
        Ok(guard) => Some(guard),
        Err(e) => {
            print::warning(e);
            None
        }
    };
    let current = match reread_lock(root, earlier) {
        Ok(current) => current,
        // The user asked for the write: not doing it is fatal.
        Err(e) if update => return Err(e.into()),
        Err(e) => {
            print::warning(format_args!("{e}; the baseline was not recorded"));
            return Ok(None);
        }
    };
    // Known canonical only by the digest the cache holds: nothing new to
    // remember of it.
    let remembered = matches!(&current, Baseline::Present { bytes, .. } if bytes.known_canonical());
    let mut reconciled = reconcile(current, records, discovered, update);
    // The text this lock is written as, or found to be: a later run that
    // reads these bytes need not serialise it again.
    if let Some(sha) = reconciled.canonical.as_deref().filter(|_| !remembered) {
        remember_canonical_lock(root, sha);
    }
    let pruned = std::mem::take(&mut reconciled.pruned);
    for path in &pruned {
        print::notice(&pruned_notice(path));
    }
    for path in std::mem::take(&mut reconciled.stale) {
        print::notice(&stale_notice(&path));
    }
    if let Some(summary) = summary {
        let summary = UpdateSummary { pruned, ..summary };
        for line in summary.lines() {
            print::notice(&line);
        }
    }
    let save = reconciled
        .write
        .then(|| LockSave::start(root, reconciled, guard));
    if let Some(save) = &save {
        remember_canonical_lock(root, &save.digest.sha256);
    }
    Ok(save)
}

/// How the lock's write ended, for the run: a failure is fatal when the
/// user asked for it (`VARAR_UPDATE=1`), a warning otherwise.
pub(super) fn lock_saved(
    saved: Option<Result<bool, StoreError>>,
    update: bool,
) -> Result<(), HarnessError> {
    match saved {
        Some(Err(e)) if update => Err(e.into()),
        Some(Err(e)) => {
            print::warning(e);
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Tear the run's resources down (spec 60.6), after the last example and
/// before the runtime stops. `false` when one failed: the run then fails.
pub(super) fn tear_down_resources(shared: &RunShared) -> bool {
    let lifecycle = &shared.lifecycle;
    let problems = shared.runtime.with_driver(None, |driver| {
        shared
            .resources
            .teardown_all(|id| lifecycle.teardown(id).map(|t| t.run), driver)
    });
    let mut ok = true;
    for problem in problems {
        match problem {
            ResourceTeardown::Failed(message) => {
                ok = false;
                print::notice(&format!("error: {message}"));
            }
            ResourceTeardown::Skipped(message) => print::notice(&format!("varar: {message}")),
        }
    }
    ok
}
