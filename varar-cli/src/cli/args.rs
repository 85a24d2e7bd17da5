//! The raw command line, declared with clap's derive API: one subcommand
//! per folder of [`crate::commands`], whose arguments are declared there
//! (`args.rs`), and `--root DIR` on every one of them
//! ([`crate::commands::RootArgs`]). Nothing here is checked beyond what
//! clap checks; a command never sees these values, only the
//! [`Invocation`](super::Invocation) made from them.

use std::ffi::OsString;

use clap::{Parser, Subcommand};

use crate::commands::annotate::args::AnnotateArgs;
use crate::commands::attest::args::AttestArgs;
use crate::commands::check::args::CheckArgs;
use crate::commands::diff::args::DiffArgs;
use crate::commands::flaky::args::FlakyArgs;
use crate::commands::gate::args::GateArgs;
use crate::commands::history::args::HistoryArgs;
use crate::commands::junit::args::JunitArgs;
use crate::commands::lsp::args::LspArgs;
use crate::commands::merge::args::MergeArgs;
use crate::commands::report::args::ReportArgs;
use crate::commands::review::args::ReviewArgs;
use crate::commands::sarif::args::SarifArgs;
use crate::commands::test::args::TestArgs;
use crate::commands::verify::args::VerifyArgs;

/// `cargo varar`: the oaths of a package and their results, without running
/// anything.
#[derive(Debug, Parser)]
#[command(
    name = "cargo varar",
    bin_name = "cargo varar",
    version,
    about = "The oaths of a package and their run results, without running any test."
)]
pub struct Cli {
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Render the oaths and their last run results as a static HTML site.
    Report(ReportArgs),
    /// May this change merge? Exit 0 when every selected oath has a fresh
    /// result with only passed examples and the latest run is complete,
    /// fresh and passed, 1 when an example or another item (drift, a
    /// diagnostic) failed, 2 when the evidence is missing, stale,
    /// incomplete or unreadable.
    Gate(GateArgs),
    /// Write the run results as JUnit XML for CI servers.
    Junit(JunitArgs),
    /// Write the run as CTRF JSON (Common Test Report Format) for test
    /// dashboards: one runId across merged shards, attempts, flaky tests,
    /// the Markdown file and line of each example.
    Ctrf(crate::commands::ctrf::args::CtrfArgs),
    /// Combine the results trees of several CI shards into one, as if one
    /// run had produced it.
    Merge(MergeArgs),
    /// What changed between two runs' results: regressed, fixed, added,
    /// removed, still failing. Exit 1 when something regressed.
    Diff(DiffArgs),
    /// What `cargo test` would fail before any step runs (drift, ambiguous
    /// steps, broken links, error fences without a step) and what looks
    /// wrong (sentences that look like steps but match none, unused
    /// steps, what planning drops, examples that check nothing), without
    /// running anything. Exit 0 clean, 1 with errors, 2
    /// when an input is unusable.
    Check(CheckArgs),
    /// A language server for editors, over stdin/stdout: step sentences
    /// highlighted, diagnostics before running anything, go to the step
    /// function, hover, find references, create a missing step.
    Lsp(LspArgs),
    /// List the runs kept in the run history (target/varar/history):
    /// id, time, complete or not, sources fresh or changed, counts.
    History(HistoryArgs),
    /// Which items both passed and failed over the kept complete runs of
    /// the current sources. Exit 0 none, 1 some, 3 fewer than two runs to
    /// compare, 2 unreadable evidence.
    Flaky(FlakyArgs),
    /// Write an in-toto Statement (test-result predicate) of the latest
    /// complete, fresh run: the oaths and documents it verified, by
    /// SHA-256. Exit 2, with the gate's errors, when the run is unusable.
    Attest(AttestArgs),
    /// Check an attestation against the working tree: exit 0 when every
    /// digest matches, 1 when a file changed or is missing, 2 when the
    /// file is not such an attestation.
    Verify(VerifyArgs),
    /// Review the latest run's changes one at a time: a drift (accept the
    /// paragraph as prose: its example leaves varar.lock.json), a compared
    /// value (write the observed value into the Markdown), a removed
    /// example (acknowledge it). On a terminal it asks about each change;
    /// `--list` shows them with their ids; `--accept ITEM` and
    /// `--accept-all KIND` accept them. Nothing is
    /// accepted from an oath edited since the run. Exit 0 done, 1 a change
    /// refused, 2 unusable input.
    Review(ReviewArgs),
    /// Show the latest run's failures on their Markdown lines in CI:
    /// GitHub workflow commands (`::error file=…,line=…,col=…::…`, the
    /// default) or a GitLab Code Quality report (`--format gitlab`), for
    /// failed examples, drift, diagnostics and read errors, and warnings
    /// for recovered (flaky) and removed examples. Exit 0 when written
    /// (the test run's exit code fails the job), 2 when the run cannot be
    /// judged.
    Annotate(AnnotateArgs),
    /// Write the latest run's findings (as `annotate` lists them) as a
    /// SARIF 2.1.0 log, for code scanning. Exit 0 when written, 2 when
    /// the run cannot be judged.
    Sarif(SarifArgs),
    /// Run `cargo test` (or `cargo nextest run` with `--nextest`) on
    /// the examples selected by where they are written
    /// (`varar/basket.md:13`, `varar/basket.md#paying`,
    /// `varar/basket.md`), by tags (`--tags`) or by what changed since a
    /// git ref (`--since main`). Says on stderr what it selected and why;
    /// exits with cargo's exit code, 2 for an unknown oath, line or
    /// section.
    Test(TestArgs),
}

/// The arguments as clap should see them: cargo runs `cargo-varar varar
/// report …` for `cargo varar report …`, so a first argument `varar` is
/// dropped; `cargo-varar report …` run directly works too.
pub fn normalize_args<I: IntoIterator<Item = OsString>>(args: I) -> Vec<OsString> {
    let mut args: Vec<OsString> = args.into_iter().collect();
    if args.get(1).is_some_and(|a| a == "varar") {
        args.remove(1);
    }
    args
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::output::Format;

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(normalize_args(args.iter().map(OsString::from)))
    }

    #[test]
    fn test_takes_selectors_options_and_cargo_s_arguments_unchanged() {
        let cli = parse(&[
            "x",
            "varar",
            "test",
            "varar/a.md:13",
            "--since",
            "main",
            "--nextest",
            "--tags",
            "@smoke",
            "varar/b.md#paying",
            "--",
            "--test",
            "oaths",
            "--list",
        ])
        .unwrap_or_else(|e| panic!("{e}"));
        let Command::Test(t) = cli.command else {
            panic!("not test")
        };
        assert_eq!(t.selectors, ["varar/a.md:13", "varar/b.md#paying"]);
        assert_eq!(t.since.as_deref(), Some("main"));
        assert_eq!(t.tags.as_deref(), Some("@smoke"));
        assert!(t.nextest && !t.list);
        assert_eq!(t.cargo_args, ["--test", "oaths", "--list"]);
    }

    #[test]
    fn a_review_item_that_starts_with_a_dash_is_a_value() {
        let cli = parse(&["x", "varar", "review", "--accept", "-x.md::Shop::I add 2"])
            .unwrap_or_else(|e| panic!("{e}"));
        let Command::Review(r) = cli.command else {
            panic!("not review")
        };
        assert_eq!(r.accept, ["-x.md::Shop::I add 2"]);
    }

    #[test]
    fn cargo_s_extra_argument_is_dropped() {
        for args in [
            &["cargo-varar", "varar", "report", "--open"][..],
            &["cargo-varar", "report", "--open"][..],
        ] {
            let cli = parse(args).unwrap_or_else(|e| panic!("{e}"));
            let Command::Report(r) = cli.command else {
                panic!("not report")
            };
            assert!(r.open && r.out.is_none() && r.root.root.is_none());
        }
        let cli =
            parse(&["x", "report", "--root", "a", "--out", "b"]).unwrap_or_else(|e| panic!("{e}"));
        let Command::Report(r) = cli.command else {
            panic!("not report")
        };
        assert_eq!(r.root.root, Some(PathBuf::from("a")));
        assert_eq!(r.out, Some(PathBuf::from("b")));
        assert!(parse(&["x", "report", "--nope"]).is_err());
        assert!(parse(&["x"]).is_err());
    }

    #[test]
    fn the_ci_commands_parse_their_arguments() {
        let ok = |args: &[&str]| parse(args).unwrap_or_else(|e| panic!("{args:?}: {e}"));
        let Command::Gate(g) = ok(&["x", "varar", "gate", "--format", "json"]).command else {
            panic!("not gate")
        };
        assert_eq!(
            (g.format, g.schema, g.deny_recovered),
            (Format::Json, false, false)
        );
        let Command::Gate(g) = ok(&["x", "gate", "--deny-recovered"]).command else {
            panic!("not gate")
        };
        assert!(g.deny_recovered);
        let Command::Gate(g) = ok(&["x", "gate", "--deny-removed"]).command else {
            panic!("not gate")
        };
        assert!(g.deny_removed && !g.deny_recovered);
        let Command::Gate(g) = ok(&["x", "gate", "--schema"]).command else {
            panic!("not gate")
        };
        assert_eq!((g.format, g.schema), (Format::Text, true));
        let Command::Junit(j) = ok(&["x", "junit", "--out", "j.xml"]).command else {
            panic!("not junit")
        };
        assert_eq!(j.out, Some(PathBuf::from("j.xml")));
        assert_eq!(j.profile, crate::commands::junit::Profile::Common);
        let Command::Junit(j) = ok(&["x", "junit", "--profile", "nextest"]).command else {
            panic!("not junit")
        };
        assert_eq!(j.profile, crate::commands::junit::Profile::Nextest);
        assert!(parse(&["x", "junit", "--profile", "gitlab"]).is_err());
        let Command::Ctrf(c) = ok(&["x", "ctrf", "--out", "ctrf.json"]).command else {
            panic!("not ctrf")
        };
        assert_eq!(c.out, Some(PathBuf::from("ctrf.json")));
        let Command::Merge(m) = ok(&["x", "merge", "--prefer-failed", "o", "a", "b"]).command
        else {
            panic!("not merge")
        };
        assert!(m.prefer_failed);
        assert_eq!(m.out, PathBuf::from("o"));
        assert_eq!(m.dirs, [PathBuf::from("a"), PathBuf::from("b")]);
        let Command::Diff(d) = ok(&["x", "diff", "old", "new", "--format", "json"]).command else {
            panic!("not diff")
        };
        assert_eq!((d.old, d.new), (PathBuf::from("old"), PathBuf::from("new")));
        let Command::Check(c) = ok(&["x", "varar", "check", "--format", "json"]).command else {
            panic!("not check")
        };
        assert_eq!((c.format, c.schema), (Format::Json, false));
        let Command::Lsp(l) = ok(&["x", "varar", "lsp", "--stdio"]).command else {
            panic!("not lsp")
        };
        assert!(l.stdio);
        assert!(matches!(ok(&["x", "lsp"]).command, Command::Lsp(_)));
        let Command::Flaky(f) =
            ok(&["x", "flaky", "--runs", "5", "--format", "json", "a", "b"]).command
        else {
            panic!("not flaky")
        };
        assert_eq!((f.runs, f.format), (Some(5), Format::Json));
        assert_eq!(f.dirs, [PathBuf::from("a"), PathBuf::from("b")]);
        let Command::Attest(a) = ok(&["x", "varar", "attest", "--out", "att.json"]).command else {
            panic!("not attest")
        };
        assert_eq!(a.out, Some(PathBuf::from("att.json")));
        let Command::Verify(v) = ok(&["x", "verify", "att.json"]).command else {
            panic!("not verify")
        };
        assert_eq!(v.file, PathBuf::from("att.json"));
        assert!(matches!(ok(&["x", "history"]).command, Command::History(_)));
        for bad in [
            &["x", "flaky", "--runs", "0"][..],
            &["x", "verify"][..],
            &["x", "lsp", "--tcp"][..],
            &["x", "merge", "o"][..],
            &["x", "diff", "old"][..],
            &["x", "gate", "--format", "xml"][..],
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn issue38_annotate_and_sarif_parse_their_arguments() {
        use crate::commands::annotate::args::AnnotateFormat;
        let ok = |args: &[&str]| parse(args).unwrap_or_else(|e| panic!("{args:?}: {e}"));
        let Command::Annotate(a) = ok(&["x", "varar", "annotate"]).command else {
            panic!("not annotate")
        };
        assert_eq!(
            (a.format, a.out, a.path_prefix.path_prefix),
            (AnnotateFormat::Github, None, None)
        );
        let cli = ok(&[
            "x",
            "annotate",
            "--format",
            "gitlab",
            "--out",
            "gl.json",
            "--path-prefix",
            "ex/a",
        ]);
        let Command::Annotate(a) = cli.command else {
            panic!("not annotate")
        };
        assert_eq!(a.format, AnnotateFormat::Gitlab);
        assert_eq!(a.out, Some(PathBuf::from("gl.json")));
        assert_eq!(a.path_prefix.path_prefix.as_deref(), Some("ex/a"));
        let Command::Sarif(s) = ok(&["x", "sarif", "--out", "v.sarif"]).command else {
            panic!("not sarif")
        };
        assert_eq!(s.out, Some(PathBuf::from("v.sarif")));
        assert!(parse(&["x", "annotate", "--format", "json"]).is_err());
        assert!(parse(&["x", "sarif", "--format", "json"]).is_err());
    }
}
