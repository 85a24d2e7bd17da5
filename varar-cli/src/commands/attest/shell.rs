//! `cargo varar attest [--out FILE]`: the latest run as an in-toto
//! Statement ([`super::statement()`]), printed or written atomically. Only a
//! run the gate can judge (complete, fresh, readable) is attested;
//! otherwise nothing is written and the gate's errors are the output
//! (exit 2). A run with failures is attested as `FAILED` (exit 0): the
//! gate, not the statement, decides what merges.

use super::args::AttestRun;
use super::{FileSha, LOCK_PATH, Statement, statement};
use crate::error::Error;
use crate::output::{Format, Output, emit};
use varar_core::verdict::gate::{GateOptions, evaluate};
use varar_core::verdict::records::{Code, ErrorRecord, ErrorRecords};
use varar_core::verdict::run_evidence::{CONFIG_PATH, FileNow};
use varar_project::evidence::{file_now, read_evidence};

/// Run `cargo varar attest`; the config's warnings go to `notes`. When no
/// statement is written, every problem is a record.
pub fn run(run: &AttestRun, notes: &mut Vec<String>) -> Result<Output, Error> {
    let project = read_evidence(&run.project, notes).map_err(ErrorRecords::from)?;
    let verdict = evaluate(&project, GateOptions::default());
    if verdict.exit_code == 2 {
        return Err(ErrorRecords::from(verdict.errors).into());
    }
    let Some(latest) = &project.run.latest else {
        return Err(ErrorRecords::from(ErrorRecord::new(
            Code::MissingRun,
            "there is no run record to attest",
        ))
        .into());
    };
    let mut configuration = Vec::new();
    for path in [CONFIG_PATH, LOCK_PATH] {
        match file_now(&project.root, path) {
            FileNow::Sha256(sha256) => configuration.push(FileSha {
                path: path.to_owned(),
                sha256,
            }),
            FileNow::Missing => {}
            FileNow::Unreadable(e) => return Err(ErrorRecords::from(e).into()),
        }
    }
    let statement = statement(latest, &configuration);
    let p = &statement.predicate;
    let out = run.out.as_ref().map(|out| {
        let written = format!(
            "wrote `{}`: run `{}`, result {}, {} subject(s), {} passed, {} warned, {} failed",
            out.shown,
            latest.run_id,
            p.result.as_str(),
            statement.subject.len(),
            p.passed_tests.len(),
            p.warned_tests.len(),
            p.failed_tests.len()
        );
        (out, written)
    });
    // The statement's own byte-stable text, not the JSON of `--format`.
    emit(&statement, Format::Text, Statement::to_text, out)
}
