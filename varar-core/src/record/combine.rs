//! The processes of one run combined into the run (issue 19; seed 003's
//! retry continuation): every item's attempts in order, its last attempt
//! the run's evidence.

use std::collections::{BTreeMap, BTreeSet};

use super::model::{Attempt, DocumentDigest, Outcome, ProcessRecord, RemovedExample};
use crate::names::ItemKind;

/// One logical run: every record of one run id.
#[derive(Clone, Debug, PartialEq)]
pub struct RunRecord {
    /// The run id.
    pub run_id: String,
    /// Its processes, in the order they started.
    pub processes: Vec<ProcessRecord>,
    /// Every item that was selected by some process, in the order they were
    /// first listed.
    pub items: Vec<ItemEvidence>,
    /// Every item the processes planned, selected or not.
    pub planned: BTreeSet<String>,
}

/// What one item did in a run.
#[derive(Clone, Debug, PartialEq)]
pub struct ItemEvidence {
    /// Its name.
    pub name: String,
    /// Its kind.
    pub kind: ItemKind,
    /// Its oath (or document, or unreadable path).
    pub oath_path: String,
    /// Its line.
    pub line: u32,
    /// Its attempts, by attempt number (ties in the order their processes
    /// started).
    pub attempts: Vec<Attempt>,
}

impl ItemEvidence {
    /// The last attempt: the run's evidence for the item.
    pub fn last(&self) -> Option<&Attempt> {
        self.attempts.last()
    }

    /// How the last attempt ended; `None` when it did not end.
    pub fn outcome(&self) -> Option<Outcome> {
        self.last().and_then(|a| a.outcome)
    }

    /// Whether an attempt failed (or never ended) before the last one
    /// passed: the item recovered, a flake nextest calls `FLAKY`.
    pub fn recovered(&self) -> bool {
        let Some((last, earlier)) = self.attempts.split_last() else {
            return false;
        };
        last.outcome == Some(Outcome::Passed)
            && earlier.iter().any(|a| a.outcome != Some(Outcome::Passed))
    }
}

impl RunRecord {
    /// Group `records` by run id into runs, latest started first.
    pub fn combine(records: Vec<ProcessRecord>) -> Vec<RunRecord> {
        let mut by_run: BTreeMap<String, Vec<ProcessRecord>> = BTreeMap::new();
        for record in records {
            by_run
                .entry(record.run_id.clone())
                .or_default()
                .push(record);
        }
        let mut runs: Vec<RunRecord> = by_run
            .into_iter()
            .map(|(run_id, processes)| RunRecord::of(run_id, processes))
            .collect();
        runs.sort_by(|a, b| {
            b.started_at()
                .cmp(a.started_at())
                .then(a.run_id.cmp(&b.run_id))
        });
        runs
    }

    /// One run from its processes' records.
    pub fn of(run_id: String, mut processes: Vec<ProcessRecord>) -> RunRecord {
        processes.sort_by(|a, b| {
            a.started_at
                .cmp(&b.started_at)
                .then(a.process_id.cmp(&b.process_id))
        });
        let mut order: Vec<String> = Vec::new();
        let mut items: BTreeMap<String, ItemEvidence> = BTreeMap::new();
        let mut planned = BTreeSet::new();
        for process in &processes {
            planned.extend(process.unselected.iter().cloned());
            for item in &process.items {
                planned.insert(item.name.to_string());
                let evidence = items.entry(item.name.to_string()).or_insert_with(|| {
                    order.push(item.name.to_string());
                    ItemEvidence {
                        name: item.name.to_string(),
                        kind: item.kind,
                        oath_path: item.oath_path.to_string(),
                        line: item.line,
                        attempts: Vec::new(),
                    }
                });
                evidence.attempts.push(Attempt {
                    attempt: item.attempt,
                    outcome: item.outcome,
                    duration_ms: item.duration_ms,
                    message: item.message.clone(),
                    process_id: process.process_id.clone(),
                    started_at: process.started_at.clone(),
                });
            }
        }
        // Stable: processes are already in start order.
        for evidence in items.values_mut() {
            evidence.attempts.sort_by_key(|a| a.attempt);
        }
        let items = order
            .into_iter()
            .filter_map(|name| items.remove(&name))
            .collect();
        RunRecord {
            run_id,
            processes,
            items,
            planned,
        }
    }

    /// When the run started: its first process's start.
    pub fn started_at(&self) -> &str {
        self.processes.first().map_or("", |p| p.started_at.as_str())
    }

    /// When it ended: the last end of a process, once every process ended.
    pub fn ended_at(&self) -> Option<&str> {
        if !self.complete() {
            return None;
        }
        self.processes
            .iter()
            .filter_map(|p| p.ended_at.as_deref())
            .max()
    }

    /// Whether every process reached its end.
    pub fn complete(&self) -> bool {
        !self.processes.is_empty() && self.processes.iter().all(|p| p.complete)
    }

    /// The oaths whose result files some process of the run could not
    /// write ([`ProcessRecord::unwritten`]), each once, in oathPath order.
    pub fn unwritten(&self) -> BTreeSet<&str> {
        self.processes
            .iter()
            .flat_map(|p| p.unwritten.iter().map(String::as_str))
            .collect()
    }

    /// The examples the lock listed that no paragraph re-identifies any
    /// more ([`ProcessRecord::removed`], issue 37), each once, by oathPath,
    /// then in the order the processes listed them.
    pub fn removed(&self) -> Vec<&RemovedExample> {
        let mut seen = BTreeSet::new();
        let mut removed: Vec<&RemovedExample> = self
            .processes
            .iter()
            .flat_map(|p| &p.removed)
            .filter(|r| seen.insert(*r))
            .collect();
        // Stable: the order within an oath is the lock's.
        removed.sort_by(|a, b| a.oath_path.cmp(&b.oath_path));
        removed
    }

    /// The item named `name`, if some process selected it.
    pub fn item(&self, name: &str) -> Option<&ItemEvidence> {
        self.items.iter().find(|i| i.name == name)
    }

    /// The items planned that never ended an attempt: not selected by any
    /// process, or selected by processes that ended before them.
    pub fn not_run(&self) -> Vec<&str> {
        self.planned
            .iter()
            .filter(|name| {
                self.item(name)
                    .is_none_or(|i| i.attempts.iter().all(|a| a.outcome.is_none()))
            })
            .map(String::as_str)
            .collect()
    }

    /// The items planned that no process selected: a filter (or, under
    /// nextest, a filter set or a cancelled run) left them out.
    pub fn not_selected(&self) -> Vec<&str> {
        let selected: BTreeSet<&str> = self.items.iter().map(|i| i.name.as_str()).collect();
        self.planned
            .iter()
            .map(String::as_str)
            .filter(|name| !selected.contains(name))
            .collect()
    }

    /// Every document any process read, by path, with its digest. A path
    /// read with two different digests (the sources changed during the run)
    /// is listed once per digest.
    pub fn documents(&self) -> Vec<&DocumentDigest> {
        let mut seen: BTreeMap<(&str, &str), &DocumentDigest> = BTreeMap::new();
        for p in &self.processes {
            for d in &p.manifest.documents {
                seen.entry((d.path.as_str(), d.sha256.as_str()))
                    .or_insert(d);
            }
        }
        seen.into_values().collect()
    }
}
