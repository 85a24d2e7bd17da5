//! The arguments of `cargo varar junit`, and the validated value.

use std::path::{Path, PathBuf};

use clap::Args;
use varar_project::root::ProjectRoot;

use super::Profile;
use crate::commands::RootArgs;
use crate::output::OutFile;

/// `cargo varar junit`.
#[derive(Debug, Args)]
pub struct JunitArgs {
    /// The project.
    #[command(flatten)]
    pub root: RootArgs,
    /// Write the XML to FILE (atomically; parent directories are created)
    /// instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// The JUnit dialect: `common` (seed 003's profile every CI server
    /// reads; retries said in `system-out`) or `nextest` (every earlier
    /// attempt as cargo-nextest writes it: `flakyFailure`, `rerunFailure`).
    #[arg(long, value_enum, default_value_t = Profile::Common)]
    pub profile: Profile,
}

/// `cargo varar junit`, validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JunitRun {
    /// Where the project is.
    pub project: ProjectRoot,
    /// `--out FILE`; `None`: stdout.
    pub out: Option<OutFile>,
    /// `--profile`.
    pub profile: Profile,
}

impl JunitArgs {
    /// Validated, run from `cwd`: `--out` absolute.
    pub fn validate(self, cwd: &Path) -> JunitRun {
        JunitRun {
            project: self.root.project(cwd),
            out: self.out.map(|out| OutFile::new(&out, cwd)),
            profile: self.profile,
        }
    }
}
