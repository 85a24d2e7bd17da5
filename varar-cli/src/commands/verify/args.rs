//! The arguments of `cargo varar verify`, and the validated value.

use std::path::{Path, PathBuf};

use clap::Args;
use varar_core::verdict::records::display_path;
use varar_project::root::ProjectRoot;

use crate::commands::RootArgs;
use crate::output::Format;

/// `cargo varar verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The project whose working tree is checked.
    #[command(flatten)]
    pub root: RootArgs,
    /// Text for people, or JSON for machines.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// The attestation (an in-toto Statement written by `attest`).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

/// `cargo varar verify`, validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyRun {
    /// Where the project is.
    pub project: ProjectRoot,
    /// Text or JSON.
    pub format: Format,
    /// The attestation, absolute.
    pub file: PathBuf,
    /// As shown to people (relative to the current directory).
    pub shown: String,
}

impl VerifyArgs {
    /// Validated, run from `cwd`: FILE absolute.
    pub fn validate(self, cwd: &Path) -> VerifyRun {
        let file = cwd.join(&self.file);
        VerifyRun {
            project: self.root.project(cwd),
            format: self.format,
            shown: display_path(&file, cwd),
            file,
        }
    }
}
