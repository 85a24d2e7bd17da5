//! `cargo-varar`: the binary edge. Parses the arguments, validates them,
//! runs the command, and prints its output or its error (the only place
//! that prints).

use std::io::Write as _;
use std::process::ExitCode;

use clap::Parser as _;
use varar_cli::cli::{Cli, Invocation, normalize_args};
use varar_cli::commands::{self, CommandError, Output};

fn main() -> ExitCode {
    let cli = Cli::parse_from(normalize_args(std::env::args_os()));
    match run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            let code = e.exit_code();
            match e.records() {
                Some(records) => {
                    for record in records {
                        eprintln!("cargo varar: {record}");
                    }
                }
                None => eprintln!("cargo varar: error: {:#}", anyhow::Error::new(e)),
            }
            ExitCode::from(code)
        }
    }
}

fn run(cli: Cli) -> Result<u8, CommandError> {
    let cwd = varar_cli::root::current_dir().map_err(CommandError::CurrentDir)?;
    let invocation = Invocation::from_cli(cli, &cwd)?;
    let mut notes = Vec::new();
    let output = commands::run(&invocation, &mut notes);
    for note in &notes {
        eprintln!("cargo varar: {note}");
    }
    let output = output?;
    print(&output).map_err(CommandError::Stdout)?;
    Ok(output.exit_code)
}

/// Print a command's output: stdout whole, then each stderr line.
fn print(output: &Output) -> std::io::Result<()> {
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(output.stdout.as_bytes())
        .and_then(|()| stdout.flush())?;
    for line in &output.stderr {
        eprintln!("cargo varar: {line}");
    }
    Ok(())
}
