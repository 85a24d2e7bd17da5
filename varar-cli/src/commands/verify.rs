//! `cargo varar verify FILE`: read an attestation, recompute the digests
//! of the files it names in the working tree, and say what differs
//! ([`crate::attest::verify`]). Reads only.

use std::collections::BTreeMap;

use super::output::{Output, json};
use crate::attest::{Claimed, parse_statement, render_text, verify};
use crate::cli::{Format, VerifyRun};
use varar_core::verdict::records::{Code, ErrorRecord};
use varar_project::evidence::file_now;
use varar_project::evidence::records::ProjectRecords;

/// Why no verdict was printed: the JSON could not be written. An unusable
/// attestation is a verdict (`error`, exit 2) in the format asked for.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum VerifyError {
    /// The verdict could not be written as JSON.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
}

impl VerifyError {
    /// Always 2.
    pub fn exit_code(&self) -> u8 {
        2
    }
}

/// Run `cargo varar verify`.
pub fn run(run: &VerifyRun) -> Result<Output, VerifyError> {
    let mut now = BTreeMap::new();
    let claimed = read(run);
    if let (Ok(root), Ok(claimed)) = (run.project.resolve(), &claimed) {
        for (_, name, _) in &claimed.files {
            now.entry(name.clone())
                .or_insert_with(|| file_now(&root, name));
        }
    }
    let report = verify(&run.shown, claimed, &now);
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

/// The project root must be found, the file read and be an attestation.
fn read(run: &VerifyRun) -> Result<Claimed, ErrorRecord> {
    run.project.resolve().map_err(|e| ErrorRecord::root(&e))?;
    let bytes = std::fs::read(&run.file).map_err(|e| {
        ErrorRecord::new(
            Code::InputError,
            format!("cannot read `{}`: {e}", run.shown),
        )
        .with_path(run.shown.clone())
    })?;
    parse_statement(&bytes).map_err(|why| {
        ErrorRecord::new(
            Code::InvalidAttestation,
            format!(
                "`{}` is not an in-toto test-result attestation: {why}",
                run.shown
            ),
        )
        .with_path(run.shown.clone())
    })
}
