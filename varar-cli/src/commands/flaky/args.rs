//! The arguments of `cargo varar flaky`, and the validated value.

use std::path::{Path, PathBuf};

use clap::Args;
use varar_project::root::ProjectRoot;

use crate::commands::RootArgs;
use crate::output::Format;

/// `cargo varar flaky`.
#[derive(Debug, Args)]
pub struct FlakyArgs {
    /// The project (its sources are what runs are compared at).
    #[command(flatten)]
    pub root: RootArgs,
    /// Text for people, or JSON for machines.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Compare the newest N comparable runs only [default: every kept one].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub runs: Option<u64>,
    /// Directories of runs to compare instead of the local history:
    /// downloaded `.varar/` trees (CI artifacts) or history directories.
    #[arg(value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
}

/// `cargo varar flaky`, validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlakyRun {
    /// Where the project is.
    pub project: ProjectRoot,
    /// Text or JSON.
    pub format: Format,
    /// `--runs N`.
    pub runs: Option<usize>,
    /// The directories of runs, absolute; empty: the project's history.
    pub dirs: Vec<PathBuf>,
}

impl FlakyArgs {
    /// Validated, run from `cwd`: the directories absolute.
    pub fn validate(self, cwd: &Path) -> FlakyRun {
        FlakyRun {
            project: self.root.project(cwd),
            format: self.format,
            runs: self.runs.map(|n| usize::try_from(n).unwrap_or(usize::MAX)),
            dirs: self.dirs.iter().map(|d| cwd.join(d)).collect(),
        }
    }
}
