//! Error records ([`varar_core::verdict::records`]) of the typed errors
//! of this crate: a result file or run record the store could not read, a
//! project root not found, an invalid config, discovery. The codes and the
//! record are the engine's; which code each of this crate's errors gets,
//! and how its path is shown, is decided here, next to the errors.

use std::path::Path;

use varar_core::verdict::records::{Code, ErrorRecord, display_path};

use crate::ProjectError;
use crate::config::{CONFIG_FILE_NAME, ConfigError, ConfigWarning};
use crate::discovery::DiscoveryError;
use crate::root::RootError;
use crate::store::{RecordFileError, ResultFileError};

/// An [`ErrorRecord`] of each error of this crate (in scope, called as
/// `ErrorRecord::config(&e, root)`).
pub trait ProjectRecords: Sized {
    /// A result file the store could not read or the strict reader
    /// refused: `invalid_result`, its path shown relative to `base`.
    fn result_file(e: &ResultFileError, base: &Path) -> Self;

    /// A run record the store could not read or the strict reader
    /// refused: `invalid_run`, its path shown relative to `base`.
    fn record_file(e: &RecordFileError, base: &Path) -> Self;

    /// No usable project root: `invalid_config` (there is no config).
    fn root(e: &RootError) -> Self;

    /// An invalid `varar.config.json` under `root`: `invalid_config`, the
    /// message starting with the file's path relative to the root.
    fn config(e: &ConfigError, root: &Path) -> Self;

    /// A project that could not be read at all, paths shown relative to
    /// `root`.
    fn project(e: &ProjectError, root: &Path) -> Self;

    /// Discovery or an oath read failed: a bad glob is `invalid_config`,
    /// everything else `input_error`.
    fn discovery(e: &DiscoveryError, base: &Path) -> Self;
}

impl ProjectRecords for ErrorRecord {
    fn result_file(e: &ResultFileError, base: &Path) -> Self {
        let shown = e.path().map(|p| display_path(p, base));
        let message = match e {
            ResultFileError::Read { source, .. } => {
                format!("cannot read `{}`: {source}", shown.as_deref().unwrap_or(""))
            }
            ResultFileError::Invalid { source, .. } => format!(
                "`{}` is not a valid run result: {source}",
                shown.as_deref().unwrap_or("")
            ),
            ResultFileError::OtherOath {
                found, expected, ..
            } => format!(
                "`{}` holds the results of `{found}`, not of `{expected}`",
                shown.as_deref().unwrap_or("")
            ),
            other => other.to_string(),
        };
        let record = ErrorRecord::new(Code::InvalidResult, message);
        match shown {
            Some(path) => record.with_path(path),
            None => record,
        }
    }

    fn record_file(e: &RecordFileError, base: &Path) -> Self {
        let shown = display_path(e.path(), base);
        let message = match e {
            RecordFileError::Read { source, .. } => format!("cannot read `{shown}`: {source}"),
            RecordFileError::Invalid { source, .. } => {
                format!("`{shown}` is not a valid run record: {source}")
            }
        };
        ErrorRecord::new(Code::InvalidRun, message).with_path(shown)
    }

    fn root(e: &RootError) -> Self {
        ErrorRecord::new(Code::InvalidConfig, e.to_string())
    }

    fn config(e: &ConfigError, root: &Path) -> Self {
        let absolute = root.join(CONFIG_FILE_NAME).display().to_string();
        let message = e.to_string().replacen(&absolute, CONFIG_FILE_NAME, 1);
        ErrorRecord::new(Code::InvalidConfig, message).with_path(CONFIG_FILE_NAME)
    }

    fn project(e: &ProjectError, root: &Path) -> Self {
        match e {
            ProjectError::Config(e) => ErrorRecord::config(e, root),
            ProjectError::Discovery(e) => ErrorRecord::discovery(e, root),
        }
    }

    fn discovery(e: &DiscoveryError, base: &Path) -> Self {
        match e {
            DiscoveryError::InvalidGlob { .. }
            | DiscoveryError::GlobTooComplex { .. }
            | DiscoveryError::TooManyPatterns { .. } => {
                ErrorRecord::new(Code::InvalidConfig, e.to_string()).with_path(CONFIG_FILE_NAME)
            }
            DiscoveryError::Read { oath_path, .. } | DiscoveryError::NotUtf8 { oath_path, .. } => {
                ErrorRecord::new(Code::InputError, e.to_string())
                    .with_path(oath_path.clone())
                    .with_oath(oath_path.clone())
            }
            DiscoveryError::Walk { path, .. } => ErrorRecord::new(Code::InputError, e.to_string())
                .with_path(display_path(path, base)),
        }
    }
}

/// A warning about the config under `root` (a key written twice), as
/// people read it (`varar.config.json:3:3: …`): the path relative to the
/// root, as in [`ProjectRecords::config`].
pub fn config_warning(w: &ConfigWarning, root: &Path) -> String {
    let absolute = root.join(CONFIG_FILE_NAME).display().to_string();
    w.to_string().replacen(&absolute, CONFIG_FILE_NAME, 1)
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    #[test]
    fn issue34_a_config_warning_names_the_config_relative_to_the_root() {
        let config = crate::config::parse_config(
            &PathBuf::from("/shop/varar.config.json"),
            b"{\"docs\": {}, \"docs\": {}}",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            config_warning(&config.warnings[0], Path::new("/shop")),
            "varar.config.json:1:14: the key \"docs\" is written twice (first at line 1, column 2); \
             the last value is used, as JSON.parse does"
        );
    }
}
