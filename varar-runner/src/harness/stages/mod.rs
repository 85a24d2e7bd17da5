//! One run, as its pipeline (spec 40 §7.2): **setup** (config, update mode,
//! limit, the linked steps and their lifecycle, discovery), **read** (every
//! oath's text once, the workspace, the selection of what to plan, the
//! baseline), **trials** (each selected oath planned once and turned into
//! items, `trials/`), the libtest run (`run/`), and **finish** (`finish/`:
//! results written, the baseline recorded, resources torn down). Each stage
//! returns a value the next takes; only a [`HarnessError`] stops the run.
//!
//! Setup and read load the project by the stages of
//! `varar_project::Project` (config, discovery, texts, lock), the
//! harness's caches between them: the discovery cache, the link index
//! that leaves linkless oaths unread, the lock read beside the texts.
//! The setup stage is `setup.rs`.

use std::process::ExitCode;
use std::sync::Arc;

use libtest_mimic::Arguments;

use super::cache::canonical::canonical_lock;
use super::cache::digests;
use super::cache::plans::{Layout, PlanCache};
use super::error::{FATAL, HarnessError};
use super::finish::lock_save::LockSave;
use super::finish::record::rerun::{continue_run, rerun_mode};
use super::finish::record::{self, Claim, EarlierRuns, Identity, Recording, Start};
use super::finish::{lock_saved, record_baseline, tear_down_resources, write_results};
use super::print;
use super::read::documents::Texts;
use super::read::only::Only;
use super::read::select::Selection;
use super::read::tags::TagSelection;
use super::run::libtest;
use super::run::pool::Pool;
use super::run::runtime::Runtime;
use super::run::trial::RunShared;
use super::run::watch::{Watch, Watchdog};
use super::setup::settings::Settings;
use super::trials::enumerate::{self, OathRun, Prepared, Purpose};
use super::trials::items::ItemMeta;
use crate::lifecycle::ResourceStore;
use varar_core::lock::{
    Baseline, OathRecord, UpdateSummary, removed_notice, stale_notice, stale_paths,
};
use varar_core::names::{ItemKind, ItemName, read_error_item};
use varar_core::record::RemovedExample;
use varar_project::discovery::OathFile;

mod setup;

use setup::{Setup, setup};

/// Run `runner` with `args`: the stages in order.
pub(super) fn run(runner: &Settings, args: &Arguments) -> Result<ExitCode, HarnessError> {
    // The run's directory is made before anything is written (issue 34):
    // see `setup`. A rerun joins the directory of the run it continues,
    // made long ago.
    let identity = Identity::from_env();
    let rerun = rerun_mode()?;
    let only = Only::from_env().map_err(|e| HarnessError::Select(e.to_string()))?;
    let claim_for = (!args.list && rerun.is_none()).then_some(identity.run_id.as_str());
    let (setup, claim) = setup(runner, args, claim_for)?;
    if !args.list {
        // Its record names the test binary by its digest, and so does the
        // plan cache: known from its cache, or hashed meanwhile.
        digests::hash_binary_aside();
    }
    let runtime = Runtime::start(!args.list).map_err(HarnessError::Runtime)?;
    let shared = Arc::new(RunShared {
        resources: Arc::new(ResourceStore::new(setup.lifecycle.resources.clone())),
        steps: Arc::clone(&setup.steps),
        lifecycle: Arc::clone(&setup.lifecycle),
        runtime: runtime.handle(),
        limit: setup.limit.clone(),
        threads: Pool::new(),
        results_root: (!args.list).then(|| runner.root.clone()),
        styles: setup.styles.clone(),
        watch: Watch::new(),
    });
    let mut read = read(runner, args, &setup, identity, (rerun, only.is_some()))?;
    let watch = Arc::clone(&shared.watch);
    let mut plans = plan_cache(runner, args, &read);
    let mut prepared = trials(args, &setup, &mut read, &shared, plans.as_ref());
    if let Some(plans) = &mut plans {
        plans.planned();
    }
    let rerun = read.identity.rerun.as_ref().map(|r| &r.items);
    let tagged = (setup.tags.as_ref()).map(|e| {
        let oaths = prepared.items.meta.iter().map(|m| &m.oath_path);
        TagSelection::new(e, &read.texts, oaths)
    });
    let tags_keep = |m: &ItemMeta| {
        tagged
            .as_ref()
            .is_none_or(|t| t.keeps(m.kind, &m.oath_path, m.line))
    };
    let (trials, kept) = prepared.items.take_trials(|m| {
        rerun.is_none_or(|items| items.contains(&*m.name))
            && only.as_ref().is_none_or(|o| o.keeps(&m.name))
            && tags_keep(m)
    });
    if let Some(tagged) = tagged.as_ref().filter(|_| !args.list) {
        let meta = &prepared.items.meta;
        let left_out = meta.iter().filter(|m| !tags_keep(m)).count();
        print::notice(&tagged.summary(left_out, meta.len()));
    }
    if let Some(only) = &only
        && !args.list
        && read.selection == Selection::All
        && let Some(notice) = only.unknown_notice(prepared.items.meta.iter().map(|m| &*m.name))
    {
        print::notice(&notice);
    }
    let filtering = args.filter.is_some() || !args.skip.is_empty() || args.ignored;
    let selected: Vec<usize> = kept
        .iter()
        .zip(&trials)
        .filter(|(_, t)| !(filtering && libtest::is_filtered_out(args, &t.name)))
        .map(|(&i, _)| i)
        .collect();
    let documents = (!args.list).then(|| {
        let documents = read.texts.digests(prepared.used.iter().map(String::as_str));
        // Nothing reads a text from here on but a failing example, which
        // reads its document again (issue 39): those the items' messages
        // were drawn from go too, before the record's first write and the
        // trials.
        for oath in &prepared.oaths {
            oath.let_texts_go(|path| read.texts.sha256(path));
        }
        read.texts.let_go_but(|_| false);
        documents
    });
    let recording = documents.map(|documents| {
        Recording::start(
            &runner.root,
            Start {
                identity: &read.identity,
                args,
                options: record::options(
                    args,
                    setup.update,
                    setup.limit.as_ref().map(|l| l.written.as_str()),
                ),
                meta: &prepared.items.meta,
                selected,
                documents,
                removed: removed_examples(&prepared.changes),
                config_sha256: setup.project.config_sha256.clone(),
            },
            claim.is_some_and(Claim::keep),
        )
    });
    let watchdog = match (&setup.limit, args.list) {
        (None, false) => Some(Watchdog::start(
            Arc::clone(&watch),
            runner.slow_after,
            print::notice,
        )),
        _ => None,
    };
    let conclusion = libtest::run(args, trials);
    drop(watchdog);
    if let Some(plans) = &mut plans {
        plans.finish();
        if read.selection == Selection::All {
            plans.retain(&setup.oaths);
        }
    }
    let earlier = read.earlier.take();
    let update = setup.update;
    let (finished, lock) = match finish(
        runner,
        args,
        &setup,
        read,
        (
            &prepared.oaths,
            std::mem::take(&mut prepared.records),
            std::mem::take(&mut prepared.changes),
        ),
    ) {
        Ok(lock) => (Ok(()), lock),
        Err(e) => (Err(e), None),
    };
    // The lock is being written; the record that names it is written
    // meanwhile, and learns whether it was.
    let unwritten = prepared
        .oaths
        .iter()
        .filter(|o| o.unwritten())
        .map(|o| o.path.clone())
        .collect();
    let (saved, unrecorded) = match recording {
        Some(recording) => {
            let items = (&prepared.items.meta[..], &*prepared.items.log);
            let done = recording.finish(items, earlier, lock, unwritten);
            (done.lock, done.failed)
        }
        None => (lock.map(LockSave::wait), false),
    };
    let finished = finished.and_then(|()| lock_saved(saved, update));
    let torn_down = tear_down_resources(&shared);
    runtime.shut_down();
    for line in watch.never_returned() {
        print::notice(&line);
    }
    if runner.ends_process {
        // Every example's results and item: nothing of them is read again.
        std::mem::forget(prepared);
    }
    finished?;
    // A failed resource teardown fails the run; the results are written.
    // So does evidence that could not be written (issue 34): the record or
    // a result file, said when it happened.
    Ok(if torn_down && !unrecorded {
        conclusion.exit_code()
    } else {
        ExitCode::from(FATAL)
    })
}

/// What the read stage found.
struct Read {
    /// What the run plans.
    selection: Selection,
    /// Whether this run records the baseline.
    records: bool,
    /// Every discovered oath's text, read once.
    texts: Texts,
    /// The baseline as it was at the start.
    baseline: Baseline,
    /// This process in its run (a rerun continues an earlier one).
    identity: Identity,
    /// The earlier runs a run that replaces them read at its start.
    earlier: Option<EarlierRuns>,
}

impl Read {
    /// What enumeration reads of the run: the oaths to plan, the settings
    /// and the plan cache beside what was read.
    fn inputs<'a, 'o>(
        &'a self,
        (oaths, setup, purpose, plans): (
            &'o [&'o OathFile],
            &'a Setup,
            Purpose,
            Option<&'a PlanCache>,
        ),
    ) -> enumerate::Inputs<'a, 'o> {
        enumerate::Inputs {
            oaths,
            texts: &self.texts,
            baseline: &self.baseline,
            update: setup.update,
            styles: &setup.styles,
            purpose,
            plans,
        }
    }
}

/// Read: which oaths to plan, every oath's text, the baseline. Drift is
/// detected against the baseline as it is now; nothing is locked while
/// planning and running.
fn read(
    runner: &Settings,
    args: &Arguments,
    setup: &Setup,
    mut identity: Identity,
    (rerun, only): (Option<&'static str>, bool),
) -> Result<Read, HarnessError> {
    // Listing has no side effects; a filtered run (nextest runs one item per
    // process; `VARAR_SELECT` names items) leaves the baseline to full
    // runs, unless the user asked to accept drift. So does a run selecting
    // by tags.
    let partial = args.filter.is_some()
        || !args.skip.is_empty()
        || args.ignored
        || only
        || setup.tags.is_some();
    let records = !args.list && (!partial || setup.update);
    let selection = Selection::of(args, records);
    // A run of everything reads the lock while it reads the oaths (it
    // needs the whole of it).
    // A run that records the baseline, unfiltered and no rerun, sees
    // everything: it replaces the earlier runs' records, whose headers it
    // reads here, each on a thread of its own (the last record of a run of
    // thousands of items is read whole, as long as a hundred oaths).
    let replaces = records && !partial && rerun.is_none();
    let (texts, whole_lock, earlier) = std::thread::scope(|scope| {
        let lock = (selection == Selection::All).then(|| scope.spawn(|| setup.project.read_lock()));
        let earlier =
            replaces.then(|| scope.spawn(|| record::earlier_runs(&runner.root, &identity.run_id)));
        let texts = Texts::read_for(
            &runner.root,
            &setup.oaths,
            &selection,
            args.list,
            rerun.is_some(),
        );
        (texts, lock.map(joined), earlier.map(joined))
    });
    let selection = match rerun {
        Some(mode) => continue_run(runner, &texts, &mut identity, mode, selection),
        None => selection,
    };
    let baseline = match &selection {
        Selection::Nothing => Baseline::Absent,
        // Read beside the texts: a rerun keeps or empties the selection.
        // Taken as canonical when a run remembered its digest so.
        Selection::All => {
            let mut lock = whole_lock.unwrap_or_else(|| setup.project.read_lock())?;
            if let Some(sha) = canonical_lock(&runner.root) {
                lock.know_canonical(&sha);
            }
            lock
        }
        // The process of one example (every `cargo nextest` test of an
        // example) runs no drift item: its oath's drift is the business of
        // the drift items' own processes, and example names never depend
        // on it. It never writes the lock, so it need not read it.
        Selection::Item(name) if ItemName::parse(name).kind == ItemKind::Example => {
            Baseline::Absent
        }
        // Only the planned oaths' entries are needed (and this run never
        // writes the lock).
        Selection::Item(_) => {
            let workspace = texts.workspace();
            let planned = selection.oaths(&setup.oaths, &workspace);
            let wanted = |path: &str| planned.iter().any(|o| o.oath_path == path);
            setup.project.read_lock_for(&wanted)?
        }
    };
    // A lock of another format is never silently ignored: drift could not
    // be checked. Re-recording it needs explicit consent.
    if let Baseline::Unsupported { version } = &baseline {
        if !setup.update {
            return Err(HarnessError::UnsupportedLock {
                version: version.clone(),
            });
        }
        if records {
            print::rerecording_lock(version);
        }
    }
    Ok(Read {
        selection,
        records,
        texts,
        baseline,
        identity,
        earlier,
    })
}

/// What a scoped thread returned; its panic goes on on this thread.
fn joined<T>(handle: std::thread::ScopedJoinHandle<'_, T>) -> T {
    handle
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// Where a run keeps its plans between runs (a listing only reads them),
/// when no document it read may link (`cache/plans/`: a plan is then a
/// function of its oath's text and the steps alone).
fn plan_cache(runner: &Settings, args: &Arguments, read: &Read) -> Option<PlanCache> {
    if read.texts.any_may_link() {
        return None;
    }
    // Only a run of every oath plans them all: its pack replaces the last.
    // Any other keeps one file per oath (the process of one example, every
    // nextest test of an example, plans one).
    let layout = if read.selection == Selection::All {
        Layout::Pack
    } else {
        Layout::PerOath
    };
    let modules = runner.modules.as_deref();
    if args.list {
        // A listing (each `cargo nextest run` makes one of every test
        // binary) reads the plans the runs kept, and writes none.
        return PlanCache::for_listing(&runner.root, modules, layout);
    }
    PlanCache::open(&runner.root, modules, layout)
}

/// Trials: every selected oath planned and turned into items, then one
/// failing item per path discovery could not read.
fn trials(
    args: &Arguments,
    setup: &Setup,
    read: &mut Read,
    shared: &Arc<RunShared>,
    plans: Option<&PlanCache>,
) -> Prepared {
    let workspace = read.texts.workspace();
    let planned = read.selection.oaths(&setup.oaths, &workspace);
    let purpose = if args.list {
        Purpose::List
    } else {
        Purpose::Run
    };
    let inputs = (&planned[..], setup, purpose, plans);
    let mut planning = enumerate::plan(&read.inputs(inputs), workspace, shared);
    // A run lets go of the texts its items do not need before it makes
    // them (issue 39); a listing needs none, and `VARAR_TAGS` reads every
    // selected oath's tags from its text once they are made.
    if purpose == Purpose::Run && setup.tags.is_none() {
        planning.let_texts_go(&mut read.texts);
    }
    let mut prepared = enumerate::build(read.inputs(inputs), planning, shared);
    if !args.list {
        for note in &prepared.notes {
            print::note(note);
        }
    }
    // A path discovery could not read is one failing item; the rest runs.
    for (path, error) in &setup.unreadable {
        if read.selection.wants(path) {
            let meta = ItemMeta {
                name: read_error_item(path).into(),
                kind: ItemKind::ReadError,
                oath_path: path.as_str().into(),
                line: 0,
            };
            prepared
                .items
                .push_failing(meta, error.clone(), error.clone());
        }
    }
    if !read.records {
        for path in stale_paths(&read.baseline, &discovered(setup)) {
            print::notice(&stale_notice(&path));
        }
    }
    prepared
}

/// Every path discovery found, readable or not: what reconciliation keeps
/// (an unreadable oath keeps its baseline entry, spec 40 §2.4).
fn discovered(setup: &Setup) -> Vec<String> {
    setup
        .oaths
        .iter()
        .map(|o| o.oath_path.clone())
        .chain(setup.unreadable.iter().map(|(path, _)| path.clone()))
        .collect()
}

/// Finish: the results of the trials written to `.varar/`, then the
/// baseline recorded. Only now, after the trials: a killed or hung run
/// never rewrote the baseline.
fn finish(
    runner: &Settings,
    args: &Arguments,
    setup: &Setup,
    read: Read,
    prepared: (&[Arc<OathRun>], Vec<OathRecord>, UpdateSummary),
) -> Result<Option<LockSave>, HarnessError> {
    let (oaths, records, changes) = prepared;
    if args.list {
        return Ok(None);
    }
    write_results(&runner.root, oaths);
    // Nothing stops being checked without a word (issue 37); under
    // `VARAR_UPDATE` the summary names them instead.
    if !setup.update {
        for (path, example) in &changes.removed {
            print::notice(&removed_notice(path, example));
        }
    }
    if !read.records {
        return Ok(None);
    }
    record_baseline(
        &runner.root,
        read.baseline,
        records,
        &discovered(setup),
        setup.update.then_some(changes),
    )
}

/// The removed examples as the run record lists them (issue 37).
fn removed_examples(changes: &UpdateSummary) -> Vec<RemovedExample> {
    changes
        .removed
        .iter()
        .map(|(path, e)| RemovedExample {
            oath_path: path.clone(),
            name: e.name.clone(),
            line: e.line,
        })
        .collect()
}
