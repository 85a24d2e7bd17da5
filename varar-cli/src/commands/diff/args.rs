//! The arguments of `cargo varar diff`, and the validated value.

use std::path::{Path, PathBuf};

use clap::Args;

use crate::commands::RootArgs;
use crate::output::Format;

/// `cargo varar diff`.
#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The directory relative paths are taken from [default: the current
    /// directory]; diff needs no config.
    #[command(flatten)]
    pub root: RootArgs,
    /// Text for people (Markdown, fits a PR comment), or JSON for bots.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// The earlier results tree (the base branch, last night).
    #[arg(value_name = "OLD")]
    pub old: PathBuf,
    /// The later results tree (the change, tonight).
    #[arg(value_name = "NEW")]
    pub new: PathBuf,
}

/// `cargo varar diff`, validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiffRun {
    /// What paths are shown relative to (`--root`, else the current
    /// directory).
    pub base: PathBuf,
    /// The earlier tree, absolute.
    pub old: PathBuf,
    /// The later tree, absolute.
    pub new: PathBuf,
    /// Markdown text or JSON.
    pub format: Format,
}

impl DiffArgs {
    /// Validated, run from `cwd`: both trees absolute, relative to
    /// `--root` (diff needs no config).
    pub fn validate(self, cwd: &Path) -> DiffRun {
        let base = self.root.base(cwd);
        DiffRun {
            old: base.join(&self.old),
            new: base.join(&self.new),
            format: self.format,
            base,
        }
    }
}
