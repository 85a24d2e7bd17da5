//! Drift detection (spec 40 §5): a candidate the baseline recorded as an
//! example that no longer matches any step. Baseline entries are
//! re-identified among the oath's current candidates by the Jaccard
//! similarity of their word tokens; a re-identified candidate that is dead is
//! drift. Also computes the candidates' names, lines and liveness (§0) and the
//! fresh lock entry (§4.2) from a document and its plan. Pure.

use std::cmp::Ordering;
#[cfg(test)]
use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::Regex;

use crate::doc::Doc;
use crate::lock::{LockEntry, LockExample};
use crate::plan::{DiagnosticCode, Plan, runs_alone};
use crate::registry::Registry;
use crate::source::Span;
use crate::workspace::{Document, Workspace};

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
    /// Whether it holds an ambiguous sentence: it is dead because two steps
    /// match, which its own diagnostic item reports, so it is never also
    /// drift (issue 10).
    pub ambiguous: bool,
    /// Whether it is consumed (a link elsewhere names its section, spec 70
    /// §70.2.2) and, planned alone, still has a step: it now runs where it
    /// is referenced, so a baseline entry that re-identifies onto it is not
    /// drift (spec 70 §70.6.5). Such a candidate is never live.
    pub runs_elsewhere: bool,
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

#[allow(clippy::expect_used)] // A constant pattern, exercised by every test below.
static WORD: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[\p{L}\p{N}]+").expect("constant regex compiles"));

/// The token set of a name (the plain algorithm's view, for the tests):
/// maximal runs of letters and numbers (Unicode
/// categories L* and N*) of its full Unicode lower-casing (spec 40 §5.1).
#[cfg(test)]
pub fn tokens(s: &str) -> BTreeSet<String> {
    let mut set = BTreeSet::new();
    for_each_token(s, |t| {
        set.insert(t.to_owned());
    });
    set
}

/// Call `f` with every token of `s` (with repeats), in text order.
pub(crate) fn for_each_token(s: &str, mut f: impl FnMut(&str)) {
    let lower = s.to_lowercase();
    if !lower.is_ascii() {
        WORD.find_iter(&lower).for_each(|m| f(m.as_str()));
        return;
    }
    // In ASCII, L* and N* are exactly the letters and digits: the same runs
    // as the regex, found by a plain byte loop (cheap even unoptimised).
    let bytes = lower.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i <= bytes.len() {
        if i == bytes.len() || !bytes[i].is_ascii_alphanumeric() {
            if i > start {
                f(&lower[start..i]);
            }
            start = i + 1;
        }
        i += 1;
    }
}

/// Jaccard similarity as an exact ratio `(|A ∩ B|, |A ∪ B|)`; two empty sets
/// are identical (`(1, 1)`).
#[cfg(test)]
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
/// drift, unless it is dead because it is ambiguous (issue 10: the
/// ambiguity is reported, once). No baseline entry → no drift.
///
/// Entries that still re-identify exactly are settled by a hash lookup and
/// the rest are searched over an inverted token index (`index.rs`), with
/// the same results as comparing every entry with every candidate.
pub fn detect_drift(baseline: Option<&LockEntry>, candidates: &[CandidateInfo]) -> Vec<Drift> {
    let Some(baseline) = baseline else {
        return Vec::new();
    };
    index::dead_matches(baseline, candidates)
        .into_iter()
        .filter(|&(_, c)| !candidates[c].ambiguous && !candidates[c].runs_elsewhere)
        .map(|(b, c)| Drift {
            name: baseline.examples[b].name.clone(),
            line: candidates[c].line,
            span: candidates[c].span,
        })
        .collect()
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

/// The candidates of a document with their names, lines and liveness: live
/// when their offset range overlaps a planned example's (spec 40 §0).
///
/// One pass: the examples' ranges sorted by start with a running maximum of
/// their ends, so each candidate asks "does an example starting before my
/// end reach past my start?" with one binary search.
pub fn candidates(doc: &Doc, plan: &Plan) -> Vec<CandidateInfo> {
    let mut ambiguities: Vec<u32> = plan
        .diagnostics
        .iter()
        // An ambiguity met in a linked section lies in that other document.
        .filter(|d| d.code == DiagnosticCode::AmbiguousMatch && d.doc_path.is_none())
        .map(|d| d.span.start_offset)
        .collect();
    ambiguities.sort_unstable();
    let mut ranges: Vec<(u32, u32)> = plan
        .examples
        .iter()
        .map(|e| (e.span.start_offset, e.span.end_offset))
        .collect();
    ranges.sort_unstable();
    let mut reach = Vec::with_capacity(ranges.len());
    let mut furthest = 0;
    for &(_, end) in &ranges {
        furthest = furthest.max(end);
        reach.push(furthest);
    }
    doc.examples
        .iter()
        .map(|c| {
            let starting_before = ranges.partition_point(|&(start, _)| start < c.span.end_offset);
            let live = starting_before > 0 && reach[starting_before - 1] > c.span.start_offset;
            let first = ambiguities.partition_point(|&start| start < c.span.start_offset);
            let ambiguous = ambiguities
                .get(first)
                .is_some_and(|&start| start < c.span.end_offset);
            CandidateInfo {
                name: crate::text::example_name(&c.body.text.text),
                line: c.body.text.span.start_line,
                span: c.span,
                live,
                ambiguous,
                runs_elsewhere: false,
            }
        })
        .collect()
}

/// The candidates of an oath planned among the workspace's documents, as
/// the baseline is compared with them (spec 40 §5 with spec 70 §70.5 and
/// §70.6.5): [`candidates`] with [`apply_consumed`]. The harness and the
/// language server both call this, so the editor and `cargo test` report
/// the same drift. Whether a consumed candidate still runs alone is asked
/// only when there is a baseline to compare (`with_baseline`): planning it
/// alone costs a match per sentence.
pub fn oath_candidates(
    workspace: &Workspace<'_>,
    document: &Document<'_>,
    plan: &Plan,
    registry: &Registry,
    with_baseline: bool,
) -> Vec<CandidateInfo> {
    let mut cands = candidates(document.doc(), plan);
    apply_consumed(&mut cands, &workspace.consumed(document), |i| {
        with_baseline && runs_alone(workspace, document.path(), i, registry)
    });
    cands
}

/// Apply what reuse by link says of the candidates of an oath (spec 70
/// §70.5): a consumed candidate (`consumed[i]`) is never live in its own
/// oath, and it runs elsewhere when `has_step(i)` (planned alone, it has a
/// step, or it is itself a link), which spares it from drift (§70.6.5).
/// `has_step` is asked only of consumed candidates.
pub fn apply_consumed(
    candidates: &mut [CandidateInfo],
    consumed: &[bool],
    mut has_step: impl FnMut(usize) -> bool,
) {
    for (i, c) in candidates.iter_mut().enumerate() {
        if consumed.get(i).copied().unwrap_or(false) {
            c.live = false;
            c.runs_elsewhere = has_step(i);
        }
    }
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

mod index;
#[cfg(test)]
mod plain;
#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;
