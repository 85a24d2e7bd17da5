//! `cargo varar gate`: read the project's evidence ([`crate::project`]),
//! judge it ([`crate::gate`]) and return the verdict as text or JSON.
//! Reads only; writes nothing.

use std::path::Path;

use super::{Output, json};
use crate::cli::{Format, GateArgs};
use crate::gate::{GateReport, SCHEMA, evaluate_with, render_text};
use crate::project::read_project;

/// Run `cargo varar gate` from `cwd`.
pub fn run(args: &GateArgs, cwd: &Path) -> Result<Output, serde_json::Error> {
    if args.schema {
        return Ok(Output {
            stdout: SCHEMA.to_owned(),
            ..Output::default()
        });
    }
    let report = verdict(args.root.root.as_deref(), cwd);
    let stdout = match args.format {
        Format::Text => render_text(&report),
        Format::Json => json(&report)?,
    };
    Ok(Output {
        stdout,
        stderr: Vec::new(),
        exit_code: report.exit_code,
    })
}

/// The verdict on the project at `--root` (or found from `cwd`).
pub fn verdict(root: Option<&Path>, cwd: &Path) -> GateReport {
    match read_project(root, cwd) {
        Ok(project) => evaluate_with(&project.oaths, &project.linked_only),
        Err(error) => GateReport::unusable(error),
    }
}
