//! The plain drift algorithm of spec 40 §5.1, word for word: every baseline
//! entry compared with every candidate. Quadratic, so only the tests use it,
//! as the oracle the linear path (`index.rs`) must agree with.

use std::cmp::Ordering;
use std::collections::BTreeSet;

use crate::drift::similarity::{THRESHOLD_DEN, THRESHOLD_NUM, cmp_ratio, for_each_token};
use crate::drift::{CandidateInfo, Drift};
use crate::lock::{LockEntry, LockExample};

/// Drift of one oath by the plain algorithm.
pub(super) fn detect(baseline: Option<&LockEntry>, candidates: &[CandidateInfo]) -> Vec<Drift> {
    let Some(baseline) = baseline else {
        return Vec::new();
    };
    let candidate_tokens: Vec<BTreeSet<String>> = candidates
        .iter()
        .map(|c| tokens(c.name.as_deref().expect("every candidate is named")))
        .collect();
    let mut drifts = Vec::new();
    for b in &baseline.examples {
        let b_tokens = tokens(&b.name);
        let distance = |c: &CandidateInfo| i64::from(c.line).abs_diff(b.line);
        let mut best: Option<(usize, (u64, u64))> = None;
        for (i, c) in candidates.iter().enumerate() {
            let s = jaccard(&b_tokens, &candidate_tokens[i]);
            if cmp_ratio(s, (THRESHOLD_NUM, THRESHOLD_DEN)) == Ordering::Less {
                continue;
            }
            let better = match best {
                None => true,
                Some((j, best_s)) => match cmp_ratio(s, best_s) {
                    Ordering::Greater => true,
                    Ordering::Equal => distance(c) < distance(&candidates[j]),
                    Ordering::Less => false,
                },
            };
            if better {
                best = Some((i, s));
            }
        }
        if let Some((i, _)) = best {
            let c = &candidates[i];
            if !c.live && !c.ambiguous {
                drifts.push(Drift {
                    name: b.name.clone(),
                    line: c.line,
                    span: c.span,
                });
            }
        }
    }
    drifts
}

/// The baseline examples no candidate reaches J ≥ ½ with (spec 40 §5.2,
/// "remove + add"), by the plain algorithm: every pair compared.
pub(super) fn removed(baseline: &LockEntry, candidates: &[CandidateInfo]) -> Vec<LockExample> {
    baseline
        .examples
        .iter()
        .filter(|b| {
            let b_tokens = tokens(&b.name);
            candidates.iter().all(|c| {
                cmp_ratio(
                    jaccard(
                        &b_tokens,
                        &tokens(c.name.as_deref().expect("every candidate is named")),
                    ),
                    (THRESHOLD_NUM, THRESHOLD_DEN),
                ) == Ordering::Less
            })
        })
        .cloned()
        .collect()
}

/// The token set of a name (the plain algorithm's view, for the tests):
/// maximal runs of letters and numbers (Unicode
/// categories L* and N*) of its full Unicode lower-casing (spec 40 §5.1).
pub(super) fn tokens(s: &str) -> BTreeSet<String> {
    let mut set = BTreeSet::new();
    for_each_token(s, |t| {
        set.insert(t.to_owned());
    });
    set
}

/// Jaccard similarity as an exact ratio `(|A ∩ B|, |A ∪ B|)`; two empty sets
/// are identical (`(1, 1)`).
pub(super) fn jaccard(a: &BTreeSet<String>, b: &BTreeSet<String>) -> (u64, u64) {
    let inter = a.intersection(b).count() as u64;
    let union = (a.len() + b.len()) as u64 - inter;
    if union == 0 { (1, 1) } else { (inter, union) }
}
