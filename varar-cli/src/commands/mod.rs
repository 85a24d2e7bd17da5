//! One folder per command: its arguments (`args.rs`: what clap parses and
//! the validated value the command trusts), its shell (what reads the
//! project or the results trees and returns its [`crate::output::Output`])
//! and its pure work, together. A command's folder is `mod.rs` holding the
//! pure work and `shell.rs` the shell when it has work of its own, or
//! `mod.rs` holding the shell when its work is another crate's (`gate`:
//! [`varar_core::verdict::gate`], `report`: [`varar_report`], `lsp`:
//! [`varar_lsp`]).
//!
//! Every command returns its output or the one [`crate::Error`]; none
//! prints (the `main` edge does). A command never calls another's shell;
//! `verify` reads statements with `attest`'s pure work, `ctrf` lists
//! `junit`'s cases.
//!
//! What every command shares: the option `--root DIR` ([`RootArgs`]), the
//! output ([`crate::output`]) and the results tree `merge` and `diff` read
//! ([`crate::tree`]).

use std::path::{Path, PathBuf};

use clap::Args;
use varar_project::root::ProjectRoot;

pub mod annotate;
pub mod attest;
pub mod check;
pub mod ctrf;
pub mod diff;
pub mod flaky;
pub mod gate;
pub mod history;
pub mod junit;
pub mod lsp;
pub mod merge;
pub mod report;
pub mod review;
pub mod sarif;
pub mod test;
pub mod verify;

/// The option every command takes.
#[derive(Debug, Args)]
pub struct RootArgs {
    /// The project root, where varar.config.json lives [default: the
    /// nearest directory at or above the current one that holds one].
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
}

/// `--path-prefix DIR`, of the commands that write paths the way CI servers
/// want them, relative to the repository (`annotate`, `sarif`, `ctrf`).
#[derive(Debug, Args)]
pub struct PathPrefixArgs {
    /// The project's directory relative to the repository root, put before
    /// every oathPath [default: found by walking up from the project root
    /// to the nearest `.git`; none outside a repository].
    #[arg(long, value_name = "DIR")]
    pub path_prefix: Option<String>,
}

impl RootArgs {
    /// The project, run from `cwd`: found when the command reads it (a
    /// command that reports its problems in its own format, `gate --format
    /// json`, reports a missing root there too).
    pub fn project(&self, cwd: &Path) -> ProjectRoot {
        ProjectRoot {
            explicit: self.root.clone(),
            cwd: cwd.to_path_buf(),
        }
    }

    /// For the commands that need no config (`merge`, `diff`): the
    /// directory their relative paths are taken from, `--root` or `cwd`.
    pub fn base(&self, cwd: &Path) -> PathBuf {
        self.root
            .as_ref()
            .map_or_else(|| cwd.to_path_buf(), |r| cwd.join(r))
    }
}
