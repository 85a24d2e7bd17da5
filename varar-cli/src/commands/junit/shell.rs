//! `cargo varar junit [--out FILE] [--profile common|nextest]`: read the project's evidence
//! ([`varar_project::evidence`]), convert it ([`super::build_project`]) and print the
//! XML or write it atomically to `--out` (shell). When any input is
//! unusable, nothing is printed or written and the command exits 2.

use super::args::JunitRun;
use super::{Junit, build_project};
use crate::error::Error;
use crate::output::{Format, OutFile, Output, emit};
use varar_core::verdict::records::{Code, ErrorRecord, ErrorRecords};
use varar_project::evidence::read_evidence;

/// Run `cargo varar junit`; the config's warnings go to `notes`. When no
/// JUnit XML is printed or written, every problem is a record.
pub fn run(run: &JunitRun, notes: &mut Vec<String>) -> Result<Output, Error> {
    let project = read_evidence(&run.project, notes).map_err(ErrorRecords::from)?;
    let junit = build_project(&project, run.profile).map_err(ErrorRecords::from)?;
    let warnings: Vec<String> = junit
        .warnings
        .iter()
        .map(|w| format!("warning: {w}"))
        .collect();
    let xml = junit.report.to_string().map_err(|e| {
        ErrorRecords::from(ErrorRecord::new(
            Code::OutputError,
            format!("cannot serialise the JUnit report: {e}"),
        ))
    })?;
    let out = run.out.as_ref().map(|out| (out, written(out, &junit)));
    Ok(emit(xml.as_str(), Format::Text, str::to_owned, out)?.notes(warnings))
}

/// The note on what was written.
fn written(out: &OutFile, junit: &Junit) -> String {
    let r = &junit.report;
    format!(
        "wrote `{}`: {} test suite(s), {} test case(s), {} failure(s)",
        out.shown,
        r.test_suites.len(),
        r.tests,
        r.failures
    )
}
