//! `cargo varar ctrf [--out FILE]`: read the project's evidence
//! ([`varar_project::evidence`]), convert it ([`super::build`]) at the
//! clock's time and print the JSON or write it atomically to `--out`
//! (shell). When any input is unusable, nothing is printed or written and
//! the command exits 2.

use std::time::{SystemTime, UNIX_EPOCH};

use super::args::CtrfRun;
use super::{Ctrf, Generated, build};
use crate::error::Error;
use crate::output::{Format, OutFile, Output, emit};
use varar_core::verdict::records::ErrorRecords;
use varar_project::evidence::read_evidence;
use varar_project::root::path_prefix;

/// What `generatedBy` says.
const GENERATED_BY: &str = concat!(
    "cargo varar ctrf (oathmark-cli ",
    env!("CARGO_PKG_VERSION"),
    ")"
);

/// Run `cargo varar ctrf`; the config's warnings go to `notes`. When no
/// report is printed or written, every problem is a record.
pub fn run(run: &CtrfRun, notes: &mut Vec<String>) -> Result<Output, Error> {
    let project = read_evidence(&run.project, notes).map_err(ErrorRecords::from)?;
    // The paths annotate and sarif write: `filePath` points into the
    // repository the dashboard links to.
    let prefix = path_prefix(run.path_prefix.as_deref(), &project.root);
    let at_ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
    let ctrf = build(
        &project,
        Generated {
            at_ms,
            by: GENERATED_BY,
            prefix: &prefix,
        },
    )
    .map_err(ErrorRecords::from)?;
    let warnings: Vec<String> = ctrf
        .warnings
        .iter()
        .map(|w| format!("warning: {w}"))
        .collect();
    let out = run
        .out
        .as_ref()
        .map(|out| (out, written(out, &ctrf.report)));
    Ok(emit(&ctrf.report, Format::Json, |_| String::new(), out)?.notes(warnings))
}

/// The note on what was written.
fn written(out: &OutFile, ctrf: &Ctrf) -> String {
    let s = &ctrf.results.summary;
    format!(
        "wrote `{}`: {} test(s), {} failed, {} flaky",
        out.shown, s.tests, s.failed, s.flaky
    )
}
