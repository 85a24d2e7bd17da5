//! `cargo varar junit [--out FILE]`: read the project's evidence
//! ([`crate::project`]), convert it ([`crate::junit`]) and print the XML or
//! write it atomically to `--out` (shell). When any input is unusable,
//! nothing is printed or written and the command exits 2.

use std::path::Path;

use varar_runner::internal::store::{StoreError, write_atomic};

use super::Output;
use crate::cli::JunitArgs;
use crate::junit::build_with;
use crate::project::read_project;
use crate::records::{Code, ErrorRecord, display_path};

/// Run `cargo varar junit` from `cwd`.
pub fn run(args: &JunitArgs, cwd: &Path) -> Output {
    match convert(args, cwd) {
        Ok(output) => output,
        Err(errors) => Output {
            stdout: String::new(),
            stderr: errors.iter().map(ToString::to_string).collect(),
            exit_code: 2,
        },
    }
}

fn convert(args: &JunitArgs, cwd: &Path) -> Result<Output, Vec<ErrorRecord>> {
    let project = read_project(args.root.root.as_deref(), cwd).map_err(|e| vec![e])?;
    let junit = build_with(&project.oaths, &project.linked_only)?;
    let mut stderr: Vec<String> = junit
        .warnings
        .iter()
        .map(|w| format!("warning: {w}"))
        .collect();
    let xml = junit.report.to_string().map_err(|e| {
        vec![ErrorRecord::new(
            Code::OutputError,
            format!("cannot serialise the JUnit report: {e}"),
        )]
    })?;
    let Some(out) = &args.out else {
        return Ok(Output {
            stdout: xml,
            stderr,
            exit_code: 0,
        });
    };
    let path = cwd.join(out);
    let shown = display_path(&path, cwd);
    let failed = |reason: String| {
        vec![
            ErrorRecord::new(
                Code::OutputError,
                format!("cannot write `{shown}`: {reason}"),
            )
            .with_path(shown.clone()),
        ]
    };
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| failed(e.to_string()))?;
    }
    write_atomic(&path, xml.as_bytes()).map_err(|e| {
        failed(match e {
            StoreError::Write { source, .. } => source.to_string(),
            other => other.to_string(),
        })
    })?;
    let r = &junit.report;
    stderr.push(format!(
        "wrote `{shown}`: {} test suite(s), {} test case(s), {} failure(s)",
        r.test_suites.len(),
        r.tests,
        r.failures
    ));
    Ok(Output {
        stdout: String::new(),
        stderr,
        exit_code: 0,
    })
}
