//! The arguments of `cargo varar review`, and the validated value.

use std::path::Path;

use clap::{Args, ValueEnum};
use varar_core::review::ChangeKind;
use varar_project::root::ProjectRoot;

use crate::commands::RootArgs;
use crate::output::Format;

/// `cargo varar review`.
#[derive(Debug, Args)]
pub struct ReviewArgs {
    /// The project.
    #[command(flatten)]
    pub root: RootArgs,
    /// Text for people, or JSON for machines.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Print the JSON Schema of `--format json` and exit.
    #[arg(long)]
    pub schema: bool,
    /// List the latest run's changes with their ids. Without `--list`,
    /// `--accept` or `--accept-all`, a terminal is asked about each change
    /// (a accept, k keep, q quit); anything else gets the list.
    #[arg(long, conflicts_with_all = ["accept", "accept_all"])]
    pub list: bool,
    /// Accept the change of this id (the libtest item name, as `--list`
    /// shows it); repeatable. The id is data: one that starts with `-` (an
    /// oath named `-x.md`) is still this option's value, never an option.
    #[arg(long, value_name = "ITEM", allow_hyphen_values = true)]
    pub accept: Vec<String>,
    /// Accept every change of a kind: `drift` (the paragraph becomes prose:
    /// its example leaves the lock), `value` (the observed value is
    /// written into the Markdown), `removed` (the removal is acknowledged:
    /// the example leaves the lock); repeatable.
    #[arg(long, value_enum, value_name = "KIND")]
    pub accept_all: Vec<KindArg>,
}

/// A kind of change on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum KindArg {
    /// Drift.
    Drift,
    /// A compared value.
    Value,
    /// A removed example.
    Removed,
}

impl From<KindArg> for ChangeKind {
    fn from(kind: KindArg) -> ChangeKind {
        match kind {
            KindArg::Drift => ChangeKind::Drift,
            KindArg::Value => ChangeKind::Value,
            KindArg::Removed => ChangeKind::Removed,
        }
    }
}

/// `cargo varar review`, validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReviewRun {
    /// Where the project is.
    pub project: ProjectRoot,
    /// Text or JSON.
    pub format: Format,
    /// `--list`: list even on a terminal.
    pub list: bool,
    /// What to accept; nothing: list (or, on a terminal, ask).
    pub accept: Selection,
}

/// Which changes to accept.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// By id, in the order given.
    pub ids: Vec<String>,
    /// Every change of these kinds.
    pub kinds: Vec<ChangeKind>,
}

impl Selection {
    /// Whether nothing is to be accepted (a listing).
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty() && self.kinds.is_empty()
    }
}

impl ReviewArgs {
    /// Validated, run from `cwd`.
    pub fn validate(self, cwd: &Path) -> ReviewRun {
        ReviewRun {
            project: self.root.project(cwd),
            format: self.format,
            list: self.list,
            accept: Selection {
                ids: self.accept,
                kinds: self.accept_all.into_iter().map(ChangeKind::from).collect(),
            },
        }
    }
}
