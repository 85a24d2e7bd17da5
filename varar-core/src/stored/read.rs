//! Reading the bytes back (see the module's documentation): strict, a
//! count never larger than the bytes left, `None` at the first thing out
//! of place.

use std::borrow::Cow;
use std::sync::Arc;

use super::head::Head;
use crate::doc::{Table, TableRow};
use crate::expression::ArgValue;
use crate::plan::{
    Expectation, PlannedArg, PlannedDocString, PlannedExample, PlannedStep, RowBinding, RowCheck,
};
use crate::source::Span;

/// A cursor over bytes [`super::encode`] wrote.
pub(super) struct Reader<'t> {
    bytes: &'t [u8],
    pub(super) at: usize,
    /// The expressions and parameter types the steps name by number
    /// (`names.rs`): thousands of steps share a few of them, as they share
    /// the registry's when planned.
    names: Cow<'t, [Arc<str>]>,
}

impl<'t> Reader<'t> {
    pub(super) fn new(bytes: &'t [u8]) -> Reader<'t> {
        Reader {
            bytes,
            at: 0,
            names: Cow::Borrowed(&[]),
        }
    }

    /// A reader of steps that name `names`.
    pub(super) fn naming(bytes: &'t [u8], names: &'t [Arc<str>]) -> Reader<'t> {
        Reader {
            bytes,
            at: 0,
            names: Cow::Borrowed(names),
        }
    }

    /// The names written before the examples, which the steps read after
    /// them name; also given back.
    pub(super) fn names(&mut self) -> Option<Vec<Arc<str>>> {
        let names: Vec<Arc<str>> = self.many(|r| r.str().map(Arc::from))?;
        self.names = Cow::Owned(names.clone());
        Some(names)
    }

    /// The name of this number.
    fn name(&mut self) -> Option<Arc<str>> {
        let number = self.index()?;
        self.names.get(number).map(Arc::clone)
    }

    /// A number used as a count, a length or an index: most of the
    /// numbers outside spans, and most are one byte long, read here
    /// without a call (unoptimised, each call and each `?` costs).
    fn index(&mut self) -> Option<usize> {
        let (bytes, at) = (self.bytes, self.at);
        if at < bytes.len() && bytes[at] < 0x80 {
            self.at = at + 1;
            return Some(usize::from(bytes[at]));
        }
        usize::try_from(self.num()?).ok()
    }

    /// Whether every byte was read.
    pub(super) fn done(&self) -> bool {
        self.at == self.bytes.len()
    }

    /// How many bytes are left to read.
    #[cfg(test)]
    pub(super) fn remaining(&self) -> usize {
        self.bytes.len() - self.at
    }

    /// A number. (A plain loop over bytes: numbers are most of the bytes,
    /// and this runs in unoptimised builds too.)
    pub(super) fn num(&mut self) -> Option<u64> {
        // Most numbers are one byte: read without the loop (each `?` and
        // `get` is a call in an unoptimised build, where decoding 180 000
        // examples took a second).
        let (bytes, at) = (self.bytes, self.at);
        if at < bytes.len() {
            let first = bytes[at];
            if first < 0x80 {
                self.at = at + 1;
                return Some(u64::from(first));
            }
            // Two bytes, without the loop either: an offset or a column in
            // a document of up to 16 KiB, most of a span's numbers.
            if at + 1 < bytes.len() && bytes[at + 1] < 0x80 {
                self.at = at + 2;
                return Some(u64::from(first & 0x7f) | u64::from(bytes[at + 1]) << 7);
            }
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

    pub(super) fn u32(&mut self) -> Option<u32> {
        match self.num() {
            Some(n) if n <= u64::from(u32::MAX) => Some(n as u32),
            _ => None,
        }
    }

    /// A count of things that follow, each at least a byte long: never
    /// more than the bytes left, so no allocation is ever larger.
    pub(super) fn len(&mut self) -> Option<usize> {
        let n = self.index()?;
        if n <= self.bytes.len() - self.at {
            Some(n)
        } else {
            None
        }
    }

    pub(super) fn flag(&mut self) -> Option<bool> {
        if self.at >= self.bytes.len() {
            return None;
        }
        let b = self.bytes[self.at];
        self.at += 1;
        match b {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }

    pub(super) fn str(&mut self) -> Option<&'t str> {
        let n = self.len()?;
        let s = self.bytes.get(self.at..self.at + n)?;
        self.at += n;
        std::str::from_utf8(s).ok()
    }

    pub(super) fn string(&mut self) -> Option<String> {
        self.str().map(str::to_owned)
    }

    pub(super) fn opt_string(&mut self) -> Option<Option<String>> {
        Some(if self.flag()? {
            Some(self.string()?)
        } else {
            None
        })
    }

    pub(super) fn span(&mut self) -> Option<Span> {
        // Its six numbers read in one loop, most of them one or two bytes
        // long without a call (spans are most of a section's numbers, and
        // in an unoptimised build each call and each `?` costs).
        let (bytes, mut at) = (self.bytes, self.at);
        let mut n = [0u32; 6];
        let mut i = 0;
        while i < 6 {
            if at < bytes.len() && bytes[at] < 0x80 {
                n[i] = u32::from(bytes[at]);
                at += 1;
            } else if at + 1 < bytes.len() && bytes[at + 1] < 0x80 {
                n[i] = u32::from(bytes[at] & 0x7f) | u32::from(bytes[at + 1]) << 7;
                at += 2;
            } else {
                self.at = at;
                match self.u32() {
                    Some(long) => n[i] = long,
                    None => return None,
                }
                at = self.at;
            }
            i += 1;
        }
        self.at = at;
        Some(Span {
            start_offset: n[0],
            end_offset: n[1],
            start_line: n[2],
            start_col: n[3],
            end_line: n[4],
            end_col: n[5],
        })
    }

    /// A count, then that many things `one` reads.
    pub(super) fn many<T>(
        &mut self,
        mut one: impl FnMut(&mut Self) -> Option<T>,
    ) -> Option<Vec<T>> {
        let n = self.len()?;
        let mut all = Vec::with_capacity(n);
        for _ in 0..n {
            all.push(one(self)?);
        }
        Some(all)
    }

    pub(super) fn spans(&mut self) -> Option<Vec<Span>> {
        // Not through `many`, which costs a closure call a span
        // unoptimised.
        let n = self.len()?;
        let mut all = Vec::with_capacity(n);
        let mut i = 0;
        while i < n {
            match self.span() {
                Some(span) => all.push(span),
                None => return None,
            }
            i += 1;
        }
        Some(all)
    }

    /// The headings written after the names (`Writer::scopes`).
    pub(super) fn scopes(&mut self) -> Option<Vec<Arc<[String]>>> {
        self.many(|r| {
            let headings: Vec<String> = r.many(Self::string)?;
            Some(Arc::from(headings))
        })
    }

    /// A stored example (`Writer::packed_example`): its step lines and its
    /// section.
    pub(super) fn packed_example(&mut self) -> Option<(&'t [u8], Vec<u32>)> {
        let lines = self.many(Self::u32)?;
        let n = self.len()?;
        let section = self.bytes.get(self.at..self.at + n)?;
        self.at += n;
        Some((section, lines))
    }

    /// The head of an example's section: its name, its headings (their
    /// number in `scopes`) and its span.
    pub(super) fn head<'s>(&mut self, scopes: &'s [Arc<[String]>]) -> Option<Head<'s>>
    where
        't: 's,
    {
        let name = self.str()?;
        let scope = self.index()?;
        Some(Head {
            name,
            scope_stack: scopes.get(scope)?,
            span: self.span()?,
        })
    }

    /// An example's section (`Writer::example`), its headings numbered in
    /// `scopes`.
    pub(super) fn example(&mut self, scopes: &[Arc<[String]>]) -> Option<PlannedExample> {
        let name = self.string()?;
        let scope = self.index()?;
        let scope_stack = Arc::clone(scopes.get(scope)?);
        let span = self.span()?;
        let expected = match self.num()? {
            0 => Expectation::Pass,
            1 => Expectation::Fail {
                message: self.opt_string()?,
            },
            _ => return None,
        };
        let unmatched = self.spans()?;
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
            unmatched,
        })
    }

    pub(super) fn step(&mut self) -> Option<PlannedStep> {
        let text: Arc<str> = Arc::from(self.str()?);
        let match_span = self.span()?;
        let param_spans = self.spans()?;
        let inner_spans = self.spans()?;
        let step = self.index()?;
        let matched_expression = self.name()?;
        let args = self.many(|r| {
            Some(PlannedArg {
                raw: Arc::from(r.str()?),
                parameter_type: r.name()?,
                value: Arc::new(r.value()?),
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

    pub(super) fn row(&mut self) -> Option<TableRow> {
        Some(TableRow {
            cells: self.many(Self::string)?,
            cell_spans: self.spans()?,
            span: self.span()?,
        })
    }

    pub(super) fn value(&mut self) -> Option<ArgValue> {
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
