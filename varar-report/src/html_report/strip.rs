//! An example's outcomes over the kept runs of its oath as it is now
//! (issue 20): a strip of marks, oldest first, each titled with its run id
//! and outcome, a *flaky* badge when they are mixed; and the index's list
//! of flaky examples, shown before the oaths. Plain markup and classes:
//! no script, no inline style, so the page's CSP is unchanged.

use std::fmt::Write as _;

use super::html::{escape, escape_into};
use super::links::page_href;
use super::model::OathSummary;
use varar_core::verdict::flaky::{FlakyItem, ItemOutcome};

/// How many of the newest runs a strip shows.
pub const STRIP_RUNS: usize = 20;

/// An example's strip and, when flaky, its badge.
pub fn strip(out: &mut String, item: &FlakyItem) {
    let shown = &item.history[item.history.len().saturating_sub(STRIP_RUNS)..];
    let _ = write!(
        out,
        " <span class=\"varar-strip\" role=\"img\" aria-label=\"{}\" \
         data-varar-runs=\"{}\">",
        escape(&format!(
            "the last {} kept run{} of this text, oldest first: {}",
            shown.len(),
            if shown.len() == 1 { "" } else { "s" },
            shown
                .iter()
                .map(|h| h.outcome.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )),
        shown.len()
    );
    for h in shown {
        let (class, mark) = match h.outcome {
            ItemOutcome::Passed => ("passed", "✓"),
            ItemOutcome::Recovered => ("recovered", "↻"),
            ItemOutcome::Failed => ("failed", "✗"),
            ItemOutcome::Ignored => ("ignored", "–"),
        };
        let _ = write!(
            out,
            "<span class=\"varar-run varar-run-{class}\" title=\"{}\">{mark}</span>",
            escape(&format!("{}: {class}", h.run_id))
        );
    }
    out.push_str("</span>");
    if item.flaky {
        flaky_badge(out, item);
    }
}

fn flaky_badge(out: &mut String, item: &FlakyItem) {
    let _ = write!(
        out,
        " <span class=\"varar-flaky\" title=\"{}\">flaky</span>",
        escape(&format!(
            "{} passed and {} failed attempts over {} runs; recovered in {}",
            item.passes, item.failures, item.runs, item.recovered
        ))
    );
}

/// The index's list of flaky examples, oath by oath; nothing when there
/// is none.
pub fn flaky_section(out: &mut String, oaths: &[OathSummary]) {
    let flaky: Vec<(&OathSummary, &FlakyItem, &str)> = oaths
        .iter()
        .flat_map(|o| {
            o.flaky
                .iter()
                .map(move |(name, item)| (o, item, name.as_str()))
        })
        .collect();
    if flaky.is_empty() {
        return;
    }
    let _ = write!(
        out,
        "<section class=\"varar-flaky-list\" aria-label=\"flaky examples\">\n\
         <h2>Flaky examples ({})</h2>\n<p>Examples that both passed and failed over the kept \
         runs of their oath as it is now (<code>cargo varar flaky</code> counts them).</p>\n<ul>\n",
        flaky.len()
    );
    for (oath, item, name) in flaky {
        let _ = write!(
            out,
            "<li><a href=\"{}#L{}\">",
            escape(&page_href(&oath.oath_path)),
            item.line
        );
        escape_into(out, name);
        out.push_str("</a> <span class=\"varar-path\">");
        escape_into(out, &oath.oath_path);
        out.push_str("</span>");
        strip(out, item);
        out.push_str("</li>\n");
    }
    out.push_str("</ul>\n</section>\n");
}
