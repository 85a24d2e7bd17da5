//! Running an invocation: the command it names, its error made the one
//! error of the command line.

use super::attest::{self, AttestError};
use super::check::{self, CheckError};
use super::diff::{self, DiffError};
use super::flaky::{self, FlakyError};
use super::gate::{self, GateError};
use super::history::{self, HistoryError};
use super::junit::{self, JunitError};
use super::lsp::{self, LspError};
use super::merge::{self, MergeError};
use super::output::Output;
use super::report;
use super::verify::{self, VerifyError};
use crate::cli::{InvalidArguments, Invocation};
use varar_core::verdict::records::ErrorRecord;
use varar_project::root::RootError;
use varar_report::report::ReportError;

/// Why `cargo varar` failed: one variant per command, plus what can fail
/// before or after any command. `Display` is one line, its sources the
/// reasons; `main` prints the chain once (or, for [`Self::records`], one
/// record per line).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CommandError {
    /// The current directory could not be determined.
    #[error(transparent)]
    CurrentDir(RootError),
    /// The arguments do not fit together.
    #[error(transparent)]
    Arguments(#[from] InvalidArguments),
    /// `report`.
    #[error("no report was written")]
    Report(#[from] ReportError),
    /// `gate`.
    #[error(transparent)]
    Gate(#[from] GateError),
    /// `junit`.
    #[error(transparent)]
    Junit(#[from] JunitError),
    /// `check`.
    #[error(transparent)]
    Check(#[from] CheckError),
    /// `merge`.
    #[error(transparent)]
    Merge(#[from] MergeError),
    /// `diff`.
    #[error(transparent)]
    Diff(#[from] DiffError),
    /// `lsp`.
    #[error("the language server stopped")]
    Lsp(#[from] LspError),
    /// `history`.
    #[error(transparent)]
    History(#[from] HistoryError),
    /// `flaky`.
    #[error(transparent)]
    Flaky(#[from] FlakyError),
    /// `attest`.
    #[error(transparent)]
    Attest(#[from] AttestError),
    /// `verify`.
    #[error(transparent)]
    Verify(#[from] VerifyError),
    /// The output could not be printed.
    #[error("cannot write to stdout")]
    Stdout(#[source] std::io::Error),
}

impl CommandError {
    /// The exit code of the command that failed.
    pub fn exit_code(&self) -> u8 {
        match self {
            CommandError::Arguments(e) => e.exit_code(),
            CommandError::Report(e) => e.exit_code(),
            CommandError::Gate(e) => e.exit_code(),
            CommandError::Junit(e) => e.exit_code(),
            CommandError::Check(e) => e.exit_code(),
            CommandError::Merge(e) => e.exit_code(),
            CommandError::Diff(e) => e.exit_code(),
            CommandError::Lsp(e) => e.exit_code(),
            CommandError::History(e) => e.exit_code(),
            CommandError::Flaky(e) => e.exit_code(),
            CommandError::Attest(e) => e.exit_code(),
            CommandError::Verify(e) => e.exit_code(),
            CommandError::CurrentDir(_) | CommandError::Stdout(_) => 2,
        }
    }

    /// The problems as records, when the command failed on records
    /// (`junit`, `merge`, arguments that do not fit): printed one per line.
    pub fn records(&self) -> Option<&[ErrorRecord]> {
        match self {
            CommandError::Arguments(e) => Some(e.records()),
            CommandError::Junit(e) => Some(e.records()),
            CommandError::Merge(e) => Some(e.records()),
            CommandError::Attest(e) => Some(e.records()),
            CommandError::History(HistoryError::Records(e)) => Some(&e.0),
            _ => None,
        }
    }
}

/// Run `invocation`. What is worth a warning whatever the outcome (a key
/// the config writes twice) goes to `notes`, for `main` to print first.
pub fn run(invocation: &Invocation, notes: &mut Vec<String>) -> Result<Output, CommandError> {
    Ok(match invocation {
        Invocation::Report(run) => report::run(run)?,
        Invocation::GateSchema => gate::schema(),
        Invocation::Gate(run) => gate::run(run, notes)?,
        Invocation::Junit(run) => junit::run(run, notes)?,
        Invocation::Merge(run) => merge::run(run)?,
        Invocation::Diff(run) => diff::run(run)?,
        Invocation::CheckSchema => check::schema(),
        Invocation::Check(run) => check::run(run)?,
        Invocation::Lsp => lsp::run()?,
        Invocation::History(run) => history::run(run)?,
        Invocation::Flaky(run) => flaky::run(run)?,
        Invocation::Attest(run) => attest::run(run, notes)?,
        Invocation::Verify(run) => verify::run(run)?,
    })
}
