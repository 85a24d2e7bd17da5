//! The run's standing (pure; issue 34): the gate's reading of the latest
//! run, computed once and used by every consumer (`gate`, `attest`,
//! `junit`, `report`, `diff`, `history`, `flaky` and the language server),
//! so that none of them re-decides whether the run can be trusted.
//!
//! A project's runs are the directories of `.varar/.runs/` (see
//! [`crate::verdict::run_evidence`]). The **latest run** is the readable run whose
//! first process started last. Its standing is one of:
//!
//! - **complete**: every record of it could be read, it is of the sources
//!   as they are now, and it finished (no problem: the gate judges it);
//! - **unreadable** (`invalid_run`): a record of the latest run could not
//!   be read, or one in a directory that may hold a later run: a directory
//!   last written at or after the latest readable run started;
//! - **unrecorded** (`unrecorded_run`): a run left no record where the
//!   gate reads them, and it is later than the latest readable run: a run
//!   directory holding no record (made at or after the latest readable run
//!   started: the harness makes it before it writes anything, so a run
//!   killed at its first write by a file-size limit leaves it), a record
//!   that the run history holds of this project and `.varar/.runs` does not
//!   (a `.varar/` that could not be written), or a result file the latest
//!   run says it could not write;
//! - **missing** (`missing_run`): no run record at all;
//! - **stale** (`stale_run`, or `input_error` for a source that cannot be
//!   read): a source the latest run read changed since;
//! - **incomplete** (`incomplete_run`): a process never reached its end, an
//!   item it planned did not run, or an oath with examples has no item in
//!   it;
//! - **filtered** (`incomplete_run` too, so the gate refuses it as it
//!   refuses an incomplete run): the same, but only because a filter left
//!   items out: every process ended, every item selected ended, and what
//!   is missing was not selected ([`filtered`]). `cargo test basket`
//!   makes such a run; `history` lists it as filtered, with "N not selected".
//!
//! A record that cannot be read, in a directory last written before the
//! latest readable run started, is an earlier run's: a **warning** naming
//! the file and what to do (the next full run removes it), never an error,
//! so one broken file never blocks the gate for good.
//!
//! Besides the verdict, the standing says which results the latest run
//! vouches for ([`Draws`]): with the texts that run read by SHA-256, the
//! one rule of what is drawn as current, [`crate::verdict::current::drawn`], which
//! every consumer draws by.

use std::collections::BTreeSet;

use crate::layout::{file_name_of, result_path_shown};
use crate::names::ItemKind;
use crate::record::RunRecord;
use crate::results::ExampleResult;
use serde::Serialize;

use crate::verdict::records::{Code, ErrorRecord};
use crate::verdict::run_evidence::{RunDir, RunEvidence, example_item, filtered, finished};

/// The latest run's standing, in one word (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Standing {
    /// It can be judged.
    Complete,
    /// A process never ended or an item did not run.
    Incomplete,
    /// Every item selected ran, but a filter left others out.
    Filtered,
    /// A source it read changed since.
    Stale,
    /// There is no run record.
    Missing,
    /// A record of it (or of a possibly later run) cannot be read.
    Unreadable,
    /// A later run left no record, or the latest run could not write its
    /// results.
    Unrecorded,
}

impl Standing {
    /// The standing as written in JSON and text.
    pub fn as_str(self) -> &'static str {
        match self {
            Standing::Complete => "complete",
            Standing::Incomplete => "incomplete",
            Standing::Filtered => "filtered",
            Standing::Stale => "stale",
            Standing::Missing => "missing",
            Standing::Unreadable => "unreadable",
            Standing::Unrecorded => "unrecorded",
        }
    }

    /// The standing of one kept run on its own (`history`, issue 37):
    /// complete when every process ended and every item it planned ran,
    /// filtered when only a filter left items out ([`filtered`]), else
    /// incomplete. What the records of other runs and the files now say is
    /// [`RunEvidence::standing`]'s, which reads the latest run by the same
    /// rule.
    pub fn of_run(run: &RunRecord) -> Standing {
        if finished(run) {
            Standing::Complete
        } else if filtered(run) {
            Standing::Filtered
        } else {
            Standing::Incomplete
        }
    }

    /// The standing of a run with `problems` (the first code that decides,
    /// in the order unreadable, unrecorded, missing, stale, incomplete).
    fn of(problems: &[ErrorRecord]) -> Standing {
        let has = |code: Code| problems.iter().any(|p| p.code == code);
        if has(Code::InvalidRun) {
            Standing::Unreadable
        } else if has(Code::UnrecordedRun) {
            Standing::Unrecorded
        } else if has(Code::MissingRun) {
            Standing::Missing
        } else if has(Code::StaleRun) || has(Code::InputError) {
            Standing::Stale
        } else if problems.is_empty() {
            Standing::Complete
        } else {
            Standing::Incomplete
        }
    }
}

/// Which results on disk the latest run vouches for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Draws {
    /// Every result: the run is complete, or there is no run record to say
    /// otherwise (a tree written by another port; [`Standing::Missing`],
    /// where no record names a text by SHA-256 either, so that
    /// [`crate::verdict::current::drawn`] draws nothing).
    All,
    /// None: a later run left no readable record, so every result on disk
    /// may be older than it.
    Nothing,
    /// Those of the examples whose items ended an attempt in the latest run
    /// (by name), and of the oaths all of whose items did, except the oaths
    /// whose result files the run could not write.
    Ended {
        /// Every oath all of whose items in the run ended.
        oaths: BTreeSet<String>,
        /// Every example item that ended.
        items: BTreeSet<String>,
        /// The oaths whose result files the run could not write.
        unwritten: BTreeSet<String>,
    },
}

/// The gate's reading of the latest run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunStanding {
    /// In one word.
    pub standing: Standing,
    /// The latest run, when it is the latest readable one and nothing
    /// later was left unread or unrecorded.
    pub run_id: Option<String>,
    /// Why it cannot be judged (exit 2): empty exactly when complete.
    pub problems: Vec<ErrorRecord>,
    /// What is worth saying and does not stop the judging: records of
    /// earlier runs that cannot be read.
    pub warnings: Vec<ErrorRecord>,
    /// Which results the run vouches for.
    pub draws: Draws,
}

/// What the standing of a project's runs is judged against.
#[derive(Clone, Copy, Debug)]
pub struct Against<'a> {
    /// The oaths that must have items in the run.
    pub expected: &'a BTreeSet<String>,
    /// Whether the sources the run read are compared with the files now
    /// (`false` for a results tree of another checkout, whose sources are
    /// not here).
    pub sources: bool,
}

impl RunStanding {
    /// Whether the run can be judged.
    pub fn judgeable(&self) -> bool {
        self.problems.is_empty()
    }

    /// One line for people: the standing and its first reason (which
    /// names the run).
    pub fn headline(&self) -> String {
        match self.problems.first() {
            None => match &self.run_id {
                Some(id) => format!("the latest run (`{id}`) is complete"),
                None => "the latest run is complete".to_owned(),
            },
            Some(first) => {
                let more = match self.problems.len() {
                    1 => String::new(),
                    n => format!(" (and {} more)", n - 1),
                };
                format!(
                    "the latest run is {}: {}{more}",
                    self.standing.as_str(),
                    first.message
                )
            }
        }
    }

    /// Whether the results of `oath` are the latest run's: the run half of
    /// [`crate::verdict::current::drawn`], which consumers draw by.
    pub fn draws_oath(&self, oath: &str) -> bool {
        match &self.draws {
            Draws::All => true,
            Draws::Nothing => false,
            Draws::Ended {
                oaths, unwritten, ..
            } => oaths.contains(oath) && !unwritten.contains(oath),
        }
    }

    /// Whether the result of `example` of `oath` is the latest run's (`run`:
    /// that run): its item ended in it, or its whole oath did. The run half
    /// of [`crate::verdict::current::drawn`], by example.
    pub fn draws_example(
        &self,
        run: Option<&RunRecord>,
        oath: &str,
        example: &ExampleResult,
    ) -> bool {
        match &self.draws {
            Draws::All => true,
            Draws::Nothing => false,
            Draws::Ended {
                oaths,
                items,
                unwritten,
            } => {
                !unwritten.contains(oath)
                    && (oaths.contains(oath)
                        || run
                            .and_then(|r| example_item(r, oath, example))
                            .is_some_and(|i| items.contains(&i.name)))
            }
        }
    }
}

impl RunEvidence {
    /// Every reason the latest run cannot be judged (see
    /// [`RunEvidence::standing`]).
    pub fn problems(&self, expected: &BTreeSet<String>) -> Vec<ErrorRecord> {
        self.standing(Against {
            expected,
            sources: true,
        })
        .problems
    }

    /// The standing of the latest run (see the module docs).
    pub fn standing(&self, against: Against<'_>) -> RunStanding {
        let mut problems = self.invalid.clone();
        let mut warnings = Vec::new();
        let latest = self.latest.as_ref();
        for d in &self.dirs {
            match placed(d, latest) {
                Place::Latest => problems.extend(d.unreadable.iter().map(|e| {
                    let id = latest.map_or("", |r| r.run_id.as_str());
                    again(e, &format!("it is a record of the latest run (`{id}`)"))
                })),
                Place::Later(when) => {
                    problems.extend(d.unreadable.iter().map(|e| {
                        again(e, &format!("it may be a record of the latest run ({when})"))
                    }));
                    if d.holds_nothing() {
                        problems.push(unrecorded_dir(&self.dir, d, &when));
                    }
                }
                Place::Earlier(when) => warnings.extend(d.unreadable.iter().map(|e| {
                    let mut w = e.clone();
                    w.message = format!(
                        "{}; a record of an earlier run ({when}): it is left out, and the next \
                         full run removes it (or delete it)",
                        e.message
                    );
                    w
                })),
            }
        }
        problems.extend(self.elsewhere.iter().map(|r| r.problem(&self.dir)));
        let later = !problems.is_empty();
        match latest {
            None if problems.is_empty() => problems.push(self.missing()),
            None => {}
            // A later run stands in the way: the latest readable run is
            // not the latest, and nothing more is said of it.
            Some(_) if later => {}
            Some(run) => {
                problems.extend(unwritten(run));
                if against.sources {
                    problems.extend(self.stale(run));
                }
                problems.extend(self.incomplete(run, against.expected));
            }
        }
        let mut standing = Standing::of(&problems);
        // Incomplete only because a filter left items out: one rule with
        // `history`'s ([`Standing::of_run`]).
        if standing == Standing::Incomplete && latest.is_some_and(filtered) {
            standing = Standing::Filtered;
        }
        let draws = match (standing, latest) {
            (Standing::Complete | Standing::Missing, _) => Draws::All,
            (Standing::Incomplete | Standing::Filtered | Standing::Stale, Some(run)) if !later => {
                ended(run)
            }
            _ => Draws::Nothing,
        };
        RunStanding {
            standing,
            run_id: latest.filter(|_| !later).map(|r| r.run_id.clone()),
            problems,
            warnings,
            draws,
        }
    }
}

/// Where a run directory lies against the latest readable run.
enum Place {
    /// It holds records of the latest run.
    Latest,
    /// It was written at or after the latest run started (or when is not
    /// known): it may hold a later run. Why, for a message.
    Later(String),
    /// It was last written before: an earlier run's. Why, for a message.
    Earlier(String),
}

/// Where `d` lies against `latest` (by its directory's last change, the
/// only time a directory whose records cannot be read still has).
fn placed(d: &RunDir, latest: Option<&RunRecord>) -> Place {
    let Some(run) = latest else {
        return Place::Later("there is no readable run".to_owned());
    };
    if d.run_ids.contains(&run.run_id) || d.name == file_name_of(&run.run_id) {
        return Place::Latest;
    }
    let started = run.started_at();
    match &d.modified {
        Some(m) if m.as_str() < started => Place::Earlier(format!(
            "its directory was last written at {m}, before the latest run `{}` started at \
             {started}",
            run.run_id
        )),
        Some(m) => Place::Later(format!(
            "its directory was written at {m}, after the latest readable run `{}` started at \
             {started}",
            run.run_id
        )),
        None => Place::Later(format!(
            "when its directory was written is not known; the latest readable run `{}` started \
             at {started}",
            run.run_id
        )),
    }
}

/// `e` with why it stops the judging and what to do.
fn again(e: &ErrorRecord, why: &str) -> ErrorRecord {
    let mut e = e.clone();
    e.message = format!(
        "{}; {why}: run the tests again (a full run that starts after it removes it), or delete \
         it",
        e.message
    );
    e
}

/// `unrecorded_run` for a run directory that holds no record.
fn unrecorded_dir(runs: &str, d: &RunDir, when: &str) -> ErrorRecord {
    let path = format!("{runs}/{}", d.name);
    ErrorRecord::new(
        Code::UnrecordedRun,
        format!(
            "`{path}` holds no run record ({when}): a run that could not write its record (a \
             full disk, a file-size limit, a process killed before its first write) or one \
             that is starting; the evidence in `.varar/` is older than it: run the tests again"
        ),
    )
    .with_path(path)
}

/// `unrecorded_run` for every result file the run says it could not write.
fn unwritten(run: &RunRecord) -> Vec<ErrorRecord> {
    let mut out = Vec::new();
    for p in &run.processes {
        for oath in &p.unwritten {
            let path = result_path_shown(oath);
            out.push(
                ErrorRecord::new(
                    Code::UnrecordedRun,
                    format!(
                        "the latest run (`{}`) could not write `{path}` (its process `{}` says \
                         so): the file there is older than the run; run the tests again",
                        run.run_id, p.process_id
                    ),
                )
                .with_path(path)
                .with_oath(oath.clone()),
            );
        }
    }
    out
}

/// What an incomplete (or stale) run vouches for: the examples that ended
/// in it, and the oaths all of whose items did.
fn ended(run: &RunRecord) -> Draws {
    let mut oaths: BTreeSet<String> = BTreeSet::new();
    let mut open: BTreeSet<&str> = BTreeSet::new();
    let mut items = BTreeSet::new();
    for i in &run.items {
        if i.outcome().is_some() {
            oaths.insert(i.oath_path.clone());
            if i.kind == ItemKind::Example {
                items.insert(i.name.clone());
            }
        } else {
            open.insert(&i.oath_path);
        }
    }
    for name in run.not_run() {
        open.insert(crate::verdict::run_evidence::oath_of_name(name));
    }
    oaths.retain(|o| !open.contains(o.as_str()));
    Draws::Ended {
        oaths,
        items,
        unwritten: run.unwritten().into_iter().map(str::to_owned).collect(),
    }
}

#[cfg(test)]
mod tests;
