//! The linear path of drift detection (spec 40 §5.1), with exactly the
//! plain algorithm's results (the property test in `tests` compares them).
//!
//! - **Exact hits.** J = 1 is the highest score and holds exactly when the
//!   token sets are equal, so a baseline entry whose token set is still some
//!   candidates' token set (the usual case: nothing changed) is settled by a
//!   hash lookup of that set: its best match is the closest of those
//!   candidates, the earlier on a tie.
//! - **Nothing changed.** When every baseline entry is a live candidate
//!   by name and line and no two candidates start on one line (the second
//!   run of an unchanged oath), each entry's best match is that candidate:
//!   J = 1 at distance 0, which nothing beats and no other candidate ties.
//!   Nothing is tokenised.
//! - **The rest** are searched over an inverted index (token → candidates),
//!   probing only a *prefix* of the entry's tokens: J ≥ ½ forces
//!   |A ∩ B| ≥ ⌈|A|/2⌉, so any ⌊|A|/2⌋ + 1 tokens of A hold at least one
//!   shared token. Taking A's rarest tokens keeps the probed lists short;
//!   every candidate found is then scored exactly.

use std::cmp::Ordering;

use super::model::CandidateInfo;
use super::similarity::{THRESHOLD_DEN, THRESHOLD_NUM, cmp_ratio, for_each_token};
use crate::fast_hash::FastMap;
use crate::lock::LockEntry;

/// Token ids, sorted and distinct: a token set.
type TokenSet = Vec<u32>;

/// The candidates of one oath, indexed for re-identification.
struct Index<'a> {
    candidates: &'a [CandidateInfo],
    /// Token text → id, for candidate and baseline tokens alike.
    ids: FastMap<String, u32>,
    /// Each candidate's token set.
    sets: Vec<TokenSet>,
    /// Candidates by exact token set, in document order.
    by_set: FastMap<TokenSet, Vec<usize>>,
    /// Token id → candidates holding it, in document order.
    postings: Vec<Vec<usize>>,
}

impl<'a> Index<'a> {
    /// `None` when a candidate is not named.
    fn new(candidates: &'a [CandidateInfo]) -> Option<Self> {
        let mut index = Index {
            candidates,
            ids: FastMap::default(),
            sets: Vec::with_capacity(candidates.len()),
            by_set: FastMap::default(),
            postings: Vec::new(),
        };
        for (i, c) in candidates.iter().enumerate() {
            let set = index.token_set(c.name.as_deref()?);
            for &t in &set {
                index.postings[t as usize].push(i);
            }
            index.by_set.entry(set.clone()).or_default().push(i);
            index.sets.push(set);
        }
        Some(index)
    }

    /// The token set of `name`, interning new tokens.
    fn token_set(&mut self, name: &str) -> TokenSet {
        let mut set = TokenSet::new();
        for_each_token(name, |t| {
            let id = match self.ids.get(t) {
                Some(&id) => id,
                None => {
                    let id = self.ids.len() as u32;
                    self.ids.insert(t.to_owned(), id);
                    self.postings.push(Vec::new());
                    id
                }
            };
            set.push(id);
        });
        set.sort_unstable();
        set.dedup();
        set
    }

    /// The best candidate for a baseline entry (spec 40 §5.1): highest J
    /// (at least ½), then closest to `line`, then earliest.
    fn best(&mut self, name: &str, line: i64) -> Option<usize> {
        let set = self.token_set(name);
        let distance = |c: &CandidateInfo| i64::from(c.line).abs_diff(line);
        if let Some(exact) = self.by_set.get(&set) {
            // J = 1 cannot be beaten; `min_by_key` keeps the first minimum.
            return exact
                .iter()
                .copied()
                .min_by_key(|&i| distance(&self.candidates[i]));
        }
        // Rarest tokens first; enough of them that a candidate with J ≥ ½
        // must hold one.
        let mut by_rarity = set.clone();
        by_rarity.sort_by_key(|&t| (self.postings[t as usize].len(), t));
        by_rarity.truncate(set.len() / 2 + 1);
        let mut seen: Vec<usize> = by_rarity
            .iter()
            .flat_map(|&t| self.postings[t as usize].iter().copied())
            .collect();
        seen.sort_unstable();
        seen.dedup();
        let mut best: Option<(usize, (u64, u64))> = None;
        for i in seen {
            let s = jaccard_sorted(&set, &self.sets[i]);
            if cmp_ratio(s, (THRESHOLD_NUM, THRESHOLD_DEN)) == Ordering::Less {
                continue;
            }
            let better = match best {
                None => true,
                Some((j, best_s)) => match cmp_ratio(s, best_s) {
                    Ordering::Greater => true,
                    Ordering::Equal => {
                        distance(&self.candidates[i]) < distance(&self.candidates[j])
                    }
                    Ordering::Less => false,
                },
            };
            if better {
                best = Some((i, s));
            }
        }
        best.map(|(i, _)| i)
    }
}

/// Jaccard similarity of two sorted, distinct id lists, as an exact ratio.
fn jaccard_sorted(a: &[u32], b: &[u32]) -> (u64, u64) {
    let (mut i, mut j, mut inter) = (0, 0, 0u64);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            Ordering::Less => i += 1,
            Ordering::Greater => j += 1,
            Ordering::Equal => {
                inter += 1;
                i += 1;
                j += 1;
            }
        }
    }
    let union = (a.len() + b.len()) as u64 - inter;
    if union == 0 { (1, 1) } else { (inter, union) }
}

/// What re-identifying one oath's baseline among its candidates found
/// (spec 40 §5.1–5.2), from one pass.
#[derive(Debug, Default)]
pub(super) struct Reidentified {
    /// The baseline examples (by index) whose best match is a dead
    /// candidate (by index), in stored order.
    pub dead: Vec<(usize, usize)>,
    /// The baseline examples (by index) no candidate re-identifies (no
    /// J ≥ ½): deleted or rewritten past recognition ("remove + add").
    pub removed: Vec<usize>,
    /// Per candidate, whether some baseline example's best match is it.
    pub matched: Vec<bool>,
}

/// Re-identify the baseline examples of one oath among its candidates, in
/// time linear in the names' length when they still re-identify exactly.
/// `None` when the baseline no longer reads as recorded and a candidate is
/// not named: every name is then read.
pub(super) fn reidentify(
    baseline: &LockEntry,
    candidates: &[CandidateInfo],
) -> Option<Reidentified> {
    if let Some(matched) = still_recorded(baseline, candidates) {
        return Some(Reidentified {
            matched,
            ..Reidentified::default()
        });
    }
    let mut index = Index::new(candidates)?;
    let mut found = Reidentified {
        matched: vec![false; candidates.len()],
        ..Reidentified::default()
    };
    for (b, example) in baseline.examples.iter().enumerate() {
        match index.best(&example.name, example.line) {
            None => found.removed.push(b),
            Some(c) => {
                found.matched[c] = true;
                if !candidates[c].live {
                    found.dead.push((b, c));
                }
            }
        }
    }
    Some(found)
}

/// The baseline examples of one oath (by index) whose best match is a dead
/// candidate (by index), in stored order (spec 40 §5.1); `None` as for
/// [`reidentify`].
pub(super) fn dead_matches(
    baseline: &LockEntry,
    candidates: &[CandidateInfo],
) -> Option<Vec<(usize, usize)>> {
    Some(reidentify(baseline, candidates)?.dead)
}

/// Whether every baseline example is still recorded as it was: a live
/// candidate of the same name starts on its line, and candidate lines are
/// strictly increasing (in document order), so no other candidate starts
/// on that line. Each example's best match is then that live candidate
/// (J = 1 at distance 0, unique), so none is dead and none removed; the
/// candidates matched are returned. A binary search per example, no
/// tokenising: cheap even in an unoptimised build, and only live
/// candidates' names are read.
fn still_recorded(baseline: &LockEntry, candidates: &[CandidateInfo]) -> Option<Vec<bool>> {
    if !candidates.windows(2).all(|w| w[0].line < w[1].line) {
        return None;
    }
    let mut matched = vec![false; candidates.len()];
    for example in &baseline.examples {
        let line = u32::try_from(example.line).ok()?;
        let i = candidates.binary_search_by_key(&line, |c| c.line).ok()?;
        if !(candidates[i].live && candidates[i].name.as_deref() == Some(example.name.as_str())) {
            return None;
        }
        matched[i] = true;
    }
    Some(matched)
}
