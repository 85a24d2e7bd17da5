//! `index.html`: the totals, then one row per oath in path order with its
//! title, counts, a state in words and a link to its page.

use std::fmt::Write as _;

use super::html::{State, badge, escape, escape_into, page};
use super::links::page_href;
use super::model::{Freshness, OathSummary};
use super::strip::flaky_section;

/// The index page of `project`.
pub fn render(project: &str, oaths: &[OathSummary]) -> String {
    let mut out = String::with_capacity(1024 + oaths.len() * 512);
    out.push_str("<header class=\"varar-top\">\n<h1>Varar report</h1>\n<p class=\"varar-path\">");
    escape_into(&mut out, project);
    out.push_str("</p>\n</header>\n<main class=\"varar-index\">\n");
    totals(&mut out, oaths);
    flaky_section(&mut out, oaths);
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

fn totals(out: &mut String, oaths: &[OathSummary]) {
    let passed: usize = oaths.iter().map(|o| o.counts.passed).sum();
    let failed: usize = oaths.iter().map(|o| o.counts.failed).sum();
    let not_run: usize = oaths.iter().filter_map(|o| o.counts.not_run).sum();
    let count = |f: &dyn Fn(&Freshness) -> bool| oaths.iter().filter(|o| f(&o.freshness)).count();
    let stale = count(&|f| matches!(f, Freshness::Stale { .. }));
    let missing = count(&|f| matches!(f, Freshness::NoResults | Freshness::NewerFormat(_)));
    let unreadable = count(&|f| matches!(f, Freshness::Unreadable(_) | Freshness::NoText));
    let overall = if unreadable > 0 {
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
    let items: [(&str, usize, State); 7] = [
        ("examples passed", passed, State::Passed),
        ("examples failed", failed, State::Failed),
        ("examples not run", not_run, State::NotRun),
        ("oaths", oaths.len(), State::NotRun),
        ("oaths with stale results", stale, State::Stale),
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
