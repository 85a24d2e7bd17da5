//! Error records: what the machine-facing commands (`gate`, `junit`,
//! `merge`, `diff`) say when evidence cannot be used, as data a bot can act
//! on. Pure.
//!
//! Every record has a [`Code`] and a one-line `message`, plus `path` (the
//! file concerned, relative to the project root or the current directory),
//! `oathPath`, `example` and `line` when they are known. Records are built
//! from the typed errors of the layer that failed (the strict run-result
//! reader, the config loader, discovery), never from strings. A record of
//! unusable evidence turns the command's exit code to 2: nothing is judged,
//! merged or compared on evidence that could not be read. Two kinds are
//! verdicts instead: `flaky`'s `too_few_runs` (exit 3) and `verify`'s
//! mismatched or missing subjects (exit 1).

use std::fmt;
use std::path::Path;

use serde::Serialize;

use crate::untrusted::terminal_line;

/// What went wrong, as a stable identifier (snake_case in JSON).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Code {
    /// A selected oath has no result file: it did not run.
    MissingResult,
    /// A result file records another version of the oath (or of a document
    /// its examples use): its offsets may point at the wrong text.
    StaleResult,
    /// A result file could not be read or was refused by the strict
    /// reader (unknown version, duplicate key, wrong shape, not UTF-8,
    /// recording another oath than its location says).
    InvalidResult,
    /// No `varar.config.json`, or one that is invalid.
    InvalidConfig,
    /// An input other than a result file could not be read: an oath, a
    /// results directory given on the command line.
    InputError,
    /// The config selects no oath, so there is no evidence at all.
    NoOaths,
    /// `merge`: two trees hold results of the same oath for different
    /// sources (`sourceHash`, `documents` or `version` differ).
    SourceMismatch,
    /// `merge`: two trees hold the same example with different outcomes.
    ConflictingResult,
    /// The command line is inconsistent (an output that is also an input).
    InvalidArguments,
    /// An output could not be written.
    OutputError,
    /// `gate`: the project holds no run record (issue 19): nothing says
    /// what the last run selected, or whether it finished.
    MissingRun,
    /// `gate`: the latest run did not finish: a process never reached its
    /// end, an item it planned did not run, or an oath with examples has
    /// no item in it.
    IncompleteRun,
    /// `gate`: a source the latest run used (a document, the config)
    /// changed or is gone since.
    StaleRun,
    /// A run record could not be read or was refused by the strict reader
    /// (a record of an unknown version is treated as absent instead), and
    /// it is (or may be) a record of the latest run; one of an earlier run
    /// is a warning (issue 34).
    InvalidRun,
    /// The latest run could not record its evidence (issue 34): a run
    /// directory in `.varar/.runs` that holds no record and was made after
    /// the latest readable run started, a record in the run history that
    /// `.varar/.runs` does not hold, or a result file the run says it
    /// could not write. Whatever older evidence `.varar/` holds is not
    /// that run's.
    UnrecordedRun,
    /// `merge`: two trees hold a run record of the same name with
    /// different bytes.
    ConflictingRun,
    /// `flaky`: fewer than two complete runs of the current sources are
    /// kept, so nothing can be compared (exit 3, not 2).
    TooFewRuns,
    /// `verify`: the file is not an in-toto Statement of Varar's test
    /// result predicate, or cannot be read.
    InvalidAttestation,
    /// `verify`: a file the attestation names has another digest now.
    DigestMismatch,
    /// `verify`: a file the attestation names does not exist.
    MissingSubject,
    /// `review`: an item named to accept is not a change of the latest
    /// run (issue 37).
    UnknownChange,
    /// `review`: the oath changed since the latest run read it (its
    /// SHA-256): nothing of it is accepted (issue 37).
    ChangedSinceRun,
    /// `review`: a change that cannot be accepted as it stands: a value
    /// with no one-line text span (a doc string), a drift the lock no
    /// longer lists, a lock not written as its writer writes it (issue 37).
    NotAcceptable,
}

impl Code {
    /// The identifier as written in JSON and text.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::MissingResult => "missing_result",
            Code::StaleResult => "stale_result",
            Code::InvalidResult => "invalid_result",
            Code::InvalidConfig => "invalid_config",
            Code::InputError => "input_error",
            Code::NoOaths => "no_oaths",
            Code::SourceMismatch => "source_mismatch",
            Code::ConflictingResult => "conflicting_result",
            Code::InvalidArguments => "invalid_arguments",
            Code::OutputError => "output_error",
            Code::MissingRun => "missing_run",
            Code::IncompleteRun => "incomplete_run",
            Code::StaleRun => "stale_run",
            Code::InvalidRun => "invalid_run",
            Code::UnrecordedRun => "unrecorded_run",
            Code::ConflictingRun => "conflicting_run",
            Code::TooFewRuns => "too_few_runs",
            Code::InvalidAttestation => "invalid_attestation",
            Code::DigestMismatch => "digest_mismatch",
            Code::MissingSubject => "missing_subject",
            Code::UnknownChange => "unknown_change",
            Code::ChangedSinceRun => "changed_since_run",
            Code::NotAcceptable => "not_acceptable",
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One problem with the evidence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ErrorRecord {
    /// What went wrong.
    pub code: Code,
    /// Why, in one line, naming the file.
    pub message: String,
    /// The file concerned, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The oath concerned, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub oath_path: Option<String>,
    /// The example concerned, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub example: Option<String>,
    /// The line concerned (1-based), when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
}

impl fmt::Display for ErrorRecord {
    /// `error[code]: message`, the form printed for people: the message
    /// (which names files and quotes what they hold) escaped for a
    /// terminal, on one line (issue 34). JSON keeps it as it is.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "error[{}]: {}", self.code, terminal_line(&self.message))
    }
}

impl ErrorRecord {
    /// A record with only a code and a message.
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        ErrorRecord {
            code,
            message: message.into(),
            path: None,
            oath_path: None,
            example: None,
            line: None,
        }
    }

    /// Set `path`.
    pub fn with_path(mut self, path: impl Into<String>) -> Self {
        self.path = Some(path.into());
        self
    }

    /// Set `oathPath`.
    pub fn with_oath(mut self, oath_path: impl Into<String>) -> Self {
        self.oath_path = Some(oath_path.into());
        self
    }

    /// Set `example` and `line`.
    pub fn with_example(mut self, example: impl Into<String>, line: Option<u32>) -> Self {
        self.example = Some(example.into());
        self.line = line;
        self
    }
}

/// The problems that stopped a command, each printed on a line of its own
/// (`error[code]: message`) by `main`; as one error, the first of them and
/// how many more there are.
#[derive(Clone, Debug, Default, PartialEq, Eq, thiserror::Error)]
#[error("{}", one_line(.0))]
pub struct ErrorRecords(pub Vec<ErrorRecord>);

impl From<ErrorRecord> for ErrorRecords {
    fn from(record: ErrorRecord) -> Self {
        ErrorRecords(vec![record])
    }
}

impl From<Vec<ErrorRecord>> for ErrorRecords {
    fn from(records: Vec<ErrorRecord>) -> Self {
        ErrorRecords(records)
    }
}

fn one_line(records: &[ErrorRecord]) -> String {
    match records {
        [] => "no problem recorded".to_owned(),
        [only] => only.to_string(),
        [first, rest @ ..] => format!("{first} (and {} more)", rest.len()),
    }
}

/// `path` relative to `base` with `/` separators when it lies under it,
/// else as it is: the form every message and record uses.
pub fn display_path(path: &Path, base: &Path) -> String {
    match path.strip_prefix(base) {
        Ok(rel) if !rel.as_os_str().is_empty() => rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/"),
        _ => path.display().to_string(),
    }
}

/// The exit code for a set of records: 2 when there is any, else `other`.
pub fn exit_code(errors: &[ErrorRecord], other: u8) -> u8 {
    if errors.is_empty() { other } else { 2 }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    #[test]
    fn records_serialise_in_camel_case_without_unknown_members() {
        let r = ErrorRecord::new(Code::StaleResult, "m")
            .with_path(".varar/a.md.json")
            .with_oath("a.md");
        let json = serde_json::to_string(&r).unwrap_or_default();
        assert_eq!(
            json,
            r#"{"code":"stale_result","message":"m","path":".varar/a.md.json","oathPath":"a.md"}"#
        );
        let r = ErrorRecord::new(Code::ConflictingResult, "m").with_example("x", Some(3));
        let json = serde_json::to_string(&r).unwrap_or_default();
        assert_eq!(
            json,
            r#"{"code":"conflicting_result","message":"m","example":"x","line":3}"#
        );
        assert_eq!(r.to_string(), "error[conflicting_result]: m");
    }

    #[test]
    fn issue34_a_message_is_escaped_for_people_and_kept_for_json() {
        let r = ErrorRecord::new(Code::InvalidResult, "`a\u{1b}[2J.json`\nerror[x]: \u{202e}");
        assert_eq!(
            r.to_string(),
            "error[invalid_result]: `a\\u{001B}[2J.json`\\u{000A}error[x]: \\u{202E}"
        );
        let json = serde_json::to_string(&r).unwrap_or_default();
        assert!(
            json.contains("`a\\u001b[2J.json`\\nerror[x]: \u{202e}"),
            "{json}"
        );
    }

    #[test]
    fn every_code_reads_as_it_serialises() {
        for code in [
            Code::MissingResult,
            Code::StaleResult,
            Code::InvalidResult,
            Code::InvalidConfig,
            Code::InputError,
            Code::NoOaths,
            Code::SourceMismatch,
            Code::ConflictingResult,
            Code::InvalidArguments,
            Code::OutputError,
            Code::MissingRun,
            Code::IncompleteRun,
            Code::StaleRun,
            Code::InvalidRun,
            Code::UnrecordedRun,
            Code::ConflictingRun,
        ] {
            let json = serde_json::to_string(&code).unwrap_or_default();
            assert_eq!(json, format!("\"{}\"", code.as_str()));
        }
    }

    #[test]
    fn paths_are_shown_relative_to_the_base() {
        let base = PathBuf::from("/p/root");
        assert_eq!(
            display_path(&base.join(".varar").join("a.md.json"), &base),
            ".varar/a.md.json"
        );
        assert_eq!(display_path(Path::new("/else/x"), &base), "/else/x");
        assert_eq!(display_path(&base, &base), "/p/root");
    }
}
