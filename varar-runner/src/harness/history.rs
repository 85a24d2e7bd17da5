//! This process's share of the run history (issue 20): each time the run
//! record is written, the same record goes to the history too, and the
//! first process of a run prunes it. A history that cannot be written is
//! one warning, never a failed or slower run.

use std::cell::Cell;
use std::path::Path;
use std::time::SystemTime;

use varar_core::record::ProcessRecord;

use super::print;
use crate::store::History;

/// Where this process keeps its records beyond `.varar/.runs/`.
pub(crate) struct HistoryWriter {
    history: Option<History>,
    warned: Cell<bool>,
}

impl HistoryWriter {
    /// The history the environment sets for the project at `root`; bad
    /// limits are warnings, their defaults used.
    pub(crate) fn from_env(root: &Path) -> HistoryWriter {
        let (history, errors) = History::from_env(root);
        for e in errors {
            print::warning(format_args!("the run history: {e}"));
        }
        HistoryWriter {
            history,
            warned: Cell::new(false),
        }
    }

    /// Write `record`, serialised as `text` (and already written to
    /// `written`, its file in `.varar/.runs/`, when given), to the history;
    /// prune when its run is new there.
    pub(crate) fn write(&self, record: &ProcessRecord, written: Option<&Path>) {
        let Some(history) = &self.history else {
            return;
        };
        match history.write_linked(record, written) {
            Ok(true) => {
                history.prune(&record.run_id, SystemTime::now());
            }
            Ok(false) => {}
            Err(e) if !self.warned.replace(true) => print::warning(format_args!(
                "the run history was not kept ({e}); the run goes on (set VARAR_HISTORY to \
                 another directory, or to `off`)"
            )),
            Err(_) => {}
        }
    }
}
