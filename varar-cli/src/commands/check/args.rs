//! The arguments of `cargo varar check`, and the validated value.

use std::path::Path;

use clap::Args;
use varar_project::root::ProjectRoot;

use crate::commands::RootArgs;
use crate::output::Format;

/// `cargo varar check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The project.
    #[command(flatten)]
    pub root: RootArgs,
    /// Text for people, or JSON for machines.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Print the JSON Schema of `--format json` and exit.
    #[arg(long)]
    pub schema: bool,
}

/// `cargo varar check` (without `--schema`, its own mode), validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckRun {
    /// Where the project is.
    pub project: ProjectRoot,
    /// Text or JSON.
    pub format: Format,
}

impl CheckArgs {
    /// Validated, run from `cwd`.
    pub fn validate(self, cwd: &Path) -> CheckRun {
        CheckRun {
            project: self.root.project(cwd),
            format: self.format,
        }
    }
}
