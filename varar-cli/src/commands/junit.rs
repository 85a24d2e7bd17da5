//! `cargo varar junit [--out FILE]`: read the project's evidence
//! ([`varar_project::evidence`]), convert it ([`crate::junit_xml`]) and print the
//! XML or write it atomically to `--out` (shell). When any input is
//! unusable, nothing is printed or written and the command exits 2.

use super::output::{Output, write_out};
use crate::cli::{JunitOut, JunitRun};
use crate::junit_xml::{Junit, build_project};
use varar_core::verdict::records::{Code, ErrorRecord, ErrorRecords};
use varar_project::evidence::read_evidence;

/// Why no JUnit XML was printed or written: every problem, as records.
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct JunitError(#[from] pub ErrorRecords);

impl JunitError {
    /// Always 2.
    pub fn exit_code(&self) -> u8 {
        2
    }

    /// The problems.
    pub fn records(&self) -> &[ErrorRecord] {
        &self.0.0
    }
}

/// Run `cargo varar junit`; the config's warnings go to `notes`.
pub fn run(run: &JunitRun, notes: &mut Vec<String>) -> Result<Output, JunitError> {
    let project = read_evidence(&run.project, notes).map_err(ErrorRecords::from)?;
    let junit = build_project(&project).map_err(ErrorRecords::from)?;
    let mut stderr: Vec<String> = junit
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
    let Some(out) = &run.out else {
        return Ok(Output {
            stdout: xml,
            stderr,
            exit_code: 0,
        });
    };
    write_out(out, &xml)?;
    stderr.push(written(out, &junit));
    Ok(Output {
        stdout: String::new(),
        stderr,
        exit_code: 0,
    })
}

/// The note on what was written.
fn written(out: &JunitOut, junit: &Junit) -> String {
    let r = &junit.report;
    format!(
        "wrote `{}`: {} test suite(s), {} test case(s), {} failure(s)",
        out.shown,
        r.test_suites.len(),
        r.tests,
        r.failures
    )
}
