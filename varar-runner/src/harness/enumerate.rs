//! Enumeration (spec 40 §7.2 phase 1): every selected oath planned once
//! among the others (spec 70 §70.2), turned into trials, drift records and
//! result sinks. A listing only needs the items' names, so it renders no
//! message.
//!
//! Two passes: the selected oaths are planned first, so that a diagnostic
//! written in one document but met while planning another (a link's
//! problem inside a referenced section) is reported once, as an item of
//! the document it is written in (spec 70 §70.6.6); then each oath's items
//! are built: its examples, the diagnostics written in it, its drift.

use std::collections::BTreeSet;
use std::sync::Arc;

use super::documents::{Diagnostics, Texts};
use super::items::{Body, ItemMeta, Items};
pub(crate) use super::oath_run::OathRun;
use super::plan_cache::PlanCache;
use super::trial::{RunShared, run_example};
use varar_core::drift::{
    CandidateInfo, detect_drift, fresh_entry, held_by_ambiguity, oath_candidates,
};
use varar_core::lock::{Baseline, OathRecord};
use varar_core::names::{
    ExampleItems, ItemKind, UniqueNames, diagnostic_item, drift_item, read_error_item,
};
use varar_core::plan::{Diagnostic, Plan, PlannedExample, plan_document};
use varar_core::render::{Styles, report};
use varar_core::results::{ExampleKey, example_result};
use varar_core::source::{Source, Tables};
use varar_core::workspace::Workspace;
use varar_project::discovery::OathFile;

/// What enumeration produced.
pub(crate) struct Prepared {
    /// One trial per example, diagnostic, drift and unreadable oath, with
    /// what the run record says of each.
    pub items: Items,
    /// The documents the planned oaths used: themselves and every document
    /// their steps were spliced from.
    pub used: BTreeSet<String>,
    /// The lock records of every discovered oath.
    pub records: Vec<OathRecord>,
    /// Result sinks of the oaths that were planned.
    pub oaths: Vec<Arc<OathRun>>,
}

/// Whether the trials will run or only be listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Purpose {
    /// The trials run: failure messages are rendered.
    Run,
    /// `--list`: only the names matter.
    List,
}

/// What enumeration reads from (besides the workspace, which it drops
/// once planning is done).
pub(crate) struct Inputs<'a> {
    /// The oaths to plan, in discovery order.
    pub oaths: &'a [&'a OathFile],
    /// Every discovered oath's text.
    pub texts: &'a Texts,
    pub baseline: &'a Baseline,
    pub update: bool,
    pub styles: &'a Styles,
    pub purpose: Purpose,
    /// Where the plans of the process of one example are kept between
    /// processes, when they can be (`plan_cache.rs`).
    pub plans: Option<&'a PlanCache>,
}

/// One oath after the first pass.
enum Pass<'a> {
    /// It could not be read: one failing item, its lock entry kept.
    Unreadable(&'a OathFile, String),
    /// Its plan.
    Planned(&'a OathFile, Box<Planned>),
}

/// A planned oath and what the second pass needs of its parsed document,
/// taken while planning: the parses are dropped before the second pass.
struct Planned {
    plan: Plan,
    /// Its candidates as drift reads them.
    candidates: Vec<CandidateInfo>,
    /// The position tables of its text.
    tables: Arc<Tables>,
    /// Its `sourceHash`.
    hash: String,
    /// Each example's key, in plan order.
    keys: Vec<ExampleKey>,
    /// Each example's item name before de-duplication across the run, in
    /// plan order: made here, on the planning threads, so that only the
    /// claiming of names is left to the one thread that builds items.
    base_names: Vec<String>,
}

impl Planned {
    /// The oath at `path`, whose text has the `sourceHash` `hash`, planned as `plan`, with
    /// what the second pass needs beside it.
    fn new(
        path: &str,
        hash: String,
        plan: Plan,
        candidates: Vec<CandidateInfo>,
        tables: Arc<Tables>,
    ) -> Planned {
        let mut names = ExampleItems::new(path);
        Planned {
            candidates,
            hash,
            tables,
            keys: plan.examples.iter().map(ExampleKey::of).collect(),
            base_names: plan
                .examples
                .iter()
                .map(|e| names.name(&e.scope_stack, &e.name))
                .collect(),
            plan,
        }
    }
}

/// Plan every oath, then build the trials.
pub(crate) fn prepare(
    inputs: Inputs<'_>,
    workspace: Workspace<'_>,
    shared: &Arc<RunShared>,
) -> Prepared {
    let mut prepared = Prepared {
        items: Items::default(),
        used: BTreeSet::new(),
        records: Vec::new(),
        oaths: Vec::new(),
    };
    let mut build = Build {
        inputs: &inputs,
        shared,
        names: UniqueNames::default(),
        hashes: std::collections::HashMap::new(),
    };
    let (passes, mut diagnostics) = plan_selected(&inputs, &workspace, shared);
    // The parses the workspace kept (documents that link, or that are
    // linked to; the others went as soon as they were planned) go before
    // the items are built, which then reuse their memory.
    drop(workspace);
    let items = passes.iter().map(|pass| match pass {
        Pass::Unreadable(..) => 1,
        Pass::Planned(_, planned) => planned.plan.examples.len() + planned.plan.diagnostics.len(),
    });
    let items: usize = items.sum();
    prepared.items.reserve(items);
    build.names.reserve(items);
    for pass in passes {
        match pass {
            Pass::Unreadable(oath, message) => build.unreadable(oath, message, &mut prepared),
            Pass::Planned(oath, planned) => {
                build.oath(oath, *planned, &mut diagnostics, &mut prepared);
            }
        }
    }
    // Diagnostics written in documents this run did not plan (a run of one
    // item planned only the oath that reaches them).
    for document in diagnostics.documents() {
        let found = diagnostics.take(&document);
        let text = inputs.texts.text(&document).map(Arc::clone);
        let source = text.as_deref().map(Source::new);
        for (meta, message, plain) in diagnostic_items(&document, found, source.as_ref(), &inputs) {
            let meta = ItemMeta {
                name: build.names.claim(meta.name.to_string()),
                ..meta
            };
            prepared.items.push_failing(meta, message, plain);
        }
    }
    prepared
}

/// The first pass: every selected oath planned, and the diagnostics
/// gathered by the document they are written in.
fn plan_selected<'a>(
    inputs: &Inputs<'a>,
    workspace: &Workspace<'_>,
    shared: &RunShared,
) -> (Vec<Pass<'a>>, Diagnostics) {
    let registry = shared.steps.registry();
    let readable: Vec<&str> = inputs
        .oaths
        .iter()
        .filter(|o| matches!(inputs.texts.get(&o.oath_path), Some(Ok(_))))
        .map(|o| o.oath_path.as_str())
        .collect();
    let mut plans = plan_in_parallel(&readable, |path| {
        let text = inputs.texts.text(path)?;
        let hash = inputs.texts.source_hash(path)?.to_owned();
        let entry = inputs.plans.and_then(|cache| {
            let sha = inputs.texts.sha256(path)?;
            Some((cache, cache.entry(path, sha)))
        });
        if let Some((cache, entry)) = &entry
            && let Some((plan, candidates)) = cache.load(entry)
        {
            let tables = Source::new(text).tables();
            return Some(Planned::new(path, hash, plan, candidates, tables));
        }
        // The document's parse is dropped as soon as it is planned, unless
        // others link to it (the workspace keeps those).
        workspace.with_document(path, |document| {
            let plan = plan_document(workspace, document, registry);
            let with_baseline = inputs.baseline.entry(path).is_some();
            let candidates = oath_candidates(workspace, document, &plan, registry, with_baseline);
            if let Some((cache, entry)) = entry {
                cache.store(entry, &plan, &candidates);
            }
            Planned::new(path, hash, plan, candidates, document.source().tables())
        })
    })
    .into_iter();
    let mut diagnostics = Diagnostics::default();
    let mut passes = Vec::with_capacity(inputs.oaths.len());
    for &oath in inputs.oaths {
        match inputs.texts.get(&oath.oath_path) {
            Some(Ok(_)) => {}
            Some(Err(message)) => {
                passes.push(Pass::Unreadable(oath, message.clone()));
                continue;
            }
            None => continue,
        }
        let Some(Some(planned)) = plans.next() else {
            continue;
        };
        diagnostics.add(&oath.oath_path, &planned.plan);
        passes.push(Pass::Planned(oath, Box::new(planned)));
    }
    (passes, diagnostics)
}

/// `plan` of every path, in order, on as many threads as the machine has
/// (planning is pure, and the workspace parses each document once
/// whichever thread asks first): the run's longest stretch on one thread
/// otherwise. This thread plans too, so the plans live in one allocator
/// arena fewer (about 2.5 MiB less resident for 5 000 examples).
fn plan_in_parallel<T: Send>(paths: &[&str], plan: impl Fn(&str) -> T + Sync) -> Vec<T> {
    // One path (a nextest process) needs no count of the processors,
    // which reads the cgroup files.
    let threads = match paths.len() {
        0 | 1 => 1,
        n => std::thread::available_parallelism().map_or(1, |t| usize::from(t).min(n)),
    };
    if threads < 2 {
        return paths.iter().map(|p| plan(p)).collect();
    }
    let plan = &plan;
    // Each thread takes the next unplanned path until none is left, so
    // that they all finish together however long each oath is.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let next = &next;
    let share = move || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(path) = paths.get(i) else {
                return done;
            };
            done.push((i, plan(path)));
        }
    };
    let mut done: Vec<(usize, T)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (1..threads).map(|_| scope.spawn(share)).collect();
        let mut done = share();
        for worker in workers {
            match worker.join() {
                Ok(more) => done.extend(more),
                // Planning does not panic on any input; if it ever did, the
                // panic goes on as it would have on this thread.
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        done
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, t)| t).collect()
}

/// The second pass's state: what every oath's items are built with.
struct Build<'i, 'a> {
    inputs: &'i Inputs<'a>,
    shared: &'i Arc<RunShared>,
    names: UniqueNames,
    /// `sourceHash` of the other documents, computed once each.
    hashes: std::collections::HashMap<String, String>,
}

impl Build<'_, '_> {
    /// An oath that could not be read: one failing item, its lock entry
    /// kept as it was.
    fn unreadable(&mut self, oath: &OathFile, message: String, prepared: &mut Prepared) {
        let meta = ItemMeta {
            name: self.names.claim(read_error_item(&oath.oath_path)),
            kind: ItemKind::ReadError,
            oath_path: oath.oath_path.as_str().into(),
            line: 0,
        };
        // The reason names the path: escaped for the terminal (issue 34).
        let shown = varar_core::untrusted::terminal_text(&message).into_owned();
        prepared.items.push_failing(meta, shown, message);
        prepared.records.push(OathRecord {
            oath_path: oath.oath_path.clone(),
            entry: None,
            drifted: false,
        });
    }

    /// A planned oath's items: its examples, the diagnostics written in it,
    /// then its drift; and its lock record and result sink.
    fn oath(
        &mut self,
        oath: &OathFile,
        planned: Planned,
        diagnostics: &mut Diagnostics,
        prepared: &mut Prepared,
    ) {
        let inputs = self.inputs;
        let path = &oath.oath_path;
        let Planned {
            plan,
            candidates,
            tables,
            hash,
            keys,
            base_names,
        } = planned;
        let Some(text) = inputs.texts.text(path) else {
            return;
        };
        let text = Arc::clone(text);
        let source = Source::with_tables(&text, Arc::clone(&tables));
        let (record, drift_items) = self.drift(path, &source, &candidates, &hash);
        prepared.records.push(record);
        let documents = inputs.texts.documents_of(&plan, &mut self.hashes);
        prepared.used.insert(path.clone());
        prepared
            .used
            .extend(documents.iter().map(|d| d.path.clone()));
        let document_texts = documents
            .iter()
            .filter_map(|d| Some((d.path.clone(), Arc::clone(inputs.texts.text(&d.path)?))))
            .collect();
        let run = Arc::new(OathRun::new(
            path.clone(),
            (Arc::clone(&text), tables),
            hash,
            (documents, document_texts),
            keys,
        ));
        let shared_path: Arc<str> = Arc::from(path.as_str());
        for (index, (example, base)) in plan.examples.into_iter().zip(base_names).enumerate() {
            let name = self.names.claim(base);
            let example = Arc::new(example);
            let meta = ItemMeta {
                name: Arc::clone(&name),
                kind: ItemKind::Example,
                oath_path: Arc::clone(&shared_path),
                line: example.span.start_line,
            };
            let body = example_body(
                (index, name),
                example,
                Arc::clone(&run),
                Arc::clone(self.shared),
            );
            prepared.items.push(meta, body);
        }
        let own = diagnostic_items(path, diagnostics.take(path), Some(&source), inputs);
        for (meta, message, plain) in own.into_iter().chain(drift_items) {
            let meta = ItemMeta {
                name: self.names.claim(meta.name.to_string()),
                ..meta
            };
            prepared.items.push_failing(meta, message, plain);
        }
        prepared.oaths.push(run);
    }

    /// The oath's lock record and its drift items (none under update).
    fn drift(
        &self,
        path: &str,
        source: &Source<'_>,
        cands: &[CandidateInfo],
        hash: &str,
    ) -> (OathRecord, Vec<Failing>) {
        let inputs = self.inputs;
        let entry = inputs.baseline.entry(path);
        let (drifts, held) = if inputs.update {
            (Vec::new(), false)
        } else {
            (detect_drift(entry, cands), held_by_ambiguity(entry, cands))
        };
        let record = OathRecord {
            oath_path: path.to_owned(),
            entry: Some(fresh_entry(hash, cands)),
            drifted: !drifts.is_empty() || held,
        };
        let items = drifts
            .iter()
            .map(|d| {
                let meta = ItemMeta {
                    name: drift_item(path, d.line).into(),
                    kind: ItemKind::Drift,
                    oath_path: path.into(),
                    line: d.line,
                };
                let (message, plain) =
                    inputs.render(|styles| report::drift(path, source, d, styles));
                (meta, message, plain)
            })
            .collect();
        (record, items)
    }
}

/// An item that always fails: its metadata, its text for libtest and the
/// same without colour for the record.
type Failing = (ItemMeta, String, String);

/// The items of the diagnostics written in `document` (spec 40 §7.4):
/// `<document>::varar:diagnostic:<code>:<line>`, the message prefixed with
/// the location in that document.
fn diagnostic_items(
    document: &str,
    found: Vec<Diagnostic>,
    source: Option<&Source<'_>>,
    inputs: &Inputs<'_>,
) -> Vec<Failing> {
    let source = match inputs.purpose {
        Purpose::List => None,
        Purpose::Run => source,
    };
    found
        .iter()
        .map(|d| {
            let meta = ItemMeta {
                name: diagnostic_item(document, d.code, d.span.start_line).into(),
                kind: ItemKind::Diagnostic,
                oath_path: document.into(),
                line: d.span.start_line,
            };
            let (message, plain) = match source {
                Some(source) => {
                    inputs.render(|styles| report::diagnostic(document, source, d, styles))
                }
                None => (String::new(), String::new()),
            };
            (meta, message, plain)
        })
        .collect()
}

impl Inputs<'_> {
    /// A failing item's text for libtest and, without colour, for the
    /// record; nothing when the run only lists.
    fn render(&self, text: impl Fn(&Styles) -> String) -> (String, String) {
        if self.purpose == Purpose::List {
            return (String::new(), String::new());
        }
        let shown = text(self.styles);
        let plain = if *self.styles == Styles::plain() {
            shown.clone()
        } else {
            text(&Styles::plain())
        };
        (shown, plain)
    }
}

/// The body of one planned example's trial: it owns the example and only
/// executes it.
fn example_body(
    (index, name): (usize, Arc<str>),
    example: Arc<PlannedExample>,
    oath: Arc<OathRun>,
    shared: Arc<RunShared>,
) -> Body {
    Box::new(move || {
        // Watched from its start (not from enumeration, when every plan is
        // still held); the watchdog reads the step texts from the plan.
        let progress = shared.watch.add(&name, Arc::clone(&example) as Arc<_>);
        let run = run_example(&shared, &example, &progress);
        oath.record(index, example_result(&example, &run, &oath.path));
        // The last example of an oath writes its results, while the other
        // trials run: the file system's work overlaps theirs instead of
        // following the run.
        if let Some(root) = &shared.results_root
            && oath.complete()
        {
            oath.replace_results(root);
        }
        match &run.failure {
            None => Ok(()),
            Some(failure) => {
                let styles = &shared.styles;
                let mut text = oath.report(&example, failure, styles);
                text.push_str(&report::teardown_notes(&run.teardown, failure, styles));
                let message = failure.bounded_message();
                let first = message.lines().next().unwrap_or_default().to_owned();
                Err((text, Some(first)))
            }
        }
    })
}
