//! `cargo varar history`: the runs kept in the run history (issue 20),
//! newest first, each with its time, whether it finished, whether it is of
//! the sources as they are now, and its item counts. Pure: the shell reads
//! the records ([`varar_project::store::read_history`]) and the files now.
//!
//! Each run has a standing (issue 34, as [`varar_core::verdict::standing`] names them):
//! `complete`, `filtered` (a filter left items out: "N not selected", issue
//! 37), `incomplete` (a process never ended or an item did not run),
//! `unreadable` (a record of it cannot be read: what the others say is not
//! the whole run) or `unrecorded` (its directory holds no record). Only a
//! complete run counts as evidence anywhere (`flaky`, the report's strips).

pub mod args;
pub mod shell;

use std::collections::BTreeSet;

use serde::Serialize;
use varar_core::record::RunRecord;
use varar_core::untrusted::terminal_line;
use varar_core::verdict::kept::UnjudgedRun;

use varar_core::verdict::records::ErrorRecord;
use varar_core::verdict::run_evidence::{ItemCounts, SourcesNow, counts, plural, same_sources};
use varar_core::verdict::standing::Standing;

/// The version of `history --format json`.
pub const VERSION: u32 = 1;

/// What `history` prints.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HistoryListing {
    /// [`VERSION`].
    pub version: u32,
    /// The history directory, as shown to people.
    pub dir: String,
    /// Every run kept, newest first.
    pub runs: Vec<HistoryRun>,
    /// Records that could not be read (left out).
    pub warnings: Vec<ErrorRecord>,
}

/// One run kept.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HistoryRun {
    /// Its id.
    pub run_id: String,
    /// When its first process started.
    pub started_at: String,
    /// When its last process ended, once every process ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ended_at: Option<String>,
    /// Whether every process ended, every planned item ran and every
    /// record of it could be read.
    pub complete: bool,
    /// Its standing: `complete`, `filtered`, `incomplete`, `unreadable` or
    /// `unrecorded` (issues 34, 37).
    pub standing: Standing,
    /// Whether it is of the sources (documents, config) as they are now.
    pub fresh: bool,
    /// How many processes it had.
    pub processes: usize,
    /// Its items.
    pub counts: ItemCounts,
}

/// The standing of a kept run: `unreadable` when a record of it could not
/// be read (`partial`: such runs), else the engine's reading of the run on
/// its own ([`Standing::of_run`]: complete, filtered or incomplete).
pub fn kept_standing(run: &RunRecord, partial: &BTreeSet<String>) -> Standing {
    if partial.contains(&run.run_id) {
        Standing::Unreadable
    } else {
        Standing::of_run(run)
    }
}

/// The listing of `runs` (latest first) against the sources `now`.
pub fn listing(
    dir: String,
    runs: &[RunRecord],
    now: &SourcesNow,
    warnings: Vec<ErrorRecord>,
) -> HistoryListing {
    listing_kept(dir, (runs, &BTreeSet::new(), &[]), now, warnings)
}

/// The listing of `runs` (latest first; those of `partial` have records
/// that could not be read) and of the run directories without a readable
/// record (`unjudged`), newest first, against the sources `now`.
pub fn listing_kept(
    dir: String,
    (runs, partial, unjudged): (&[RunRecord], &BTreeSet<String>, &[UnjudgedRun]),
    now: &SourcesNow,
    warnings: Vec<ErrorRecord>,
) -> HistoryListing {
    let mut listed: Vec<HistoryRun> = runs
        .iter()
        .map(|run| {
            let standing = kept_standing(run, partial);
            HistoryRun {
                run_id: run.run_id.clone(),
                started_at: run.started_at().to_owned(),
                ended_at: run.ended_at().map(str::to_owned),
                complete: standing == Standing::Complete,
                standing,
                fresh: same_sources(run, now),
                processes: run.processes.len(),
                counts: counts(run),
            }
        })
        .collect();
    listed.extend(unjudged.iter().map(|u| HistoryRun {
        run_id: u.name.clone(),
        started_at: u.modified.clone().unwrap_or_default(),
        ended_at: None,
        complete: false,
        standing: u.standing,
        fresh: false,
        processes: 0,
        counts: ItemCounts::default(),
    }));
    // Newest first; the unjudged are placed by when their directory last
    // changed.
    listed.sort_by(|a, b| b.started_at.cmp(&a.started_at));
    HistoryListing {
        version: VERSION,
        dir,
        runs: listed,
        warnings,
    }
}

/// The listing for people: one line per run, aligned. The directory, the
/// run ids and times (read from records) are escaped for the terminal, on
/// one line (issue 34).
pub fn render_text(listing: &HistoryListing) -> String {
    let dir = terminal_line(&listing.dir);
    if listing.runs.is_empty() {
        return format!(
            "no run kept in `{dir}`: run the tests (`cargo test` or `cargo nextest run`) to keep one\n"
        );
    }
    let width = listing
        .runs
        .iter()
        .map(|r| terminal_line(&r.run_id).chars().count())
        .max()
        .unwrap_or(0);
    let mut out = format!(
        "{} kept in `{dir}`, newest first:\n",
        plural(listing.runs.len(), "run"),
    );
    for r in &listing.runs {
        let c = &r.counts;
        out.push_str(&format!(
            "{:<width$}  {}  {:<10}  {:<7}  {} passed, {} failed, {} recovered{}{}\n",
            terminal_line(&r.run_id),
            terminal_line(&r.started_at),
            r.standing.as_str(),
            if r.fresh { "fresh" } else { "changed" },
            c.passed,
            c.failed,
            c.recovered,
            // What a filter left out is not what failed to run.
            match c.not_run - c.not_selected.min(c.not_run) {
                0 => String::new(),
                n => format!(", {n} not run"),
            },
            match c.not_selected {
                0 => String::new(),
                n => format!(", {n} not selected"),
            },
        ));
    }
    out
}

#[cfg(test)]
mod tests;
