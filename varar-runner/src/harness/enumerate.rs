//! Enumeration (spec 40 §7.2 phase 1): every selected oath read, parsed
//! and planned once, turned into trials, drift records and result sinks.
//! A listing only needs the items' names, so it renders no message and
//! keeps no text.

use std::sync::{Arc, Mutex};

use libtest_mimic::{Failed, Trial};

use super::names::{UniqueNames, example_item};
use super::trial::{RunShared, run_example};
use super::watch::Watch;
use crate::discovery::{OathFile, read_oath};
use crate::drift::{candidates, detect_drift, fresh_entry, held_by_ambiguity};
use crate::hash::source_hash;
use crate::lock::{Baseline, OathRecord};
use crate::parse::parse;
use crate::plan::{PlannedExample, plan};
use crate::render::{Styles, report};
use crate::results::{ExampleKey, ExampleResult, OathResults, example_result, oath_results};
use crate::source::{Source, Tables};

/// What enumeration produced.
pub(crate) struct Prepared {
    /// One trial per example, diagnostic, drift and unreadable oath.
    pub trials: Vec<Trial>,
    /// The lock records of every discovered oath.
    pub records: Vec<OathRecord>,
    /// Result sinks of the oaths that were planned.
    pub oaths: Vec<Arc<OathRun>>,
}

/// One oath as the trials see it: its text (for failure excerpts) and the
/// results its examples report.
pub(crate) struct OathRun {
    pub path: String,
    text: String,
    /// The position tables of `text`, built once while planning and shared
    /// by every failing example's excerpt.
    tables: Arc<Tables>,
    hash: String,
    /// The key of every planned example, in plan order: what the oath's
    /// result file may list (issue 10).
    pub planned: Vec<ExampleKey>,
    results: Mutex<Vec<(usize, ExampleResult)>>,
}

impl OathRun {
    fn record(&self, index: usize, result: ExampleResult) {
        // A poisoned lock only means another trial panicked mid-push; the
        // vector itself is still whole.
        let mut results = self.results.lock().unwrap_or_else(|e| e.into_inner());
        results.push((index, result));
    }

    /// Whether the oath has examples and every one of them ran (so its
    /// results replace the stored ones instead of merging into them).
    pub fn complete(&self) -> bool {
        let results = self.results.lock().unwrap_or_else(|e| e.into_inner());
        !self.planned.is_empty() && results.len() == self.planned.len()
    }

    /// The run-result payload of the examples that ran (maybe none).
    pub fn results(&self) -> OathResults {
        let mut results = self
            .results
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        results.sort_by_key(|(i, _)| *i);
        let examples = results.into_iter().map(|(_, r)| r).collect();
        oath_results(&self.path, &self.hash, examples)
    }
}

/// Whether the trials will run or only be listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Purpose {
    /// The trials run: failure messages are rendered.
    Run,
    /// `--list`: only the names matter.
    List,
}

/// Read, parse and plan every oath, and build the trials.
pub(crate) fn prepare(
    oaths: &[&OathFile],
    shared: &Arc<RunShared>,
    watch: &Watch,
    baseline: &Baseline,
    update: bool,
    styles: &Styles,
    purpose: Purpose,
) -> Prepared {
    let listing = purpose == Purpose::List;
    let registry = &shared.registry;
    let mut prepared = Prepared {
        trials: Vec::new(),
        records: Vec::new(),
        oaths: Vec::new(),
    };
    let mut names = UniqueNames::default();
    for &oath in oaths {
        let text = match read_oath(oath) {
            Ok(text) => text,
            Err(e) => {
                let message = e.to_string();
                let name = names.claim(format!("{}::varar:read-error", oath.oath_path));
                prepared.trials.push(failing(name, message));
                prepared.records.push(OathRecord {
                    oath_path: oath.oath_path.clone(),
                    entry: None,
                    drifted: false,
                });
                continue;
            }
        };
        let hash = source_hash(&text);
        let source = Source::new(&text);
        let doc = parse(&oath.oath_path, &source);
        let plan = plan(&doc, &source, registry);
        let cands = candidates(&doc, &plan);
        let entry = baseline.entry(&oath.oath_path);
        let (drifts, held) = if update {
            (Vec::new(), false)
        } else {
            (
                detect_drift(entry, &cands),
                held_by_ambiguity(entry, &cands),
            )
        };
        prepared.records.push(OathRecord {
            oath_path: oath.oath_path.clone(),
            entry: Some(fresh_entry(&hash, &cands)),
            drifted: !drifts.is_empty() || held,
        });

        let diagnostics: Vec<(String, String)> = plan
            .diagnostics
            .iter()
            .map(|d| {
                let name = format!(
                    "{}::varar:diagnostic:{}:{}",
                    oath.oath_path,
                    d.code.as_str(),
                    d.span.start_line
                );
                let message = if listing {
                    String::new()
                } else {
                    report::diagnostic(&oath.oath_path, &source, d, styles)
                };
                (name, message)
            })
            .collect();
        let drift_items: Vec<(String, String)> = drifts
            .iter()
            .map(|d| {
                let name = format!("{}::varar:drift:{}", oath.oath_path, d.line);
                let message = if listing {
                    String::new()
                } else {
                    report::drift(&oath.oath_path, &source, d, styles)
                };
                (name, message)
            })
            .collect();

        let run = Arc::new(OathRun {
            path: oath.oath_path.clone(),
            text: if listing { String::new() } else { text.clone() },
            tables: source.tables(),
            hash,
            planned: plan.examples.iter().map(ExampleKey::of).collect(),
            results: Mutex::new(Vec::new()),
        });
        for (index, example) in plan.examples.into_iter().enumerate() {
            let name = names.claim(example_item(
                &oath.oath_path,
                &example.scope_stack,
                &example.name,
            ));
            let steps = example.steps.iter().map(|s| s.text.clone()).collect();
            let progress = watch.add(&name, steps);
            prepared.trials.push(example_trial(
                name,
                index,
                Arc::new(example),
                Arc::clone(&run),
                (Arc::clone(shared), progress),
                styles.clone(),
            ));
        }
        for (name, message) in diagnostics.into_iter().chain(drift_items) {
            prepared.trials.push(failing(names.claim(name), message));
        }
        prepared.oaths.push(run);
    }
    prepared
}

/// The trial of one planned example: it owns the example and only executes it.
fn example_trial(
    name: String,
    index: usize,
    example: Arc<PlannedExample>,
    oath: Arc<OathRun>,
    (shared, progress): (Arc<RunShared>, Arc<super::watch::ExampleProgress>),
    styles: Styles,
) -> Trial {
    Trial::test(name, move || {
        let run = run_example(&shared, &example, &progress);
        oath.record(index, example_result(&example, &run, &oath.path));
        match &run.failure {
            None => Ok(()),
            Some(failure) => {
                let source = Source::with_tables(&oath.text, Arc::clone(&oath.tables));
                let mut text = report::failure(&oath.path, &source, &example, failure, &styles);
                text.push_str(&report::teardown_notes(&run.teardown, failure, &styles));
                Err(Failed::from(text))
            }
        }
    })
    .with_kind("varar")
}

/// An item that always fails with `message` (drift, diagnostics, read errors).
pub(crate) fn failing(name: String, message: String) -> Trial {
    Trial::test(name, move || Err(Failed::from(message))).with_kind("varar")
}
