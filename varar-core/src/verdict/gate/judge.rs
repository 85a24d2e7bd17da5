//! The judging itself: every oath's result file, then the latest run.

use std::collections::BTreeSet;

use crate::record::RemovedExample;
use crate::results::OathResults;

use super::model::{
    FailureRecord, GateOptions, GateReport, GateStatus, ItemFailure, OathGate, OathStatus,
    RecoveredItem, RunSummary, VERSION,
};
use crate::verdict::current::Latest;
use crate::verdict::evidence::{EvidenceState, OathEvidence, ProjectEvidence};
use crate::verdict::records::{Code, ErrorRecord, exit_code};
use crate::verdict::run_evidence::{failed_items, recovered_items};
use crate::verdict::standing::Standing;

impl GateReport {
    /// The report of a gate that could not even find its oaths.
    pub fn unusable(error: ErrorRecord) -> GateReport {
        finish(Judged {
            errors: vec![error],
            ..Judged::default()
        })
    }
}

/// What the verdict is made of.
#[derive(Default)]
struct Judged {
    options: GateOptions,
    run: Option<RunSummary>,
    oaths: Vec<OathGate>,
    failures: Vec<FailureRecord>,
    item_failures: Vec<ItemFailure>,
    recovered: Vec<RecoveredItem>,
    removed: Vec<RemovedExample>,
    errors: Vec<ErrorRecord>,
    warnings: Vec<ErrorRecord>,
    standing: Option<Standing>,
}

/// Judge the project's evidence: every selected oath's result file (the
/// oaths of `linked_only` need none: they run only inside the oaths that
/// link to them, spec 70 §70.4.5), then the latest run.
pub fn evaluate(project: &ProjectEvidence, options: GateOptions) -> GateReport {
    let mut judged = Judged {
        options,
        ..Judged::default()
    };
    let run = project.run.latest.as_ref();
    let failed_oaths: BTreeSet<&str> = run
        .into_iter()
        .flat_map(failed_items)
        .map(|i| i.oath_path.as_str())
        .collect();
    // The run's standing, as every other consumer reads it (issue 34).
    let standing = project.standing();
    let latest = Latest {
        standing: Some(&standing),
        run,
    };
    for o in &project.oaths {
        let linked = project.linked_only.contains(&o.oath_path);
        let mut gate = judge(o, linked, latest, &mut judged);
        if failed_oaths.contains(o.oath_path.as_str())
            && matches!(gate.status, OathStatus::Passed | OathStatus::Linked)
        {
            gate.status = OathStatus::Failed;
        }
        judged.oaths.push(gate);
    }
    judged.errors.extend(standing.problems);
    judged.warnings = standing.warnings;
    judged.standing = Some(standing.standing);
    if let Some(run) = run {
        judged.run = Some(RunSummary::of(run));
        judged.item_failures = failed_items(run).map(ItemFailure::of).collect();
        judged.recovered = recovered_items(run).map(RecoveredItem::of).collect();
        judged.removed = run.removed().into_iter().cloned().collect();
    }
    finish(judged)
}

/// The verdict on one oath, by the rule every consumer draws by
/// ([`crate::verdict::current::drawn`]); its failures and problems are added to
/// `judged`. `linked`: it needs no result of its own.
fn judge(o: &OathEvidence, linked: bool, latest: Latest<'_>, judged: &mut Judged) -> OathGate {
    let mut gate = OathGate {
        path: o.oath_path.clone(),
        status: OathStatus::Missing,
        passed: 0,
        failed: 0,
        source_hash: o.current_hash(),
        fresh: false,
    };
    let counted = |gate: &mut OathGate, r: &OathResults| {
        gate.failed = r.examples.iter().filter(|e| e.failure.is_some()).count();
        gate.passed = r.examples.len() - gate.failed;
    };
    match o.state(latest) {
        // An earlier run's result (only when the latest run cannot be
        // judged, which its problems say) is of the text as it is now:
        // listed as what the result file holds (issue 19: an incomplete
        // run wins over a failure, and both are said).
        EvidenceState::Fresh(r) | EvidenceState::Earlier(r, _) => {
            counted(&mut gate, r);
            gate.fresh = true;
            gate.status = if gate.failed > 0 {
                OathStatus::Failed
            } else {
                OathStatus::Passed
            };
            judged.failures.extend(failure_records(o, r));
        }
        EvidenceState::Stale(r, why) => {
            counted(&mut gate, r);
            gate.status = OathStatus::Stale;
            judged.errors.push(stale_result(o, &why));
        }
        EvidenceState::Unvouched(r, why) => {
            counted(&mut gate, r);
            gate.status = OathStatus::Stale;
            // Without any run record, `missing_run` alone says why.
            if latest
                .standing
                .is_none_or(|s| s.standing != Standing::Missing)
            {
                judged.errors.push(stale_result(o, &why));
            }
        }
        EvidenceState::Missing if linked => gate.status = OathStatus::Linked,
        EvidenceState::Missing => judged.errors.push(missing_result(o)),
        EvidenceState::Unusable(found) => {
            gate.status = if o.results.is_err() {
                OathStatus::Invalid
            } else {
                OathStatus::Unreadable
            };
            judged.errors.extend(found);
        }
    }
    gate
}

/// The failures of a fresh result.
fn failure_records<'a>(
    o: &'a OathEvidence,
    r: &'a OathResults,
) -> impl Iterator<Item = FailureRecord> + 'a {
    r.examples.iter().filter_map(|e| {
        let f = e.failure.as_ref()?;
        Some(FailureRecord {
            oath_path: o.oath_path.clone(),
            line: f.line,
            example: e.name.clone(),
            message: f.message.clone(),
            doc_path: f.doc_path.clone(),
        })
    })
}

fn stale_result(o: &OathEvidence, why: &str) -> ErrorRecord {
    ErrorRecord::new(
        Code::StaleResult,
        format!("`{}` is stale: {why}; run the tests again", o.result_path),
    )
    .with_path(o.result_path.clone())
    .with_oath(o.oath_path.clone())
}

fn missing_result(o: &OathEvidence) -> ErrorRecord {
    ErrorRecord::new(
        Code::MissingResult,
        format!(
            "`{}` has no result ({}): it did not run",
            o.oath_path,
            o.missing_reason()
        ),
    )
    .with_path(o.result_path.clone())
    .with_oath(o.oath_path.clone())
}

fn finish(j: Judged) -> GateReport {
    let denied = (j.options.deny_recovered && !j.recovered.is_empty())
        || (j.options.deny_removed && !j.removed.is_empty());
    let failed = !j.failures.is_empty() || !j.item_failures.is_empty() || denied;
    let exit = exit_code(&j.errors, u8::from(failed));
    GateReport {
        version: VERSION,
        status: match exit {
            0 => GateStatus::Passed,
            1 => GateStatus::Failed,
            _ => GateStatus::Error,
        },
        exit_code: exit,
        deny_recovered: j.options.deny_recovered,
        deny_removed: j.options.deny_removed,
        run: j.run,
        oaths: j.oaths,
        failures: j.failures,
        item_failures: j.item_failures,
        recovered: j.recovered,
        removed: j.removed,
        // A gate that could not find its oaths has no run to stand on.
        standing: j.standing.unwrap_or(Standing::Missing),
        errors: j.errors,
        warnings: j.warnings,
    }
}
