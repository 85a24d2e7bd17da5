//! `cargo varar review` (issue 37, point 4): the latest run's changes, one
//! at a time, and accepting them without losing text. The changes and the
//! edits are the engine's ([`varar_core::review`]); here are the command's
//! arguments ([`args`]), its shell ([`shell`]: the evidence read, the edits
//! written atomically through the store) and its pure work: which changes
//! the command line names ([`select`]), what accepting them asks of the
//! lock and of the oaths ([`plan`]), the report and its text, and the
//! answers of the interactive review ([`answer`]), which the shell asks on a
//! terminal.
//!
//! Exit codes: 0 listed, or every change named accepted; 1 a change was
//! refused (the oath changed since the run, a value with no text span, a
//! drift the lock no longer lists); 2 the input is unusable (no project,
//! no run record, an id that is not a change of the latest run, a lock
//! that cannot be read).

pub mod args;
pub mod shell;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;
use varar_core::review::{Acceptance, Change, ChangeKind, LockDrop, Review, ValueCell};
use varar_core::untrusted::terminal_line;
use varar_core::verdict::records::{Code, ErrorRecord};

use args::Selection;

/// The JSON Schema of the `--format json` output (draft 2020-12), also
/// committed as `varar-cli/schema/review.schema.json`.
pub const SCHEMA: &str = include_str!("../../../schema/review.schema.json");

/// The version of the `--format json` output.
pub const REVIEW_VERSION: u32 = 1;

/// What `cargo varar review` answers.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReviewReport {
    /// [`REVIEW_VERSION`].
    pub version: u32,
    /// The run the changes come from; absent when there is none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run_id: Option<String>,
    /// Every change of the run, as `--list` shows them.
    pub changes: Vec<Change>,
    /// The changes accepted by this invocation.
    pub accepted: Vec<Accepted>,
    /// The changes named that were not accepted, and why.
    pub refused: Vec<ErrorRecord>,
    /// Why the command could not work (exit 2).
    pub errors: Vec<ErrorRecord>,
    /// The exit code.
    #[serde(skip)]
    pub exit_code: u8,
}

/// One change accepted.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Accepted {
    /// Its id.
    pub id: String,
    /// Its kind.
    pub kind: ChangeKind,
    /// The file written (`varar.lock.json` or the oath); absent when there
    /// was nothing to write (a removal the run's lock already dropped).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wrote: Option<String>,
}

impl ReviewReport {
    /// The report of a command that could not work.
    pub fn unusable(errors: Vec<ErrorRecord>) -> ReviewReport {
        ReviewReport {
            version: REVIEW_VERSION,
            errors,
            exit_code: 2,
            ..ReviewReport::default()
        }
    }

    /// The listing of `review`.
    pub fn listing(review: Review) -> ReviewReport {
        ReviewReport {
            version: REVIEW_VERSION,
            run_id: Some(review.run_id),
            changes: review.changes,
            ..ReviewReport::default()
        }
    }

    /// The exit code its records make: 2 with errors, 1 with refusals.
    pub fn settle(mut self) -> ReviewReport {
        self.exit_code = if !self.errors.is_empty() {
            2
        } else if !self.refused.is_empty() {
            1
        } else {
            0
        };
        self
    }
}

/// The changes of `review` that `selection` names, in the review's order;
/// an id that names none is an `unknown_change` record each.
pub fn select<'r>(
    review: &'r Review,
    selection: &Selection,
) -> Result<Vec<&'r Change>, Vec<ErrorRecord>> {
    let unknown: Vec<ErrorRecord> = selection
        .ids
        .iter()
        .filter(|id| !review.changes.iter().any(|c| &c.id == *id))
        .map(|id| {
            ErrorRecord::new(
                Code::UnknownChange,
                format!(
                    "`{}` is not a change of the latest run ({}): `cargo varar review --list` \
                     shows them",
                    terminal_line(id),
                    review.run_id
                ),
            )
        })
        .collect();
    if !unknown.is_empty() {
        return Err(unknown);
    }
    Ok(review
        .changes
        .iter()
        .filter(|c| selection.ids.contains(&c.id) || selection.kinds.contains(&c.kind))
        .collect())
}

/// What accepting some changes asks: the lock examples to drop, the values
/// to write by oath, and the changes refused as they stand.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    /// Each drop, with its change's id and kind.
    pub drops: Vec<(String, ChangeKind, LockDrop)>,
    /// By oath: each change's id and cells.
    pub values: BTreeMap<String, Vec<(String, Vec<ValueCell>)>>,
    /// The refused changes.
    pub refused: Vec<ErrorRecord>,
}

/// What accepting `changes` asks (see [`Plan`]).
pub fn plan(changes: &[&Change]) -> Plan {
    let mut plan = Plan::default();
    for change in changes {
        if let Some(refusal) = &change.refused {
            let code = if refusal.is_changed() {
                Code::ChangedSinceRun
            } else {
                Code::NotAcceptable
            };
            plan.refused
                .push(refused(change, code, format!("{}: {refusal}", change.id)));
            continue;
        }
        match &change.acceptance {
            Acceptance::DropFromLock { name, line } => plan.drops.push((
                change.id.clone(),
                change.kind,
                LockDrop {
                    oath_path: change.oath_path.clone(),
                    name: name.clone(),
                    line: *line,
                    exact: change.kind == ChangeKind::Removed,
                },
            )),
            Acceptance::WriteValues { cells } => plan
                .values
                .entry(change.oath_path.clone())
                .or_default()
                .push((change.id.clone(), cells.clone())),
        }
    }
    plan
}

/// A refusal record of `change`.
pub fn refused(change: &Change, code: Code, message: String) -> ErrorRecord {
    ErrorRecord::new(code, terminal_line(&message).into_owned())
        .with_oath(change.oath_path.clone())
        .with_example(change.id.clone(), u32::try_from(change.line).ok())
}

/// One change as text for people: its kind and id, then where and what,
/// then why it cannot be accepted when it cannot.
pub fn change_text(c: &Change) -> String {
    let mut out = format!(
        "{:<7} {}\n        {}:{}: {}\n",
        c.kind.as_str().to_uppercase(),
        terminal_line(&c.id),
        terminal_line(&c.oath_path),
        c.line,
        terminal_line(&c.summary)
    );
    if let Some(why) = &c.refused {
        let _ = writeln!(
            out,
            "        cannot be accepted: {}",
            terminal_line(&why.to_string())
        );
    }
    out
}

/// The question the interactive review asks of each change it can accept.
pub const PROMPT: &str = "accept? [a]ccept, [k]eep, [q]uit: ";

/// An answer to [`PROMPT`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Accept the change.
    Accept,
    /// Keep it as it is (it keeps failing, or stays listed).
    Keep,
    /// Stop asking; what was accepted so far is written.
    Quit,
}

/// The answer a line typed at [`PROMPT`] gives (`None`: ask again).
pub fn answer(line: &str) -> Option<Answer> {
    match line.trim().to_ascii_lowercase().as_str() {
        "a" | "accept" | "y" | "yes" => Some(Answer::Accept),
        "k" | "keep" | "n" | "no" => Some(Answer::Keep),
        "q" | "quit" => Some(Answer::Quit),
        _ => None,
    }
}

/// The report as text for people.
pub fn render_text(report: &ReviewReport) -> String {
    let mut out = String::new();
    for e in &report.errors {
        let _ = writeln!(out, "error[{}]: {}", e.code, e.message);
    }
    if let Some(run) = &report.run_id
        && report.errors.is_empty()
        && report.accepted.is_empty()
        && report.refused.is_empty()
    {
        let _ = writeln!(
            out,
            "run {run}: {}",
            match report.changes.len() {
                0 => "nothing to review".to_owned(),
                1 => "1 change to review".to_owned(),
                n => format!("{n} changes to review"),
            }
        );
        for c in &report.changes {
            out.push_str(&change_text(c));
        }
        if !report.changes.is_empty() {
            out.push_str(
                "accept with `cargo varar review --accept ITEM` or `--accept-all \
                 drift|value|removed`\n",
            );
        }
    }
    for a in &report.accepted {
        let _ = writeln!(
            out,
            "accepted {} {}{}",
            a.kind.as_str(),
            terminal_line(&a.id),
            match &a.wrote {
                Some(file) => format!(" (wrote {})", terminal_line(file)),
                None => " (the run's lock already dropped it: nothing to write)".to_owned(),
            }
        );
    }
    for r in &report.refused {
        let _ = writeln!(out, "refused[{}]: {}", r.code, r.message);
    }
    if !report.accepted.is_empty() {
        out.push_str("run `cargo test` to check what was accepted, then commit\n");
    }
    out
}
