//! Drift detection (spec 40 §5): a candidate the baseline recorded as an
//! example that no longer matches any step. Baseline entries are
//! re-identified among the oath's current candidates by the Jaccard
//! similarity of their word tokens; a re-identified candidate that is dead is
//! drift. Also computes the candidates' names, lines and liveness (§0) and the
//! fresh lock entry (§4.2) from a document and its plan. Pure.

use std::cmp::Ordering;
use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::Regex;

use crate::doc::Doc;
use crate::lock::{LockEntry, LockExample};
use crate::plan::Plan;
use crate::source::Span;

/// A re-identified candidate needs at least this similarity (inclusive),
/// as the ratio `THRESHOLD_NUM / THRESHOLD_DEN`.
const THRESHOLD_NUM: u64 = 1;
const THRESHOLD_DEN: u64 = 2;

/// What drift detection needs to know of one candidate of the current text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CandidateInfo {
    /// Its example name (spec 40 §0).
    pub name: String,
    /// 1-based start line of its primary block.
    pub line: u32,
    /// Its whole span (primary block and attachments).
    pub span: Span,
    /// Whether a planned example overlaps it.
    pub live: bool,
}

/// One baseline example that now re-identifies onto a dead candidate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Drift {
    /// The name stored in the baseline (reported verbatim).
    pub name: String,
    /// The current line of the candidate it re-identified onto.
    pub line: u32,
    /// The span of that candidate.
    pub span: Span,
}

impl Drift {
    /// The two-line message of spec 40 §5.4.
    pub fn message(&self) -> String {
        drift_message(&self.name)
    }

    /// The §5.4 message plus the harness's third line
    /// ([`HARNESS_DRIFT_HINT`]).
    pub fn harness_message(&self) -> String {
        format!("{}\n{HARNESS_DRIFT_HINT}", self.message())
    }
}

/// The message of spec 40 §5.4 for a baseline name.
pub fn drift_message(name: &str) -> String {
    format!(
        "This paragraph was an example and no longer matches any step (drift): \"{name}\".\n\
         Fix the step so it matches again, or accept it as prose (run in update mode)."
    )
}

/// The third line the `cargo test` harness appends to [`drift_message`].
pub const HARNESS_DRIFT_HINT: &str =
    "Accept it with VARAR_UPDATE=1 cargo test, then commit varar.lock.json.";

/// The example name of a primary block's text (spec 40 §0): whitespace runs
/// (JavaScript's set) become one space, the result is trimmed, and one
/// trailing `.`, `!` or `?` is removed (a `:` stays).
pub fn example_name(text: &str) -> String {
    let mut out = crate::text::collapse_whitespace(text);
    if out.ends_with(['.', '!', '?']) {
        out.pop();
    }
    out
}

#[allow(clippy::expect_used)] // A constant pattern, exercised by every test below.
static WORD: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[\p{L}\p{N}]+").expect("constant regex compiles"));

/// The token set of a name: maximal runs of letters and numbers (Unicode
/// categories L* and N*) of its full Unicode lower-casing (spec 40 §5.1).
pub fn tokens(s: &str) -> BTreeSet<String> {
    let lower = s.to_lowercase();
    WORD.find_iter(&lower)
        .map(|m| m.as_str().to_owned())
        .collect()
}

/// Jaccard similarity as an exact ratio `(|A ∩ B|, |A ∪ B|)`; two empty sets
/// are identical (`(1, 1)`).
pub fn jaccard(a: &BTreeSet<String>, b: &BTreeSet<String>) -> (u64, u64) {
    let inter = a.intersection(b).count() as u64;
    let union = (a.len() + b.len()) as u64 - inter;
    if union == 0 { (1, 1) } else { (inter, union) }
}

/// Compare two ratios `n1/d1` and `n2/d2` exactly (denominators are > 0).
fn cmp_ratio((n1, d1): (u64, u64), (n2, d2): (u64, u64)) -> Ordering {
    (n1 * d2).cmp(&(n2 * d1))
}

/// Detect the drift of one oath (spec 40 §5.1): for every baseline example,
/// in stored order, the most similar candidate (J ≥ 0.5; ties go to the one
/// closest to the stored line, then the earlier one); a dead best match is
/// drift. No baseline entry → no drift.
pub fn detect_drift(baseline: Option<&LockEntry>, candidates: &[CandidateInfo]) -> Vec<Drift> {
    let Some(baseline) = baseline else {
        return Vec::new();
    };
    let candidate_tokens: Vec<BTreeSet<String>> =
        candidates.iter().map(|c| tokens(&c.name)).collect();
    let mut drifts = Vec::new();
    for b in &baseline.examples {
        let b_tokens = tokens(&b.name);
        let distance = |c: &CandidateInfo| (i64::from(c.line) - b.line).unsigned_abs();
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
            if !c.live {
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

/// The candidates of a document with their names, lines and liveness: live
/// when their offset range overlaps a planned example's (spec 40 §0).
pub fn candidates(doc: &Doc, plan: &Plan) -> Vec<CandidateInfo> {
    doc.examples
        .iter()
        .map(|c| {
            let live = plan.examples.iter().any(|e| {
                e.span.start_offset < c.span.end_offset && c.span.start_offset < e.span.end_offset
            });
            CandidateInfo {
                name: example_name(&c.body.text.text),
                line: c.body.text.span.start_line,
                span: c.span,
                live,
            }
        })
        .collect()
}

/// The fresh lock entry of an oath (spec 40 §4.2): its hash and its live
/// candidates in document order.
pub fn fresh_entry(source_hash: &str, candidates: &[CandidateInfo]) -> LockEntry {
    LockEntry {
        source_hash: source_hash.to_owned(),
        examples: candidates
            .iter()
            .filter(|c| c.live)
            .map(|c| LockExample {
                name: c.name.clone(),
                line: i64::from(c.line),
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests;
