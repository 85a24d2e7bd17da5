//! The arguments of `cargo varar attest`, and the validated value.

use std::path::{Path, PathBuf};

use clap::Args;
use varar_project::root::ProjectRoot;

use crate::commands::RootArgs;
use crate::output::OutFile;

/// `cargo varar attest`.
#[derive(Debug, Args)]
pub struct AttestArgs {
    /// The project.
    #[command(flatten)]
    pub root: RootArgs,
    /// Write the statement to FILE (atomically; parent directories are
    /// created) instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// `cargo varar attest`, validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttestRun {
    /// Where the project is.
    pub project: ProjectRoot,
    /// `--out FILE`; `None`: stdout.
    pub out: Option<OutFile>,
}

impl AttestArgs {
    /// Validated, run from `cwd`: `--out` absolute.
    pub fn validate(self, cwd: &Path) -> AttestRun {
        AttestRun {
            project: self.root.project(cwd),
            out: self.out.map(|out| OutFile::new(&out, cwd)),
        }
    }
}
