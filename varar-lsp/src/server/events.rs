//! What the server's background work reports to its loop (see
//! `background`): plain values, sent over a channel.

use std::collections::BTreeMap;
use std::path::PathBuf;

use lsp_server::RequestId;
use lsp_types::Url;

use crate::analysis::Analysis;
use crate::analysis::oaths::Deps;

use super::run_output::RunOutcome;
use crate::analysis::usages::{OathUses, Usages};
use crate::handlers::rename::{Edit, Refusal};

/// What background work reports.
#[derive(Debug)]
pub(crate) enum Event {
    /// A test run's progress.
    RunProgress {
        run: u64,
        message: String,
        percentage: Option<u32>,
    },
    /// A test run ended; `log` is what cargo printed on stderr.
    RunEnded {
        run: u64,
        outcome: RunOutcome,
        log: String,
    },
    /// Open oaths of a project planned (see `sync`): each with what its
    /// plan was made from, and the plan (`None`: it could not be planned).
    Planned {
        project: usize,
        /// The load of the project planned.
        epoch: u64,
        planned: Vec<(Url, Deps, Option<Analysis>)>,
    },
    /// A round of usages.
    Usages {
        project: usize,
        key: UsageKey,
        per_oath: BTreeMap<String, OathUses>,
        usages: Usages,
    },
    /// A rename was worked out.
    Renamed {
        request: RequestId,
        project: usize,
        result: Result<Vec<Edit>, Refusal>,
    },
    /// The report was written: the page of the oath.
    Reported {
        request: RequestId,
        page: Result<PathBuf, String>,
    },
}

/// What of a project a round of usages describes: its load, its steps,
/// its oaths' texts.
pub(crate) type UsageKey = (u64, u64, u64);
