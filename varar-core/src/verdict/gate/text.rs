//! The verdict for people. Every name, path and message comes from files
//! a run (or someone) wrote: each is escaped for the terminal, a name or a
//! path on one line, a message line by line (issue 34).

use crate::lock::shown_name;
use crate::names::ItemKind;
use crate::untrusted::terminal_line as line;

use super::model::{GateReport, GateStatus, ItemFailure};
use crate::verdict::run_evidence::{names_example, plural};

/// The verdict for people: each failed example as `path:line: example`
/// with its message indented, each other failed item as `path:line: name
/// (kind)` with its message, each recovered item, each removed example
/// (issue 37), each warning as `warning[code]: message`, each problem as
/// `error[code]: message`, then one summary line.
pub fn render_text(report: &GateReport) -> String {
    let mut out = String::new();
    for f in &report.failures {
        let at = f.doc_path.as_deref().unwrap_or(&f.oath_path);
        out.push_str(&format!(
            "FAILED {}:{}: {}\n",
            line(at),
            f.line,
            line(&f.example)
        ));
        if f.doc_path.is_some() {
            out.push_str(&format!("    (an example of {})\n", line(&f.oath_path)));
        }
        indented(&mut out, &f.message);
    }
    let others: Vec<&ItemFailure> = others(report).collect();
    for i in &others {
        out.push_str(&format!(
            "FAILED {}: {} ({}{})\n",
            place(&i.oath_path, i.line),
            line(&i.name),
            i.kind.as_str(),
            tries(i.attempts)
        ));
        indented(&mut out, &i.message);
    }
    for r in &report.recovered {
        out.push_str(&format!(
            "RECOVERED {}: {} ({}, passed on attempt {}){}\n",
            place(&r.oath_path, r.line),
            line(&r.name),
            r.kind.as_str(),
            r.attempts,
            if report.deny_recovered {
                ": denied by --deny-recovered"
            } else {
                ""
            }
        ));
        if let Some(m) = &r.message {
            indented(&mut out, m.lines().next().unwrap_or(""));
        }
    }
    for r in &report.removed {
        out.push_str(&format!(
            "REMOVED {}: {} (an example the lock listed, no longer in the oath){}\n",
            place(&r.oath_path, u32::try_from(r.line).unwrap_or(0)),
            shown_name(&r.name),
            if report.deny_removed {
                ": denied by --deny-removed"
            } else {
                ""
            }
        ));
    }
    for w in &report.warnings {
        out.push_str(&format!("warning[{}]: {}\n", w.code, line(&w.message)));
    }
    for e in &report.errors {
        out.push_str(&format!("{e}\n"));
    }
    out.push_str(&summary(report, &others));
    out
}

/// The failed items not already shown as a failed example of a result.
fn others(report: &GateReport) -> impl Iterator<Item = &ItemFailure> {
    report.item_failures.iter().filter(|i| {
        i.kind != ItemKind::Example
            || !report
                .failures
                .iter()
                .any(|f| f.oath_path == i.oath_path && names_example(&i.name, &f.example))
    })
}

fn summary(report: &GateReport, others: &[&ItemFailure]) -> String {
    let examples: usize = report.oaths.iter().map(|o| o.passed + o.failed).sum();
    let oaths = plural(report.oaths.len(), "oath");
    let recovered = report.recovered.len();
    let removed = report.removed.len();
    match report.status {
        GateStatus::Passed => {
            let mut notes = Vec::new();
            if recovered > 0 {
                notes.push(format!(
                    "{} recovered after a retry",
                    plural(recovered, "item")
                ));
            }
            if removed > 0 {
                notes.push(format!("{} removed", plural(removed, "example")));
            }
            let note = if notes.is_empty() {
                String::new()
            } else {
                format!(" ({})", notes.join(", "))
            };
            format!(
                "gate: passed: {} in {oaths}, all fresh and passed{note}\n",
                plural(examples, "example")
            )
        }
        GateStatus::Failed => {
            let mut parts = Vec::new();
            let examples_failed = report.failures.len()
                + others
                    .iter()
                    .filter(|i| i.kind == ItemKind::Example)
                    .count();
            if examples_failed > 0 {
                parts.push(format!(
                    "{examples_failed} of {} failed",
                    plural(examples, "example")
                ));
            }
            let mut kinds: Vec<&str> = others
                .iter()
                .filter(|i| i.kind != ItemKind::Example)
                .map(|i| i.kind.as_str())
                .collect();
            if !kinds.is_empty() {
                let n = kinds.len();
                kinds.sort_unstable();
                kinds.dedup();
                parts.push(format!(
                    "{} failed ({})",
                    plural(n, "other item"),
                    kinds.join(", ")
                ));
            }
            if report.deny_recovered && recovered > 0 {
                parts.push(format!(
                    "{} recovered after a retry (--deny-recovered)",
                    plural(recovered, "item")
                ));
            }
            if report.deny_removed && removed > 0 {
                parts.push(format!(
                    "{} removed (--deny-removed)",
                    plural(removed, "example")
                ));
            }
            format!("gate: failed: {} in {oaths}\n", parts.join(", "))
        }
        GateStatus::Error => format!(
            "gate: error: {} with the evidence of {oaths}; nothing was judged\n",
            plural(report.errors.len(), "problem")
        ),
    }
}

fn indented(out: &mut String, message: &str) {
    for text in message.lines() {
        out.push_str(&format!("    {}\n", line(text)));
    }
}

/// `path:line`, or `path` alone for line 0 (a read error).
fn place(path: &str, at: u32) -> String {
    if at == 0 {
        line(path).into_owned()
    } else {
        format!("{}:{at}", line(path))
    }
}

/// `, 3 attempts` when there was more than one.
fn tries(attempts: usize) -> String {
    if attempts > 1 {
        format!(", {attempts} attempts")
    } else {
        String::new()
    }
}
