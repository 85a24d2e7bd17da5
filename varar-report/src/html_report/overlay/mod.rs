//! How run results land on an oath's text (spec 30 §30.6, §30.8; 70 §70.4).
//!
//! The report has no step registry, so it cannot plan; it parses the oath
//! (the same parser as the harness, which needs no steps) and places each
//! result by the lines it records:
//!
//! - **Blocks.** An example result covers every candidate (paragraph, list
//!   item or blockquote with its tables and fences) whose lines contain one
//!   of its `lines` (the start lines of its steps). A candidate covered by
//!   several results (the rows of a header-bound table) takes all of them.
//!   A candidate that the fresh `varar.lock.json` records as an example but
//!   that no result covers is *not run*.
//! - **Rows.** A result whose line is a data row of a table attached to its
//!   candidate is that row's example (header-bound rows have exactly that
//!   one line, spec 30 §30.8.3).
//! - **Spans.** A failure is drawn at each of its `cells` (from/to), else at
//!   its `anchor`, else on its whole `line` (the precedence of §30.6); an
//!   offset past the end of the text skips to the next rule. A failure with
//!   a `docPath` belongs to that document: the running oath's page names
//!   it, and the other document's page draws it (when the result's
//!   `documents` hash matches that document as it is now).
//!
//! - **Run items** (issue 19). The latest run's drift and diagnostic items
//!   that failed, when the run read this very text, are drawn like a
//!   failure on their whole line, with the item's message in the callout;
//!   an example of the own results that failed and then passed on a retry
//!   is *recovered*, and its block and row say after how many attempts.
//!
//! Only fresh results reach this module: a stale result draws nothing.

use std::collections::BTreeMap;

use varar_core::doc::{Attachment, Candidate, Doc, TextKind};
use varar_core::lock::LockEntry;
use varar_core::results::{ExampleResult, OathResults, ResultFailure, Status};
use varar_core::source::Source;
use varar_core::tags::TagIndex;

use super::html::State;

mod model;

pub use model::{
    BlockKind, BlockMark, Detail, ExampleRow, Foreign, ItemMark, Note, Overlay, Region, RunMarks,
};

/// The first and last line of a candidate (text block and attachments).
fn line_range(c: &Candidate) -> (u32, u32) {
    let s = c.span;
    let last = if s.end_col == 1 && s.end_line > s.start_line {
        s.end_line - 1
    } else {
        s.end_line
    };
    (s.start_line, last)
}

fn kind_of(c: &Candidate) -> BlockKind {
    match c.body.text.kind {
        TextKind::Paragraph => BlockKind::Paragraph,
        TextKind::ListItem { .. } => BlockKind::ListItem,
        TextKind::Blockquote => BlockKind::Blockquote,
    }
}

fn state_of(status: Status) -> State {
    match status {
        Status::Passed => State::Passed,
        Status::Failed => State::Failed,
    }
}

/// Place `own` (fresh results of this oath), `foreign` failures and the
/// fresh lock entry on the parsed oath.
pub fn build(
    source: &Source<'_>,
    doc: &Doc,
    own: Option<&OathResults>,
    foreign: &[Foreign<'_>],
    lock: Option<&LockEntry>,
) -> Overlay {
    build_with_run(source, doc, own, foreign, lock, &RunMarks::default())
}

/// [`build`], with what the latest run adds (see the module docs).
pub fn build_with_run(
    source: &Source<'_>,
    doc: &Doc,
    own: Option<&OathResults>,
    foreign: &[Foreign<'_>],
    lock: Option<&LockEntry>,
    run: &RunMarks,
) -> Overlay {
    let mut overlay = Overlay::default();
    let placed = place_own(&mut overlay, source, doc, own, &run.recovered);
    mark_covered(&mut overlay, doc, &placed);
    add_block_notes(&mut overlay, doc, placed.notes);
    if let Some(entry) = lock {
        mark_not_run(&mut overlay, doc, entry, &placed.covering);
    }
    for f in foreign {
        place_failure(
            &mut overlay,
            source,
            f.example,
            f.failure,
            Some(f.oath_path),
        );
    }
    for item in &run.items {
        let n = push_note(
            &mut overlay,
            Note {
                example: item.name.clone(),
                line: item.line,
                detail: Detail::Item {
                    kind: item.kind,
                    message: item.message.clone(),
                },
                origin: None,
                elsewhere: None,
            },
        );
        if let Some(range) = whole_line(source, item.line) {
            add_region(&mut overlay, source, range, n);
        }
    }
    overlay.regions.sort_by_key(|r| (r.start, r.end));
    overlay
}

/// Where the oath's own results landed.
#[derive(Default)]
struct OwnPlacement {
    /// Candidate index → the states of the examples covering it.
    covering: BTreeMap<usize, Vec<State>>,
    /// Each example's notes, by the first candidate it covers.
    notes: Vec<(usize, Vec<usize>)>,
    /// Candidate index → the attempts of each recovered example covering it.
    recovered: BTreeMap<usize, Vec<usize>>,
}

/// Place every example result of `own`: the candidates and rows it
/// covers, its failure's notes and regions, its row in the summary.
fn place_own(
    overlay: &mut Overlay,
    source: &Source<'_>,
    doc: &Doc,
    own: Option<&OathResults>,
    recovered: &[Option<usize>],
) -> OwnPlacement {
    let ranges: Vec<(u32, u32)> = doc.examples.iter().map(line_range).collect();
    let mut placed = OwnPlacement::default();
    let examples = own.map(|r| r.examples.as_slice()).unwrap_or_default();
    let mut own_covering: Vec<Vec<usize>> = vec![Vec::new(); examples.len()];
    for (index, example) in examples.iter().enumerate() {
        let mut ignored = BTreeMap::new();
        own_covering[index] = cover(overlay, doc, &ranges, example, &mut ignored);
    }
    let links = link_owners(doc, examples, &own_covering);
    let tags = TagIndex::of(source.text());
    for (index, example) in examples.iter().enumerate() {
        let state = state_of(example.status);
        let mut candidates = cover(overlay, doc, &ranges, example, &mut placed.covering);
        // The link paragraphs of the example: it starts at the first.
        for &(ci, _) in links.iter().filter(|(_, owner)| *owner == index) {
            placed.covering.entry(ci).or_default().push(state);
            candidates.push(ci);
        }
        candidates.sort_unstable();
        let recovered = recovered.get(index).copied().flatten();
        if let Some(attempts) = recovered {
            for &ci in &candidates {
                placed.recovered.entry(ci).or_default().push(attempts);
            }
        }
        let notes = match (&example.failure, example.status) {
            (Some(f), Status::Failed) => place_failure(overlay, source, &example.name, f, None),
            _ => Vec::new(),
        };
        // A header-bound row links to its row, any other example to its block.
        let row = example
            .lines
            .first()
            .filter(|l| overlay.rows.contains_key(l))
            .copied();
        let block = row.or_else(|| {
            candidates
                .first()
                .map(|&ci| doc.examples[ci].body.text.span.start_line)
        });
        overlay.examples.push(ExampleRow {
            name: example.name.clone(),
            state,
            line: example.lines.first().copied(),
            block,
            notes: notes.clone(),
            recovered,
            tags: (example
                .lines
                .first()
                .map(|&l| tags.at(l))
                .unwrap_or_default())
            .into_iter()
            .map(str::to_owned)
            .collect(),
        });
        // Notes without a span go to the example's first own block.
        if let Some(&first) = own_covering[index].first().or(candidates.first()) {
            placed.notes.push((first, notes));
        }
    }
    placed
}

/// Which example each reference block (spec 70 §70.1.1) of the oath
/// belongs to, as `(candidate, example index)`. Results record only the
/// lines of the oath's own steps, so a link paragraph is never among an
/// example's `lines`, yet it is part of the example it opens or continues
/// (spec 70 §70.3.2), and `varar.lock.json` records it (§70.5). Without a
/// plan, the grouping is read back from the text: a link belongs to the
/// example of the own paragraph that follows it with no heading, break or
/// other paragraph between (links between are skipped), else to the
/// example of the own paragraph it follows the same way; a link that
/// opens an example made only of spliced steps (`lines: []`) gets, in
/// document order, the next such result whose neighbours' lines enclose it.
fn link_owners(
    doc: &Doc,
    examples: &[ExampleResult],
    own_covering: &[Vec<usize>],
) -> Vec<(usize, usize)> {
    let n = doc.examples.len();
    let is_link = |ci: usize| {
        varar_core::reference::recognise(&doc.examples[ci].body.text.text, "").is_some()
    };
    let mut owners: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (ei, cands) in own_covering.iter().enumerate() {
        for &ci in cands {
            owners.entry(ci).or_default().push(ei);
        }
    }
    let delimited = |ci: usize| doc.examples[ci].preceded_by_delimiter;
    let mut found = Vec::new();
    let mut orphans = Vec::new();
    for r in (0..n).filter(|&ci| is_link(ci) && !owners.contains_key(&ci)) {
        let mut next = r + 1;
        while next < n && !delimited(next) && is_link(next) && !owners.contains_key(&next) {
            next += 1;
        }
        let forward = (next < n && !delimited(next))
            .then(|| owners.get(&next).and_then(|o| o.first().copied()))
            .flatten();
        let backward = || {
            let mut prev = r;
            loop {
                if delimited(prev) || prev == 0 {
                    return None;
                }
                prev -= 1;
                if let Some(o) = owners.get(&prev) {
                    return o.last().copied();
                }
                if !is_link(prev) {
                    return None;
                }
            }
        };
        match forward.or_else(backward) {
            Some(owner) => found.push((r, owner)),
            None => orphans.push(r),
        }
    }
    // Examples made only of spliced steps, in the results' (document) order.
    let line_of = |ci: usize| doc.examples[ci].body.text.span.start_line;
    let mut orphans = orphans.into_iter().peekable();
    for (ei, example) in examples.iter().enumerate() {
        if !example.lines.is_empty() {
            continue;
        }
        let after = examples[..ei]
            .iter()
            .filter_map(|e| e.lines.iter().max())
            .max()
            .copied()
            .unwrap_or(0);
        let before = examples[ei + 1..]
            .iter()
            .filter_map(|e| e.lines.iter().min())
            .min()
            .copied()
            .unwrap_or(u32::MAX);
        while let Some(&r) = orphans.peek() {
            if line_of(r) < after {
                orphans.next();
                continue;
            }
            if line_of(r) < before {
                found.push((r, ei));
                orphans.next();
            }
            break;
        }
    }
    found
}

/// The candidates `example` covers (those holding one of its lines), each
/// recorded once in `covering` with its state; a line that is a data row
/// of an attached table marks that row.
fn cover(
    overlay: &mut Overlay,
    doc: &Doc,
    ranges: &[(u32, u32)],
    example: &ExampleResult,
    covering: &mut BTreeMap<usize, Vec<State>>,
) -> Vec<usize> {
    let state = state_of(example.status);
    let candidate_of = |line: u32| ranges.iter().position(|&(a, b)| a <= line && line <= b);
    let mut candidates: Vec<usize> = Vec::new();
    for &line in &example.lines {
        let Some(ci) = candidate_of(line) else {
            continue;
        };
        if !candidates.contains(&ci) {
            candidates.push(ci);
            covering.entry(ci).or_default().push(state);
        }
        for a in &doc.examples[ci].body.attachments {
            if let Attachment::Table(t) = a
                && t.rows.iter().any(|r| r.span.start_line == line)
            {
                overlay.row_tables.insert(t.span.start_line);
                overlay.rows.insert(line, state);
            }
        }
    }
    candidates
}

/// Mark every covered candidate's text block and attachments: failed if
/// any example covering it failed, with a label counting them (and the
/// recovered ones).
fn mark_covered(overlay: &mut Overlay, doc: &Doc, placed: &OwnPlacement) {
    for (ci, states) in &placed.covering {
        let c = &doc.examples[*ci];
        let failed = states.iter().filter(|s| **s == State::Failed).count();
        let state = if failed > 0 {
            State::Failed
        } else {
            State::Passed
        };
        let recovered = placed.recovered.get(ci).map_or(&[][..], Vec::as_slice);
        let mut label = match (states.len(), failed) {
            (1, 0) => "passed".to_owned(),
            (1, _) => "failed".to_owned(),
            (n, 0) => format!("{n} examples passed"),
            (n, f) => format!("{f} of {n} examples failed"),
        };
        match recovered {
            [] => {}
            [attempts] if states.len() == 1 => {
                label.push_str(&format!(", {}", recovered_after(*attempts)));
            }
            many => label.push_str(&format!(", {} recovered after a retry", many.len())),
        }
        overlay.blocks.insert(
            c.body.text.span.start_line,
            BlockMark {
                kind: kind_of(c),
                state,
                label,
                notes: Vec::new(),
                recovered: recovered.iter().copied().max(),
            },
        );
        for a in &c.body.attachments {
            overlay.attachments.insert(a.span().start_line, state);
        }
    }
}

/// Notes without a span of their own appear at the end of their block.
fn add_block_notes(overlay: &mut Overlay, doc: &Doc, notes: Vec<(usize, Vec<usize>)>) {
    for (ci, notes) in notes {
        let line = doc.examples[ci].body.text.span.start_line;
        let unplaced: Vec<usize> = notes
            .into_iter()
            .filter(|n| !overlay.regions.iter().any(|r| r.note == *n))
            .collect();
        if let Some(mark) = overlay.blocks.get_mut(&line) {
            mark.notes.extend(unplaced);
        }
    }
}

/// Mark *not run* every candidate the fresh lock records as an example
/// that no result covers.
fn mark_not_run(
    overlay: &mut Overlay,
    doc: &Doc,
    entry: &LockEntry,
    covering: &BTreeMap<usize, Vec<State>>,
) {
    for recorded in &entry.examples {
        let found = doc
            .examples
            .iter()
            .enumerate()
            .find(|(_, c)| i64::from(c.body.text.span.start_line) == recorded.line);
        if let Some((ci, c)) = found
            && !covering.contains_key(&ci)
        {
            overlay.blocks.insert(
                c.body.text.span.start_line,
                BlockMark {
                    kind: kind_of(c),
                    state: State::NotRun,
                    label: "not run".to_owned(),
                    notes: Vec::new(),
                    recovered: None,
                },
            );
            for a in &c.body.attachments {
                overlay
                    .attachments
                    .insert(a.span().start_line, State::NotRun);
            }
        }
    }
}

/// `recovered after 3 attempts`: the note on a recovered example.
pub fn recovered_after(attempts: usize) -> String {
    format!("recovered after {attempts} attempts")
}

/// Add the notes and regions of one failure; returns the notes' indices.
fn place_failure(
    overlay: &mut Overlay,
    source: &Source<'_>,
    example: &str,
    failure: &ResultFailure,
    origin: Option<&str>,
) -> Vec<usize> {
    let note = |line: u32, detail: Detail, elsewhere: Option<String>| Note {
        example: example.to_owned(),
        line,
        detail,
        origin: origin.map(str::to_owned),
        elsewhere,
    };
    let message = || Detail::Message(failure.message.clone());
    if origin.is_none()
        && let Some(doc_path) = &failure.doc_path
    {
        // Its offsets belong to another document: never draw them here.
        let n = push_note(
            overlay,
            note(failure.line, message(), Some(doc_path.clone())),
        );
        return vec![n];
    }
    let len = source.len_utf16();
    let cells: Vec<_> = failure.cells.iter().filter(|c| c.to <= len).collect();
    let mut added = Vec::new();
    if !cells.is_empty() {
        for cell in cells {
            let detail = Detail::Cell {
                expected: source.slice_utf16(cell.from, cell.to).to_owned(),
                actual: cell.actual.clone(),
            };
            let n = push_note(overlay, note(source.line_of(cell.from), detail, None));
            add_region(overlay, source, (cell.from, cell.to), n);
            added.push(n);
        }
    } else if let Some(anchor) = failure.anchor.filter(|a| a.to > a.from && a.to <= len) {
        let n = push_note(overlay, note(source.line_of(anchor.from), message(), None));
        add_region(overlay, source, (anchor.from, anchor.to), n);
        added.push(n);
    } else {
        let n = push_note(overlay, note(failure.line, message(), None));
        if let Some(range) = whole_line(source, failure.line) {
            add_region(overlay, source, range, n);
        }
        added.push(n);
    }
    added
}

/// Add `note`; returns its index.
fn push_note(overlay: &mut Overlay, note: Note) -> usize {
    overlay.notes.push(note);
    overlay.notes.len() - 1
}

/// Highlight the UTF-16 range `from..to` (when not empty) for `note`.
fn add_region(overlay: &mut Overlay, source: &Source<'_>, (from, to): (u32, u32), note: usize) {
    if to > from {
        overlay.regions.push(Region {
            start: source.byte_of_utf16(from),
            end: source.byte_of_utf16(to),
            note,
        });
    }
}

/// The UTF-16 range of a 1-based line without its line ending.
fn whole_line(source: &Source<'_>, line: u32) -> Option<(u32, u32)> {
    let from = source.line_start(line)?;
    let text = source.text();
    let next = source.line_start(line + 1).unwrap_or(source.len_utf16());
    let mut to = next;
    let end_byte = source.byte_of_utf16(to);
    let line_text = &text[source.byte_of_utf16(from)..end_byte];
    let trimmed = line_text.trim_end_matches(['\n', '\r']);
    to -= (line_text.len() - trimmed.len()) as u32;
    Some((from, to))
}

#[cfg(test)]
mod tests;
