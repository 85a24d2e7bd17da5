//! The page of one oath: a header with its state, counts, a banner when
//! its results cannot be drawn, the list of its failures (links to each
//! span, so they are reachable by keyboard) and of its examples, then the
//! oath itself with the results on it.

use std::fmt::Write as _;

use varar_core::results::{OathResults, Status};

use super::callout;
use super::html::{State, badge, escape, escape_into, root_prefix};
use super::links::{Links, page_path};
use super::markdown::Rendered;
use super::model::{Counts, Freshness, OathSummary};
use super::overlay::{Overlay, recovered_after};
use super::strip::strip;
use varar_core::verdict::flaky::FlakyItem;

fn header_start(out: &mut String, summary: &OathSummary) {
    let root = root_prefix(&page_path(&summary.oath_path));
    let _ = write!(
        out,
        "<header class=\"varar-top\">\n<nav><a href=\"{root}index.html\">← All oaths</a> \
         <span class=\"varar-path\">"
    );
    escape_into(out, &summary.oath_path);
    out.push_str("</span></nav>\n<p class=\"varar-summary\">");
    badge(out, summary.state, summary.status);
    out.push(' ');
    counts(out, &summary.counts);
    out.push_str("</p>\n");
}

/// `6 examples: 5 passed, 1 failed, 2 not run`.
pub fn counts(out: &mut String, c: &Counts) {
    let total = c.passed + c.failed;
    let _ = write!(
        out,
        "<span class=\"varar-counts\">{total} example{s} ran: {p} passed, {f} failed",
        s = if total == 1 { "" } else { "s" },
        p = c.passed,
        f = c.failed
    );
    if let Some(n) = c.not_run {
        let _ = write!(out, "; {n} not run");
    }
    if c.recovered > 0 {
        let _ = write!(out, "; {} recovered after a retry", c.recovered);
    }
    if c.flaky > 0 {
        let _ = write!(out, "; {} flaky over the kept runs", c.flaky);
    }
    if c.items_failed > 0 {
        let _ = write!(
            out,
            "; {} drift or diagnostic item{} failed",
            c.items_failed,
            if c.items_failed == 1 { "" } else { "s" }
        );
    }
    out.push_str("</span>");
}

fn banner(out: &mut String, state: State, title: &str, text: &str) {
    let k = state.key();
    let _ = write!(
        out,
        "<div class=\"varar-banner varar-{k}\" role=\"status\" data-varar-state=\"{k}\"><strong>"
    );
    escape_into(out, title);
    out.push_str("</strong> ");
    escape_into(out, text);
    out.push_str("</div>\n");
}

/// The page body of an oath that could not be read.
pub fn unreadable_oath(summary: &OathSummary, reason: &str) -> String {
    let mut out = String::new();
    header_start(&mut out, summary);
    banner(
        &mut out,
        State::Unreadable,
        "This oath could not be read.",
        reason,
    );
    out.push_str("</header>\n");
    out
}

/// The page body of an oath.
pub fn render(
    summary: &OathSummary,
    overlay: &Overlay,
    rendered: &Rendered,
    links: &Links<'_>,
    stale: Option<&OathResults>,
    strips: &[Option<&FlakyItem>],
) -> String {
    let mut out = String::with_capacity(rendered.html.len() + 2048);
    header_start(&mut out, summary);
    match &summary.freshness {
        Freshness::Stale { why } => banner(
            &mut out,
            State::Stale,
            "These results are stale.",
            &format!(
                "They may not be of the text as it is now ({why}), so nothing is drawn on the \
                 text: the offsets could point at the wrong words. The counts are those of \
                 that run. Run the tests again to refresh them."
            ),
        ),
        Freshness::Unreadable(reason) => banner(
            &mut out,
            State::Unreadable,
            "The results of this oath are unreadable.",
            reason,
        ),
        Freshness::Earlier(why) => banner(
            &mut out,
            State::Stale,
            "These results are of an earlier run.",
            &format!(
                "The latest run does not vouch for them, so nothing is drawn on the text and \
                 they are not counted as current: {why}. Run the tests again to refresh them."
            ),
        ),
        Freshness::NoResults => banner(
            &mut out,
            State::NotRun,
            "Not run.",
            "There is no result file for this oath in .varar/: run the tests to record one.",
        ),
        Freshness::NewerFormat(why) => banner(
            &mut out,
            State::NotRun,
            "Not run.",
            &format!("{why}. Run the tests again to record results this report reads."),
        ),
        Freshness::Linked => banner(
            &mut out,
            State::NotRun,
            "Runs where it is linked.",
            "Every step of this oath runs inside the oaths that link to its sections: their \
             result files record it, and its steps' failures are marked here.",
        ),
        Freshness::Fresh | Freshness::NoText => {}
    }
    failure_list(&mut out, overlay, rendered, links);
    match stale {
        Some(results) => stale_examples(&mut out, results),
        None => example_list(&mut out, overlay, strips),
    }
    out.push_str("</header>\n<main class=\"varar-doc\">\n");
    out.push_str(&rendered.html);
    out.push_str(
        "</main>\n<footer class=\"varar-foot\">Rendered by <code>cargo varar report</code> \
                  from the oath and its last run results; the report runs nothing.</footer>\n",
    );
    out
}

fn failure_list(out: &mut String, overlay: &Overlay, rendered: &Rendered, links: &Links<'_>) {
    if overlay.notes.is_empty() {
        return;
    }
    let _ = write!(
        out,
        "<section class=\"varar-failures\" aria-labelledby=\"varar-failures\">\n\
         <h2 id=\"varar-failures\">Failures ({})</h2>\n<ol>\n",
        overlay.notes.len()
    );
    for (i, note) in overlay.notes.iter().enumerate() {
        let num = i + 1;
        let placed = rendered.placed.get(i).copied().unwrap_or(false);
        let has_mark = overlay.regions.iter().any(|r| r.note == i) && placed;
        out.push_str("<li>");
        if has_mark {
            let _ = write!(out, "<a href=\"#varar-mark-{num}\">");
        } else if placed {
            let _ = write!(out, "<a href=\"#varar-note-{num}\">");
        }
        if note.line > 0 && note.elsewhere.is_none() {
            let _ = write!(out, "line {}", note.line);
        } else {
            out.push_str("failure");
        }
        if placed {
            out.push_str("</a>");
        }
        out.push_str(": “");
        escape_into(out, &note.example);
        out.push_str("” — ");
        callout::detail(out, note);
        callout::context(out, note, links);
        if !placed && note.elsewhere.is_none() {
            out.push_str(" <span class=\"varar-where\">(not shown in the text)</span>");
        }
        out.push_str("</li>\n");
    }
    out.push_str("</ol>\n</section>\n");
}

fn example_list(out: &mut String, overlay: &Overlay, strips: &[Option<&FlakyItem>]) {
    if overlay.examples.is_empty() {
        return;
    }
    let _ = write!(
        out,
        "<details class=\"varar-examples\">\n<summary>Examples ({})</summary>\n\
         <table>\n<thead><tr><th>line</th><th>example</th><th>result</th></tr></thead>\n<tbody>\n",
        overlay.examples.len()
    );
    for (index, e) in overlay.examples.iter().enumerate() {
        let line = e.line.map(|l| l.to_string()).unwrap_or_else(|| "—".into());
        out.push_str("<tr><td>");
        match e.block {
            Some(b) => {
                let _ = write!(out, "<a href=\"#L{b}\">{line}</a>");
            }
            None => out.push_str(&line),
        }
        let _ = write!(out, "</td><td>{}", escape(&e.name));
        // Its tags beside it (issue 38).
        for tag in &e.tags {
            let _ = write!(out, " <span class=\"varar-tag\">{}</span>", escape(tag));
        }
        out.push_str("</td><td>");
        badge(
            out,
            e.state,
            if e.state == State::Failed {
                "failed"
            } else {
                "passed"
            },
        );
        if let Some(attempts) = e.recovered {
            let _ = write!(
                out,
                " <span class=\"varar-recovered\">{}</span>",
                recovered_after(attempts)
            );
        }
        if let Some(item) = strips.get(index).copied().flatten() {
            strip(out, item);
        }
        out.push_str("</td></tr>\n");
    }
    out.push_str("</tbody>\n</table>\n</details>\n");
}

fn stale_examples(out: &mut String, results: &OathResults) {
    let _ = write!(
        out,
        "<details class=\"varar-examples\">\n<summary>Examples of that run ({})</summary>\n\
         <table>\n<thead><tr><th>example</th><th>result</th></tr></thead>\n<tbody>\n",
        results.examples.len()
    );
    for e in &results.examples {
        let _ = write!(out, "<tr><td>{}</td><td>", escape(&e.name));
        match e.status {
            Status::Passed => badge(out, State::Passed, "passed"),
            Status::Failed => badge(out, State::Failed, "failed"),
        }
        out.push_str("</td></tr>\n");
    }
    out.push_str("</tbody>\n</table>\n</details>\n");
}
