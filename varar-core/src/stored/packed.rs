//! The examples of an oath held as bytes between planning and running
//! (issue 39): a planned example is a few hundred bytes of strings, spans
//! and vectors, held for every example of every oath from the end of
//! planning until its trial runs, which was most of a run's peak memory.
//! Packed in the stored plan's encoding, the same examples take a fraction
//! of that, and each trial reads back its own example when it starts. A
//! stored plan holds each example as such a section, so a plan read back
//! from the cache is packed already (`decode_packed`), and one just planned
//! is stored from its packed examples (`encode_packed`) without being
//! encoded twice.

use std::sync::Arc;

use super::head::Head;
use super::names::{Names, same};
use super::read::Reader;
use super::write::Writer;
use crate::plan::PlannedExample;
use crate::results::{ExampleKey, example_lines, sort_line};

/// A list of examples packed by [`PackedExamples::pack`] and read back one
/// at a time by [`PackedExamples::unpack`]. Each example's step lines (its
/// `ExampleKey::lines`) are kept beside it, and its name, headings and span
/// are read without reading the rest ([`PackedExamples::head`]): a run
/// needs them for every example before any runs. (The tests pack and
/// unpack every part of the model.)
#[derive(Debug, Default)]
pub struct PackedExamples {
    /// Every example, one section after another.
    bytes: Vec<u8>,
    /// Where each example's section ends.
    ends: Vec<usize>,
    /// Every example's step lines, one after another.
    lines: Vec<u32>,
    /// Where each example's lines end.
    line_ends: Vec<usize>,
    /// The step expressions and parameter types the steps name by number,
    /// each once: unpacked steps share them, as planned steps share the
    /// registry's.
    names: Vec<Arc<str>>,
    /// The headings the examples stand under, by number, each run of
    /// examples under the same ones once: unpacked examples share them,
    /// as planned examples do.
    scopes: Vec<Arc<[String]>>,
}

/// How many examples are packed before the work is split over two
/// threads (encoding 180 000 examples took half a second, unoptimised).
const TWO_THREADS_FROM: usize = 4096;

impl PackedExamples {
    /// `examples`, packed (on two threads from a few thousand examples),
    /// and let go.
    pub fn pack(examples: Vec<PlannedExample>) -> PackedExamples {
        PackedExamples::of(&examples)
    }

    /// `examples` packed, on two threads from a few thousand examples.
    pub fn of(examples: &[PlannedExample]) -> PackedExamples {
        let names = Names::of(examples);
        let (scopes, scope_numbers) = scopes_of(examples);
        let two = examples.len() >= TWO_THREADS_FROM
            && std::thread::available_parallelism().is_ok_and(|n| n.get() > 1);
        let mut packed = if two {
            let half = examples.len() / 2;
            let (first, second) = examples.split_at(half);
            let (numbers_first, numbers_second) = scope_numbers.split_at(half);
            let (mut packed, rest) = crate::threads::side_by_side(
                || PackedExamples::written(first, &names, numbers_first),
                &|| PackedExamples::written(second, &names, numbers_second),
            );
            packed.append(rest);
            packed
        } else {
            PackedExamples::written(examples, &names, &scope_numbers)
        };
        packed.names = names.list;
        packed.scopes = scopes;
        packed
    }

    /// [`PackedExamples::of`] on this thread (what the tests compare it
    /// with).
    #[cfg(test)]
    pub(super) fn of_here(examples: &[PlannedExample]) -> PackedExamples {
        let names = Names::of(examples);
        let (scopes, scope_numbers) = scopes_of(examples);
        let mut packed = PackedExamples::written(examples, &names, &scope_numbers);
        packed.names = names.list;
        packed.scopes = scopes;
        packed
    }

    /// `examples` written, naming `names` and the headings numbered
    /// `scopes` (neither kept).
    fn written(examples: &[PlannedExample], names: &Names, scopes: &[u32]) -> PackedExamples {
        let mut w = Writer(Vec::new());
        let mut packed = PackedExamples {
            ends: Vec::with_capacity(examples.len()),
            line_ends: Vec::with_capacity(examples.len()),
            ..PackedExamples::default()
        };
        for (example, &scope) in examples.iter().zip(scopes) {
            packed.lines.extend(example_lines(example));
            packed.line_ends.push(packed.lines.len());
            w.example(example, scope, names);
            packed.ends.push(w.0.len());
        }
        packed.bytes = w.0;
        // Held until the oath's trials have run: not the growth's spare room.
        packed.bytes.shrink_to_fit();
        packed.lines.shrink_to_fit();
        packed
    }

    /// Put `other`'s examples, which name the same names and headings,
    /// after these.
    fn append(&mut self, other: PackedExamples) {
        let (bytes, lines) = (self.bytes.len(), self.lines.len());
        self.bytes.extend_from_slice(&other.bytes);
        self.ends.extend(other.ends.iter().map(|end| end + bytes));
        self.lines.extend_from_slice(&other.lines);
        self.line_ends
            .extend(other.line_ends.iter().map(|end| end + lines));
    }

    /// The names its steps name, in their numbers' order.
    pub(super) fn names(&self) -> &[Arc<str>] {
        &self.names
    }

    /// The headings its examples stand under, in their numbers' order.
    pub(super) fn scopes(&self) -> &[Arc<[String]>] {
        &self.scopes
    }

    /// Packed examples from stored sections: `sections` each example's
    /// bytes as `Writer::example` wrote them, and its step lines; `names`
    /// and `scopes` what they name. `None` when an example's head does not
    /// read (its name, headings and span: every run reads them).
    pub(super) fn from_sections(
        sections: &[(&[u8], Vec<u32>)],
        names: Vec<Arc<str>>,
        scopes: Vec<Arc<[String]>>,
    ) -> Option<PackedExamples> {
        // Each list made as long as it will be: held until the oath's
        // trials have run.
        let bytes = sections.iter().map(|(section, _)| section.len()).sum();
        let lines = sections.iter().map(|(_, lines)| lines.len()).sum();
        let mut packed = PackedExamples {
            bytes: Vec::with_capacity(bytes),
            ends: Vec::with_capacity(sections.len()),
            lines: Vec::with_capacity(lines),
            line_ends: Vec::with_capacity(sections.len()),
            names,
            scopes,
        };
        for (section, lines) in sections {
            Reader::naming(section, &[]).head(&packed.scopes)?;
            packed.bytes.extend_from_slice(section);
            packed.ends.push(packed.bytes.len());
            packed.lines.extend_from_slice(lines);
            packed.line_ends.push(packed.lines.len());
        }
        Some(packed)
    }

    /// Example `index`'s section as `Writer::example` wrote it.
    pub(super) fn section(&self, index: usize) -> Option<&[u8]> {
        let start = match index {
            0 => 0,
            i => *self.ends.get(i - 1)?,
        };
        self.bytes.get(start..*self.ends.get(index)?)
    }

    /// Example `index`, read back; `None` when there is no such example or
    /// its bytes do not read.
    pub fn unpack(&self, index: usize) -> Option<PlannedExample> {
        let mut r = Reader::naming(self.section(index)?, &self.names);
        r.example(&self.scopes).filter(|_| r.done())
    }

    /// Example `index`'s name, headings and span, read without the rest
    /// of it.
    pub fn head(&self, index: usize) -> Option<Head<'_>> {
        Reader::naming(self.section(index)?, &[]).head(&self.scopes)
    }

    /// Example `index`'s key, as `ExampleKey::of` gives it for the example
    /// unpacked.
    pub fn key(&self, index: usize) -> Option<ExampleKey> {
        let head = self.head(index)?;
        Some(ExampleKey {
            name: head.name.to_owned(),
            lines: self.lines(index).to_vec(),
            line: head.span.start_line,
        })
    }

    /// The line example `index` sorts by among its oath's results, as
    /// `ExampleKey::sort_line` gives it: its first step line, else its
    /// span's start (0 when there is no such example).
    pub fn sort_line(&self, index: usize) -> u32 {
        sort_line(self.lines(index), || {
            self.head(index).map_or(0, |h| h.span.start_line)
        })
    }

    /// The examples, each read back; `None` when one does not read.
    pub fn unpack_all(&self) -> Option<Vec<PlannedExample>> {
        (0..self.len()).map(|i| self.unpack(i)).collect()
    }

    /// Example `index`'s step lines: the lines its steps start on in its
    /// oath, in order, each once (none for a step spliced from another
    /// document). Empty when there is no such example.
    pub fn lines(&self, index: usize) -> &[u32] {
        let start = match index {
            0 => 0,
            i => self.line_ends.get(i - 1).copied().unwrap_or(usize::MAX),
        };
        let end = self.line_ends.get(index).copied().unwrap_or(0);
        self.lines.get(start..end).unwrap_or_default()
    }

    /// How many examples it holds.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether it holds no example.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// How many bytes the packed examples take.
    pub fn size(&self) -> usize {
        self.bytes.len()
    }
}

/// The headings `examples` stand under, each run of examples under the
/// same ones once, and each example's number in that list.
fn scopes_of(examples: &[PlannedExample]) -> (Vec<Arc<[String]>>, Vec<u32>) {
    let mut scopes: Vec<Arc<[String]>> = Vec::new();
    let mut numbers = Vec::with_capacity(examples.len());
    for example in examples {
        if !scopes
            .last()
            .is_some_and(|last| same(last, &example.scope_stack))
        {
            scopes.push(Arc::clone(&example.scope_stack));
        }
        numbers.push(u32::try_from(scopes.len() - 1).unwrap_or(u32::MAX));
    }
    (scopes, numbers)
}
