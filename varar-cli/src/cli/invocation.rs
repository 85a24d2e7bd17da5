//! The validated invocation: the raw [`Cli`] of clap turned into one value
//! per command, which the command trusts, as ripgrep turns its low-level
//! arguments into high-level ones. Each command validates its own
//! arguments (`commands/<name>/args.rs`: paths made absolute, defaults
//! that need no project, `merge`'s OUT checked against its inputs); here
//! they are only gathered, and `gate --schema` and `check --schema` made
//! modes of their own (they need no project at all).

use std::path::Path;

use super::args::{Cli, Command};
use crate::commands::annotate::args::AnnotateRun;
use crate::commands::attest::args::AttestRun;
use crate::commands::check::args::CheckRun;
use crate::commands::diff::args::DiffRun;
use crate::commands::flaky::args::FlakyRun;
use crate::commands::gate::args::GateRun;
use crate::commands::history::args::HistoryRun;
use crate::commands::junit::args::JunitRun;
use crate::commands::merge::args::MergeRun;
use crate::commands::review::args::ReviewRun;
use crate::commands::sarif::args::SarifRun;
use crate::commands::test::args::TestRun;
use crate::commands::verify::args::VerifyRun;
use crate::error::Error;
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
    /// `cargo varar ctrf`.
    Ctrf(crate::commands::ctrf::args::CtrfRun),
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
    /// `cargo varar review --schema`: print the JSON Schema of the report.
    ReviewSchema,
    /// `cargo varar review`.
    Review(ReviewRun),
    /// `cargo varar annotate`.
    Annotate(AnnotateRun),
    /// `cargo varar sarif`.
    Sarif(SarifRun),
    /// `cargo varar test`.
    Test(TestRun),
}

impl Invocation {
    /// Validate the parsed command line, run from `cwd`.
    pub fn from_cli(cli: Cli, cwd: &Path) -> Result<Invocation, Error> {
        Ok(match cli.command {
            Command::Report(args) => Invocation::Report(args.validate(cwd)),
            Command::Gate(args) if args.schema => Invocation::GateSchema,
            Command::Gate(args) => Invocation::Gate(args.validate(cwd)),
            Command::Junit(args) => Invocation::Junit(args.validate(cwd)),
            Command::Ctrf(args) => Invocation::Ctrf(args.validate(cwd)),
            Command::Merge(args) => Invocation::Merge(args.validate(cwd)?),
            Command::Diff(args) => Invocation::Diff(args.validate(cwd)),
            Command::Check(args) if args.schema => Invocation::CheckSchema,
            Command::Check(args) => Invocation::Check(args.validate(cwd)),
            Command::Lsp(_) => Invocation::Lsp,
            Command::History(args) => Invocation::History(args.validate(cwd)),
            Command::Flaky(args) => Invocation::Flaky(args.validate(cwd)),
            Command::Attest(args) => Invocation::Attest(args.validate(cwd)),
            Command::Verify(args) => Invocation::Verify(args.validate(cwd)),
            Command::Review(args) if args.schema => Invocation::ReviewSchema,
            Command::Review(args) => Invocation::Review(args.validate(cwd)),
            Command::Annotate(args) => Invocation::Annotate(args.validate(cwd)),
            Command::Sarif(args) => Invocation::Sarif(args.validate(cwd)),
            Command::Test(args) => Invocation::Test(args.validate(cwd)),
        })
    }
}

#[cfg(test)]
mod tests {
    use std::ffi::OsString;

    use clap::Parser as _;

    use std::path::PathBuf;

    use super::*;
    use crate::cli::normalize_args;
    use crate::output::OutFile;
    use varar_project::root::ProjectRoot;

    fn invocation(args: &[&str], cwd: &Path) -> Result<Invocation, Error> {
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
            Some(OutFile {
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
}
