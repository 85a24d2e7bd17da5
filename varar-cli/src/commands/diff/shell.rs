//! `cargo varar diff OLD NEW`: read both results trees and compare them
//! ([`super::compare`]). Reads only; writes nothing.

use super::args::DiffRun;
use super::{DiffReport, compare, text};
use crate::error::Error;
use crate::output::{Output, emit};
use crate::tree::read_tree;
use varar_core::verdict::records::display_path;

/// Run `cargo varar diff`. A tree that cannot be read is no error: it is
/// a report (`error`, exit 2) in the format asked for.
pub fn run(run: &DiffRun) -> Result<Output, Error> {
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
    Ok(emit(&report, run.format, text::render, None)?
        .notes(stderr)
        .exit(report.exit_code))
}
