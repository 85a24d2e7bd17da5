//! The arguments of `cargo varar test`, and the validated value.

use std::ffi::OsString;
use std::path::Path;

use clap::Args;
use varar_project::root::ProjectRoot;

use crate::commands::RootArgs;

/// `cargo varar test`.
#[derive(Debug, Args)]
pub struct TestArgs {
    /// The project.
    #[command(flatten)]
    pub root: RootArgs,
    /// What to run: `varar/basket.md:13` (the examples written on line
    /// 13), `varar/basket.md#paying` (a section, by the slug a link names
    /// it with), `varar/basket.md` (every item of the oath). None: every
    /// item (or what `--since` selects).
    #[arg(value_name = "SELECTOR")]
    pub selectors: Vec<String>,
    /// Only what changed since this git ref (the working tree against it;
    /// untracked files count as new): the items written on changed lines,
    /// those running a changed section of another document, those calling
    /// a changed step function. Any other change to Rust sources, Cargo
    /// files or varar.config.json runs everything. With selectors, only
    /// the selected items that changed.
    #[arg(long, value_name = "REF")]
    pub since: Option<String>,
    /// A tag expression (`@smoke and not @slow`), passed to the harness as
    /// VARAR_TAGS, which selects by it.
    #[arg(long, value_name = "EXPR")]
    pub tags: Option<String>,
    /// Run `cargo nextest run` instead of `cargo test`.
    #[arg(long)]
    pub nextest: bool,
    /// Print the selection (one item name a line on stdout, what and why
    /// on stderr) and run nothing.
    #[arg(long)]
    pub list: bool,
    /// Arguments for cargo, after `--`, passed unchanged (`-- --test
    /// oaths`, `-- --no-fail-fast`).
    #[arg(last = true, value_name = "ARGS")]
    pub cargo_args: Vec<OsString>,
}

/// `cargo varar test`, validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestRun {
    /// Where the project is.
    pub project: ProjectRoot,
    /// The selectors as written.
    pub selectors: Vec<String>,
    /// The git ref, when `--since` is given.
    pub since: Option<String>,
    /// The tag expression.
    pub tags: Option<String>,
    /// `cargo nextest run` rather than `cargo test`.
    pub nextest: bool,
    /// Only print the selection.
    pub list: bool,
    /// For cargo, unchanged.
    pub cargo_args: Vec<OsString>,
}

impl TestArgs {
    /// Validated, run from `cwd`.
    pub fn validate(self, cwd: &Path) -> TestRun {
        TestRun {
            project: self.root.project(cwd),
            selectors: self.selectors,
            since: self.since,
            tags: self.tags,
            nextest: self.nextest,
            list: self.list,
            cargo_args: self.cargo_args,
        }
    }
}
