//! `cargo varar verify FILE`: read an attestation, recompute the digests
//! of the files it names in the working tree, and say what differs
//! ([`crate::commands::attest::verify()`], the pure work it shares with
//! `attest`). Reads only.

use std::collections::BTreeMap;

use super::args::VerifyRun;
use crate::commands::attest::{Claimed, parse_statement, render_text, verify};
use crate::error::Error;
use crate::output::{Output, emit};
use varar_core::verdict::records::{Code, ErrorRecord};
use varar_project::evidence::file_now;
use varar_project::evidence::records::ProjectRecords;

/// Run `cargo varar verify`. An unusable attestation is no error: it is a
/// verdict (`error`, exit 2) in the format asked for.
pub fn run(run: &VerifyRun) -> Result<Output, Error> {
    let mut now = BTreeMap::new();
    let claimed = read(run);
    if let (Ok(root), Ok(claimed)) = (run.project.resolve(), &claimed) {
        for (_, name, _) in &claimed.files {
            now.entry(name.clone())
                .or_insert_with(|| file_now(&root, name));
        }
    }
    let report = verify(&run.shown, claimed, &now);
    Ok(emit(&report, run.format, render_text, None)?.exit(report.exit_code))
}

/// The project root must be found, the file read and be an attestation.
fn read(run: &VerifyRun) -> Result<Claimed, ErrorRecord> {
    run.project.resolve().map_err(|e| ErrorRecord::root(&e))?;
    let bytes = varar_project::files::read(&run.file).map_err(|e| {
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
