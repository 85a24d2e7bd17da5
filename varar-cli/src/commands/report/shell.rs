//! `cargo varar report`: the report ([`varar_report::report`]: the
//! project read, the site rendered and written) and what `main` prints of
//! it. Runs no test and writes nothing outside the output directory.

use varar_core::untrusted::terminal_line;
use varar_report::report::{ReportOutcome, ReportRun, outcome};

use crate::error::Error;
use crate::output::Output;

/// Run `cargo varar report`.
pub fn run(run: &ReportRun) -> Result<Output, Error> {
    Ok(outcome(run).map(into_output)?)
}

/// What `main` prints: the path of `index.html`, each problem and
/// warning.
fn into_output(outcome: ReportOutcome) -> Output {
    let problems = outcome.problems.iter().map(|p| format!("error: {p}"));
    let warnings = outcome.warnings.iter().map(|w| format!("warning: {w}"));
    Output {
        stdout: format!("{}\n", terminal_line(&outcome.index.display().to_string())),
        stderr: problems.chain(warnings).collect(),
        exit_code: outcome.exit_code(),
    }
}
