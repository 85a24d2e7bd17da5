//! This process's share of the run history (issue 20): each time the run
//! record is written, the same record goes to the history too, and the
//! first process of a run prunes it. A history that cannot be written, or
//! whose place is refused (issue 34: not a directory varar made and
//! marked, see `store::History::open`), is one warning, never a failed or
//! slower run: the run goes on without it.
//!
//! Pruning lists every kept run and may remove one of thousands of items,
//! milliseconds of file-system work that nothing of the run waits for: it
//! goes on on a thread of its own while the run does, and the writer waits
//! for it only when it is dropped, after the run's last record.

use std::cell::{Cell, RefCell};
use std::path::Path;
use std::thread::JoinHandle;
use std::time::SystemTime;

use varar_core::env::VARAR_HISTORY;
use varar_core::record::{ProcessRecord, RecordItems};

use crate::harness::print;
use varar_project::store::{History, Orphans, StoreError};

/// Where this process keeps its records beyond `.varar/.runs/`.
pub(crate) struct HistoryWriter {
    history: Option<History>,
    /// When this process began: what a killed writer's temporary predates.
    orphans: Orphans,
    warned: Cell<bool>,
    /// The pruning under way, if any.
    pruning: RefCell<Option<JoinHandle<()>>>,
}

impl HistoryWriter {
    /// The history the environment sets for the project at `root`, for a
    /// process that began at `started_ms`; bad limits are warnings, their
    /// defaults used, and a place that is not a history varar made is one
    /// warning naming it and why, and no history.
    pub(crate) fn from_env(root: &Path, started_ms: u64) -> HistoryWriter {
        let (history, errors) = History::from_env(root);
        for e in errors {
            print::warning(format_args!("the run history: {e}"));
        }
        let history = history.filter(|h| match h.open() {
            Ok(()) => true,
            Err(e @ StoreError::HistoryRefused { .. }) => {
                print::warning(format_args!(
                    "{e}; the run goes on without it (point {VARAR_HISTORY} at a new or empty \
                     directory, or set it to `off`)"
                ));
                false
            }
            Err(e) => {
                not_kept(&e);
                false
            }
        });
        HistoryWriter {
            history,
            orphans: Orphans::since_ms(started_ms),
            warned: Cell::new(false),
            pruning: RefCell::new(None),
        }
    }

    /// The history `history`, limits as given.
    #[cfg(test)]
    pub(crate) fn at(history: History) -> HistoryWriter {
        HistoryWriter {
            history: Some(history),
            orphans: Orphans::since_ms(0),
            warned: Cell::new(false),
            pruning: RefCell::new(None),
        }
    }

    /// No history: records stay in `.varar/.runs/` only.
    #[cfg(test)]
    pub(crate) fn none() -> HistoryWriter {
        HistoryWriter {
            history: None,
            orphans: Orphans::since_ms(0),
            warned: Cell::new(false),
            pruning: RefCell::new(None),
        }
    }

    /// The history's directory, when there is a history.
    pub(crate) fn dir(&self) -> Option<&Path> {
        self.history.as_ref().map(|h| h.dir.as_path())
    }

    /// Write `record` with `items` (and already written to
    /// `written`, its file in `.varar/.runs/`, when given), to the history;
    /// prune when its run is new there. Whether the history holds it now.
    pub(crate) fn write(
        &self,
        (record, items): (&ProcessRecord, &dyn RecordItems),
        written: Option<&Path>,
    ) -> bool {
        let Some(history) = &self.history else {
            return false;
        };
        match history.write_linked_with(record, items, written) {
            Ok(true) => {
                let (now, orphans) = (SystemTime::now(), self.orphans);
                let (kept, keep) = (history.clone(), record.run_id.clone());
                let spawned = std::thread::Builder::new()
                    .name("varar-history".to_owned())
                    .spawn(move || drop(kept.prune(&keep, now, &orphans)));
                match spawned {
                    Ok(handle) => *self.pruning.borrow_mut() = Some(handle),
                    // No thread to spare: prune here.
                    Err(_) => drop(history.prune(&record.run_id, now, &orphans)),
                }
                true
            }
            Ok(false) => true,
            Err(e) => {
                if !self.warned.replace(true) {
                    not_kept(&e);
                }
                false
            }
        }
    }
}

/// The one warning of a history that could not be written.
fn not_kept(e: &StoreError) {
    print::warning(format_args!(
        "the run history was not kept ({e}); the run goes on (set {VARAR_HISTORY} to another \
         directory, or to `off`)"
    ));
}

impl Drop for HistoryWriter {
    fn drop(&mut self) {
        if let Some(handle) = self.pruning.get_mut().take() {
            // Pruning is best effort and never panics on what it finds.
            let _ = handle.join();
        }
    }
}
