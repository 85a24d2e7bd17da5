//! `cargo varar history`: list the runs kept in the run history
//! ([`super::listing_kept`]). Reads only.

use super::args::HistoryRun;
use super::{listing_kept, render_text};
use crate::error::Error;
use crate::output::{Output, emit};
use varar_core::verdict::records::ErrorRecords;
use varar_project::evidence::kept::read_kept;

/// Run `cargo varar history`: fails with records when the project or its
/// history cannot be found.
pub fn run(run: &HistoryRun) -> Result<Output, Error> {
    let kept = read_kept(&run.project, &[]).map_err(ErrorRecords::from)?;
    let stderr = kept
        .unreadable
        .iter()
        .map(|e| format!("warning: {e} (left out)"))
        .collect();
    let listing = listing_kept(
        kept.shown,
        (&kept.runs, &kept.partial, &kept.unjudged),
        &kept.now,
        kept.unreadable,
    );
    Ok(emit(&listing, run.format, render_text, None)?.notes(stderr))
}
