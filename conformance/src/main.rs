//! `varar-conformance doc|registry|plan|trace <path>`: print a conformance
//! artifact as pretty JSON (keys sorted, 2-space indent, trailing newline).
//!
//! `plan` and `trace` also take an oath among other documents (reuse by
//! link, spec 70): `varar-conformance plan|trace <path> [--steps <bundle>]
//! [--root <dir>] [<document.md>...]`; see [`varar_conformance::workspace`].
//!
//! Exit codes: 0 printed, 1 the artifact could not be built (unreadable or
//! non-UTF-8 file, a document outside the root, artifact not implemented),
//! 2 usage error.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use varar_conformance::workspace::Inputs;

const USAGE: &str = "usage: varar-conformance <doc|registry|plan|trace> <path>
       varar-conformance <plan|trace> <path> [--steps <bundle>] [--root <dir>] [<document.md>...]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((kind, rest)) = args.split_first().filter(|(_, rest)| !rest.is_empty()) else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    if !varar_conformance::KINDS.contains(&kind.as_str()) {
        eprintln!("error: unknown artifact `{kind}`\n{USAGE}");
        return ExitCode::from(2);
    }
    let built = match rest {
        [path] => varar_conformance::artifact(kind, Path::new(path)),
        _ if matches!(kind.as_str(), "plan" | "trace") => match Inputs::parse(rest) {
            Ok(inputs) => varar_conformance::workspace::artifact(kind, &inputs),
            Err(e) => {
                eprintln!("error: {e}\n{USAGE}");
                return ExitCode::from(2);
            }
        },
        _ => {
            eprintln!("error: `{kind}` takes one path\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let value = match built {
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
