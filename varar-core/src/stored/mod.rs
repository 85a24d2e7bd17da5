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

use crate::doc::{Table, TableRow};
use crate::drift::CandidateInfo;
use crate::expression::ArgValue;
use crate::plan::{
    Diagnostic, DiagnosticCode, Expectation, Notice, NoticeKind, Plan, PlannedArg,
    PlannedDocString, PlannedExample, PlannedStep, RowBinding, RowCheck,
};
use crate::source::Span;

#[cfg(test)]
mod tests;

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
    let mut r = Reader {
        bytes,
        at: 0,
        shared: Vec::new(),
    };
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

struct Reader<'t> {
    bytes: &'t [u8],
    at: usize,
    /// The expressions and parameter types read so far, each kept once:
    /// thousands of steps share a few of them, as they share the
    /// registry's when planned (one allocation a step otherwise, and as
    /// many copies held).
    shared: Vec<Arc<str>>,
}

/// How many distinct expressions and types a reader shares at most (a
/// crafted file of thousands would otherwise make each look-up long).
const SHARED_MAX: usize = 64;

impl<'t> Reader<'t> {
    /// A number. (A plain loop over bytes: numbers are most of the bytes,
    /// and this runs in unoptimised builds too.)
    fn num(&mut self) -> Option<u64> {
        // Most numbers are one byte: read without the loop (each `?` and
        // `get` is a call in an unoptimised build, where decoding 180 000
        // examples took a second).
        if self.at < self.bytes.len() && self.bytes[self.at] < 0x80 {
            self.at += 1;
            return Some(u64::from(self.bytes[self.at - 1]));
        }
        let mut n: u64 = 0;
        let mut shift = 0;
        loop {
            let b = *self.bytes.get(self.at)?;
            self.at += 1;
            if shift == 63 && b > 1 {
                return None;
            }
            n |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                return Some(n);
            }
            shift += 7;
            if shift > 63 {
                return None;
            }
        }
    }

    fn u32(&mut self) -> Option<u32> {
        match self.num() {
            Some(n) if n <= u64::from(u32::MAX) => Some(n as u32),
            _ => None,
        }
    }

    /// A string shared with the other steps that hold it (see `shared`).
    fn shared_str(&mut self) -> Option<Arc<str>> {
        let s = self.str()?;
        if let Some(kept) = self.shared.iter().find(|k| ***k == *s) {
            return Some(Arc::clone(kept));
        }
        let fresh: Arc<str> = Arc::from(s);
        if self.shared.len() < SHARED_MAX {
            self.shared.push(Arc::clone(&fresh));
        }
        Some(fresh)
    }

    /// A count of things that follow, each at least a byte long: never
    /// more than the bytes left, so no allocation is ever larger.
    fn len(&mut self) -> Option<usize> {
        let n = usize::try_from(self.num()?).ok()?;
        (n <= self.bytes.len() - self.at).then_some(n)
    }

    fn flag(&mut self) -> Option<bool> {
        let b = *self.bytes.get(self.at)?;
        self.at += 1;
        match b {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }

    fn str(&mut self) -> Option<&'t str> {
        let n = self.len()?;
        let s = self.bytes.get(self.at..self.at + n)?;
        self.at += n;
        std::str::from_utf8(s).ok()
    }

    fn string(&mut self) -> Option<String> {
        self.str().map(str::to_owned)
    }

    fn opt_string(&mut self) -> Option<Option<String>> {
        Some(if self.flag()? {
            Some(self.string()?)
        } else {
            None
        })
    }

    fn span(&mut self) -> Option<Span> {
        // Read in turn, checked once (a `?` is a call unoptimised).
        let numbers = (
            self.u32(),
            self.u32(),
            self.u32(),
            self.u32(),
            self.u32(),
            self.u32(),
        );
        match numbers {
            (Some(a), Some(b), Some(c), Some(d), Some(e), Some(f)) => Some(Span {
                start_offset: a,
                end_offset: b,
                start_line: c,
                start_col: d,
                end_line: e,
                end_col: f,
            }),
            _ => None,
        }
    }

    /// A count, then that many things `one` reads.
    fn many<T>(&mut self, mut one: impl FnMut(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        let n = self.len()?;
        let mut all = Vec::with_capacity(n);
        for _ in 0..n {
            all.push(one(self)?);
        }
        Some(all)
    }

    fn spans(&mut self) -> Option<Vec<Span>> {
        self.many(Self::span)
    }

    fn example(&mut self, scope: &mut Option<Arc<[String]>>) -> Option<PlannedExample> {
        let name = self.string()?;
        let headings = self.many(Self::str)?;
        let scope_stack = match scope {
            Some(same) if same.iter().map(String::as_str).eq(headings.iter().copied()) => {
                Arc::clone(same)
            }
            _ => {
                let fresh: Arc<[String]> = headings.iter().map(|h| (*h).to_owned()).collect();
                *scope = Some(Arc::clone(&fresh));
                fresh
            }
        };
        let span = self.span()?;
        let expected = match self.num()? {
            0 => Expectation::Pass,
            1 => Expectation::Fail {
                message: self.opt_string()?,
            },
            _ => return None,
        };
        let steps = self.many(Self::step)?;
        let row = if self.flag()? {
            let checks = self.many(|r| {
                Some(RowCheck {
                    column: Arc::from(r.str()?),
                    value: r.string()?,
                    span: r.span()?,
                })
            })?;
            Some(RowBinding { checks })
        } else {
            None
        };
        Some(PlannedExample {
            name,
            scope_stack,
            span,
            expected,
            steps,
            row,
            unmatched: self.spans()?,
        })
    }

    fn step(&mut self) -> Option<PlannedStep> {
        let text = self.string()?;
        let match_span = self.span()?;
        let param_spans = self.spans()?;
        let inner_spans = self.spans()?;
        let step = usize::try_from(self.num()?).ok()?;
        let matched_expression = self.shared_str()?;
        let args = self.many(|r| {
            Some(PlannedArg {
                raw: r.string()?,
                parameter_type: r.shared_str()?,
                value: r.value()?,
            })
        })?;
        let data_table = if self.flag()? {
            let span = self.span()?;
            let header = self.row()?;
            let rows = self.many(Self::row)?;
            Some(Box::new(Table { span, header, rows }))
        } else {
            None
        };
        let doc_string = if self.flag()? {
            Some(Box::new(PlannedDocString {
                content: self.string()?,
                content_type: self.string()?,
                span: self.span()?,
                fence_line: self.u32()?,
                closed: self.flag()?,
            }))
        } else {
            None
        };
        Some(PlannedStep {
            text,
            match_span,
            param_spans,
            inner_spans,
            step,
            matched_expression,
            args,
            data_table,
            doc_string,
            doc_path: self.opt_string()?,
        })
    }

    fn row(&mut self) -> Option<TableRow> {
        Some(TableRow {
            cells: self.many(Self::string)?,
            cell_spans: self.spans()?,
            span: self.span()?,
        })
    }

    fn value(&mut self) -> Option<ArgValue> {
        Some(match self.num()? {
            0 => ArgValue::Int(self.string()?),
            1 => ArgValue::Float(self.string()?),
            2 => ArgValue::Text(self.string()?),
            3 => {
                let name = self.string()?;
                let groups = self.many(Self::opt_string)?;
                ArgValue::Custom { name, groups }
            }
            _ => return None,
        })
    }
}
