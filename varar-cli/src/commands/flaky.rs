//! `cargo varar flaky`: compare the kept runs of the current sources
//! ([`crate::flaky`]) from the project's history or from downloaded
//! `.varar/` trees. Reads only.

use std::collections::BTreeSet;

use super::output::{Output, json};
use crate::cli::{FlakyRun, Format};
use crate::flaky::render_text;
use varar_core::verdict::flaky::{FlakyOptions, compare};
use varar_core::verdict::run_evidence::SourcesNow;
use varar_project::evidence::kept::read_kept;

/// Why no comparison was printed: the JSON could not be written. Evidence
/// that cannot be read is a comparison (`error`, exit 2) in the format
/// asked for.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FlakyError {
    /// The comparison could not be written as JSON.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
}

impl FlakyError {
    /// Always 2.
    pub fn exit_code(&self) -> u8 {
        2
    }
}

/// Run `cargo varar flaky`.
pub fn run(run: &FlakyRun) -> Result<Output, FlakyError> {
    let options = FlakyOptions { runs: run.runs };
    let mut stderr = Vec::new();
    let report = match read_kept(&run.project, &run.dirs) {
        // A record that cannot be read leaves its run out, with a warning
        // (issue 34): one broken file never stops the comparison.
        Ok(kept) => {
            stderr.extend(
                kept.unreadable
                    .iter()
                    .map(|e| format!("warning: {e} (its run is left out)")),
            );
            compare((&kept.runs, &kept.partial), &kept.now, options, Vec::new())
        }
        Err(error) => compare(
            (&[], &BTreeSet::new()),
            &SourcesNow::default(),
            options,
            vec![error],
        ),
    };
    let stdout = match run.format {
        Format::Text => render_text(&report),
        Format::Json => json(&report)?,
    };
    Ok(Output {
        stdout,
        stderr,
        exit_code: report.exit_code,
    })
}
