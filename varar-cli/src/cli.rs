//! The command line, declared with clap's derive API: one subcommand per
//! module of [`crate::commands`], and `--root DIR` on every one of them.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

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
            let Command::Report(r) = cli.command;
            assert!(r.open && r.out.is_none() && r.root.root.is_none());
        }
        let cli =
            parse(&["x", "report", "--root", "a", "--out", "b"]).unwrap_or_else(|e| panic!("{e}"));
        let Command::Report(r) = cli.command;
        assert_eq!(r.root.root, Some(PathBuf::from("a")));
        assert_eq!(r.out, Some(PathBuf::from("b")));
        assert!(parse(&["x", "report", "--nope"]).is_err());
        assert!(parse(&["x"]).is_err());
    }
}
