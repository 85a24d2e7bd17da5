//! Why `cargo varar` failed: the one error type of the command line
//! ([`Error`]), by kind of failure, with its stable code
//! ([`Error::code`], the codes of the machine output) and its exit code
//! ([`Error::exit_code`]). It is rendered for people only at the edge
//! (`main`): records one per line (`error[code]: message`), anything else
//! as its chain of reasons on one line.

use varar_core::verdict::records::{Code, ErrorRecord, ErrorRecords};
use varar_project::evidence::records::ProjectRecords;
use varar_project::root::RootError;
use varar_report::report::ReportError;

/// Why `cargo varar` failed. `Display` is one line, its sources the
/// reasons; `main` prints the chain once (or, for [`Self::records`], one
/// record per line).
///
/// A project that cannot be judged is not an error: `gate`, `check`,
/// `diff`, `flaky` and `verify` answer it with a report (`error`, exit 2)
/// in the format asked for.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The current directory could not be determined.
    #[error(transparent)]
    CurrentDir(RootError),
    /// The command failed on problems it names as records, each with its
    /// code: arguments that do not fit (`invalid_arguments`), evidence
    /// that cannot be used (`junit`, `attest`, `history`), inputs that
    /// cannot be merged or an output that cannot be written (`merge`,
    /// `junit --out`, `attest --out`).
    #[error(transparent)]
    Records(#[from] ErrorRecords),
    /// `report` wrote no site.
    #[error("no report was written")]
    Report(#[from] ReportError),
    /// The result could not be written as JSON.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    /// The language server stopped before the editor's `exit`: the editor
    /// broke the protocol or went away, or the stream from or to it could
    /// not be read or written.
    #[error("the language server stopped")]
    LanguageServer(#[source] varar_lsp::RunError),
    /// The output could not be printed.
    #[error("cannot write to stdout")]
    Stdout(#[source] std::io::Error),
}

impl From<Vec<ErrorRecord>> for Error {
    fn from(records: Vec<ErrorRecord>) -> Self {
        Error::Records(records.into())
    }
}

impl From<ErrorRecord> for Error {
    fn from(record: ErrorRecord) -> Self {
        Error::Records(record.into())
    }
}

impl Error {
    /// The exit code: every failure of a command is `2` (an unusable input
    /// or output); what a command judges (`1`, `3`) is its output, not an
    /// error.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Report(e) => e.exit_code(),
            Error::CurrentDir(_)
            | Error::Records(_)
            | Error::Json(_)
            | Error::LanguageServer(_)
            | Error::Stdout(_) => 2,
        }
    }

    /// The stable code of the failure, as machine output names it (the
    /// first record's for [`Self::Records`]); `None` for the language
    /// server, whose output is the protocol.
    pub fn code(&self) -> Option<Code> {
        match self {
            Error::CurrentDir(_) => Some(Code::InputError),
            Error::Records(records) => records.0.first().map(|r| r.code),
            Error::Report(ReportError::Root(e)) => Some(ErrorRecord::root(e).code),
            Error::Report(ReportError::Project(e)) => {
                Some(ErrorRecord::project(e, std::path::Path::new("")).code)
            }
            Error::Report(_) | Error::Json(_) | Error::Stdout(_) => Some(Code::OutputError),
            Error::LanguageServer(_) => None,
        }
    }

    /// The problems as records, when the command failed on records: printed
    /// one per line.
    pub fn records(&self) -> Option<&[ErrorRecord]> {
        match self {
            Error::Records(records) => Some(&records.0),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_failure_exits_2_with_the_code_of_its_records() {
        let records: Error = vec![
            ErrorRecord::new(Code::InvalidArguments, "a"),
            ErrorRecord::new(Code::OutputError, "b"),
        ]
        .into();
        assert_eq!(records.exit_code(), 2);
        assert_eq!(records.code(), Some(Code::InvalidArguments));
        assert_eq!(records.records().map(<[_]>::len), Some(2));
        let stdout = Error::Stdout(std::io::Error::other("gone"));
        assert_eq!(
            (stdout.exit_code(), stdout.code()),
            (2, Some(Code::OutputError))
        );
        assert!(stdout.records().is_none());
    }
}
