//! `cargo varar flaky`: compare the kept runs of the current sources
//! ([`varar_core::verdict::flaky`]) from the project's history or from downloaded
//! `.varar/` trees. Reads only.

use std::collections::BTreeSet;

use super::args::FlakyRun;
use super::render_text;
use crate::error::Error;
use crate::output::{Output, emit};
use varar_core::verdict::flaky::{FlakyOptions, compare};
use varar_core::verdict::run_evidence::SourcesNow;
use varar_project::evidence::kept::read_kept;

/// Run `cargo varar flaky`. Evidence that cannot be read is no error: it
/// is a comparison (`error`, exit 2) in the format asked for.
pub fn run(run: &FlakyRun) -> Result<Output, Error> {
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
    Ok(emit(&report, run.format, render_text, None)?
        .notes(stderr)
        .exit(report.exit_code))
}
