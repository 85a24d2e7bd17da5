//! `cargo varar diff OLD NEW`: read both results trees and compare them
//! ([`crate::tree_diff`]). Reads only; writes nothing.

use super::output::{Output, json};
use crate::cli::{DiffRun, Format};
use crate::tree::read_tree;
use crate::tree_diff::{DiffReport, compare, text};
use varar_core::verdict::records::display_path;

/// Why `diff` printed no comparison. A tree that cannot be read is not
/// one: it is a report (`error`, exit 2) in the format asked for.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DiffError {
    /// The comparison could not be written as JSON.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
}

impl DiffError {
    /// Always 2.
    pub fn exit_code(&self) -> u8 {
        2
    }
}

/// Run `cargo varar diff`.
pub fn run(run: &DiffRun) -> Result<Output, DiffError> {
    let (old, new, base) = (&run.old, &run.new, &run.base);
    let mut stderr = Vec::new();
    let report = match (read_tree(old, base), read_tree(new, base)) {
        (Ok(old), Ok(new)) => {
            for why in old.absent.iter().chain(&new.absent) {
                stderr.push(format!("warning: {why}; it is left out of the comparison"));
            }
            let report = compare(&old, &new);
            for w in &report.warnings {
                stderr.push(format!("warning[{}]: {}", w.code, w.message));
            }
            report
        }
        (old_read, new_read) => {
            let errors = [old_read.err(), new_read.err()]
                .into_iter()
                .flatten()
                .flatten()
                .collect();
            DiffReport::unusable(display_path(old, base), display_path(new, base), errors)
        }
    };
    let stdout = match run.format {
        Format::Text => text::render(&report),
        Format::Json => json(&report)?,
    };
    Ok(Output {
        stdout,
        stderr,
        exit_code: report.exit_code,
    })
}
