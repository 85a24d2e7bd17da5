//! `cargo varar history`: list the runs kept in the run history
//! ([`crate::history`]). Reads only.

use super::output::{Output, json};
use crate::cli::{Format, HistoryRun};
use crate::history::{listing_kept, render_text};
use varar_core::verdict::records::ErrorRecords;
use varar_project::evidence::kept::read_kept;

/// Why no listing was printed: the project or its history could not be
/// found (records), or the JSON could not be written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum HistoryError {
    /// The project or the history could not be read.
    #[error(transparent)]
    Records(#[from] ErrorRecords),
    /// The listing could not be written as JSON.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
}

impl HistoryError {
    /// Always 2.
    pub fn exit_code(&self) -> u8 {
        2
    }
}

/// Run `cargo varar history`.
pub fn run(run: &HistoryRun) -> Result<Output, HistoryError> {
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
    let stdout = match run.format {
        Format::Text => render_text(&listing),
        Format::Json => json(&listing)?,
    };
    Ok(Output {
        stdout,
        stderr,
        exit_code: 0,
    })
}
