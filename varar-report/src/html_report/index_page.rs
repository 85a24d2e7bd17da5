//! `index.html`: the totals, then one row per oath in path order with its
//! title, counts, a state in words and a link to its page.

use std::fmt::Write as _;

use super::html::{State, badge, escape, escape_into, page};
use super::links::page_href;
use super::model::{Freshness, OathSummary};
use super::strip::flaky_section;
use varar_core::lock::SHOWN_NAME;
use varar_core::record::RemovedExample;
use varar_core::untrusted::cut_to;
use varar_core::verdict::standing::{RunStanding, Standing};

/// The index page of `project`; `standing`, the latest run's, is stated
/// first when it is not complete (issue 34); `removed`, the examples the
/// latest run found no more in the lock, are listed after the flaky ones
/// (issue 37).
pub fn render(
    project: &str,
    oaths: &[OathSummary],
    standing: Option<&RunStanding>,
    removed: &[&RemovedExample],
) -> String {
    let mut out = String::with_capacity(1024 + oaths.len() * 512);
    out.push_str("<header class=\"varar-top\">\n<h1>Varar report</h1>\n<p class=\"varar-path\">");
    escape_into(&mut out, project);
    out.push_str("</p>\n</header>\n<main class=\"varar-index\">\n");
    let standing = standing.filter(|s| s.standing != Standing::Complete);
    if let Some(s) = standing {
        standing_section(&mut out, s);
    }
    totals(&mut out, oaths, standing);
    flaky_section(&mut out, oaths);
    removed_section(&mut out, removed);
    let _ = write!(
        out,
        "<div class=\"varar-table\">\n<table class=\"varar-oaths\">\n<thead><tr><th>oath</th>\
         <th class=\"varar-right\">passed</th><th class=\"varar-right\">failed</th>\
         <th class=\"varar-right\">not run</th><th>state</th></tr></thead>\n<tbody>\n"
    );
    for o in oaths {
        let k = o.state.key();
        let _ = write!(
            out,
            "<tr class=\"varar-{k}\" data-varar-state=\"{k}\"><td><a href=\"{}\">",
            escape(&page_href(&o.oath_path))
        );
        escape_into(&mut out, &o.title);
        out.push_str("</a><br><span class=\"varar-path\">");
        escape_into(&mut out, &o.oath_path);
        out.push_str("</span></td>");
        let known = !matches!(o.freshness, Freshness::NoText | Freshness::Unreadable(_));
        let num = |n: usize| if known { n.to_string() } else { "—".into() };
        let not_run = o.counts.not_run.map_or("—".into(), |n| n.to_string());
        let _ = write!(
            out,
            "<td class=\"varar-right\">{}</td><td class=\"varar-right\">{}</td>\
             <td class=\"varar-right\">{not_run}</td><td>",
            num(o.counts.passed),
            num(o.counts.failed)
        );
        badge(&mut out, o.state, o.status);
        out.push_str("</td></tr>\n");
    }
    out.push_str("</tbody>\n</table>\n</div>\n");
    problems(&mut out, oaths);
    out.push_str(
        "</main>\n<footer class=\"varar-foot\">Rendered by <code>cargo varar report</code> from \
         the oaths, <code>.varar/</code> and <code>varar.lock.json</code>; the report runs \
         nothing. “Not run” counts the example paragraphs the baseline records that have no \
         result (a header-bound table counts once).</footer>\n",
    );
    page(&format!("Varar report — {project}"), "", &out)
}

/// The latest run's standing and every reason for it, before anything
/// else: no result below is the latest run's unless it vouches for it.
fn standing_section(out: &mut String, s: &RunStanding) {
    let state = match s.standing {
        Standing::Missing => State::NotRun,
        Standing::Unreadable => State::Unreadable,
        _ => State::Stale,
    };
    let k = state.key();
    let _ = write!(
        out,
        "<section class=\"varar-standing varar-banner varar-{k}\" role=\"alert\" \
         data-varar-standing=\"{}\" aria-label=\"the latest run\">\n<p><strong>",
        s.standing.as_str()
    );
    let title = match s.standing {
        Standing::Missing => "There is no run record.".to_owned(),
        other => format!("The latest run is {}.", other.as_str()),
    };
    escape_into(out, &title);
    out.push_str("</strong> ");
    escape_into(
        out,
        match s.standing {
            Standing::Missing => {
                "Nothing ties the results below to a run: `cargo varar gate` refuses them \
                 (missing_run)."
            }
            _ => {
                "Results it does not vouch for are shown as an earlier run's, never as \
                 current; `cargo varar gate` refuses to judge it."
            }
        },
    );
    out.push_str("</p>\n<ul>\n");
    for p in &s.problems {
        let _ = write!(out, "<li><code>{}</code> ", escape(p.code.as_str()));
        escape_into(out, &p.message);
        out.push_str("</li>\n");
    }
    out.push_str("</ul>\n</section>\n");
}

fn totals(out: &mut String, oaths: &[OathSummary], standing: Option<&RunStanding>) {
    // An earlier run's examples are not counted as this run's (issue 34).
    let current = || {
        oaths
            .iter()
            .filter(|o| !matches!(o.freshness, Freshness::Earlier(_)))
    };
    let passed: usize = current().map(|o| o.counts.passed).sum();
    let failed: usize = current().map(|o| o.counts.failed).sum();
    let not_run: usize = oaths.iter().filter_map(|o| o.counts.not_run).sum();
    let count = |f: &dyn Fn(&Freshness) -> bool| oaths.iter().filter(|o| f(&o.freshness)).count();
    let stale = count(&|f| matches!(f, Freshness::Stale { .. }));
    let missing = count(&|f| matches!(f, Freshness::NoResults | Freshness::NewerFormat(_)));
    let unreadable = count(&|f| matches!(f, Freshness::Unreadable(_) | Freshness::NoText));
    let earlier = count(&|f| matches!(f, Freshness::Earlier(_)));
    let judged = standing.filter(|s| s.standing != Standing::Missing);
    let overall = if let Some(s) = judged {
        (
            State::Stale,
            match s.standing {
                Standing::Incomplete => "the latest run is incomplete",
                Standing::Filtered => "the latest run is filtered",
                Standing::Stale => "the latest run is stale",
                Standing::Unreadable => "the latest run is unreadable",
                _ => "the latest run left no record",
            },
        )
    } else if unreadable > 0 {
        (State::Unreadable, "some inputs are unreadable")
    } else if failed > 0 {
        (State::Failed, "some examples failed")
    } else if stale > 0 {
        (State::Stale, "some results are stale")
    } else if passed > 0 {
        (State::Passed, "every example that ran passed")
    } else {
        (State::NotRun, "nothing ran")
    };
    out.push_str("<section class=\"varar-totals\" aria-label=\"totals\">\n<p>");
    badge(out, overall.0, overall.1);
    out.push_str("</p>\n<dl>\n");
    let items: [(&str, usize, State); 8] = [
        ("examples passed", passed, State::Passed),
        ("examples failed", failed, State::Failed),
        ("examples not run", not_run, State::NotRun),
        ("oaths", oaths.len(), State::NotRun),
        ("oaths with stale results", stale, State::Stale),
        (
            "oaths with results of an earlier run",
            earlier,
            State::Stale,
        ),
        ("oaths without results", missing, State::NotRun),
        ("oaths unreadable", unreadable, State::Unreadable),
    ];
    for (label, n, state) in items {
        let k = if n > 0 { state.key() } else { "zero" };
        let _ = writeln!(
            out,
            "<div class=\"varar-total varar-{k}\"><dt>{label}</dt><dd>{n}</dd></div>"
        );
    }
    out.push_str("</dl>\n</section>\n");
}

/// The examples the lock listed that the latest run found no more (issue
/// 37): each with its oath, its old line and its old text, cut.
fn removed_section(out: &mut String, removed: &[&RemovedExample]) {
    if removed.is_empty() {
        return;
    }
    let _ = write!(
        out,
        "<section class=\"varar-removed-list\" aria-label=\"removed examples\">\n\
         <h2>Examples no longer checked ({})</h2>\n<p><code>varar.lock.json</code> listed these \
         examples, and the latest run found no paragraph that matches them any more (deleted, \
         or reworded past recognition). <code>cargo varar gate --deny-removed</code> fails on \
         them; restore them, or commit the lock to acknowledge the removal.</p>\n<ul>\n",
        removed.len()
    );
    for r in removed {
        let _ = write!(
            out,
            "<li data-varar-removed-line=\"{}\"><a href=\"{}\">",
            r.line,
            escape(&page_href(&r.oath_path))
        );
        escape_into(out, &r.oath_path);
        let _ = write!(out, "</a>, was line {}: <q>", r.line);
        escape_into(out, &cut_to(&r.name, SHOWN_NAME));
        out.push_str("</q></li>\n");
    }
    out.push_str("</ul>\n</section>\n");
}

fn problems(out: &mut String, oaths: &[OathSummary]) {
    let list: Vec<(&str, &str)> = oaths
        .iter()
        .filter_map(|o| match &o.freshness {
            Freshness::Unreadable(reason) => Some((o.oath_path.as_str(), reason.as_str())),
            _ => None,
        })
        .collect();
    if list.is_empty() {
        return;
    }
    out.push_str(
        "<section class=\"varar-problems\">\n<h2>Results that could not be read</h2>\n<ul>\n",
    );
    for (path, reason) in list {
        out.push_str("<li><span class=\"varar-path\">");
        escape_into(out, path);
        out.push_str("</span>: ");
        escape_into(out, reason);
        out.push_str("</li>\n");
    }
    out.push_str("</ul>\n</section>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issue37_removed_examples_are_listed_escaped_with_their_old_line() {
        let gone = RemovedExample {
            oath_path: "varar/a.md".into(),
            name: "I add <b>2</b> & \"3\"".into(),
            line: 17,
        };
        let page = render("shop", &[], None, &[&gone]);
        assert!(page.contains("Examples no longer checked (1)"), "{page}");
        assert!(
            page.contains(
                "<a href=\"oaths/varar/a.md.html\">varar/a.md</a>, was line 17: \
                 <q>I add &lt;b&gt;2&lt;/b&gt; &amp; &quot;3&quot;</q>"
            ),
            "{page}"
        );
        assert!(!render("shop", &[], None, &[]).contains("varar-removed-list"));
    }
}
