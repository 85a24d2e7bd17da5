//! `cargo varar review`: read the project and its latest run
//! ([`varar_project::evidence`]), list its changes ([`varar_core::review`])
//! and write what is accepted atomically through the store: the lock under
//! its advisory lock, each oath once with all its values. Writes nothing
//! for a listing; never deletes.

use std::collections::BTreeMap;
use std::io::{BufRead as _, ErrorKind, IsTerminal as _, Write as _};

use super::args::{ReviewRun, Selection};
use super::{
    Accepted, Answer, PROMPT, Plan, ReviewReport, answer, change_text, plan, refused, render_text,
    select,
};
use crate::error::Error;
use crate::output::{Format, Output, emit};
use varar_core::hash::sha256_hex;
use varar_core::lock::LOCK_FILE_NAME;
use varar_core::review::{
    Change, ChangeKind, OathInput, Review, ReviewError, drop_from_lock, review, write_values,
};
use varar_core::verdict::records::{Code, ErrorRecord};
use varar_project::evidence::records::ProjectRecords;
use varar_project::evidence::{ProjectSnapshot, read_project, run_evidence};
use varar_project::store::{lock_baseline, lock_path, write_atomic};

/// `cargo varar review --schema`.
pub fn schema() -> Output {
    Output {
        stdout: super::SCHEMA.to_owned(),
        ..Output::default()
    }
}

/// Run `cargo varar review`; the config's warnings go to `notes`. A
/// project that cannot be reviewed is no error: it is the report's
/// `errors` (exit 2) in the format asked for.
pub fn run(run: &ReviewRun, notes: &mut Vec<String>) -> Result<Output, Error> {
    let terminal = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    if terminal && !run.list && run.accept.is_empty() && run.format == Format::Text {
        return ask(run, notes);
    }
    let report = review_project(run, notes);
    Ok(emit(&report, run.format, render_text, None)?.exit(report.exit_code))
}

/// The interactive review: each change shown, and one that can be accepted
/// asked about ([`PROMPT`]); end of input is `q`. What was accepted is
/// written as `--accept` writes it, and reported.
fn ask(run: &ReviewRun, notes: &mut Vec<String>) -> Result<Output, Error> {
    let (snapshot, review) = match load(run, notes) {
        Ok(loaded) => loaded,
        Err(report) => {
            return Ok(emit(&*report, run.format, render_text, None)?.exit(report.exit_code));
        }
    };
    let mut stdout = std::io::stdout().lock();
    let mut ids = Vec::new();
    let total = review.changes.len();
    'changes: for (i, change) in review.changes.iter().enumerate() {
        write!(stdout, "[{}/{total}] {}", i + 1, change_text(change)).map_err(Error::Stdout)?;
        if change.refused.is_some() {
            continue;
        }
        loop {
            write!(stdout, "{PROMPT}")
                .and_then(|()| stdout.flush())
                .map_err(Error::Stdout)?;
            let mut line = String::new();
            // A line that cannot be read ends the questions, as end of input does.
            if std::io::stdin().lock().read_line(&mut line).unwrap_or(0) == 0 {
                let _ = writeln!(stdout);
                break 'changes;
            }
            match answer(&line) {
                Some(Answer::Accept) => ids.push(change.id.clone()),
                Some(Answer::Keep) => {}
                Some(Answer::Quit) => break 'changes,
                None => continue,
            }
            break;
        }
    }
    drop(stdout);
    if ids.is_empty() {
        return Ok(Output {
            stdout: format!("run {}: nothing accepted\n", review.run_id),
            ..Output::default()
        });
    }
    let selection = Selection {
        ids,
        kinds: Vec::new(),
    };
    let report = accept(&snapshot, &review, &selection);
    Ok(emit(&report, run.format, render_text, None)?.exit(report.exit_code))
}

/// The project read and its latest run reviewed, or the report of why it
/// cannot be.
fn load(
    run: &ReviewRun,
    notes: &mut Vec<String>,
) -> Result<(ProjectSnapshot, Review), Box<ReviewReport>> {
    let root = run
        .project
        .resolve()
        .map_err(|e| Box::new(ReviewReport::unusable(vec![ErrorRecord::root(&e)])))?;
    let mut snapshot = read_project(&root).map_err(|e| {
        Box::new(ReviewReport::unusable(vec![ErrorRecord::project(
            &e, &root,
        )]))
    })?;
    notes.extend(
        snapshot
            .config_warnings()
            .into_iter()
            .map(|w| format!("warning: {w}")),
    );
    let runs = std::mem::replace(&mut snapshot.runs, Ok(Vec::new()));
    let Some(latest) = run_evidence(&root, runs).latest else {
        return Err(Box::new(ReviewReport::unusable(vec![ErrorRecord::new(
            Code::MissingRun,
            "the project holds no run record (`.varar/.runs/`): run `cargo test` first",
        )])));
    };
    let inputs: Vec<OathInput<'_>> = snapshot
        .oaths
        .iter()
        .map(|o| OathInput {
            oath_path: &o.file.oath_path,
            text: o.text.as_deref().ok(),
            results: o.results.as_ref().ok().and_then(Option::as_ref),
        })
        .collect();
    let review = review(&latest, &inputs);
    drop(inputs);
    Ok((snapshot, review))
}

fn review_project(run: &ReviewRun, notes: &mut Vec<String>) -> ReviewReport {
    match load(run, notes) {
        Err(report) => *report,
        Ok((_, review)) if run.accept.is_empty() => ReviewReport::listing(review),
        Ok((snapshot, review)) => accept(&snapshot, &review, &run.accept),
    }
}

/// Accept the changes of `review` that `selection` names.
fn accept(snapshot: &ProjectSnapshot, review: &Review, selection: &Selection) -> ReviewReport {
    let selected = match select(review, selection) {
        Ok(selected) => selected,
        Err(errors) => {
            let mut report = ReviewReport::listing(review.clone());
            report.errors = errors;
            return report.settle();
        }
    };
    let plan = plan(&selected);
    let mut report = ReviewReport::listing(review.clone());
    let by_id: BTreeMap<&str, &Change> = selected.iter().map(|c| (c.id.as_str(), *c)).collect();
    report.refused = plan.refused.clone();
    apply_drops(snapshot, &plan, &by_id, &mut report);
    apply_values(snapshot, &plan, &by_id, &mut report);
    report.settle()
}

/// Drop the accepted drift and removals from the lock, in one write under
/// the lock's advisory lock.
fn apply_drops(
    snapshot: &ProjectSnapshot,
    plan: &Plan,
    by_id: &BTreeMap<&str, &Change>,
    report: &mut ReviewReport,
) {
    if plan.drops.is_empty() {
        return;
    }
    let root = &snapshot.root;
    let unusable = |report: &mut ReviewReport, code: Code, message: String| {
        report
            .errors
            .push(ErrorRecord::new(code, message).with_path(LOCK_FILE_NAME));
    };
    let _guard = match lock_baseline(root) {
        Ok(guard) => guard,
        Err(e) => {
            return unusable(
                report,
                Code::OutputError,
                format!("cannot lock `{LOCK_FILE_NAME}`: {e}"),
            );
        }
    };
    let path = lock_path(root);
    let bytes = match varar_project::files::read(&path) {
        Ok(bytes) => Some(bytes),
        Err(e) if e.kind() == ErrorKind::NotFound => None,
        Err(e) => {
            return unusable(
                report,
                Code::InputError,
                format!("cannot read `{LOCK_FILE_NAME}`: {e}"),
            );
        }
    };
    let drops: Vec<_> = plan.drops.iter().map(|(_, _, d)| d.clone()).collect();
    let (text, found) = match bytes.as_deref().map(|b| drop_from_lock(b, &drops)) {
        None => (None, vec![false; drops.len()]),
        Some(Ok((text, found))) => (Some(text), found),
        Some(Err(e @ ReviewError::LockNotCanonical)) => {
            for (id, _, _) in &plan.drops {
                if let Some(change) = by_id.get(id.as_str()) {
                    report
                        .refused
                        .push(refused(change, Code::NotAcceptable, format!("{id}: {e}")));
                }
            }
            return;
        }
        Some(Err(e)) => {
            let reason = std::error::Error::source(&e).map_or(String::new(), |s| format!(": {s}"));
            return unusable(report, Code::InputError, format!("{e}{reason}"));
        }
    };
    if let Some(text) = text.filter(|_| found.contains(&true))
        && let Err(e) = write_atomic(&path, text.as_bytes())
    {
        return unusable(
            report,
            Code::OutputError,
            format!("cannot write `{LOCK_FILE_NAME}`: {e}"),
        );
    }
    for ((id, kind, drop), found) in plan.drops.iter().zip(found) {
        let accepted = |wrote: Option<&str>| Accepted {
            id: id.clone(),
            kind: *kind,
            wrote: wrote.map(str::to_owned),
        };
        if found {
            report.accepted.push(accepted(Some(LOCK_FILE_NAME)));
        } else if *kind == ChangeKind::Removed {
            report.accepted.push(accepted(None));
        } else if let Some(change) = by_id.get(id.as_str()) {
            report.refused.push(refused(
                change,
                Code::NotAcceptable,
                format!(
                    "{id}: `{LOCK_FILE_NAME}` no longer lists \"{}\" for `{}` (accepted already?)",
                    drop.name, drop.oath_path
                ),
            ));
        }
    }
}

/// Write the accepted values of each oath, in one write per oath, only
/// over the text the run read.
fn apply_values(
    snapshot: &ProjectSnapshot,
    plan: &Plan,
    by_id: &BTreeMap<&str, &Change>,
    report: &mut ReviewReport,
) {
    for (oath_path, changes) in &plan.values {
        let refuse = |report: &mut ReviewReport, code: Code, why: &str| {
            for (id, _) in changes {
                if let Some(change) = by_id.get(id.as_str()) {
                    report
                        .refused
                        .push(refused(change, code, format!("{id}: {why}")));
                }
            }
        };
        let Some(oath) = snapshot
            .oaths
            .iter()
            .find(|o| &o.file.oath_path == oath_path)
        else {
            refuse(
                report,
                Code::NotAcceptable,
                "the config selects this oath no more",
            );
            continue;
        };
        let Ok(read) = &oath.text else {
            refuse(report, Code::ChangedSinceRun, "it cannot be read now");
            continue;
        };
        // Read again just before writing: the review judged the text read
        // above; an edit since then is not overwritten.
        let now = varar_project::files::read(&oath.file.path).ok();
        if now.as_deref().map(sha256_hex) != Some(sha256_hex(read.as_bytes())) {
            refuse(
                report,
                Code::ChangedSinceRun,
                "it changed while under review",
            );
            continue;
        }
        let cells: Vec<_> = changes
            .iter()
            .flat_map(|(_, c)| c.iter().cloned())
            .collect();
        let text = match write_values(oath_path, read, &cells) {
            Ok(text) => text,
            Err(e) => {
                refuse(report, Code::NotAcceptable, &e.to_string());
                continue;
            }
        };
        if let Err(e) = write_atomic(&oath.file.path, text.as_bytes()) {
            report.errors.push(
                ErrorRecord::new(
                    Code::OutputError,
                    format!("cannot write `{oath_path}`: {e}"),
                )
                .with_path(oath_path.clone()),
            );
            continue;
        }
        for (id, _) in changes {
            report.accepted.push(Accepted {
                id: id.clone(),
                kind: ChangeKind::Value,
                wrote: Some(oath_path.clone()),
            });
        }
    }
}
