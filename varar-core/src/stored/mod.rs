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
//! ```
//! use varar_core::plan::Plan;
//! use varar_core::stored;
//!
//! let plan = Plan::default();
//! assert_eq!(stored::decode(&stored::encode(&plan, &[])), Some((plan, Vec::new())));
//! assert_eq!(stored::decode(b"\x03garbage"), None);
//! ```

use std::sync::Arc;

use crate::doc::TableRow;
use crate::drift::CandidateInfo;
use crate::expression::ArgValue;
use crate::plan::{
    Diagnostic, DiagnosticCode, Expectation, Notice, NoticeKind, Plan, PlannedExample, PlannedStep,
};
use crate::source::Span;

mod read;
#[cfg(test)]
mod tests;

use read::Reader;

/// An oath's `plan` and drift `candidates` as bytes that [`decode`] reads
/// back equal.
pub fn encode(plan: &Plan, candidates: &[CandidateInfo]) -> Vec<u8> {
    /// How many examples a plan has before it is encoded on two threads.
    const TWO_THREADS_FROM: usize = 4096;
    let two = plan.examples.len() >= TWO_THREADS_FROM
        && std::thread::available_parallelism().is_ok_and(|n| n.get() > 1);
    encode_split(plan, candidates, two)
}

/// [`encode`], on two threads when `two`: the bytes are a sequence, so the
/// first part of the examples is written on this thread while another
/// writes the rest of them and everything after, appended after. (A plan
/// of 180 000 examples took half a second to encode, unoptimised.)
fn encode_split(plan: &Plan, candidates: &[CandidateInfo], two: bool) -> Vec<u8> {
    let mut w = Writer(Vec::with_capacity(4096));
    w.len(plan.examples.len());
    if !two {
        for example in &plan.examples {
            w.example(example);
        }
        encode_rest(&mut w, plan, candidates);
        return w.0;
    }
    // The other thread also writes the candidates, which are shorter.
    let (here, apart) = plan.examples.split_at(plan.examples.len() * 4 / 7);
    let rest = || {
        let mut rest = Writer(Vec::with_capacity(4096));
        for example in apart {
            rest.example(example);
        }
        encode_rest(&mut rest, plan, candidates);
        rest.0
    };
    let here = || {
        for example in here {
            w.example(example);
        }
    };
    let ((), rest) = crate::threads::side_by_side(here, &rest);
    w.0.extend_from_slice(&rest);
    w.0
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
/// [`encode`] wrote.
pub fn decode(bytes: &[u8]) -> Option<(Plan, Vec<CandidateInfo>)> {
    let mut r = Reader::new(bytes);
    // Examples under one heading share their scope, as planning shares it.
    let mut scope: Option<Arc<[String]>> = None;
    let examples = r.many(|r| r.example(&mut scope))?;
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
    (r.at == bytes.len()).then_some((plan, candidates))
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

struct Writer(Vec<u8>);

impl Writer {
    fn num(&mut self, n: impl Into<u64>) {
        let mut n = n.into();
        while n >= 0x80 {
            self.0.push((n as u8 & 0x7f) | 0x80);
            n >>= 7;
        }
        self.0.push(n as u8);
    }

    fn len(&mut self, n: usize) {
        self.num(n as u64);
    }

    fn flag(&mut self, on: bool) {
        self.0.push(u8::from(on));
    }

    fn str(&mut self, s: &str) {
        self.len(s.len());
        self.0.extend_from_slice(s.as_bytes());
    }

    fn opt_str(&mut self, s: Option<&str>) {
        self.flag(s.is_some());
        if let Some(s) = s {
            self.str(s);
        }
    }

    fn span(&mut self, s: &Span) {
        // Six calls, not a loop over an array of six: an array's iterator
        // is a chain of calls in an unoptimised build, where it was a tenth
        // of encoding a 180 000-example oath.
        self.num(s.start_offset);
        self.num(s.end_offset);
        self.num(s.start_line);
        self.num(s.start_col);
        self.num(s.end_line);
        self.num(s.end_col);
    }

    fn spans(&mut self, spans: &[Span]) {
        self.len(spans.len());
        for s in spans {
            self.span(s);
        }
    }

    fn example(&mut self, e: &PlannedExample) {
        self.str(&e.name);
        self.len(e.scope_stack.len());
        for heading in e.scope_stack.iter() {
            self.str(heading);
        }
        self.span(&e.span);
        match &e.expected {
            Expectation::Pass => self.num(0u64),
            Expectation::Fail { message } => {
                self.num(1u64);
                self.opt_str(message.as_deref());
            }
        }
        self.len(e.steps.len());
        for step in &e.steps {
            self.step(step);
        }
        self.flag(e.row.is_some());
        if let Some(row) = &e.row {
            self.len(row.checks.len());
            for check in &row.checks {
                self.str(&check.column);
                self.str(&check.value);
                self.span(&check.span);
            }
        }
        self.spans(&e.unmatched);
    }

    fn step(&mut self, s: &PlannedStep) {
        self.str(&s.text);
        self.span(&s.match_span);
        self.spans(&s.param_spans);
        self.spans(&s.inner_spans);
        self.len(s.step);
        self.str(&s.matched_expression);
        self.len(s.args.len());
        for arg in &s.args {
            self.str(&arg.raw);
            self.str(&arg.parameter_type);
            self.value(&arg.value);
        }
        self.flag(s.data_table.is_some());
        if let Some(table) = &s.data_table {
            self.span(&table.span);
            self.row(&table.header);
            self.len(table.rows.len());
            for row in &table.rows {
                self.row(row);
            }
        }
        self.flag(s.doc_string.is_some());
        if let Some(d) = &s.doc_string {
            self.str(&d.content);
            self.str(&d.content_type);
            self.span(&d.span);
            self.num(d.fence_line);
            self.flag(d.closed);
        }
        self.opt_str(s.doc_path.as_deref());
    }

    fn row(&mut self, row: &TableRow) {
        self.len(row.cells.len());
        for cell in &row.cells {
            self.str(cell);
        }
        self.spans(&row.cell_spans);
        self.span(&row.span);
    }

    fn value(&mut self, value: &ArgValue) {
        match value {
            ArgValue::Int(s) => {
                self.num(0u64);
                self.str(s);
            }
            ArgValue::Float(s) => {
                self.num(1u64);
                self.str(s);
            }
            ArgValue::Text(s) => {
                self.num(2u64);
                self.str(s);
            }
            ArgValue::Custom { name, groups } => {
                self.num(3u64);
                self.str(name);
                self.len(groups.len());
                for group in groups {
                    self.opt_str(group.as_deref());
                }
            }
        }
    }
}
