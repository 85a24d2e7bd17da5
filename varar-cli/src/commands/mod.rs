//! One module per command (shell: each reads the project or the results
//! trees and writes its output); the pure work is in [`crate::report`],
//! [`crate::gate`], [`crate::junit`], [`crate::merge`] and [`crate::diff`].

pub mod diff;
pub mod gate;
pub mod junit;
pub mod lsp;
pub mod merge;
pub mod report;

use serde::Serialize;

/// What a machine-facing command prints, and its exit code; `main` prints
/// it (the only place that prints).
#[derive(Debug, Default)]
pub struct Output {
    /// For stdout: the command's result (text for people or JSON).
    pub stdout: String,
    /// For stderr: problems and notes, one per line, already prefixed.
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
