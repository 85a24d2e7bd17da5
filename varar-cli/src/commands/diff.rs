//! `cargo varar diff OLD NEW`: read both results trees and compare them
//! ([`crate::diff`]). Reads only; writes nothing.

use std::path::Path;

use super::{Output, json};
use crate::cli::{DiffArgs, Format};
use crate::diff::{DiffReport, compare, text};
use crate::records::display_path;
use crate::tree::read_tree;

/// Run `cargo varar diff` from `cwd`.
pub fn run(args: &DiffArgs, cwd: &Path) -> Result<Output, serde_json::Error> {
    let base = args.root.base(cwd);
    let (old, new) = (base.join(&args.old), base.join(&args.new));
    let report = match (read_tree(&old, &base), read_tree(&new, &base)) {
        (Ok(old), Ok(new)) => compare(&old, &new),
        (old_read, new_read) => {
            let errors = [old_read.err(), new_read.err()]
                .into_iter()
                .flatten()
                .flatten()
                .collect();
            DiffReport::unusable(display_path(&old, &base), display_path(&new, &base), errors)
        }
    };
    let stdout = match args.format {
        Format::Text => text::render(&report),
        Format::Json => json(&report)?,
    };
    Ok(Output {
        stdout,
        stderr: Vec::new(),
        exit_code: report.exit_code,
    })
}
