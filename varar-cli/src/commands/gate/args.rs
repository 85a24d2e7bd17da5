//! The arguments of `cargo varar gate`, and the validated value.

use std::path::Path;

use clap::Args;
use varar_project::root::ProjectRoot;

use crate::commands::RootArgs;
use crate::output::Format;

/// `cargo varar gate`.
#[derive(Debug, Args)]
pub struct GateArgs {
    /// The project.
    #[command(flatten)]
    pub root: RootArgs,
    /// Text for people, or JSON for machines.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Print the JSON Schema of `--format json` and exit.
    #[arg(long)]
    pub schema: bool,
    /// Fail (exit 1) when an item of the latest run failed and then passed
    /// on a retry (recovered, a flake).
    #[arg(long)]
    pub deny_recovered: bool,
    /// Fail (exit 1) when the latest run found an example the lock listed
    /// no more: deleted, or reworded past recognition, so nothing checks
    /// it now (`cargo test` only says so).
    #[arg(long)]
    pub deny_removed: bool,
}

/// `cargo varar gate` (without `--schema`, its own mode), validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GateRun {
    /// Where the project is.
    pub project: ProjectRoot,
    /// Text or JSON.
    pub format: Format,
    /// `--deny-recovered`.
    pub deny_recovered: bool,
    /// `--deny-removed`.
    pub deny_removed: bool,
}

impl GateArgs {
    /// Validated, run from `cwd`.
    pub fn validate(self, cwd: &Path) -> GateRun {
        GateRun {
            project: self.root.project(cwd),
            format: self.format,
            deny_recovered: self.deny_recovered,
            deny_removed: self.deny_removed,
        }
    }
}
