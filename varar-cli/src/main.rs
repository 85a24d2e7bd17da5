//! `cargo-varar`: the binary edge. Parses the arguments, runs the command,
//! and prints its result, warnings and errors (the only place that prints).

use std::io::Write as _;
use std::process::ExitCode;

use anyhow::Context as _;
use clap::Parser as _;
use varar_cli::cli::{Cli, Command, normalize_args};
use varar_cli::commands::{Output, diff, gate, junit, lsp, merge, report};

fn main() -> ExitCode {
    let cli = Cli::parse_from(normalize_args(std::env::args_os()));
    match run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("cargo varar: error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<u8> {
    let cwd = varar_cli::root::current_dir()?;
    let output = match cli.command {
        Command::Report(args) => {
            let outcome = report::run(&args, &cwd).context("no report was written")?;
            for problem in &outcome.problems {
                eprintln!("cargo varar: error: {problem}");
            }
            for warning in &outcome.warnings {
                eprintln!("cargo varar: warning: {warning}");
            }
            println!("{}", outcome.index.display());
            return Ok(outcome.exit_code());
        }
        Command::Gate(args) => gate::run(&args, &cwd)?,
        Command::Junit(args) => junit::run(&args, &cwd),
        Command::Merge(args) => merge::run(&args, &cwd),
        Command::Diff(args) => diff::run(&args, &cwd)?,
        Command::Lsp(args) => {
            lsp::run(&args).context("the language server stopped")?;
            return Ok(0);
        }
    };
    print(&output)?;
    Ok(output.exit_code)
}

/// Print a command's output: stdout whole, then each stderr line.
fn print(output: &Output) -> anyhow::Result<()> {
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(output.stdout.as_bytes())
        .and_then(|()| stdout.flush())
        .context("cannot write to stdout")?;
    for line in &output.stderr {
        eprintln!("cargo varar: {line}");
    }
    Ok(())
}
