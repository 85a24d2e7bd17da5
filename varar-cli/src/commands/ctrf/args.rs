//! The arguments of `cargo varar ctrf`, and the validated value.

use std::path::{Path, PathBuf};

use clap::Args;
use varar_project::root::ProjectRoot;

use crate::commands::RootArgs;
use crate::output::OutFile;

/// `cargo varar ctrf`.
#[derive(Debug, Args)]
pub struct CtrfArgs {
    /// The project.
    #[command(flatten)]
    pub root: RootArgs,
    /// Write the JSON to FILE (atomically; parent directories are created)
    /// instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// `cargo varar ctrf`, validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CtrfRun {
    /// Where the project is.
    pub project: ProjectRoot,
    /// `--out FILE`; `None`: stdout.
    pub out: Option<OutFile>,
}

impl CtrfArgs {
    /// Validated, run from `cwd`: `--out` absolute.
    pub fn validate(self, cwd: &Path) -> CtrfRun {
        CtrfRun {
            project: self.root.project(cwd),
            out: self.out.map(|out| OutFile::new(&out, cwd)),
        }
    }
}
