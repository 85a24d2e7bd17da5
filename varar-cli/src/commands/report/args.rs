//! The arguments of `cargo varar report`; the validated value is
//! [`varar_report::report::ReportRun`], which the language server's "open
//! report" builds too.

use std::path::{Path, PathBuf};

use clap::Args;
use varar_report::report::ReportRun;

use crate::commands::RootArgs;

/// `cargo varar report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// The project.
    #[command(flatten)]
    pub root: RootArgs,
    /// Where to write the site; only a new or empty directory, or a
    /// previous report, is accepted [default: target/varar/report under the
    /// root].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Open index.html in a browser afterwards ($BROWSER if set, else the
    /// system's opener).
    #[arg(long)]
    pub open: bool,
}

impl ReportArgs {
    /// Validated, run from `cwd`: `--out` absolute; its default needs the
    /// project root, and is applied when the project is read.
    pub fn validate(self, cwd: &Path) -> ReportRun {
        ReportRun {
            project: self.root.project(cwd),
            out: self.out.map(|out| cwd.join(out)),
            open: self.open,
        }
    }
}
