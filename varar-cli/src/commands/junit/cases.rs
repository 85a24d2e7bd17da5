//! What a CI report lists (pure): the suites and cases of a project's
//! evidence, decided once for every report that lists them (`junit` and
//! `ctrf` write the same cases, each in its own format; see the decisions
//! in [`super`]'s module doc).
//!
//! Texts here are as recorded: the XML escape of [`super::xml_chars`] is the
//! JUnit writer's business, not the cases'.

use std::collections::BTreeSet;

use varar_core::names::{ItemKind, UniqueNames};
use varar_core::record::{ItemEvidence, RunRecord};
use varar_core::results::OathResults;
use varar_core::tags::TagIndex;
use varar_core::verdict::current::Latest;
use varar_core::verdict::evidence::{EvidenceState, OathEvidence, ProjectEvidence};
use varar_core::verdict::records::ErrorRecord;
use varar_core::verdict::run_evidence::{RunEvidence, example_item, failed_items, last_failure};
use varar_core::verdict::standing::{RunStanding, Standing};

use super::failure_text;

/// The cases of a project, by suite.
#[derive(Debug)]
pub struct Cases<'e> {
    /// One suite per oath (or document, or unreadable path) with cases, in
    /// discovery order, then the suites of items without an oath of their
    /// own.
    pub suites: Vec<Suite<'e>>,
    /// The latest run, when a run record was read: the one the cases'
    /// items come from.
    pub run: Option<&'e RunRecord>,
    /// Things worth saying that do not stop the conversion.
    pub warnings: Vec<String>,
}

/// The cases of one oath.
#[derive(Debug)]
pub struct Suite<'e> {
    /// The oathPath (or document, or path) the suite is named after.
    pub oath_path: &'e str,
    /// Its cases: the examples of its result file, then its failing drift,
    /// diagnostic and read-error items.
    pub cases: Vec<Case<'e>>,
}

/// One case: an example, or a failing item that is not one.
#[derive(Debug)]
pub struct Case<'e> {
    /// Its name, unique in its suite: an example's name as its result file
    /// records it (`[1]`, `[2]`… on repeats), an item's full name.
    pub name: String,
    /// What it is.
    pub kind: ItemKind,
    /// Its first line, when known (a read error has none).
    pub line: Option<u32>,
    /// Why it failed; `None`: it passed.
    pub failure: Option<CaseFailure>,
    /// The latest run's item of it, when the run lists it: its full name
    /// and its attempts.
    pub item: Option<&'e ItemEvidence>,
    /// An example's tags (`<!-- @slow -->`, [`varar_core::tags`]): those
    /// of its sections, outer first, then its own. None for a stale
    /// result, whose lines may point into another text, and for items.
    pub tags: Vec<String>,
}

/// A case's failure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaseFailure {
    /// The first line of the recorded message.
    pub message: String,
    /// The whole failure for people: an example's rendered as the harness
    /// renders it ([`failure_text::render`]), an item's recorded text.
    pub text: String,
}

impl Case<'_> {
    /// The earlier attempts of a case that ran more than once (the last
    /// attempt is the case itself).
    pub fn earlier_attempts(&self) -> &[varar_core::record::Attempt] {
        self.item
            .and_then(|i| i.attempts.split_last())
            .map_or(&[], |(_, earlier)| earlier)
    }
}

/// The project's cases: [`cases`] with the items of the latest run, or the
/// gate's records when the run cannot be judged (see [`super`]'s module
/// docs).
pub fn project_cases(project: &ProjectEvidence) -> Result<Cases<'_>, Vec<ErrorRecord>> {
    let standing = project.standing();
    let refused = !standing.judgeable() && standing.standing != Standing::Missing;
    match cases(
        &project.oaths,
        &project.linked_only,
        Some(&project.run),
        Some(&standing),
    ) {
        Ok(_) if refused => Err(standing.problems),
        Ok(mut cases) => {
            if standing.standing == Standing::Missing {
                cases.warnings.push(format!(
                    "there is no run record in `{}`: drift, diagnostics and read errors, which \
                     result files do not hold, are not listed",
                    project.run.dir
                ));
            }
            cases
                .warnings
                .extend(standing.warnings.iter().map(|w| w.message.clone()));
            Ok(cases)
        }
        Err(mut errors) => {
            if refused {
                errors.extend(standing.problems);
            }
            Err(errors)
        }
    }
}

/// The cases of `oaths`, where the oaths of `linked_only` have no suite and
/// no warning (they run, and are reported, inside the oaths that link to
/// them: spec 70 §70.4.5); `standing`, the latest run's, decides with the
/// texts what is current ([`varar_core::verdict::current::drawn`]).
pub fn cases<'e>(
    oaths: &'e [OathEvidence],
    linked_only: &BTreeSet<String>,
    run: Option<&'e RunEvidence>,
    standing: Option<&RunStanding>,
) -> Result<Cases<'e>, Vec<ErrorRecord>> {
    let mut suites = Vec::new();
    let mut warnings = Vec::new();
    let mut errors = Vec::new();
    // A project's run is judged before (`project_cases`): here it is whole.
    let latest = run.and_then(|r| r.latest.as_ref());
    let mut suited = BTreeSet::new();
    for o in oaths {
        let with_items = |mut suite: Suite<'e>| {
            if let Some(run) = latest {
                add_items(&mut suite, run);
            }
            suite
        };
        match o.state(Latest {
            standing,
            run: latest,
        }) {
            EvidenceState::Fresh(r) => {
                suited.insert(o.oath_path.as_str());
                suites.push(with_items(suite(o, r, true, latest)));
            }
            EvidenceState::Stale(r, why)
            | EvidenceState::Unvouched(r, why)
            | EvidenceState::Earlier(r, why) => {
                warnings.push(format!(
                    "`{}` is stale ({why}); its failures are shown without source excerpts",
                    o.result_path
                ));
                suited.insert(o.oath_path.as_str());
                suites.push(with_items(suite(o, r, false, latest)));
            }
            EvidenceState::Missing if linked_only.contains(&o.oath_path) => {}
            EvidenceState::Missing => warnings.push(format!(
                "`{}` has no result ({}): it did not run and is left out",
                o.oath_path,
                o.missing_reason()
            )),
            EvidenceState::Unusable(found) => errors.extend(found),
        }
    }
    if let Some(run) = latest {
        // Items of oaths (or documents, or paths) without a suite of their own.
        let mut others: Vec<&str> = Vec::new();
        for item in failed_items(run).filter(|i| i.kind != ItemKind::Example) {
            let oath = item.oath_path.as_str();
            if !suited.contains(oath) && !others.contains(&oath) {
                others.push(oath);
            }
        }
        for oath in others {
            let mut suite = Suite {
                oath_path: oath,
                cases: Vec::new(),
            };
            add_items(&mut suite, run);
            suites.push(suite);
        }
    }
    if errors.is_empty() {
        Ok(Cases {
            suites,
            run: latest,
            warnings,
        })
    } else {
        Err(errors)
    }
}

/// Every drift, diagnostic and read-error item of the suite's oath whose
/// last attempt failed, as a failing case.
fn add_items<'e>(suite: &mut Suite<'e>, run: &'e RunRecord) {
    let oath_path = suite.oath_path;
    let items =
        failed_items(run).filter(|i| i.kind != ItemKind::Example && i.oath_path == oath_path);
    for item in items {
        let text = last_failure(item).unwrap_or("failed");
        suite.cases.push(Case {
            name: item.name.clone(),
            kind: item.kind,
            line: (item.line > 0).then_some(item.line),
            failure: Some(CaseFailure {
                message: text.lines().next().unwrap_or("").to_owned(),
                text: text.to_owned(),
            }),
            item: Some(item),
            tags: Vec::new(),
        });
    }
}

fn suite<'e>(
    o: &'e OathEvidence,
    results: &'e OathResults,
    fresh: bool,
    run: Option<&'e RunRecord>,
) -> Suite<'e> {
    let mut names = UniqueNames::default();
    let tags = fresh.then(|| o.text_of(None).map(TagIndex::of)).flatten();
    let cases = results
        .examples
        .iter()
        .map(|example| {
            let failure = example.failure.as_ref().map(|f| {
                let text = if fresh {
                    o.text_of(f.doc_path.as_deref())
                } else {
                    None
                };
                CaseFailure {
                    message: f.message.lines().next().unwrap_or("").to_owned(),
                    text: failure_text::render(&o.oath_path, &example.name, f, text),
                }
            });
            Case {
                name: names.claim(example.name.clone()).to_string(),
                kind: ItemKind::Example,
                line: example.lines.first().copied(),
                failure,
                item: run.and_then(|run| example_item(run, &o.oath_path, example)),
                tags: match (&tags, example.lines.first()) {
                    (Some(index), Some(&line)) => {
                        index.at(line).into_iter().map(str::to_owned).collect()
                    }
                    _ => Vec::new(),
                },
            }
        })
        .collect();
    Suite {
        oath_path: &o.oath_path,
        cases,
    }
}
