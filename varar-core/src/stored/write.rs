//! Writing the bytes (see the module's documentation): numbers in
//! LEB128, strings as their length and their UTF-8, each example's steps
//! as a section of their own.

use std::sync::Arc;

use super::names::Names;
use crate::doc::TableRow;
use crate::expression::ArgValue;
use crate::plan::{Expectation, PlannedExample, PlannedStep};
use crate::source::Span;

/// The bytes written so far.
pub(super) struct Writer(pub(super) Vec<u8>);

impl Writer {
    pub(super) fn num(&mut self, n: impl Into<u64>) {
        let mut n = n.into();
        while n >= 0x80 {
            self.0.push((n as u8 & 0x7f) | 0x80);
            n >>= 7;
        }
        self.0.push(n as u8);
    }

    pub(super) fn len(&mut self, n: usize) {
        self.num(n as u64);
    }

    pub(super) fn flag(&mut self, on: bool) {
        self.0.push(u8::from(on));
    }

    pub(super) fn str(&mut self, s: &str) {
        self.len(s.len());
        self.0.extend_from_slice(s.as_bytes());
    }

    pub(super) fn opt_str(&mut self, s: Option<&str>) {
        self.flag(s.is_some());
        if let Some(s) = s {
            self.str(s);
        }
    }

    pub(super) fn span(&mut self, s: &Span) {
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

    pub(super) fn spans(&mut self, spans: &[Span]) {
        self.len(spans.len());
        for s in spans {
            self.span(s);
        }
    }

    /// The names the steps of an oath name, before its examples.
    pub(super) fn names(&mut self, list: &[Arc<str>]) {
        self.len(list.len());
        for name in list {
            self.str(name);
        }
    }

    /// The headings an oath's examples stand under, after the names.
    pub(super) fn scopes(&mut self, list: &[Arc<[String]>]) {
        self.len(list.len());
        for scope in list {
            self.len(scope.len());
            for heading in scope.iter() {
                self.str(heading);
            }
        }
    }

    /// A stored example: its step lines, then its section (as `example`
    /// wrote it), its length first.
    pub(super) fn packed_example(&mut self, lines: &[u32], section: &[u8]) {
        self.len(lines.len());
        for &n in lines {
            self.num(n);
        }
        self.len(section.len());
        self.0.extend_from_slice(section);
    }

    /// An example's section: its head (name, the number of its headings in
    /// `scopes`, span), what else it is, then its steps and row binding.
    pub(super) fn example(&mut self, e: &PlannedExample, scope: u32, names: &Names) {
        self.str(&e.name);
        self.num(scope);
        self.span(&e.span);
        match &e.expected {
            Expectation::Pass => self.num(0u64),
            Expectation::Fail { message } => {
                self.num(1u64);
                self.opt_str(message.as_deref());
            }
        }
        self.spans(&e.unmatched);
        self.len(e.steps.len());
        for step in &e.steps {
            self.step(step, names);
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
    }

    /// A step, its expression and parameter types by their numbers in
    /// `names`.
    fn step(&mut self, s: &PlannedStep, names: &Names) {
        self.str(&s.text);
        self.span(&s.match_span);
        self.spans(&s.param_spans);
        self.spans(&s.inner_spans);
        self.len(s.step);
        self.num(names.expression(s));
        self.len(s.args.len());
        for arg in &s.args {
            self.str(&arg.raw);
            self.num(names.parameter_type(&arg.parameter_type));
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
