//! The site assembled (pure): one page per oath (its text parsed, its
//! fresh results placed on it, rendered), the index and the style sheet.

use std::collections::{BTreeMap, BTreeSet};

use varar_core::doc::Doc;
use varar_core::hash::{sha256_hex, source_hash};
use varar_core::lock::LockEntry;
use varar_core::names::ItemKind;
use varar_core::parse::parse;
use varar_core::record::RunRecord;
use varar_core::results::{OathResults, Status};
use varar_core::source::Source;

use super::html::{self, State};
use super::links::{Links, page_path};
use super::model::{
    Counts, Freshness, OathInput, OathSummary, ProjectInput, ResultsInput, Site, SiteFile,
};
use super::overlay::{self, Foreign, ItemMark, Overlay, RunMarks};
use super::{index_page, markdown, page};
use varar_core::verdict::current::{self, Latest};
use varar_core::verdict::evidence::linked_only_among;
use varar_core::verdict::flaky::FlakyItem;
use varar_core::verdict::run_evidence::{
    example_item, failed_items, fresh_documents, last_failure, names_example,
};

fn counts_of(results: &OathResults) -> Counts {
    let failed = results
        .examples
        .iter()
        .filter(|e| e.status == Status::Failed)
        .count();
    Counts {
        passed: results.examples.len() - failed,
        failed,
        ..Counts::default()
    }
}

/// Build the site.
pub fn render_site(input: &ProjectInput) -> Site {
    let oaths: BTreeSet<String> = input.oaths.iter().map(|o| o.oath_path.clone()).collect();
    let texts: BTreeMap<&str, &str> = input
        .oaths
        .iter()
        .filter_map(|o| Some((o.oath_path.as_str(), o.text.as_deref().ok()?)))
        .collect();
    // What the rule every consumer draws by says of each oath's results.
    let drawn: Vec<Drawn<'_>> = input
        .oaths
        .iter()
        .map(|o| drawn(input, o, &texts))
        .collect();
    let foreign = foreign_failures(input, &drawn);
    let linked = linked_only(input);
    let run_fresh = run_fresh_documents(input);
    let mut files = Vec::with_capacity(input.oaths.len() + 2);
    let mut summaries = Vec::with_capacity(input.oaths.len());
    for (o, drawn) in input.oaths.iter().zip(&drawn) {
        let links = Links {
            from: &o.oath_path,
            oaths: &oaths,
        };
        let linked = linked.contains(&o.oath_path);
        let fresh = drawn.current();
        let run = input
            .run
            .as_ref()
            .filter(|_| run_fresh.contains(&o.oath_path));
        let marks = run.map(|r| run_marks(r, o, fresh)).unwrap_or_default();
        let page = Page {
            drawn,
            foreign: &foreign,
            links: &links,
            linked,
            run: &marks,
        };
        let (summary, body) = oath_page(input, o, &page);
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
            contents: index_page::render(
                &input.name,
                &summaries,
                input.standing.as_ref(),
                &input
                    .run
                    .as_ref()
                    .map(RunRecord::removed)
                    .unwrap_or_default(),
            ),
        },
        SiteFile {
            path: "style.css".to_owned(),
            contents: html::STYLE_CSS.to_owned(),
        },
    ];
    site.extend(files);
    Site { files: site }
}

/// What the rule every consumer draws by ([`current::drawn`], issue 34) says of
/// an oath's results.
enum Drawn<'a> {
    /// Of the text as it is now, and the latest run's: drawn.
    Current(&'a OathResults),
    /// Of another text, or of one no record names by SHA-256: why.
    Stale(&'a OathResults, String),
    /// Of the text as it is now, but an earlier run's: why (the standing's
    /// headline).
    Earlier(&'a OathResults, String),
    /// No results were read (none, or a file that cannot be used).
    Nothing,
}

impl<'a> Drawn<'a> {
    /// The results, when they are drawn as current.
    fn current(&self) -> Option<&'a OathResults> {
        match self {
            Drawn::Current(r) => Some(r),
            _ => None,
        }
    }
}

/// Whether the results of `o` are drawn as current ([`current::drawn`]: of the
/// texts as they are now, `texts` holding the oaths', and the latest run
/// vouching for them), or why not.
fn drawn<'a>(input: &ProjectInput, o: &'a OathInput, texts: &BTreeMap<&str, &str>) -> Drawn<'a> {
    let ResultsInput::Read(results) = &o.results else {
        return Drawn::Nothing;
    };
    let latest = Latest {
        standing: input.standing.as_ref(),
        run: input.run.as_ref(),
    };
    let text_of = |doc: Option<&str>| match doc {
        None => o.text.as_deref().ok(),
        Some(path) => texts.get(path).copied(),
    };
    match current::drawn(latest, &o.oath_path, results, text_of, &o.vouched) {
        Err(stale) => Drawn::Stale(results, stale.said),
        Ok(of_text) => match of_text.oath() {
            Ok(()) => Drawn::Current(results),
            Err(why) => Drawn::Earlier(results, why),
        },
    }
}

/// The documents the latest run read as they are now: where its items
/// may be drawn.
fn run_fresh_documents(input: &ProjectInput) -> BTreeSet<String> {
    let Some(run) = &input.run else {
        return BTreeSet::new();
    };
    let digests: BTreeMap<&str, String> = input
        .oaths
        .iter()
        .filter_map(|o| {
            Some((
                o.oath_path.as_str(),
                sha256_hex(o.text.as_ref().ok()?.as_bytes()),
            ))
        })
        .collect();
    fresh_documents(run, |path| digests.get(path).map(String::as_str))
}

/// What the latest run (a run of `o`'s text as it is now) adds to its page.
fn run_marks(run: &RunRecord, o: &OathInput, fresh: Option<&OathResults>) -> RunMarks {
    let items = failed_items(run)
        .filter(|i| i.oath_path == o.oath_path)
        .filter_map(|i| {
            let kind = match i.kind {
                ItemKind::Drift => "drift",
                ItemKind::Diagnostic => "diagnostic",
                _ => return None,
            };
            Some(ItemMark {
                name: i.name.clone(),
                kind,
                line: i.line,
                message: last_failure(i).unwrap_or("failed").to_owned(),
            })
        })
        .collect();
    let recovered = fresh
        .map(|r| {
            r.examples
                .iter()
                .map(|e| {
                    example_item(run, &o.oath_path, e)
                        .filter(|i| i.recovered() && e.status == Status::Passed)
                        .map(|i| i.attempts.len())
                })
                .collect()
        })
        .unwrap_or_default();
    RunMarks { items, recovered }
}

/// For each example of `o`'s fresh results, its outcomes over the kept
/// runs: the example item of `o` named like it, on its first line when
/// several are.
fn strips_of<'a>(
    history: &'a [FlakyItem],
    o: &OathInput,
    fresh: Option<&OathResults>,
) -> Vec<Option<&'a FlakyItem>> {
    let Some(results) = fresh else {
        return Vec::new();
    };
    results
        .examples
        .iter()
        .map(|e| {
            let mut named = history.iter().filter(|i| {
                i.kind == ItemKind::Example
                    && i.oath_path == o.oath_path
                    && names_example(&i.name, &e.name)
            });
            let first = named.next()?;
            let line = e.lines.first().copied();
            if line.is_none_or(|l| l == first.line) {
                return Some(first);
            }
            Some(named.find(|i| Some(i.line) == line).unwrap_or(first))
        })
        .collect()
}

/// What one oath's page is drawn from, besides the oath itself.
struct Page<'a> {
    /// What may be drawn of its results.
    drawn: &'a Drawn<'a>,
    /// Failures other oaths recorded in documents, by document.
    foreign: &'a BTreeMap<&'a str, Vec<Foreign<'a>>>,
    links: &'a Links<'a>,
    /// It has no result file and needs none.
    linked: bool,
    /// What the latest run adds.
    run: &'a RunMarks,
}

/// Failures recorded by one oath whose offsets point into another
/// document, by that document: drawn on its page when the result is drawn
/// as current, which it is only when made from that document's text as it
/// is now too (spec 70 §70.4.4, §70.4.5; [`current::drawn`]).
fn foreign_failures<'a>(
    input: &'a ProjectInput,
    drawn: &[Drawn<'a>],
) -> BTreeMap<&'a str, Vec<Foreign<'a>>> {
    let mut foreign: BTreeMap<&str, Vec<Foreign<'_>>> = BTreeMap::new();
    for (o, drawn) in input.oaths.iter().zip(drawn) {
        let Some(results) = drawn.current() else {
            continue;
        };
        for e in &results.examples {
            let Some(f) = &e.failure else { continue };
            let Some(doc) = f.doc_path.as_deref() else {
                continue;
            };
            if results.documents.iter().any(|d| d.path == doc) {
                foreign.entry(doc).or_default().push(Foreign {
                    oath_path: &o.oath_path,
                    example: &e.name,
                    failure: f,
                });
            }
        }
    }
    foreign
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
        .filter(|o| {
            matches!(
                o.results,
                ResultsInput::Missing | ResultsInput::NewerFormat(_)
            )
        })
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

/// The summary and page body of one oath.
fn oath_page(input: &ProjectInput, o: &OathInput, page: &Page<'_>) -> (OathSummary, String) {
    let Page {
        drawn,
        foreign,
        links,
        linked,
        run,
    } = *page;
    let text = match &o.text {
        Ok(text) => text,
        Err(reason) => return unreadable_page(o, reason),
    };
    let hash = source_hash(text);
    let source = Source::new(text);
    let doc: Doc = parse(&o.oath_path, &source);
    let parsed = ParsedOath {
        lock: input
            .lock
            .as_ref()
            .and_then(|l| l.oaths.get(&o.oath_path))
            .filter(|entry| entry.source_hash == hash),
        foreign: others(foreign, o),
        source,
        doc,
        run,
    };
    let fresh = drawn.current();
    let (freshness, mut counts, mut overlay) = results_on(o, drawn, &parsed, linked);
    let strips = strips_of(&input.history, o, fresh);
    let texts: BTreeMap<&str, &str> = input
        .oaths
        .iter()
        .filter_map(|o| Some((o.oath_path.as_str(), o.text.as_deref().ok()?)))
        .collect();
    overlay.spliced = super::spliced::expansions(&o.oath_path, &parsed.doc, &texts, links);
    counts.recovered = overlay
        .examples
        .iter()
        .filter(|e| e.recovered.is_some())
        .count();
    counts.items_failed = run.items.len();
    let flaky: Vec<(String, FlakyItem)> = fresh
        .iter()
        .flat_map(|r| r.examples.iter())
        .zip(&strips)
        .filter_map(|(e, s)| Some((e.name.clone(), (*s)?.clone())).filter(|(_, i)| i.flaky))
        .collect();
    counts.flaky = flaky.len();
    let rendered = markdown::render(text, &overlay, links);
    let (state, status) = state_of(&freshness, &counts);
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
        flaky,
    };
    let stale_examples = match (&o.results, &summary.freshness) {
        (ResultsInput::Read(r), Freshness::Stale { .. } | Freshness::Earlier(_)) => Some(r),
        _ => None,
    };
    let body = page::render(
        &summary,
        &overlay,
        &rendered,
        links,
        stale_examples,
        &strips,
    );
    (summary, body)
}

/// The summary and page body of an oath that could not be read.
fn unreadable_page(o: &OathInput, reason: &str) -> (OathSummary, String) {
    let summary = OathSummary {
        oath_path: o.oath_path.clone(),
        title: o.oath_path.clone(),
        freshness: Freshness::NoText,
        counts: Counts::default(),
        state: State::Unreadable,
        status: "oath unreadable",
        flaky: Vec::new(),
    };
    let body = page::unreadable_oath(&summary, reason);
    (summary, body)
}

/// An oath's text, parsed, with what may be drawn on it besides its own
/// results.
struct ParsedOath<'a> {
    source: Source<'a>,
    doc: Doc,
    /// Failures other oaths recorded in this text.
    foreign: &'a [Foreign<'a>],
    /// The lock entry, when it is of this very text.
    lock: Option<&'a LockEntry>,
    /// What the latest run adds.
    run: &'a RunMarks,
}

/// How the oath's results relate to its text, its counts, and what is
/// drawn on it: only results drawn as current are drawn (`drawn`, issue
/// 34), and "not run" is counted only against a fresh lock entry.
fn results_on(
    o: &OathInput,
    drawn: &Drawn<'_>,
    parsed: &ParsedOath<'_>,
    linked: bool,
) -> (Freshness, Counts, Overlay) {
    let draw = |own: Option<&OathResults>, lock: Option<&LockEntry>| {
        overlay::build_with_run(
            &parsed.source,
            &parsed.doc,
            own,
            parsed.foreign,
            lock,
            parsed.run,
        )
    };
    match (drawn, &o.results) {
        (Drawn::Current(results), _) => {
            let overlay = draw(Some(results), parsed.lock);
            let counts = Counts {
                not_run: parsed.lock.map(|_| not_run(&overlay)),
                ..counts_of(results)
            };
            (Freshness::Fresh, counts, overlay)
        }
        (Drawn::Earlier(results, why), _) => (
            Freshness::Earlier(why.clone()),
            counts_of(results),
            draw(None, None),
        ),
        (Drawn::Stale(results, why), _) => (
            Freshness::Stale { why: why.clone() },
            counts_of(results),
            draw(None, None),
        ),
        (Drawn::Nothing, ResultsInput::Unreadable(reason)) => (
            Freshness::Unreadable(reason.clone()),
            Counts::default(),
            draw(None, None),
        ),
        (Drawn::Nothing, _) => {
            let overlay = draw(None, parsed.lock);
            let counts = Counts {
                not_run: parsed.lock.map(|_| not_run(&overlay)),
                ..Counts::default()
            };
            let freshness = match &o.results {
                _ if linked => Freshness::Linked,
                ResultsInput::NewerFormat(why) => Freshness::NewerFormat(why.clone()),
                _ => Freshness::NoResults,
            };
            (freshness, counts, overlay)
        }
    }
}

/// The oath's overall state, and in words.
fn state_of(freshness: &Freshness, counts: &Counts) -> (State, &'static str) {
    match freshness {
        Freshness::Fresh | Freshness::NoResults | Freshness::NewerFormat(_) | Freshness::Linked
            if counts.items_failed > 0 =>
        {
            (State::Failed, "failed")
        }
        Freshness::NoText => (State::Unreadable, "oath unreadable"),
        Freshness::Unreadable(_) => (State::Unreadable, "results unreadable"),
        Freshness::NoResults | Freshness::NewerFormat(_) => (State::NotRun, "not run"),
        Freshness::Linked => (State::NotRun, "runs where linked"),
        Freshness::Stale { .. } => (State::Stale, "stale results"),
        Freshness::Earlier(_) => (State::Stale, "results of an earlier run"),
        Freshness::Fresh if counts.failed > 0 => (State::Failed, "failed"),
        Freshness::Fresh if counts.passed > 0 => (State::Passed, "passed"),
        Freshness::Fresh => (State::NotRun, "no example ran"),
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
