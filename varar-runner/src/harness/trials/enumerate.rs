//! Enumeration (spec 40 §7.2 phase 1): every selected oath planned once
//! among the others (spec 70 §70.2) with its drift, by the engine's one
//! `planned::plan_with_drift`, then turned into trials, drift records and
//! result sinks in the engine's one order of items (`names::items`). A
//! listing only needs the items' names, so it renders no message.
//!
//! Every selected oath is planned before any item is made, so that a
//! diagnostic written in one document but met while planning another (a
//! link's problem inside a referenced section) is reported once, as an
//! item of the document it is written in (spec 70 §70.6.6).

use std::cell::OnceCell;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::Arc;

use super::example::example_body;
use super::items::{ItemMeta, Items};
pub(crate) use super::oath_run::OathRun;
use super::oath_run::source_of;
use super::parallel::{hash_aside, plan_in_parallel};
use super::planned::{Examples, Planned};
use super::text::DocumentText;
use crate::harness::cache::plans::PlanCache;
use crate::harness::read::documents::Texts;
use crate::harness::run::trial::RunShared;
use varar_core::lock::{Baseline, OathRecord, UpdateSummary};
use varar_core::names::{Item, OathItems, Origin, items};
use varar_core::planned::{Against, PlannedOath, plan_with_drift};
use varar_core::render::{Styles, report};
use varar_core::source::{Source, Tables};
use varar_core::stored::PackedExamples;
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
    /// What the planned oaths' lock entries say beside drift (issue 37):
    /// always the removed examples; under `VARAR_UPDATE` also the drift
    /// accepted as prose and the examples added. Its `pruned` is left to
    /// reconciliation.
    pub changes: UpdateSummary,
    /// The quirks planning met (issue 37), one note each, oath by oath in
    /// document order: said, never a failing item.
    pub notes: Vec<String>,
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
pub(crate) struct Inputs<'a, 'o> {
    /// The oaths to plan, in discovery order.
    pub oaths: &'o [&'o OathFile],
    /// Every discovered oath's text.
    pub texts: &'a Texts,
    pub baseline: &'a Baseline,
    pub update: bool,
    pub styles: &'a Styles,
    pub purpose: Purpose,
    /// Where the plans of the process of one example are kept between
    /// processes, when they can be (`cache/plans/`).
    pub plans: Option<&'a PlanCache>,
}

/// One oath after planning.
enum Pass<'a> {
    /// It could not be read: one failing item, its lock entry kept.
    Unreadable(&'a OathFile, String),
    /// Its plan.
    Planned(&'a OathFile, Box<Planned>),
}

/// Every selected oath planned, before any item is made.
pub(crate) struct Planning<'a> {
    passes: Vec<Pass<'a>>,
}

/// Plan every selected oath (the workspace is dropped once they are).
pub(crate) fn plan<'o>(
    inputs: &Inputs<'_, 'o>,
    workspace: Workspace<'_>,
    shared: &Arc<RunShared>,
) -> Planning<'o> {
    let passes = plan_selected(inputs, &workspace, shared);
    // The parses the workspace kept (documents that link, or that are
    // linked to; the others went as soon as they were planned) go before
    // the items are built, which then reuse their memory.
    drop(workspace);
    Planning { passes }
}

impl Planning<'_> {
    /// Let go every text of `texts` that the items' messages do not draw
    /// from (issue 39): those of documents with drift or a diagnostic stay
    /// until the items are made. Each planned oath's SHA-256, and each
    /// linked document's and its `sourceHash`, are computed first: the run
    /// record and the results name them. A failing example reads its
    /// document again (`text.rs`).
    pub(crate) fn let_texts_go(&mut self, texts: &mut Texts) {
        let mut keep: HashSet<String> = HashSet::new();
        for pass in &self.passes {
            let Pass::Planned(oath, planned) = pass else {
                continue;
            };
            let path = &oath.oath_path;
            let _ = texts.sha256(path);
            for linked in &planned.linked {
                let _ = (texts.sha256(linked), texts.source_hash(linked));
            }
            if !planned.oath.drifts.is_empty() {
                keep.insert(path.clone());
            }
            let documents = planned.oath.plan.diagnostics.iter();
            keep.extend(documents.map(|d| d.doc_path.clone().unwrap_or_else(|| path.clone())));
        }
        for pass in &mut self.passes {
            if let Pass::Planned(oath, planned) = pass
                && !keep.contains(&oath.oath_path)
            {
                planned.tables = None;
            }
        }
        texts.let_go_but(|path| keep.contains(path));
    }
}

/// Build the trials of the oaths `planning` planned, in the engine's order
/// of items.
pub(crate) fn build(
    inputs: Inputs<'_, '_>,
    planning: Planning<'_>,
    shared: &Arc<RunShared>,
) -> Prepared {
    let mut passes = planning.passes;
    name_examples(&mut passes);
    let order = {
        let oaths: Vec<OathItems<'_>> = passes.iter().map(Pass::items).collect();
        items(&oaths)
    };
    let mut prepared = Prepared {
        items: Items::default(),
        used: BTreeSet::new(),
        records: Vec::with_capacity(passes.len()),
        oaths: Vec::new(),
        changes: UpdateSummary::default(),
        notes: passes.iter().flat_map(Pass::notes).collect(),
    };
    prepared.items.reserve(order.len());
    let mut hashes = HashMap::new();
    let sinks: Vec<Option<Sink>> = passes
        .iter_mut()
        .map(|pass| sink(&inputs, pass, &mut hashes, &mut prepared))
        .collect();
    let build = Build {
        inputs: &inputs,
        shared,
        passes: &passes,
        sinks: &sinks,
        planned: OnceCell::new(),
    };
    let mut trailing = None;
    for item in order {
        build.push(item, &mut trailing, &mut prepared.items);
    }
    prepared
}

/// Name the examples of every planned pass, on two threads.
fn name_examples(passes: &mut [Pass<'_>]) {
    let names =
        varar_core::threads::map_in_halves(passes.len(), 2, &|| (), &|(), i| match &passes[i] {
            Pass::Planned(oath, planned) => Some(planned.name(&oath.oath_path)),
            Pass::Unreadable(..) => None,
        });
    for (pass, names) in passes.iter_mut().zip(names) {
        if let (Pass::Planned(_, planned), Some(names)) = (pass, names) {
            planned.names = names;
        }
    }
}

impl<'a> Pass<'a> {
    /// The notes of the quirks its plan met, `<oath>:<line>:<col>: what`,
    /// then the fix (an example that checks nothing is for `cargo varar
    /// check` and the editor to say, issue 37).
    fn notes(&self) -> Vec<String> {
        let Pass::Planned(oath, planned) = self else {
            return Vec::new();
        };
        planned
            .oath
            .plan
            .notices
            .iter()
            .filter(|n| n.kind.is_quirk())
            .map(|n| {
                format!(
                    "{}:{}:{}: {}\n  help: {}",
                    oath.oath_path, n.span.start_line, n.span.start_col, n.message, n.fix
                )
            })
            .collect()
    }

    /// The oath as the engine's order of items reads it.
    fn items(&self) -> OathItems<'_> {
        match self {
            Pass::Unreadable(oath, _) => OathItems::Unreadable {
                path: &oath.oath_path,
            },
            Pass::Planned(oath, planned) => OathItems::Planned {
                path: &oath.oath_path,
                plan: &planned.oath.plan,
                drifts: &planned.oath.drifts,
                names: Some(&planned.names),
            },
        }
    }
}

/// Every selected oath planned with its drift, in discovery order; an
/// unreadable one as its reason.
fn plan_selected<'a>(
    inputs: &Inputs<'_, 'a>,
    workspace: &Workspace<'_>,
    shared: &RunShared,
) -> Vec<Pass<'a>> {
    let registry = shared.steps.registry();
    let readable: Vec<&str> = inputs
        .oaths
        .iter()
        .filter(|o| matches!(inputs.texts.get(&o.oath_path), Some(Ok(_))))
        .map(|o| o.oath_path.as_str())
        .collect();
    let plan_one = |path: &str| {
        // Only a text that was read is planned.
        inputs.texts.text(path)?;
        let against = Against {
            entry: inputs.baseline.entry(path),
            update: inputs.update,
        };
        let entry = inputs.plans.and_then(|cache| {
            let sha = inputs.texts.sha256(path)?;
            Some((cache, cache.entry(path, sha)))
        });
        // A stored plan whose judgement needs the names it was kept
        // without (its entry no longer reads as recorded) is planned again.
        if let Some((cache, entry)) = &entry
            && let Some(kept) = cache.load(entry)
            && let Some(oath) = PlannedOath::judged(kept.plan, kept.candidates, against)
        {
            // Kept with the plan, under the text's SHA-256: not a pass over
            // the text again.
            let hash = inputs.texts.know_source_hash(path, kept.source_hash)?;
            let stored: Examples<Store> = Examples::Stored(kept.packed);
            return Some(Planned::new(
                (path, hash),
                oath,
                None,
                stored,
                inputs.update,
            ));
        }
        // The document's parse is dropped as soon as it is planned, unless
        // others link to it (the workspace keeps those).
        let (oath, tables) = workspace.with_document(path, |document| {
            let oath = plan_with_drift(workspace, document, registry, against);
            (oath, Some(document.source().tables()))
        })?;
        // Asked once planned: `hash_aside` may have it ready by then.
        let hash = inputs.texts.source_hash(path)?.to_owned();
        let store = entry.map(|(cache, entry)| {
            let hash = hash.clone();
            move |oath: &PlannedOath, packed: &PackedExamples| {
                cache.store(&entry, (&oath.plan, &hash), packed, &oath.candidates);
            }
        });
        Some(Planned::new(
            (path, hash),
            oath,
            tables,
            Examples::Planned(store),
            inputs.update,
        ))
    };
    let hash_all = || {
        for path in &readable {
            let _ = inputs.texts.source_hash(path);
        }
    };
    let mut plans = std::thread::scope(|scope| {
        if hash_aside(inputs.texts, &readable) {
            // The `sourceHash`es are read a byte at a time (20 ms a 10 MB
            // oath in an unoptimised build, a third of pulldown-cmark's
            // own pass over it): on a thread of their own while the oaths
            // are parsed and planned, each computed once whichever thread
            // asks first. Without a thread to spare, each is computed
            // when asked.
            varar_core::threads::spawn_up_to(scope, 1, &hash_all);
        }
        plan_in_parallel(&readable, plan_one)
    })
    .into_iter();
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
        passes.push(Pass::Planned(oath, Box::new(planned)));
    }
    passes
}

/// The type of a plan cache's store, for a plan read back from it (stored
/// no more).
type Store = fn(&PlannedOath, &PackedExamples);

/// What the items of one planned oath share: its result sink, its text
/// (for the excerpts of its failing items) and its examples, packed, each
/// read back by the trial that runs it.
struct Sink {
    run: Arc<OathRun>,
    /// Its text and position tables, held while its drift or diagnostics
    /// are rendered (none when they were let go: it has neither).
    text: Option<(Arc<str>, Arc<Tables>)>,
    packed: Arc<PackedExamples>,
}

/// The lock record of `pass`, and for a planned oath its result sink, the
/// documents it used, and its packed examples.
fn sink(
    inputs: &Inputs<'_, '_>,
    pass: &mut Pass<'_>,
    hashes: &mut HashMap<String, String>,
    prepared: &mut Prepared,
) -> Option<Sink> {
    let (oath, planned) = match pass {
        Pass::Unreadable(oath, _) => {
            // Its lock entry is kept as it was.
            prepared.records.push(OathRecord {
                oath_path: oath.oath_path.clone(),
                entry: None,
                drifted: false,
            });
            return None;
        }
        Pass::Planned(oath, planned) => (oath, planned),
    };
    let path = &oath.oath_path;
    // Held only for an oath with drift or diagnostics (or when the run
    // lets no text go): its tables are made here if its plan was read
    // back from the cache, which made none.
    let text = inputs.texts.text(path).map(|text| {
        let tables = (planned
            .tables
            .get_or_insert_with(|| Source::new(text).tables()))
        .clone();
        (Arc::clone(text), tables)
    });
    prepared.records.extend(planned.record.take());
    let changes = std::mem::take(&mut planned.changes);
    prepared.changes.removed.extend(changes.removed);
    prepared.changes.accepted.extend(changes.accepted);
    prepared.changes.added.extend(changes.added);
    let documents = inputs.texts.documents_of(&planned.linked, hashes);
    prepared.used.insert(path.clone());
    prepared
        .used
        .extend(documents.iter().map(|d| d.path.clone()));
    let document_texts = (documents.iter())
        .filter_map(|d| DocumentText::of(inputs.texts, &d.path, None))
        .collect();
    let own = DocumentText::of(inputs.texts, path, planned.tables.clone())?;
    let run = Arc::new(OathRun::new(
        path.clone(),
        own,
        planned.hash.clone(),
        (documents, document_texts),
        Arc::clone(&planned.packed),
    ));
    prepared.oaths.push(Arc::clone(&run));
    Some(Sink {
        run,
        text,
        packed: Arc::clone(&planned.packed),
    })
}

/// What every item is built with.
struct Build<'b, 'a> {
    inputs: &'b Inputs<'b, 'a>,
    shared: &'b Arc<RunShared>,
    passes: &'b [Pass<'a>],
    /// Per pass, its sink when it was planned.
    sinks: &'b [Option<Sink>],
    /// The planned passes by oathPath, once a diagnostic is rendered.
    planned: OnceCell<HashMap<&'b str, usize>>,
}

impl Build<'_, '_> {
    /// Add `item`'s trial. `trailing` keeps the text of the last document
    /// that was not planned whose diagnostics were rendered.
    fn push(&self, item: Item, trailing: &mut Option<Trailing>, items: &mut Items) {
        let meta = ItemMeta {
            kind: item.kind(),
            name: item.name,
            oath_path: item.document,
            line: item.line,
        };
        match item.origin {
            Origin::Example { oath, example } => {
                let Some(sink) = self.sink(oath).filter(|s| example < s.packed.len()) else {
                    return;
                };
                let body = example_body(
                    (example, Arc::clone(&meta.name)),
                    Arc::clone(&sink.packed),
                    Arc::clone(&sink.run),
                    Arc::clone(self.shared),
                );
                items.push(meta, body);
            }
            Origin::ReadError { oath } => {
                let Some(Pass::Unreadable(_, message)) = self.passes.get(oath) else {
                    return;
                };
                // The reason names the path: escaped for the terminal (issue 34).
                let shown = varar_core::untrusted::terminal_text(message).into_owned();
                items.push_failing(meta, shown, message.clone());
            }
            Origin::Drift { oath, drift } => {
                let (Some(sink), Some(Pass::Planned(_, planned))) =
                    (self.sink(oath), self.passes.get(oath))
                else {
                    return;
                };
                let Some(d) = planned.oath.drifts.get(drift) else {
                    return;
                };
                let path = &*meta.oath_path;
                let (message, plain) = self.inputs.render(|styles| {
                    // A drift item's text is held (`let_texts_go`).
                    let source = source_of(&sink.text).unwrap_or_else(|| Source::new(""));
                    report::drift(path, &source, d, styles)
                });
                items.push_failing(meta, message, plain);
            }
            Origin::Diagnostic { oath, diagnostic } => {
                let Some(Pass::Planned(_, planned)) = self.passes.get(oath) else {
                    return;
                };
                let Some(d) = planned.oath.plan.diagnostics.get(diagnostic) else {
                    return;
                };
                let document = &*meta.oath_path;
                let (message, plain) = match self.source_of(document, trailing) {
                    Some(source) => self
                        .inputs
                        .render(|styles| report::diagnostic(document, &source, d, styles)),
                    None => (String::new(), String::new()),
                };
                items.push_failing(meta, message, plain);
            }
        }
    }

    /// The sink of pass `oath`, if it was planned.
    fn sink(&self, oath: usize) -> Option<&Sink> {
        self.sinks.get(oath)?.as_ref()
    }

    /// The text of `document`, in which a diagnostic lies, to render it
    /// (none when the run only lists): a planned oath's own, else the
    /// document's as read, its lines found once for all its diagnostics.
    fn source_of<'t>(
        &'t self,
        document: &str,
        trailing: &'t mut Option<Trailing>,
    ) -> Option<Source<'t>> {
        if self.inputs.purpose == Purpose::List {
            return None;
        }
        let planned = self.planned.get_or_init(|| {
            let paths = self
                .passes
                .iter()
                .enumerate()
                .filter_map(|(i, pass)| match pass {
                    Pass::Planned(oath, _) => Some((oath.oath_path.as_str(), i)),
                    Pass::Unreadable(..) => None,
                });
            // The first pass of a path, as the order of items has it.
            let mut planned = HashMap::new();
            for (path, i) in paths {
                planned.entry(path).or_insert(i);
            }
            planned
        });
        let own = planned
            .get(document)
            .and_then(|&i| self.sink(i)?.text.as_ref());
        if let Some((text, tables)) = own {
            return Some(Source::with_tables(text, Arc::clone(tables)));
        }
        if trailing.as_ref().is_none_or(|t| t.document != document) {
            let text = Arc::clone(self.inputs.texts.text(document)?);
            let tables = Source::new(&text).tables();
            *trailing = Some(Trailing {
                document: document.to_owned(),
                text,
                tables,
            });
        }
        let t = trailing.as_ref()?;
        Some(Source::with_tables(&t.text, Arc::clone(&t.tables)))
    }
}

/// The text of a document that was not planned, whose diagnostics are
/// items.
struct Trailing {
    document: String,
    text: Arc<str>,
    tables: Arc<Tables>,
}

impl Inputs<'_, '_> {
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
