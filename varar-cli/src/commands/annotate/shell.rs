//! `cargo varar annotate [--format github|gitlab] [--out FILE]`: read the
//! project's evidence ([`varar_project::evidence`]), list its findings
//! ([`varar_core::verdict::findings`]) and print them as annotations or
//! write them atomically to `--out`. When the evidence cannot be shown
//! (a run the gate cannot judge, an unusable file), nothing is printed or
//! written and the command exits 2 with the records; otherwise it exits 0
//! whatever it found: annotations are output, and the test run's own exit
//! code is what fails the CI job.

use super::args::{AnnotateFormat, AnnotateRun};
use super::{github, gitlab};
use crate::error::Error;
use crate::output::{Format, OutFile, Output, emit, json};
use varar_core::verdict::findings::{Findings, findings};
use varar_core::verdict::records::ErrorRecords;
use varar_project::evidence::read_evidence;
use varar_project::root::path_prefix;

/// Run `cargo varar annotate`; the config's warnings go to `notes`.
pub fn run(run: &AnnotateRun, notes: &mut Vec<String>) -> Result<Output, Error> {
    let project = read_evidence(&run.project, notes).map_err(ErrorRecords::from)?;
    let found = findings(&project).map_err(ErrorRecords::from)?;
    let prefix = path_prefix(run.path_prefix.as_deref(), &project.root);
    let text = match run.format {
        AnnotateFormat::Github => github(&found.findings, &prefix),
        AnnotateFormat::Gitlab => json(&gitlab(&found.findings, &prefix))?,
    };
    let warnings = found.warnings.iter().map(|w| format!("warning: {w}"));
    let out = run.out.as_ref().map(|out| (out, written(out, &found)));
    Ok(emit(text.as_str(), Format::Text, str::to_owned, out)?.notes(warnings.collect()))
}

/// The note on what was written.
fn written(out: &OutFile, found: &Findings) -> String {
    format!(
        "wrote `{}`: {} annotation(s)",
        out.shown,
        found.findings.len()
    )
}
