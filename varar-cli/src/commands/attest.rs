//! `cargo varar attest [--out FILE]`: the latest run as an in-toto
//! Statement ([`crate::attest`]), printed or written atomically. Only a
//! run the gate can judge (complete, fresh, readable) is attested;
//! otherwise nothing is written and the gate's errors are the output
//! (exit 2). A run with failures is attested as `FAILED` (exit 0): the
//! gate, not the statement, decides what merges.

use super::output::{Output, write_out};
use crate::attest::{FileSha, LOCK_PATH, statement};
use crate::cli::AttestRun;
use varar_core::verdict::gate::{GateOptions, evaluate};
use varar_core::verdict::records::{Code, ErrorRecord, ErrorRecords};
use varar_core::verdict::run_evidence::{CONFIG_PATH, FileNow};
use varar_project::evidence::{file_now, read_evidence};

/// Why no statement was written: every problem, as records.
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct AttestError(#[from] pub ErrorRecords);

impl AttestError {
    /// Always 2.
    pub fn exit_code(&self) -> u8 {
        2
    }

    /// The problems.
    pub fn records(&self) -> &[ErrorRecord] {
        &self.0.0
    }
}

/// Run `cargo varar attest`; the config's warnings go to `notes`.
pub fn run(run: &AttestRun, notes: &mut Vec<String>) -> Result<Output, AttestError> {
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
    let text = statement.to_text();
    let Some(out) = &run.out else {
        return Ok(Output {
            stdout: text,
            stderr: Vec::new(),
            exit_code: 0,
        });
    };
    write_out(out, &text)?;
    let p = &statement.predicate;
    Ok(Output {
        stdout: String::new(),
        stderr: vec![format!(
            "wrote `{}`: run `{}`, result {}, {} subject(s), {} passed, {} warned, {} failed",
            out.shown,
            latest.run_id,
            p.result.as_str(),
            statement.subject.len(),
            p.passed_tests.len(),
            p.warned_tests.len(),
            p.failed_tests.len()
        )],
        exit_code: 0,
    })
}
