//! What a command prints, as a value.

use serde::Serialize;
use varar_project::store::{StoreError, write_atomic};

use crate::cli::JunitOut;
use varar_core::verdict::records::{Code, ErrorRecord, ErrorRecords};

/// What a command prints, and its exit code; `main` prints it (the only
/// place that prints).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Output {
    /// For stdout: the command's result (text for people or JSON).
    pub stdout: String,
    /// For stderr: problems and notes, one per line, already prefixed
    /// (`main` puts `cargo varar: ` before each).
    pub stderr: Vec<String>,
    /// The exit code.
    pub exit_code: u8,
}

/// `value` as pretty JSON with a trailing newline: the form of every
/// machine-readable output.
pub fn json<T: Serialize>(value: &T) -> Result<String, serde_json::Error> {
    let mut text = serde_json::to_string_pretty(value)?;
    text.push('\n');
    Ok(text)
}

/// Write a command's file (`--out`) atomically, its parent directories
/// created; a failure is one `output_error` record naming the file.
pub fn write_out(out: &JunitOut, text: &str) -> Result<(), ErrorRecords> {
    let failed = |reason: String| {
        ErrorRecords::from(
            ErrorRecord::new(
                Code::OutputError,
                format!("cannot write `{}`: {reason}", out.shown),
            )
            .with_path(out.shown.clone()),
        )
    };
    if let Some(parent) = out.path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| failed(e.to_string()))?;
    }
    write_atomic(&out.path, text.as_bytes()).map_err(|e| {
        failed(match e {
            StoreError::Write { source, .. } => source.to_string(),
            other => other.to_string(),
        })
    })?;
    Ok(())
}
