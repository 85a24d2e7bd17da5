//! The arguments of `cargo varar ctrf`, and the validated value.

use std::path::{Path, PathBuf};

use clap::Args;
use varar_project::root::ProjectRoot;

use crate::commands::{PathPrefixArgs, RootArgs};
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
    /// Where the project is in its repository.
    #[command(flatten)]
    pub path_prefix: PathPrefixArgs,
}

/// `cargo varar ctrf`, validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CtrfRun {
    /// Where the project is.
    pub project: ProjectRoot,
    /// `--out FILE`; `None`: stdout.
    pub out: Option<OutFile>,
    /// `--path-prefix DIR`; `None`: found from `.git`.
    pub path_prefix: Option<String>,
}

impl CtrfArgs {
    /// Validated, run from `cwd`: `--out` absolute.
    pub fn validate(self, cwd: &Path) -> CtrfRun {
        CtrfRun {
            project: self.root.project(cwd),
            out: self.out.map(|out| OutFile::new(&out, cwd)),
            path_prefix: self.path_prefix.path_prefix,
        }
    }
}
