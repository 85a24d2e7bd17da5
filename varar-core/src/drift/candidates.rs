//! The candidates of an oath as drift sees them: names, lines, liveness
//! (spec 40 §0), consumed sections (spec 70 §70.5), and the fresh lock
//! entry they make (spec 40 §4.2).

use super::model::CandidateInfo;
use crate::doc::Doc;
use crate::lock::{LockEntry, LockExample};
use crate::plan::{DiagnosticCode, Plan, runs_alone};
use crate::registry::Registry;
use crate::threads::{TWO_THREADS_FROM, map_in_halves};
use crate::workspace::{Document, Workspace};

/// Which candidates [`candidates_naming`] names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Naming {
    /// Every candidate: what re-identifying a baseline entry may read.
    Every,
    /// The live ones only, which a fresh lock entry records: enough for an
    /// oath without a baseline entry, or one whose entry reads as recorded
    /// (see [`CandidateInfo::name`]).
    Live,
}

/// The candidates of a document with their names, lines and liveness: live
/// when their offset range overlaps a planned example's (spec 40 §0).
/// Every one is named ([`candidates_naming`] with [`Naming::Every`]).
pub fn candidates(doc: &Doc, plan: &Plan) -> Vec<CandidateInfo> {
    candidates_naming(doc, plan, Naming::Every)
}

/// [`candidates`], naming those `naming` says.
///
/// One pass: the examples' ranges sorted by start with a running maximum of
/// their ends, so each candidate asks "does an example starting before my
/// end reach past my start?" with one binary search.
pub fn candidates_naming(doc: &Doc, plan: &Plan, naming: Naming) -> Vec<CandidateInfo> {
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
    // Naming every candidate is most of the work: a long oath's are named
    // on two threads (a fifth of a keystroke in a 5 MB oath, issue 39).
    let candidates = &doc.examples;
    map_in_halves(candidates.len(), TWO_THREADS_FROM, &|| (), &|(), i| {
        let c = &candidates[i];
        let starting_before = ranges.partition_point(|&(start, _)| start < c.span.end_offset);
        let live = starting_before > 0 && reach[starting_before - 1] > c.span.start_offset;
        let first = ambiguities.partition_point(|&start| start < c.span.start_offset);
        let ambiguous = ambiguities
            .get(first)
            .is_some_and(|&start| start < c.span.end_offset);
        let named = live || naming == Naming::Every;
        CandidateInfo {
            name: named.then(|| crate::text::example_name(&c.body.text.text)),
            line: c.body.text.span.start_line,
            span: c.span,
            live,
            ambiguous,
            runs_elsewhere: false,
        }
    })
}

/// The candidates of an oath planned among the workspace's documents, as
/// the baseline is compared with them (spec 40 §5 with spec 70 §70.5 and
/// §70.6.5): [`candidates`] with [`apply_consumed`]. Every consumer reaches
/// it through [`crate::planned::plan_with_drift`], so the editor, `cargo
/// varar check` and `cargo test` report the same drift. Whether a consumed
/// candidate still runs alone is asked only when there is a baseline to
/// compare (`with_baseline`): planning it alone costs a match per
/// sentence. Only the live candidates are named ([`Naming::Live`]); the
/// comparison asks for the others' names ([`name_every`]) when it needs
/// them.
pub fn oath_candidates(
    workspace: &Workspace<'_>,
    document: &Document<'_>,
    plan: &Plan,
    registry: &Registry,
    with_baseline: bool,
) -> Vec<CandidateInfo> {
    let mut cands = candidates_naming(document.doc(), plan, Naming::Live);
    apply_consumed(&mut cands, &workspace.consumed(document), |i| {
        with_baseline && runs_alone(workspace, document.path(), i, registry)
    });
    cands
}

/// Name the candidates of `doc` (as [`candidates_naming`] made them) that
/// are not named yet.
pub fn name_every(doc: &Doc, candidates: &mut [CandidateInfo]) {
    let unnamed: Vec<usize> = (0..candidates.len())
        .filter(|&i| candidates[i].name.is_none())
        .collect();
    let of = &doc.examples;
    let names = map_in_halves(unnamed.len(), TWO_THREADS_FROM, &|| (), &|(), k| {
        of.get(unnamed[k])
            .map(|c| crate::text::example_name(&c.body.text.text))
    });
    for (i, name) in unnamed.into_iter().zip(names) {
        candidates[i].name = name;
    }
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
/// candidates in document order (each is named: see
/// [`CandidateInfo::name`]).
pub fn fresh_entry(source_hash: &str, candidates: &[CandidateInfo]) -> LockEntry {
    entry_of(
        source_hash,
        candidates
            .iter()
            .filter(|c| c.live)
            .filter_map(|c| Some((c.name.clone()?, c.line))),
    )
}

/// [`fresh_entry`], the candidates' names moved into it.
pub fn into_fresh_entry(source_hash: &str, candidates: Vec<CandidateInfo>) -> LockEntry {
    let live = candidates
        .into_iter()
        .filter(|c| c.live)
        .filter_map(|c| Some((c.name?, c.line)));
    let mut entry = entry_of(source_hash, live);
    // Collected in place, the list would keep the candidates' larger
    // room, and the entry is held until the lock is written.
    entry.examples.shrink_to_fit();
    entry
}

/// A lock entry of `source_hash` and these examples' names and lines.
fn entry_of(source_hash: &str, examples: impl Iterator<Item = (String, u32)>) -> LockEntry {
    LockEntry {
        source_hash: source_hash.to_owned(),
        examples: examples
            .map(|(name, line)| LockExample {
                name,
                line: i64::from(line),
            })
            .collect(),
    }
}
