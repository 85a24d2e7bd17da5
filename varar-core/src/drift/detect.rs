//! Re-identifying the baseline's examples among the current candidates
//! (spec 40 §5.1–5.2).

use super::index;
use super::model::{CandidateInfo, Drift};
use crate::lock::LockEntry;

/// Detect the drift of one oath (spec 40 §5.1): for every baseline example,
/// in stored order, the most similar candidate (J ≥ 0.5; ties go to the one
/// closest to the stored line, then the earlier one); a dead best match is
/// drift, unless it is dead because it is ambiguous (issue 10: the
/// ambiguity is reported, once). No baseline entry → no drift.
///
/// Entries that still re-identify exactly are settled by a hash lookup and
/// the rest are searched over an inverted token index (`index.rs`), with
/// the same results as comparing every entry with every candidate.
pub fn detect_drift(baseline: Option<&LockEntry>, candidates: &[CandidateInfo]) -> Vec<Drift> {
    drift_and_hold(baseline, candidates).0
}

/// [`detect_drift`] and [`held_by_ambiguity`] at once, the baseline
/// re-identified among the candidates once for both.
pub(crate) fn drift_and_hold(
    baseline: Option<&LockEntry>,
    candidates: &[CandidateInfo],
) -> (Vec<Drift>, bool) {
    let Some(baseline) = baseline else {
        return (Vec::new(), false);
    };
    let dead = index::dead_matches(baseline, candidates);
    let held = dead.iter().any(|&(_, c)| candidates[c].ambiguous);
    let drifts = dead
        .into_iter()
        .filter(|&(_, c)| !candidates[c].ambiguous && !candidates[c].runs_elsewhere)
        .map(|(b, c)| Drift {
            name: baseline.examples[b].name.clone(),
            line: candidates[c].line,
            span: candidates[c].span,
        })
        .collect();
    (drifts, held)
}

/// Whether a baseline example re-identifies onto a candidate that is dead
/// because it is ambiguous. Its oath's baseline entry is then kept as it
/// was, as for drift, until the ambiguity is resolved: the example is not
/// forgotten while its diagnostic item fails the run.
pub fn held_by_ambiguity(baseline: Option<&LockEntry>, candidates: &[CandidateInfo]) -> bool {
    let Some(baseline) = baseline else {
        return false;
    };
    candidates.iter().any(|c| c.ambiguous)
        && index::dead_matches(baseline, candidates)
            .iter()
            .any(|&(_, c)| candidates[c].ambiguous)
}
