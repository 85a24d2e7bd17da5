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
//! each once, and the steps name them by number. Each example's steps are
//! a section of their own, its length first, beside its step lines: a run
//! keeps them packed ([`PackedSteps`]) from planning until the example
//! runs, reads a stored plan without reading them ([`decode_packed`]), and
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

use std::sync::Arc;

use crate::drift::CandidateInfo;
use crate::plan::{Diagnostic, DiagnosticCode, Notice, NoticeKind, Plan, PlannedExample};

mod names;
mod packed;
mod read;
#[cfg(test)]
mod tests;
mod write;

pub use packed::PackedSteps;
use read::Reader;
use write::Writer;

/// An oath's `plan` and drift `candidates` as bytes that [`decode`] reads
/// back equal: the bytes [`encode_packed`] writes for a copy of it, its
/// steps packed (a run stores its plans that way, packed already; this
/// is for a plan whole).
pub fn encode(plan: &Plan, candidates: &[CandidateInfo]) -> Vec<u8> {
    let mut shells = plan.clone();
    let packed = PackedSteps::pack(&mut shells.examples);
    // The steps were packed from these very examples: they fit.
    encode_packed(&shells, &packed, candidates).unwrap_or_default()
}

/// What follows the examples: the diagnostics, notices and candidates.
fn encode_rest(w: &mut Writer, plan: &Plan, candidates: &[CandidateInfo]) {
    w.len(plan.diagnostics.len());
    for diagnostic in &plan.diagnostics {
        w.num(code_number(diagnostic.code));
        w.span(&diagnostic.span);
        w.str(&diagnostic.message);
        w.opt_str(diagnostic.doc_path.as_deref());
    }
    w.len(plan.notices.len());
    for notice in &plan.notices {
        w.num(kind_number(notice.kind));
        w.span(&notice.span);
        w.str(&notice.message);
        w.str(&notice.fix);
    }
    w.len(candidates.len());
    for c in candidates {
        w.str(&c.name);
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
    let mut r = Reader::new(bytes);
    r.names()?;
    // Examples under one heading share their scope, as planning shares it.
    let mut scope: Option<Arc<[String]>> = None;
    let examples = r.many(|r| r.example(&mut scope))?;
    let (plan, candidates) = decode_rest(&mut r, examples)?;
    r.done().then_some((plan, candidates))
}

/// What [`decode`] reads, with the examples' steps left packed: the plan
/// holds each example without its steps and row binding, which the
/// [`PackedSteps`] hold, copied from `bytes` as they are (only an example
/// that runs reads its own back). `None` exactly where [`decode`] gives
/// `None`, except for bytes out of place inside a section of steps, which
/// [`PackedSteps::unpack`] refuses instead.
pub fn decode_packed(bytes: &[u8]) -> Option<(Plan, PackedSteps, Vec<CandidateInfo>)> {
    let mut r = Reader::new(bytes);
    let names = r.names()?;
    let mut scope: Option<Arc<[String]>> = None;
    let shells = r.many(|r| r.shell(&mut scope))?;
    let mut examples = Vec::with_capacity(shells.len());
    let mut sections = Vec::with_capacity(shells.len());
    for (shell, lines, section) in shells {
        examples.push(shell);
        sections.push((section, lines));
    }
    let packed = PackedSteps::from_sections(&sections, names);
    let (plan, candidates) = decode_rest(&mut r, examples)?;
    r.done().then_some((plan, packed, candidates))
}

/// An oath's plan, whose examples' steps `packed` holds, and its drift
/// `candidates` as the bytes [`encode`] writes for the whole plan; `None`
/// when `packed` holds another number of examples.
pub fn encode_packed(
    plan: &Plan,
    packed: &PackedSteps,
    candidates: &[CandidateInfo],
) -> Option<Vec<u8>> {
    if packed.len() != plan.examples.len() {
        return None;
    }
    let mut w = Writer(Vec::with_capacity(packed.size() + 4096));
    w.names(packed.names());
    w.len(plan.examples.len());
    for (i, shell) in plan.examples.iter().enumerate() {
        w.packed_example(shell, packed.lines(i), packed.section(i)?);
    }
    encode_rest(&mut w, plan, candidates);
    Some(w.0)
}

/// What follows the examples, read into a plan of `examples`.
fn decode_rest(
    r: &mut Reader<'_>,
    examples: Vec<PlannedExample>,
) -> Option<(Plan, Vec<CandidateInfo>)> {
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
        Some(CandidateInfo {
            name: r.string()?,
            line: r.u32()?,
            span: r.span()?,
            live: r.flag()?,
            ambiguous: r.flag()?,
            runs_elsewhere: r.flag()?,
        })
    })?;
    let plan = Plan {
        examples,
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
