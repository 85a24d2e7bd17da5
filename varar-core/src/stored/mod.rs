//! A planned oath as bytes, to be stored and read back: its plan and its
//! drift candidates, what lets the harness keep them between processes
//! instead of parsing and planning an unchanged oath again (every `cargo
//! nextest` test of an example plans its whole oath otherwise).
//!
//! The bytes are for this crate's version to read back, not a format to
//! share: numbers in LEB128 (seven bits a byte, the high bit set on all
//! but the last), strings as their byte length and their UTF-8, so that
//! nothing is escaped and a span's six numbers take six to twelve bytes.
//! Reading them back costs a fraction of planning, in unoptimised builds
//! too. [`decode`] is strict: bytes it did not [`encode`], cut short or
//! extended, give `None` (the caller plans instead), never a panic.
//!
//! The step expressions and parameter types the steps name come first,
//! each once, then the headings the examples stand under, each run of
//! examples under the same ones once; the examples name both by number.
//! Each example is a section of its own, its length first, beside its
//! step lines: a run keeps them packed ([`PackedExamples`]) from planning
//! until the example runs, reads a stored plan without reading them
//! ([`decode_packed`]: only each one's head, what the run names it by), and
//! stores a plan from them as they are ([`encode_packed`]).
//!
//! ```
//! use varar_core::plan::Plan;
//! use varar_core::stored;
//!
//! let plan = Plan::default();
//! assert_eq!(stored::decode(&stored::encode(&plan, &[])), Some((plan, Vec::new())));
//! assert_eq!(stored::decode(b"\x03garbage"), None);
//! ```

use crate::drift::CandidateInfo;
use crate::plan::{Diagnostic, DiagnosticCode, Notice, NoticeKind, Plan};

mod head;
mod names;
mod packed;
mod read;
#[cfg(test)]
mod tests;
mod write;

pub use head::Head;
pub use packed::PackedExamples;
use read::Reader;
use write::Writer;

/// An oath's `plan` and drift `candidates` as bytes that [`decode`] reads
/// back equal: the bytes [`encode_packed`] writes for its examples packed
/// (a run stores its plans that way, packed already; this is for a plan
/// whole).
pub fn encode(plan: &Plan, candidates: &[CandidateInfo]) -> Vec<u8> {
    let packed = PackedExamples::of(&plan.examples);
    encode_packed(&packed, (&plan.diagnostics, &plan.notices), candidates)
}

/// The bytes [`encode`] writes for a plan whose examples `packed` holds,
/// whose `diagnostics` and `notices` are given beside them, with its drift
/// `candidates`.
pub fn encode_packed(
    packed: &PackedExamples,
    (diagnostics, notices): (&[Diagnostic], &[Notice]),
    candidates: &[CandidateInfo],
) -> Vec<u8> {
    let mut w = Writer(Vec::with_capacity(packed.size() + 4096));
    w.names(packed.names());
    w.scopes(packed.scopes());
    w.len(packed.len());
    for i in 0..packed.len() {
        w.packed_example(packed.lines(i), packed.section(i).unwrap_or_default());
    }
    encode_rest(&mut w, (diagnostics, notices), candidates);
    w.0
}

/// What follows the examples: the diagnostics, notices and candidates.
fn encode_rest(
    w: &mut Writer,
    (diagnostics, notices): (&[Diagnostic], &[Notice]),
    candidates: &[CandidateInfo],
) {
    w.len(diagnostics.len());
    for diagnostic in diagnostics {
        w.num(code_number(diagnostic.code));
        w.span(&diagnostic.span);
        w.str(&diagnostic.message);
        w.opt_str(diagnostic.doc_path.as_deref());
    }
    w.len(notices.len());
    for notice in notices {
        w.num(kind_number(notice.kind));
        w.span(&notice.span);
        w.str(&notice.message);
        w.str(&notice.fix);
    }
    w.len(candidates.len());
    for c in candidates {
        w.opt_str(c.name.as_deref());
        w.num(c.line);
        w.span(&c.span);
        w.flag(c.live);
        w.flag(c.ambiguous);
        w.flag(c.runs_elsewhere);
    }
}

/// The plan and candidates `bytes` hold, if they are exactly what
/// [`encode`] (or [`encode_packed`]) wrote.
pub fn decode(bytes: &[u8]) -> Option<(Plan, Vec<CandidateInfo>)> {
    let (mut plan, packed, candidates) = decode_packed(bytes)?;
    plan.examples = packed.unpack_all()?;
    Some((plan, candidates))
}

/// What [`decode`] reads, with the examples left packed, copied from
/// `bytes` as they are (only an example that runs reads itself back): the
/// plan holds no example. `None` exactly where [`decode`] gives `None`,
/// except for bytes out of place in an example after its head (its name,
/// headings and span), which [`PackedExamples::unpack`] refuses instead.
pub fn decode_packed(bytes: &[u8]) -> Option<(Plan, PackedExamples, Vec<CandidateInfo>)> {
    let mut r = Reader::new(bytes);
    let names = r.names()?;
    let scopes = r.scopes()?;
    let sections = r.many(Reader::packed_example)?;
    let packed = PackedExamples::from_sections(&sections, names, scopes)?;
    let (plan, candidates) = decode_rest(&mut r)?;
    r.done().then_some((plan, packed, candidates))
}

/// What follows the examples, read into a plan without examples.
fn decode_rest(r: &mut Reader<'_>) -> Option<(Plan, Vec<CandidateInfo>)> {
    let diagnostics = r.many(|r| {
        Some(Diagnostic {
            code: number_code(r.num()?)?,
            span: r.span()?,
            message: r.string()?,
            doc_path: r.opt_string()?,
        })
    })?;
    let notices = r.many(|r| {
        Some(Notice {
            kind: number_kind(r.num()?)?,
            span: r.span()?,
            message: r.string()?,
            fix: r.string()?,
        })
    })?;
    let candidates = r.many(|r| {
        let c = CandidateInfo {
            name: r.opt_string()?,
            line: r.u32()?,
            span: r.span()?,
            live: r.flag()?,
            ambiguous: r.flag()?,
            runs_elsewhere: r.flag()?,
        };
        // A live candidate is always named (a fresh lock entry records it).
        (c.name.is_some() || !c.live).then_some(c)
    })?;
    let plan = Plan {
        examples: Vec::new(),
        diagnostics,
        notices,
    };
    Some((plan, candidates))
}

fn code_number(code: DiagnosticCode) -> u64 {
    match code {
        DiagnosticCode::AmbiguousMatch => 0,
        DiagnosticCode::ErrorFenceWithoutStep => 1,
        DiagnosticCode::ReferenceNotFound => 2,
        DiagnosticCode::ReferenceEmpty => 3,
        DiagnosticCode::AmbiguousAnchor => 4,
        DiagnosticCode::ReferenceCycle => 5,
    }
}

fn kind_number(kind: NoticeKind) -> u64 {
    match kind {
        NoticeKind::DroppedSteps => 0,
        NoticeKind::IgnoredErrorFence => 1,
        NoticeKind::HeaderBoundWithoutRows => 2,
        NoticeKind::TableAttachedElsewhere => 3,
        NoticeKind::ChecksNothing => 4,
    }
}

fn number_kind(n: u64) -> Option<NoticeKind> {
    Some(match n {
        0 => NoticeKind::DroppedSteps,
        1 => NoticeKind::IgnoredErrorFence,
        2 => NoticeKind::HeaderBoundWithoutRows,
        3 => NoticeKind::TableAttachedElsewhere,
        4 => NoticeKind::ChecksNothing,
        _ => return None,
    })
}

fn number_code(n: u64) -> Option<DiagnosticCode> {
    Some(match n {
        0 => DiagnosticCode::AmbiguousMatch,
        1 => DiagnosticCode::ErrorFenceWithoutStep,
        2 => DiagnosticCode::ReferenceNotFound,
        3 => DiagnosticCode::ReferenceEmpty,
        4 => DiagnosticCode::AmbiguousAnchor,
        5 => DiagnosticCode::ReferenceCycle,
        _ => return None,
    })
}
