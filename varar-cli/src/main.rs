//! `cargo-varar`: the binary edge. Parses the arguments, validates them,
//! runs the command, and prints its output or its error (the only place
//! that prints).

use std::io::Write as _;
use std::process::ExitCode;

use clap::Parser as _;
use varar_cli::Error;
use varar_cli::cli::{self, Cli, Invocation, normalize_args};
use varar_cli::output::Output;
use varar_core::untrusted::terminal_line;

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
                None => {
                    let error = format!("{:#}", anyhow::Error::new(e));
                    eprintln!("cargo varar: error: {}", terminal_line(&error));
                }
            }
            ExitCode::from(code)
        }
    }
}

fn run(cli: Cli) -> Result<u8, Error> {
    let cwd = varar_project::root::current_dir().map_err(Error::CurrentDir)?;
    let invocation = Invocation::from_cli(cli, &cwd)?;
    let mut notes = Vec::new();
    let output = cli::run(&invocation, &mut notes);
    // Notes (the config's warnings) quote what the config holds: escaped
    // as every other stderr line.
    for note in &notes {
        eprintln!("cargo varar: {}", terminal_line(note));
    }
    let output = output?;
    print(&output).map_err(Error::Stdout)?;
    Ok(output.exit_code)
}

/// Print a command's output: stdout whole, then each stderr line, escaped
/// for the terminal on one line (the notes name paths and quote what files
/// hold, issue 34). The command escaped what its text for people holds;
/// JSON and XML are escaped by their writers.
fn print(output: &Output) -> std::io::Result<()> {
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(output.stdout.as_bytes())
        .and_then(|()| stdout.flush())?;
    for line in &output.stderr {
        eprintln!("cargo varar: {}", terminal_line(line));
    }
    Ok(())
}
