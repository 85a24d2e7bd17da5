//! The arguments of `cargo varar annotate`, and the validated value.

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use varar_project::root::ProjectRoot;

use crate::commands::{PathPrefixArgs, RootArgs};
use crate::output::OutFile;

/// Which CI server the annotations are for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum AnnotateFormat {
    /// GitHub Actions workflow commands (`::error file=…,line=…::…`), one
    /// per line.
    #[default]
    Github,
    /// A GitLab Code Quality report (a JSON array).
    Gitlab,
}

/// `cargo varar annotate`.
#[derive(Debug, Args)]
pub struct AnnotateArgs {
    /// The project.
    #[command(flatten)]
    pub root: RootArgs,
    /// GitHub workflow commands or a GitLab Code Quality report.
    #[arg(long, value_enum, default_value_t = AnnotateFormat::Github)]
    pub format: AnnotateFormat,
    /// Write the annotations to FILE (atomically; parent directories are
    /// created) instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Where the project is in its repository.
    #[command(flatten)]
    pub path_prefix: PathPrefixArgs,
}

/// `cargo varar annotate`, validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnnotateRun {
    /// Where the project is.
    pub project: ProjectRoot,
    /// GitHub or GitLab.
    pub format: AnnotateFormat,
    /// `--out FILE`; `None`: stdout.
    pub out: Option<OutFile>,
    /// `--path-prefix DIR`; `None`: found from `.git`.
    pub path_prefix: Option<String>,
}

impl AnnotateArgs {
    /// Validated, run from `cwd`: `--out` absolute.
    pub fn validate(self, cwd: &Path) -> AnnotateRun {
        AnnotateRun {
            project: self.root.project(cwd),
            format: self.format,
            out: self.out.map(|out| OutFile::new(&out, cwd)),
            path_prefix: self.path_prefix.path_prefix,
        }
    }
}
