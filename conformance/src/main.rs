//! `varar-conformance doc|registry|plan|trace <path>`: print a conformance
//! artifact as pretty JSON (keys sorted, 2-space indent, trailing newline).
//!
//! Exit codes: 0 printed, 1 the artifact could not be built (unreadable or
//! non-UTF-8 file, artifact not implemented), 2 usage error.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

const USAGE: &str = "usage: varar-conformance <doc|registry|plan|trace> <path>";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [kind, path] = args.as_slice() else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    if !varar_conformance::KINDS.contains(&kind.as_str()) {
        eprintln!("error: unknown artifact `{kind}`\n{USAGE}");
        return ExitCode::from(2);
    }
    let value = match varar_conformance::artifact(kind, Path::new(path)) {
        Ok(value) => value,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    // serde_json's default map is a BTreeMap, so keys come out sorted.
    let text = match serde_json::to_string_pretty(&value) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("error: cannot serialise the artifact: {e}");
            return ExitCode::from(1);
        }
    };
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = writeln!(stdout, "{text}").and_then(|()| stdout.flush()) {
        eprintln!("error: cannot write to stdout: {e}");
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}
