//! `cargo varar sarif [--out FILE]`: read the project's evidence
//! ([`varar_project::evidence`]), list its findings
//! ([`varar_core::verdict::findings`]) and print them as a SARIF 2.1.0 log
//! or write it atomically to `--out`. As `annotate`: evidence that cannot
//! be shown is refused (exit 2, with the records); otherwise exit 0,
//! whatever the log holds.

use super::args::SarifRun;
use super::log;
use crate::error::Error;
use crate::output::{Format, OutFile, Output, emit};
use varar_core::verdict::findings::{Findings, findings};
use varar_core::verdict::records::ErrorRecords;
use varar_project::evidence::read_evidence;
use varar_project::root::path_prefix;

/// Run `cargo varar sarif`; the config's warnings go to `notes`.
pub fn run(run: &SarifRun, notes: &mut Vec<String>) -> Result<Output, Error> {
    let project = read_evidence(&run.project, notes).map_err(ErrorRecords::from)?;
    let found = findings(&project).map_err(ErrorRecords::from)?;
    let prefix = path_prefix(run.path_prefix.as_deref(), &project.root);
    let sarif = log(&found.findings, &prefix, env!("CARGO_PKG_VERSION"));
    let warnings = found.warnings.iter().map(|w| format!("warning: {w}"));
    let out = run.out.as_ref().map(|out| (out, written(out, &found)));
    Ok(emit(&sarif, Format::Json, |_| String::new(), out)?.notes(warnings.collect()))
}

/// The note on what was written.
fn written(out: &OutFile, found: &Findings) -> String {
    format!("wrote `{}`: {} result(s)", out.shown, found.findings.len())
}
