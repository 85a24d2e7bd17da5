//! The arguments of `cargo varar merge`, and the validated value (shell:
//! the checks look at the file system). OUT must not be, contain or lie
//! inside an input, and must be a directory if it exists
//! (`invalid_arguments`), so no input can change and nothing is read
//! before the arguments are known to fit.

use std::path::{Path, PathBuf};

use clap::Args;
use varar_core::verdict::records::{Code, ErrorRecord, display_path};

use crate::commands::RootArgs;
use crate::error::Error;

/// `cargo varar merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The directory relative paths are taken from [default: the current
    /// directory]; merge needs no config.
    #[command(flatten)]
    pub root: RootArgs,
    /// When shards disagree on an example's outcome, keep the failure
    /// instead of refusing to merge.
    #[arg(long)]
    pub prefer_failed: bool,
    /// The results tree to write (like `.varar/`); it must not be, contain
    /// or lie inside an input.
    #[arg(value_name = "OUT")]
    pub out: PathBuf,
    /// The results trees to combine (each laid out like `.varar/`).
    #[arg(value_name = "DIR", required = true)]
    pub dirs: Vec<PathBuf>,
}

/// `cargo varar merge`, validated: OUT fits the inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergeRun {
    /// What paths are shown relative to (`--root`, else the current
    /// directory).
    pub(crate) base: PathBuf,
    /// The tree to write, absolute.
    pub(crate) out: PathBuf,
    /// The trees to combine, absolute, in the order given.
    pub(crate) dirs: Vec<PathBuf>,
    /// `--prefer-failed`.
    pub(crate) prefer_failed: bool,
}

impl MergeArgs {
    /// Validated, run from `cwd`: paths absolute, relative to `--root`
    /// (merge needs no config); an OUT that overlaps an input is refused
    /// (`invalid_arguments`).
    pub fn validate(self, cwd: &Path) -> Result<MergeRun, Error> {
        let base = self.root.base(cwd);
        let run = MergeRun {
            out: base.join(&self.out),
            dirs: self.dirs.iter().map(|d| base.join(d)).collect(),
            prefer_failed: self.prefer_failed,
            base,
        };
        check_out(&run.out, &run.dirs, &run.base)?;
        Ok(run)
    }
}

/// Refuse an OUT that is, contains or lies inside an input.
fn check_out(out: &Path, dirs: &[PathBuf], base: &Path) -> Result<(), Error> {
    if out.exists() && !out.is_dir() {
        let shown = display_path(out, base);
        return Err(ErrorRecord::new(
            Code::InvalidArguments,
            format!("the output `{shown}` exists and is not a directory"),
        )
        .with_path(shown)
        .into());
    }
    let out_c = canonical(out);
    let errors: Vec<ErrorRecord> = dirs
        .iter()
        .filter(|d| {
            let d = canonical(d);
            out_c.starts_with(&d) || d.starts_with(&out_c)
        })
        .map(|d| {
            let shown = display_path(d, base);
            ErrorRecord::new(
                Code::InvalidArguments,
                format!(
                    "the output `{}` overlaps the input `{shown}`; inputs are never written: \
                     choose another output directory",
                    display_path(out, base)
                ),
            )
            .with_path(shown)
        })
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.into())
    }
}

/// `path` with symlinks and `..` resolved as far as it exists, the rest
/// appended, so a directory not created yet still compares correctly.
fn canonical(path: &Path) -> PathBuf {
    let mut existing = path;
    let mut rest = Vec::new();
    loop {
        if let Ok(found) = existing.canonicalize() {
            let mut full = found;
            for name in rest.iter().rev() {
                full.push(name);
            }
            return full;
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                existing = parent;
            }
            _ => return path.to_path_buf(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::ffi::OsString;

    use clap::Parser as _;

    use super::*;
    use crate::cli::{Cli, Command, normalize_args};

    fn validate(args: &[&str], cwd: &Path) -> Result<MergeRun, Error> {
        let cli = Cli::try_parse_from(normalize_args(args.iter().map(OsString::from)))
            .unwrap_or_else(|e| panic!("{e}"));
        let Command::Merge(args) = cli.command else {
            panic!("not merge")
        };
        args.validate(cwd)
    }

    #[test]
    fn merge_refuses_an_out_that_overlaps_an_input_before_reading_anything() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let cwd = dir.path();
        std::fs::create_dir_all(cwd.join("a/b")).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(cwd.join("file"), "").unwrap_or_else(|e| panic!("{e}"));
        let refused = |args: &[&str]| match validate(args, cwd) {
            Err(e) => e
                .records()
                .unwrap_or_default()
                .iter()
                .map(|r| r.message.clone())
                .collect::<Vec<_>>(),
            Ok(run) => panic!("{args:?} accepted: {run:?}"),
        };
        assert_eq!(
            refused(&["x", "merge", "a/b", "a", "c"]),
            [
                "the output `a/b` overlaps the input `a`; inputs are never written: choose another \
              output directory"
            ]
        );
        assert_eq!(refused(&["x", "merge", "a", "a/b"]).len(), 1);
        assert_eq!(
            refused(&["x", "merge", "file", "a"]),
            ["the output `file` exists and is not a directory"]
        );
        let Ok(run) = validate(&["x", "merge", "out", "a", "c"], cwd) else {
            panic!("refused")
        };
        assert_eq!(run.dirs, [cwd.join("a"), cwd.join("c")]);
    }
}
