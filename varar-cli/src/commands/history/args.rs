//! The arguments of `cargo varar history`, and the validated value.

use std::path::Path;

use clap::Args;
use varar_project::root::ProjectRoot;

use crate::commands::RootArgs;
use crate::output::Format;

/// `cargo varar history`.
#[derive(Debug, Args)]
pub struct HistoryArgs {
    /// The project.
    #[command(flatten)]
    pub root: RootArgs,
    /// Text for people, or JSON for machines.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// `cargo varar history`, validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryRun {
    /// Where the project is.
    pub project: ProjectRoot,
    /// Text or JSON.
    pub format: Format,
}

impl HistoryArgs {
    /// Validated, run from `cwd`.
    pub fn validate(self, cwd: &Path) -> HistoryRun {
        HistoryRun {
            project: self.root.project(cwd),
            format: self.format,
        }
    }
}
