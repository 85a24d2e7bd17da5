//! The report as a pure function: the project's oaths, their run results
//! and the baseline in, the files of a static site out (`index.html`,
//! `style.css` and one `oaths/<oathPath>.html` per oath). Nothing here
//! reads or writes a file; [`crate::commands::report`] does.

mod callout;
pub mod html;
mod index;
pub mod links;
pub mod markdown;
pub mod overlay;
mod page;
#[cfg(test)]
mod testing;

use std::collections::{BTreeMap, BTreeSet};

use varar_runner::internal::doc::Doc;
use varar_runner::internal::hash::source_hash;
use varar_runner::internal::lock::Lock;
use varar_runner::internal::parse::parse;
use varar_runner::internal::results::{OathResults, Status};
use varar_runner::internal::source::Source;

use crate::evidence::linked_only_among;

use self::html::State;
use self::links::{Links, page_path};
use self::overlay::{Foreign, Overlay};

/// Everything the report is made of.
#[derive(Debug, Default)]
pub struct ProjectInput {
    /// A name for the project (its directory name), shown in titles.
    pub name: String,
    /// Every oath the config selects, in discovery order.
    pub oaths: Vec<OathInput>,
    /// The drift baseline, when it could be read; it tells which
    /// paragraphs are examples that did not run.
    pub lock: Option<Lock>,
}

/// One selected oath.
#[derive(Debug)]
pub struct OathInput {
    /// Its oathPath.
    pub oath_path: String,
    /// Its text, or why it could not be read.
    pub text: Result<String, String>,
    /// Its run results.
    pub results: ResultsInput,
}

/// What `.varar/` holds for an oath.
#[derive(Debug)]
pub enum ResultsInput {
    /// No result file: nothing ran.
    Missing,
    /// A result file the strict reader refused, and why (path and reason).
    Unreadable(String),
    /// A result file, read.
    Read(OathResults),
}

/// One file of the site.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SiteFile {
    /// `/`-separated path under the output directory.
    pub path: String,
    /// The content.
    pub contents: String,
}

/// The whole site.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Site {
    /// Every file, `index.html` first.
    pub files: Vec<SiteFile>,
}

/// How an oath's results relate to its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Freshness {
    /// The oath could not be read.
    NoText,
    /// No result file.
    NoResults,
    /// No result file, and none is needed: every step of the oath runs
    /// inside the oaths that link to its sections (spec 70 §70.4.5).
    Linked,
    /// A result file the reader refused.
    Unreadable(String),
    /// Results of another version of the text.
    Stale {
        /// The hash the results record.
        recorded: String,
        /// The hash of the text now.
        now: String,
    },
    /// Results of this very text.
    Fresh,
}

/// Counts of one oath or of the whole project.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Examples that passed.
    pub passed: usize,
    /// Examples that failed.
    pub failed: usize,
    /// Example paragraphs of the fresh baseline with no result (`None`:
    /// unknown, because the baseline or the results do not fit the text).
    pub not_run: Option<usize>,
}

/// What the index says about one oath.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OathSummary {
    /// Its oathPath.
    pub oath_path: String,
    /// Its first heading, else its path.
    pub title: String,
    /// How its results relate to it.
    pub freshness: Freshness,
    /// Its counts.
    pub counts: Counts,
    /// Its overall state.
    pub state: State,
    /// The state in words.
    pub status: &'static str,
}

fn counts_of(results: &OathResults) -> Counts {
    let failed = results
        .examples
        .iter()
        .filter(|e| e.status == Status::Failed)
        .count();
    Counts {
        passed: results.examples.len() - failed,
        failed,
        not_run: None,
    }
}

/// Build the site.
pub fn render_site(input: &ProjectInput) -> Site {
    let oaths: BTreeSet<String> = input.oaths.iter().map(|o| o.oath_path.clone()).collect();
    let hashes: BTreeMap<&str, String> = input
        .oaths
        .iter()
        .filter_map(|o| Some((o.oath_path.as_str(), source_hash(o.text.as_ref().ok()?))))
        .collect();
    let fresh_results = |o| fresh(o, &hashes);
    // Failures recorded by one oath whose offsets point into another
    // document, drawn on that document's page when the result's hash of it
    // matches its text now (spec 70 §70.4.4, §70.4.5).
    let mut foreign: BTreeMap<&str, Vec<Foreign<'_>>> = BTreeMap::new();
    for o in &input.oaths {
        let Some(results) = fresh_results(o) else {
            continue;
        };
        for e in &results.examples {
            let Some(f) = &e.failure else { continue };
            let Some(doc) = f.doc_path.as_deref() else {
                continue;
            };
            let recorded = results.documents.iter().find(|d| d.path == doc);
            if recorded.is_some_and(|d| hashes.get(doc) == Some(&d.source_hash)) {
                foreign.entry(doc).or_default().push(Foreign {
                    oath_path: &o.oath_path,
                    example: &e.name,
                    failure: f,
                });
            }
        }
    }

    let linked = linked_only(input);

    let mut files = Vec::with_capacity(input.oaths.len() + 2);
    let mut summaries = Vec::with_capacity(input.oaths.len());
    for o in &input.oaths {
        let links = Links {
            from: &o.oath_path,
            oaths: &oaths,
        };
        let linked = linked.contains(&o.oath_path);
        let (summary, body) = oath_page(input, o, fresh_results(o), &foreign, &links, linked);
        let path = page_path(&o.oath_path);
        files.push(SiteFile {
            contents: html::page(
                &format!("{} — {}", summary.title, input.name),
                &html::root_prefix(&path),
                &body,
            ),
            path,
        });
        summaries.push(summary);
    }
    let mut site = vec![
        SiteFile {
            path: "index.html".to_owned(),
            contents: index::render(&input.name, &summaries),
        },
        SiteFile {
            path: "style.css".to_owned(),
            contents: html::STYLE_CSS.to_owned(),
        },
    ];
    site.extend(files);
    Site { files: site }
}

/// The oaths without a result file that need none (spec 70 §70.4.5): they
/// run only inside the oaths that link to them, as `gate` and `junit` see it.
fn linked_only(input: &ProjectInput) -> BTreeSet<String> {
    let Some(lock) = &input.lock else {
        return BTreeSet::new();
    };
    let missing: Vec<&str> = input
        .oaths
        .iter()
        .filter(|o| matches!(o.results, ResultsInput::Missing))
        .map(|o| o.oath_path.as_str())
        .collect();
    if missing.is_empty() {
        return BTreeSet::new();
    }
    let texts = input
        .oaths
        .iter()
        .filter_map(|o| Some((o.oath_path.as_str(), o.text.as_deref().ok()?)));
    linked_only_among(texts, &missing, lock)
}

/// The summary and page body of one oath; `linked`: it has no result file
/// and needs none.
fn oath_page(
    input: &ProjectInput,
    o: &OathInput,
    fresh: Option<&OathResults>,
    foreign: &BTreeMap<&str, Vec<Foreign<'_>>>,
    links: &Links<'_>,
    linked: bool,
) -> (OathSummary, String) {
    let text = match &o.text {
        Ok(text) => text,
        Err(reason) => {
            let summary = OathSummary {
                oath_path: o.oath_path.clone(),
                title: o.oath_path.clone(),
                freshness: Freshness::NoText,
                counts: Counts::default(),
                state: State::Unreadable,
                status: "oath unreadable",
            };
            let body = page::unreadable_oath(&summary, reason);
            return (summary, body);
        }
    };
    let hash = source_hash(text);
    let source = Source::new(text);
    let doc: Doc = parse(&o.oath_path, &source);
    let lock = input
        .lock
        .as_ref()
        .and_then(|l| l.oaths.get(&o.oath_path))
        .filter(|entry| entry.source_hash == hash);
    let (freshness, counts, overlay) = match &o.results {
        ResultsInput::Missing => {
            let overlay = overlay::build(&source, &doc, None, others(foreign, o), lock);
            let counts = Counts {
                not_run: lock.map(|_| not_run(&overlay)),
                ..Counts::default()
            };
            let freshness = if linked {
                Freshness::Linked
            } else {
                Freshness::NoResults
            };
            (freshness, counts, overlay)
        }
        ResultsInput::Unreadable(reason) => (
            Freshness::Unreadable(reason.clone()),
            Counts::default(),
            overlay::build(&source, &doc, None, others(foreign, o), None),
        ),
        ResultsInput::Read(results) => match fresh {
            Some(results) => {
                let overlay =
                    overlay::build(&source, &doc, Some(results), others(foreign, o), lock);
                let counts = Counts {
                    not_run: lock.map(|_| not_run(&overlay)),
                    ..counts_of(results)
                };
                (Freshness::Fresh, counts, overlay)
            }
            None => (
                Freshness::Stale {
                    recorded: results.source_hash.clone(),
                    now: hash.clone(),
                },
                counts_of(results),
                overlay::build(&source, &doc, None, others(foreign, o), None),
            ),
        },
    };
    let rendered = markdown::render(text, &overlay, links);
    let (state, status) = match &freshness {
        Freshness::NoText => (State::Unreadable, "oath unreadable"),
        Freshness::Unreadable(_) => (State::Unreadable, "results unreadable"),
        Freshness::NoResults => (State::NotRun, "not run"),
        Freshness::Linked => (State::NotRun, "runs where linked"),
        Freshness::Stale { .. } => (State::Stale, "stale results"),
        Freshness::Fresh if counts.failed > 0 => (State::Failed, "failed"),
        Freshness::Fresh if counts.passed > 0 => (State::Passed, "passed"),
        Freshness::Fresh => (State::NotRun, "no example ran"),
    };
    let summary = OathSummary {
        oath_path: o.oath_path.clone(),
        title: rendered
            .title
            .clone()
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| o.oath_path.clone()),
        freshness,
        counts,
        state,
        status,
    };
    let stale_examples = match (&o.results, &summary.freshness) {
        (ResultsInput::Read(r), Freshness::Stale { .. }) => Some(r),
        _ => None,
    };
    let body = page::render(&summary, &overlay, &rendered, links, stale_examples);
    (summary, body)
}

/// The results of `o` if they are of its text as it is now.
fn fresh<'a>(o: &'a OathInput, hashes: &BTreeMap<&str, String>) -> Option<&'a OathResults> {
    match (&o.results, hashes.get(o.oath_path.as_str())) {
        (ResultsInput::Read(r), Some(h)) if &r.source_hash == h => Some(r),
        _ => None,
    }
}

fn others<'a>(foreign: &'a BTreeMap<&str, Vec<Foreign<'a>>>, o: &OathInput) -> &'a [Foreign<'a>] {
    foreign
        .get(o.oath_path.as_str())
        .map(Vec::as_slice)
        .unwrap_or_default()
}

fn not_run(overlay: &Overlay) -> usize {
    overlay
        .blocks
        .values()
        .filter(|b| b.state == State::NotRun)
        .count()
}

#[cfg(test)]
mod tests;
