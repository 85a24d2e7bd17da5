//! `flaky` for people: the verdict, then one line per flaky item with its
//! counts and its outcome in each run, oldest first. Item names and run
//! ids, read from records, are escaped for the terminal (issue 34).

use varar_core::untrusted::terminal_line;

use varar_core::verdict::flaky::{FlakyReport, FlakyStatus};
use varar_core::verdict::run_evidence::plural;

/// The report as text.
pub fn render_text(report: &FlakyReport) -> String {
    let mut out = String::new();
    for e in &report.errors {
        out.push_str(&format!("{e}\n"));
    }
    if matches!(
        report.status,
        FlakyStatus::Error | FlakyStatus::Insufficient
    ) {
        return out;
    }
    let flaky: Vec<_> = report.items.iter().filter(|i| i.flaky).collect();
    let (first, last) = match (report.runs.first(), report.runs.last()) {
        (Some(f), Some(l)) => (f.run_id.as_str(), l.run_id.as_str()),
        _ => ("", ""),
    };
    out.push_str(&format!(
        "{} of {} flaky over {} of the current sources ({} … {})\n",
        flaky.len(),
        plural(report.items.len(), "item"),
        plural(report.runs.len(), "complete run"),
        terminal_line(first),
        terminal_line(last),
    ));
    for i in flaky {
        let strip: Vec<&str> = i.history.iter().map(|h| h.outcome.as_str()).collect();
        out.push_str(&format!(
            "FLAKY {}\n      {}, {}: {} passed, {} failed; recovered in {}; oldest first: {}\n",
            terminal_line(&i.name),
            plural(i.runs, "run"),
            plural(i.attempts, "attempt"),
            i.passes,
            i.failures,
            plural(i.recovered, "run"),
            strip.join(" "),
        ));
    }
    let left = &report.left_out;
    let skipped = left.incomplete + left.unreadable + left.other_sources + left.beyond_limit;
    if skipped > 0 {
        let unreadable = match left.unreadable {
            0 => String::new(),
            n => format!(", {n} unreadable"),
        };
        out.push_str(&format!(
            "left out: {} incomplete{unreadable}, {} of other sources, {} beyond --runs\n",
            left.incomplete, left.other_sources, left.beyond_limit
        ));
    }
    out
}
