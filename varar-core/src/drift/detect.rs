//! Re-identifying the baseline's examples among the current candidates
//! (spec 40 §5.1–5.2).

use super::index;
use super::model::{BaselineChanges, CandidateInfo, Drift};
use crate::lock::{LockEntry, LockExample};

/// Detect the drift of one oath (spec 40 §5.1): for every baseline example,
/// in stored order, the most similar candidate (J ≥ 0.5; ties go to the one
/// closest to the stored line, then the earlier one); a dead best match is
/// drift, unless it is dead because it is ambiguous (issue 10: the
/// ambiguity is reported, once). No baseline entry → no drift.
///
/// Entries that still re-identify exactly are settled by a hash lookup and
/// the rest are searched over an inverted token index (`index.rs`), with
/// the same results as comparing every entry with every candidate.
///
/// `None` when the comparison needs a name that was not made (see
/// [`compare_baseline`]).
pub fn detect_drift(
    baseline: Option<&LockEntry>,
    candidates: &[CandidateInfo],
) -> Option<Vec<Drift>> {
    compare_baseline(baseline, candidates).map(|c| c.drifts)
}

/// Everything one oath's lock entry and its current candidates say, from
/// one re-identification pass (spec 40 §5.1–5.2): the drift and whether an
/// ambiguity holds the entry (as [`detect_drift`] and
/// [`held_by_ambiguity`]), the lock's examples no candidate re-identifies
/// (no J ≥ 0.5: deleted or rewritten past recognition, "remove + add",
/// which the lock then drops without a word of the spec's), and the
/// examples no lock example re-identifies onto (new ones). Without an
/// entry, every example is new and nothing is removed.
///
/// `None` when it needs a name that was not made: a dead candidate's
/// ([`CandidateInfo::name`]), for an entry that no longer reads as
/// recorded. Candidates named by [`super::candidates`] always do.
///
/// ```
/// use varar_core::drift::{CandidateInfo, compare_baseline};
/// use varar_core::lock::{LockEntry, LockExample};
/// use varar_core::source::Span;
///
/// let candidate = |name: &str, line| CandidateInfo {
///     name: Some(name.into()),
///     line,
///     span: Span::default(),
///     live: true,
///     ambiguous: false,
///     runs_elsewhere: false,
/// };
/// let entry = LockEntry {
///     source_hash: "fnv1a:00000000".into(),
///     examples: vec![LockExample { name: "Uppercase each one".into(), line: 3 }],
/// };
/// // 2 shared tokens of 6: J = 1/3, not the same example any more.
/// let changes = compare_baseline(Some(&entry), &[candidate("Uppercase every one of them", 3)])
///     .expect("every candidate is named");
/// assert_eq!(changes.removed, entry.examples);
/// assert_eq!(changes.added[0].name, "Uppercase every one of them");
/// assert!(changes.drifts.is_empty());
/// ```
pub fn compare_baseline(
    baseline: Option<&LockEntry>,
    candidates: &[CandidateInfo],
) -> Option<BaselineChanges> {
    let Some(baseline) = baseline else {
        return Some(BaselineChanges {
            added: added(candidates, &[]),
            ..BaselineChanges::default()
        });
    };
    let found = index::reidentify(baseline, candidates)?;
    let held = found.dead.iter().any(|&(_, c)| candidates[c].ambiguous);
    let drifts = found
        .dead
        .into_iter()
        .filter(|&(_, c)| !candidates[c].ambiguous && !candidates[c].runs_elsewhere)
        .map(|(b, c)| Drift {
            name: baseline.examples[b].name.clone(),
            line: candidates[c].line,
            span: candidates[c].span,
        })
        .collect();
    Some(BaselineChanges {
        drifts,
        held,
        removed: found
            .removed
            .into_iter()
            .map(|b| baseline.examples[b].clone())
            .collect(),
        added: added(candidates, &found.matched),
    })
}

/// The live candidates (the examples a fresh entry records) that no lock
/// example re-identifies onto, as the fresh entry would record them (a
/// live candidate is always named).
fn added(candidates: &[CandidateInfo], matched: &[bool]) -> Vec<LockExample> {
    candidates
        .iter()
        .enumerate()
        .filter(|&(i, c)| c.live && !matched.get(i).copied().unwrap_or(false))
        .filter_map(|(_, c)| {
            Some(LockExample {
                name: c.name.clone()?,
                line: i64::from(c.line),
            })
        })
        .collect()
}

/// Whether a baseline example re-identifies onto a candidate that is dead
/// because it is ambiguous. Its oath's baseline entry is then kept as it
/// was, as for drift, until the ambiguity is resolved: the example is not
/// forgotten while its diagnostic item fails the run. `None` when that
/// needs a name that was not made (see [`compare_baseline`]).
pub fn held_by_ambiguity(
    baseline: Option<&LockEntry>,
    candidates: &[CandidateInfo],
) -> Option<bool> {
    let Some(baseline) = baseline else {
        return Some(false);
    };
    if !candidates.iter().any(|c| c.ambiguous) {
        return Some(false);
    }
    let dead = index::dead_matches(baseline, candidates)?;
    Some(dead.iter().any(|&(_, c)| candidates[c].ambiguous))
}
