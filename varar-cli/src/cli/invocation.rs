//! The validated invocation (shell: the checks look at the file system):
//! the raw [`Cli`] of clap turned into one value per command, which the
//! command trusts, as ripgrep turns its low-level arguments into high-level
//! ones.
//!
//! - Paths are made absolute here: relative to `--root` for `merge` and
//!   `diff` (which need no config), to the current directory otherwise.
//! - Defaults that need no project are applied here; those that do (the
//!   report's `target/varar/report` under the project root) when the
//!   project is read, as the project root itself is: a command that
//!   reports its problems in its own format (`gate --format json`) reports
//!   a missing root there too.
//! - `gate --schema` is its own mode: it needs no project at all.
//! - `merge`'s OUT must not be, contain or lie inside an input, and must
//!   be a directory if it exists (`invalid_arguments`), so no input can
//!   change and nothing is read before the arguments are known to fit.

use std::path::{Path, PathBuf};

use super::args::{Cli, Command, Format, RootArgs};
use varar_core::verdict::records::{Code, ErrorRecord, ErrorRecords, display_path};
use varar_project::root::ProjectRoot;
use varar_report::report::ReportRun;

/// What to do: one validated value per command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Invocation {
    /// `cargo varar report`.
    Report(ReportRun),
    /// `cargo varar gate --schema`: print the JSON Schema of the verdict.
    GateSchema,
    /// `cargo varar gate`.
    Gate(GateRun),
    /// `cargo varar junit`.
    Junit(JunitRun),
    /// `cargo varar merge`.
    Merge(MergeRun),
    /// `cargo varar diff`.
    Diff(DiffRun),
    /// `cargo varar check --schema`: print the JSON Schema of the report.
    CheckSchema,
    /// `cargo varar check`.
    Check(CheckRun),
    /// `cargo varar lsp`: serve the language server on stdin/stdout.
    Lsp,
    /// `cargo varar history`.
    History(HistoryRun),
    /// `cargo varar flaky`.
    Flaky(FlakyRun),
    /// `cargo varar attest`.
    Attest(AttestRun),
    /// `cargo varar verify`.
    Verify(VerifyRun),
}

/// `cargo varar history`, validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryRun {
    /// Where the project is.
    pub project: ProjectRoot,
    /// Text or JSON.
    pub format: Format,
}

/// `cargo varar flaky`, validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlakyRun {
    /// Where the project is.
    pub project: ProjectRoot,
    /// Text or JSON.
    pub format: Format,
    /// `--runs N`.
    pub runs: Option<usize>,
    /// The directories of runs, absolute; empty: the project's history.
    pub dirs: Vec<PathBuf>,
}

/// `cargo varar attest`, validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttestRun {
    /// Where the project is.
    pub project: ProjectRoot,
    /// `--out FILE`; `None`: stdout.
    pub out: Option<JunitOut>,
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

/// `cargo varar gate` (without `--schema`), validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GateRun {
    /// Where the project is.
    pub project: ProjectRoot,
    /// Text or JSON.
    pub format: Format,
    /// `--deny-recovered`.
    pub deny_recovered: bool,
}

/// `cargo varar check` (without `--schema`), validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckRun {
    /// Where the project is.
    pub project: ProjectRoot,
    /// Text or JSON.
    pub format: Format,
}

/// `cargo varar junit`, validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JunitRun {
    /// Where the project is.
    pub project: ProjectRoot,
    /// `--out FILE`; `None`: stdout.
    pub out: Option<JunitOut>,
}

/// The file `junit --out` (or `attest --out`) writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JunitOut {
    /// Absolute.
    pub path: PathBuf,
    /// As shown to people (relative to the current directory).
    pub shown: String,
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

/// Arguments that parse but do not fit together (`invalid_arguments`):
/// every problem, as records.
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct InvalidArguments(pub ErrorRecords);

impl InvalidArguments {
    /// Always 2.
    pub fn exit_code(&self) -> u8 {
        2
    }

    /// The problems.
    pub fn records(&self) -> &[ErrorRecord] {
        &self.0.0
    }
}

impl Invocation {
    /// Validate the parsed command line, run from `cwd`.
    pub fn from_cli(cli: Cli, cwd: &Path) -> Result<Invocation, InvalidArguments> {
        let project = |root: &RootArgs| ProjectRoot {
            explicit: root.root.clone(),
            cwd: cwd.to_path_buf(),
        };
        Ok(match cli.command {
            Command::Report(args) => Invocation::Report(ReportRun {
                project: project(&args.root),
                out: args.out.map(|out| cwd.join(out)),
                open: args.open,
            }),
            Command::Gate(args) if args.schema => Invocation::GateSchema,
            Command::Gate(args) => Invocation::Gate(GateRun {
                project: project(&args.root),
                format: args.format,
                deny_recovered: args.deny_recovered,
            }),
            Command::Junit(args) => Invocation::Junit(JunitRun {
                project: project(&args.root),
                out: args.out.map(|out| {
                    let path = cwd.join(out);
                    let shown = display_path(&path, cwd);
                    JunitOut { path, shown }
                }),
            }),
            Command::Merge(args) => {
                let base = base(&args.root, cwd);
                let run = MergeRun {
                    out: base.join(&args.out),
                    dirs: args.dirs.iter().map(|d| base.join(d)).collect(),
                    prefer_failed: args.prefer_failed,
                    base,
                };
                check_out(&run.out, &run.dirs, &run.base)?;
                Invocation::Merge(run)
            }
            Command::Diff(args) => {
                let base = base(&args.root, cwd);
                Invocation::Diff(DiffRun {
                    old: base.join(&args.old),
                    new: base.join(&args.new),
                    format: args.format,
                    base,
                })
            }
            Command::Check(args) if args.schema => Invocation::CheckSchema,
            Command::Check(args) => Invocation::Check(CheckRun {
                project: project(&args.root),
                format: args.format,
            }),
            Command::Lsp(_) => Invocation::Lsp,
            Command::History(args) => Invocation::History(HistoryRun {
                project: project(&args.root),
                format: args.format,
            }),
            Command::Flaky(args) => Invocation::Flaky(FlakyRun {
                project: project(&args.root),
                format: args.format,
                runs: args.runs.map(|n| usize::try_from(n).unwrap_or(usize::MAX)),
                dirs: args.dirs.iter().map(|d| cwd.join(d)).collect(),
            }),
            Command::Attest(args) => Invocation::Attest(AttestRun {
                project: project(&args.root),
                out: args.out.map(|out| {
                    let path = cwd.join(out);
                    let shown = display_path(&path, cwd);
                    JunitOut { path, shown }
                }),
            }),
            Command::Verify(args) => {
                let file = cwd.join(&args.file);
                Invocation::Verify(VerifyRun {
                    project: project(&args.root),
                    format: args.format,
                    shown: display_path(&file, cwd),
                    file,
                })
            }
        })
    }
}

/// For the commands that need no config (`merge`, `diff`): the directory
/// their relative paths are taken from, `--root` or `cwd`.
fn base(root: &RootArgs, cwd: &Path) -> PathBuf {
    root.root
        .as_ref()
        .map_or_else(|| cwd.to_path_buf(), |r| cwd.join(r))
}

/// Refuse an OUT that is, contains or lies inside an input.
fn check_out(out: &Path, dirs: &[PathBuf], base: &Path) -> Result<(), InvalidArguments> {
    if out.exists() && !out.is_dir() {
        let shown = display_path(out, base);
        return Err(InvalidArguments(
            ErrorRecord::new(
                Code::InvalidArguments,
                format!("the output `{shown}` exists and is not a directory"),
            )
            .with_path(shown)
            .into(),
        ));
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
        Err(InvalidArguments(errors.into()))
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
    use crate::cli::normalize_args;

    fn invocation(args: &[&str], cwd: &Path) -> Result<Invocation, InvalidArguments> {
        let cli = Cli::try_parse_from(normalize_args(args.iter().map(OsString::from)))
            .unwrap_or_else(|e| panic!("{e}"));
        Invocation::from_cli(cli, cwd)
    }

    #[test]
    fn paths_are_absolute_and_modes_are_their_own() {
        let cwd = Path::new("/work/pkg");
        let ok = |args: &[&str]| invocation(args, cwd).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            ok(&["x", "gate", "--schema", "--root", "nowhere"]),
            Invocation::GateSchema
        );
        assert_eq!(
            ok(&["x", "report", "--root", "sub", "--out", "site"]),
            Invocation::Report(ReportRun {
                project: ProjectRoot {
                    explicit: Some(PathBuf::from("sub")),
                    cwd: cwd.to_path_buf(),
                },
                out: Some(cwd.join("site")),
                open: false,
            })
        );
        let Invocation::Junit(junit) = ok(&["x", "junit", "--out", "ci/j.xml"]) else {
            panic!("not junit")
        };
        assert_eq!(
            junit.out,
            Some(JunitOut {
                path: cwd.join("ci/j.xml"),
                shown: "ci/j.xml".to_owned(),
            })
        );
        let Invocation::Diff(diff) = ok(&["x", "diff", "--root", "ci", "old", "new"]) else {
            panic!("not diff")
        };
        assert_eq!(
            (diff.base, diff.old, diff.new),
            (cwd.join("ci"), cwd.join("ci/old"), cwd.join("ci/new"))
        );
        assert_eq!(ok(&["x", "lsp", "--stdio"]), Invocation::Lsp);
    }

    #[test]
    fn merge_refuses_an_out_that_overlaps_an_input_before_reading_anything() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let cwd = dir.path();
        std::fs::create_dir_all(cwd.join("a/b")).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(cwd.join("file"), "").unwrap_or_else(|e| panic!("{e}"));
        let refused = |args: &[&str]| match invocation(args, cwd) {
            Err(e) => e
                .records()
                .iter()
                .map(|r| r.message.clone())
                .collect::<Vec<_>>(),
            Ok(i) => panic!("{args:?} accepted: {i:?}"),
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
        let Ok(Invocation::Merge(run)) = invocation(&["x", "merge", "out", "a", "c"], cwd) else {
            panic!("refused")
        };
        assert_eq!(run.dirs, [cwd.join("a"), cwd.join("c")]);
    }
}
