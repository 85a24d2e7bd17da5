//! Why the store could not read or write a file: every variant names it.

use std::path::{Path, PathBuf};

use varar_core::lock::LockError;
use varar_core::results::ResultsError;

/// Why the store could not read or write a file. Every variant names it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// An existing file could not be read.
    #[error("cannot read `{}`: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The lock exists but is not a valid version-2 lock (spec 40 §4.4).
    #[error(
        "`{}` is not a valid drift baseline: {source}; fix the file or delete it to re-record",
        path.display()
    )]
    InvalidLock {
        /// The lock file.
        path: PathBuf,
        /// What is wrong, with line and column for JSON errors.
        #[source]
        source: LockError,
    },
    /// An existing file could not be read, so the new content went to a
    /// `.new` candidate beside it.
    #[error(
        "cannot read `{}` ({source}); left it untouched and wrote `{}` instead",
        path.display(),
        candidate.display()
    )]
    KeptUnreadable {
        /// The file that was kept.
        path: PathBuf,
        /// Where the new content went.
        candidate: PathBuf,
        /// Why it could not be read.
        #[source]
        source: std::io::Error,
    },
    /// A file or directory could not be written.
    #[error("cannot write `{}`: {source}", path.display())]
    Write {
        /// The file or directory.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The advisory lock could not be taken.
    #[error("cannot lock `{}`: {source}", path.display())]
    Lock {
        /// The sidecar lock file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The run history's place is not a history varar may write and prune
    /// (issue 34): nothing there was touched.
    #[error("the run history `{}` is refused: {reason}", path.display())]
    HistoryRefused {
        /// The place, as `VARAR_HISTORY` (or the default) names it.
        path: PathBuf,
        /// Why.
        reason: varar_core::history::HistoryRefusal,
    },
    /// An oathPath that is not a plain relative path.
    #[error("`{oath_path}` is not a relative path inside the project")]
    BadOathPath {
        /// The offending path.
        oath_path: String,
    },
}

pub(super) fn write_err(path: &Path) -> impl FnOnce(std::io::Error) -> StoreError + '_ {
    move |source| StoreError::Write {
        path: path.to_path_buf(),
        source,
    }
}

/// Why a run-result file was not read. Every variant names the file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ResultFileError {
    /// The file exists but could not be read.
    #[error("cannot read `{}`: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The strict reader refused the content.
    #[error("`{}` is not a valid run result: {source}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// Why, with the place in the document.
        #[source]
        source: ResultsError,
    },
    /// The file is valid but records another oath than its location says.
    #[error("`{}` holds the results of `{found}`, not of `{expected}`", path.display())]
    OtherOath {
        /// The file.
        path: PathBuf,
        /// The `oathPath` it records.
        found: String,
        /// The oathPath its location gives.
        expected: String,
    },
    /// An oathPath that is not a plain relative path.
    #[error("`{oath_path}` is not a relative path inside the project")]
    BadOathPath {
        /// The offending path.
        oath_path: String,
    },
}

impl ResultFileError {
    /// The version of a well-formed file written by a newer results format,
    /// which a consumer treats as absent (seed 000's stability policy):
    /// see [`ResultsError::is_unknown_version`].
    pub fn unknown_version(&self) -> Option<u64> {
        match self {
            ResultFileError::Invalid { source, .. } => source.unknown_version(),
            _ => None,
        }
    }

    /// Why a file of a newer format is treated as absent, naming it as
    /// `shown`: the reason every consumer gives.
    pub fn newer_format_reason(&self, shown: &str) -> Option<String> {
        self.unknown_version().map(|v| {
            format!(
                "`{shown}` was written by a newer results format (version {v}), which this \
                 cargo varar does not read: treated as absent"
            )
        })
    }

    /// The file concerned (`None` for a bad oathPath, which names no file).
    pub fn path(&self) -> Option<&Path> {
        match self {
            ResultFileError::Read { path, .. }
            | ResultFileError::Invalid { path, .. }
            | ResultFileError::OtherOath { path, .. } => Some(path),
            ResultFileError::BadOathPath { .. } => None,
        }
    }
}
