//! `cargo varar gate`: read the project's evidence ([`varar_project::evidence`]),
//! judge it ([`varar_core::verdict::gate`]) and return the verdict as text or JSON.
//! Reads only; writes nothing.

use super::output::{Output, json};
use crate::cli::{Format, GateRun};
use varar_core::verdict::gate::{GateOptions, GateReport, evaluate, render_text};
use varar_project::evidence::read_evidence;
use varar_project::root::ProjectRoot;

/// The JSON Schema of the `--format json` output (draft 2020-12), also
/// committed as `varar-cli/schema/gate.schema.json`.
pub const SCHEMA: &str = include_str!("../../schema/gate.schema.json");

/// Why `gate` printed no verdict. A project that cannot be judged is not
/// one: it is a verdict (`error`, exit 2) in the format asked for.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GateError {
    /// The verdict could not be written as JSON.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
}

impl GateError {
    /// Always 2.
    pub fn exit_code(&self) -> u8 {
        2
    }
}

/// `cargo varar gate --schema`.
pub fn schema() -> Output {
    Output {
        stdout: SCHEMA.to_owned(),
        ..Output::default()
    }
}

/// Run `cargo varar gate`; the config's warnings go to `notes`.
pub fn run(run: &GateRun, notes: &mut Vec<String>) -> Result<Output, GateError> {
    let options = GateOptions {
        deny_recovered: run.deny_recovered,
    };
    let report = verdict(&run.project, options, notes);
    let stdout = match run.format {
        Format::Text => render_text(&report),
        Format::Json => json(&report)?,
    };
    Ok(Output {
        stdout,
        stderr: Vec::new(),
        exit_code: report.exit_code,
    })
}

/// The verdict on the project at `project`; the config's warnings go to
/// `notes`.
pub fn verdict(project: &ProjectRoot, options: GateOptions, notes: &mut Vec<String>) -> GateReport {
    match read_evidence(project, notes) {
        Ok(project) => evaluate(&project, options),
        Err(error) => GateReport::unusable(error),
    }
}
