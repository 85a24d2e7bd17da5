//! The raw command line, declared with clap's derive API: one subcommand
//! per module of [`crate::commands`], and `--root DIR` on every one of
//! them. Nothing here is checked beyond what clap checks; a command never
//! sees these values, only the [`Invocation`](super::Invocation) made from
//! them.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

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
    /// Combine the results trees of several CI shards into one, as if one
    /// run had produced it.
    Merge(MergeArgs),
    /// What changed between two runs' results: regressed, fixed, added,
    /// removed, still failing. Exit 1 when something regressed.
    Diff(DiffArgs),
    /// What `cargo test` would fail before any step runs (drift, ambiguous
    /// steps, broken links, error fences without a step) and what looks
    /// wrong (sentences that look like steps but match none, unused
    /// steps), without running anything. Exit 0 clean, 1 with errors, 2
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
}

/// Output for people or for machines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Short text for people.
    #[default]
    Text,
    /// One JSON object with a `version`, camelCase keys.
    Json,
}

/// `cargo varar gate`.
#[derive(Debug, Args)]
pub struct GateArgs {
    /// The project.
    #[command(flatten)]
    pub root: RootArgs,
    /// Text for people, or JSON for machines.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Print the JSON Schema of `--format json` and exit.
    #[arg(long)]
    pub schema: bool,
    /// Fail (exit 1) when an item of the latest run failed and then passed
    /// on a retry (recovered, a flake).
    #[arg(long)]
    pub deny_recovered: bool,
}

/// `cargo varar check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The project.
    #[command(flatten)]
    pub root: RootArgs,
    /// Text for people, or JSON for machines.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Print the JSON Schema of `--format json` and exit.
    #[arg(long)]
    pub schema: bool,
}

/// `cargo varar junit`.
#[derive(Debug, Args)]
pub struct JunitArgs {
    /// The project.
    #[command(flatten)]
    pub root: RootArgs,
    /// Write the XML to FILE (atomically; parent directories are created)
    /// instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

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

/// `cargo varar history`.
#[derive(Debug, Args)]
pub struct HistoryArgs {
    /// The project.
    #[command(flatten)]
    pub root: RootArgs,
    /// Text for people, or JSON for machines.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// `cargo varar flaky`.
#[derive(Debug, Args)]
pub struct FlakyArgs {
    /// The project (its sources are what runs are compared at).
    #[command(flatten)]
    pub root: RootArgs,
    /// Text for people, or JSON for machines.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Compare the newest N comparable runs only [default: every kept one].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub runs: Option<u64>,
    /// Directories of runs to compare instead of the local history:
    /// downloaded `.varar/` trees (CI artifacts) or history directories.
    #[arg(value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
}

/// `cargo varar attest`.
#[derive(Debug, Args)]
pub struct AttestArgs {
    /// The project.
    #[command(flatten)]
    pub root: RootArgs,
    /// Write the statement to FILE (atomically; parent directories are
    /// created) instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

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

/// `cargo varar lsp`.
#[derive(Debug, Args)]
pub struct LspArgs {
    /// Talk over stdin/stdout (the only transport; accepted because
    /// editor clients pass it).
    #[arg(long)]
    pub stdio: bool,
}

/// The option every command takes.
#[derive(Debug, Args)]
pub struct RootArgs {
    /// The project root, where varar.config.json lives [default: the
    /// nearest directory at or above the current one that holds one].
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
}

/// `cargo varar report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// The project.
    #[command(flatten)]
    pub root: RootArgs,
    /// Where to write the site; only a new or empty directory, or a
    /// previous report, is accepted [default: target/varar/report under the
    /// root].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Open index.html in a browser afterwards ($BROWSER if set, else the
    /// system's opener).
    #[arg(long)]
    pub open: bool,
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
    use super::*;

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(normalize_args(args.iter().map(OsString::from)))
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
        let Command::Gate(g) = ok(&["x", "gate", "--schema"]).command else {
            panic!("not gate")
        };
        assert_eq!((g.format, g.schema), (Format::Text, true));
        let Command::Junit(j) = ok(&["x", "junit", "--out", "j.xml"]).command else {
            panic!("not junit")
        };
        assert_eq!(j.out, Some(PathBuf::from("j.xml")));
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
}
