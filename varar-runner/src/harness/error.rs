//! Why a run could not start, or could not record what the user asked it
//! to (spec 40 §7.7): every fatal problem of the harness, typed. Each is
//! printed once as `error: <message>` and the run exits with libtest's
//! failure code; problems with one file are failing items instead.

use std::path::PathBuf;

use varar_core::config::{ConfigError, UpdateModeError};
use varar_core::env::{VARAR_RERUN, VARAR_TAGS};
use varar_core::lock::{LOCK_FILE_NAME, unsupported_version_error};
use varar_core::registry::RegistryErrors;
use varar_core::tags::TagExpressionError;

use super::setup::timeout::TimeoutError;
use crate::lifecycle::LifecycleErrors;
use varar_project::discovery::DiscoveryError;
use varar_project::store::StoreError;

/// The exit code of a run that could not start, or failed to tear a
/// resource down (libtest's failure code).
pub(crate) const FATAL: u8 = 101;

/// A problem that stops the run.
#[derive(Debug, thiserror::Error)]
pub(crate) enum HarnessError {
    /// `varar.config.json` cannot be read or is invalid.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// `VARAR_UPDATE` holds an unknown value.
    #[error(transparent)]
    UpdateMode(#[from] UpdateModeError),
    /// `VARAR_TIMEOUT` or `Runner::timeout` is not a limit.
    #[error(transparent)]
    Timeout(#[from] TimeoutError),
    /// The registered steps or parameter types do not build a registry.
    #[error("the registered steps have problems:\n{0}")]
    Steps(RegistryErrors),
    /// The resources, factories and teardowns do not fit the steps.
    #[error("the registered resources, states and teardowns have problems:\n{0}")]
    Lifecycle(LifecycleErrors),
    /// The globs are invalid, or the walk failed.
    #[error(transparent)]
    Discovery(#[from] DiscoveryError),
    /// There is no config: nothing can be tested (issue 10).
    #[error(
        "no varar.config.json in {}, so no oath was found and nothing was tested; add one, \
         e.g. {{\"docs\": {{\"include\": [\"varar/**/*.md\"]}}}}",
        root.display()
    )]
    NoConfig {
        /// The project root.
        root: PathBuf,
    },
    /// The globs match nothing: a typo must not turn CI green (issue 10).
    #[error(
        "no oath matched docs.include {include:?}{excluded} under {} ({}), so nothing was \
         tested; check the globs (they match paths relative to that directory, e.g. \
         \"varar/**/*.md\")",
        root.display(),
        config.display(),
        excluded = if exclude.is_empty() { String::new() } else { format!(" (less docs.exclude {exclude:?})") }
    )]
    NoOathMatched {
        /// `docs.include`.
        include: Vec<String>,
        /// `docs.exclude`.
        exclude: Vec<String>,
        /// The project root.
        root: PathBuf,
        /// The config file.
        config: PathBuf,
    },
    /// The tokio runtime did not start.
    #[error("cannot start the tokio runtime: {0}")]
    Runtime(std::io::Error),
    /// The baseline cannot be read, or (under `VARAR_UPDATE`) written.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// `VARAR_RERUN` holds a value outside its closed set.
    #[error(
        "{} has the unsupported value \"{value}\": use failed to rerun what failed or \
         did not run in the last complete run, or leave it unset (or empty) for a normal run",
        VARAR_RERUN
    )]
    Rerun {
        /// The value as set.
        value: String,
    },
    /// `VARAR_SELECT` cannot be used (issue 38): why, as `read/only.rs`
    /// says it.
    #[error("{0}")]
    Select(String),
    /// `VARAR_TAGS` holds no tag expression (issue 38).
    #[error("{}={value:?} is not a tag expression: {error}", VARAR_TAGS)]
    Tags {
        /// The value as set.
        value: String,
        /// What is wrong, and where.
        error: TagExpressionError,
    },
    /// The lock is of another version and `VARAR_UPDATE` does not consent
    /// to re-recording it (issue 10).
    #[error("{}", unsupported_version_error(LOCK_FILE_NAME, version))]
    UnsupportedLock {
        /// The version as written.
        version: String,
    },
}
