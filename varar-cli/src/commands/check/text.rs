//! The check for people (pure): one line per problem, `path:line:col:
//! severity[code]: message`, the rest of its message indented below it,
//! its fix (a plan notice) and the test item it fails, then the errors with the inputs, then a summary.
//! Paths, messages (which quote the oaths) and item names are cut and
//! escaped for the terminal (issue 34).

use varar_core::untrusted::{cut, terminal_line as line};

use super::{CheckReport, CheckStatus, Severity};

/// The report as text.
pub fn render_text(report: &CheckReport) -> String {
    let mut out = String::new();
    for p in &report.problems {
        let severity = match p.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        out.push_str(&format!(
            "{}:{}:{}: {severity}[{}]: {}\n",
            line(&p.path),
            p.line,
            p.column,
            p.code.as_str(),
            line(&cut(&p.message))
        ));
        let detail = p.detail.as_deref().map(cut).unwrap_or_default();
        for text in detail.lines() {
            out.push_str(&format!("    {}\n", line(text)));
        }
        if let Some(fix) = &p.fix {
            out.push_str(&format!("    = fix: {}\n", line(&cut(fix))));
        }
        if let Some(item) = &p.item {
            out.push_str(&format!("    = cargo test fails `{}`\n", line(item)));
        }
    }
    for e in &report.errors {
        out.push_str(&format!("{e}\n"));
    }
    let errors = report
        .problems
        .iter()
        .filter(|p| p.severity == Severity::Error)
        .count();
    let warnings = report.problems.len() - errors;
    let planned = format!(
        "{} against {}",
        plural(report.oaths, "oath"),
        plural(report.steps, "step")
    );
    out.push_str(&match report.status {
        CheckStatus::Clean if warnings == 0 => format!("check: clean: {planned}\n"),
        CheckStatus::Clean => format!(
            "check: clean: {planned}, {} (cargo test passes them)\n",
            plural(warnings, "warning")
        ),
        CheckStatus::Problems => format!(
            "check: {} cargo test would fail, {}: {planned}\n",
            plural(errors, "error"),
            plural(warnings, "warning")
        ),
        CheckStatus::Error => format!(
            "check: error: {} with the inputs; {}, {} found in what could be read\n",
            plural(report.errors.len(), "problem"),
            plural(errors, "error"),
            plural(warnings, "warning")
        ),
    });
    out
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}
