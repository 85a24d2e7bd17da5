//! `cargo varar gate`: read the project's evidence ([`varar_project::evidence`]),
//! judge it ([`varar_core::verdict::gate`]) and return the verdict as text or JSON.
//! Reads only; writes nothing.

use super::SCHEMA;
use super::args::GateRun;
use crate::error::Error;
use crate::output::{Output, emit};
use varar_core::verdict::gate::{GateOptions, GateReport, evaluate, render_text};
use varar_project::evidence::read_evidence;
use varar_project::root::ProjectRoot;

/// `cargo varar gate --schema`.
pub fn schema() -> Output {
    Output {
        stdout: SCHEMA.to_owned(),
        ..Output::default()
    }
}

/// Run `cargo varar gate`; the config's warnings go to `notes`. A project
/// that cannot be judged is no error: it is a verdict (`error`, exit 2) in
/// the format asked for.
pub fn run(run: &GateRun, notes: &mut Vec<String>) -> Result<Output, Error> {
    let options = GateOptions {
        deny_recovered: run.deny_recovered,
        deny_removed: run.deny_removed,
    };
    let report = verdict(&run.project, options, notes);
    Ok(emit(&report, run.format, render_text, None)?.exit(report.exit_code))
}

/// The verdict on the project at `project`; the config's warnings go to
/// `notes`.
pub fn verdict(project: &ProjectRoot, options: GateOptions, notes: &mut Vec<String>) -> GateReport {
    match read_evidence(project, notes) {
        Ok(project) => evaluate(&project, options),
        Err(error) => GateReport::unusable(error),
    }
}
