//! What a command prints, as a value, and the one way a command's result
//! reaches it ([`emit`]): text for people or JSON (`--format`), on stdout
//! or written atomically to `--out`.

use std::path::{Path, PathBuf};

use clap::ValueEnum;
use serde::Serialize;
use varar_project::store::{StoreError, write_atomic};

use crate::error::Error;
use varar_core::verdict::records::{Code, ErrorRecord, ErrorRecords, display_path};

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
pub fn json<T: Serialize + ?Sized>(value: &T) -> Result<String, serde_json::Error> {
    let mut text = serde_json::to_string_pretty(value)?;
    text.push('\n');
    Ok(text)
}

/// Output for people or for machines (`--format`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Short text for people.
    #[default]
    Text,
    /// One JSON object with a `version`, camelCase keys.
    Json,
}

/// The file a command writes instead of printing (`junit --out`,
/// `attest --out`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutFile {
    /// Absolute.
    pub path: PathBuf,
    /// As shown to people (relative to the current directory).
    pub shown: String,
}

impl OutFile {
    /// `--out FILE` given in `cwd`.
    pub fn new(out: &Path, cwd: &Path) -> OutFile {
        let path = cwd.join(out);
        let shown = display_path(&path, cwd);
        OutFile { path, shown }
    }
}

impl Output {
    /// The same output, exiting with `exit_code`.
    #[must_use]
    pub fn exit(self, exit_code: u8) -> Output {
        Output { exit_code, ..self }
    }

    /// The same output, with `stderr` (problems and notes) before its own.
    #[must_use]
    pub fn notes(mut self, mut stderr: Vec<String>) -> Output {
        stderr.append(&mut self.stderr);
        Output { stderr, ..self }
    }
}

/// A command's result as the user asked for it: `value` rendered as text
/// for people (`text`) or as JSON ([`json`]) by `format`, then printed on
/// stdout, or, with `out`, written there atomically (nothing on stdout)
/// with a note naming the file (`written`). Exit code 0 and no other
/// notes: [`Output::exit`] and [`Output::notes`] add them.
pub fn emit<T: Serialize + ?Sized>(
    value: &T,
    format: Format,
    text: impl FnOnce(&T) -> String,
    out: Option<(&OutFile, String)>,
) -> Result<Output, Error> {
    let rendered = match format {
        Format::Text => text(value),
        Format::Json => json(value)?,
    };
    Ok(match out {
        None => Output {
            stdout: rendered,
            ..Output::default()
        },
        Some((out, written)) => {
            write_out(out, &rendered)?;
            Output {
                stderr: vec![written],
                ..Output::default()
            }
        }
    })
}

/// Write a command's file (`--out`) atomically, its parent directories
/// created; a failure is one `output_error` record naming the file.
fn write_out(out: &OutFile, text: &str) -> Result<(), ErrorRecords> {
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
