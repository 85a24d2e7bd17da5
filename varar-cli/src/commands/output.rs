//! What a command prints, as a value.

use serde::Serialize;

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
