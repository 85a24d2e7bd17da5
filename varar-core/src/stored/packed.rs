//! The steps of an oath's examples held as bytes between planning and
//! running (issue 39): a planned step is a few hundred bytes of strings,
//! spans and vectors, held for every example of every oath from the end of
//! planning until its trial runs, which was most of a run's peak memory.
//! Packed in the stored plan's encoding, the same steps take a fraction of
//! that, and each trial reads back its own example's when it starts. A
//! stored plan holds each example's steps as such a section, so a plan
//! read back from the cache is packed already (`decode_packed`), and one
//! just planned is stored from its packed steps (`encode_packed`) without
//! being encoded twice.

use std::sync::Arc;

use super::names::Names;
use super::read::Reader;
use super::write::Writer;
use crate::plan::PlannedExample;
use crate::results::example_lines;

/// The steps and row bindings of a list of examples, packed by
/// [`PackedSteps::pack`], which leaves each example the rest of it (its
/// name, headings, span, expectation and unmatched sentences), and read
/// back one example at a time by [`PackedSteps::unpack`]. Each example's
/// step lines (its `ExampleKey::lines`) are kept beside them: a run needs
/// them for every example before any runs. (The tests pack and unpack
/// every part of the model.)
#[derive(Debug, Default)]
pub struct PackedSteps {
    /// Every example's steps and row binding, one section after another.
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
}

/// How many examples are packed before the work is split over two
/// threads (encoding 180 000 examples took half a second, unoptimised).
const TWO_THREADS_FROM: usize = 4096;

impl PackedSteps {
    /// Take the steps and row binding out of each of `examples`, packed
    /// (on two threads from a few thousand examples).
    pub fn pack(examples: &mut [PlannedExample]) -> PackedSteps {
        let packed = PackedSteps::of(examples);
        PackedSteps::strip(examples);
        packed
    }

    /// The steps and row bindings of `examples`, packed (the examples keep
    /// them), on two threads from a few thousand examples.
    fn of(examples: &[PlannedExample]) -> PackedSteps {
        let names = Names::of(examples);
        let two = examples.len() >= TWO_THREADS_FROM
            && std::thread::available_parallelism().is_ok_and(|n| n.get() > 1);
        let mut packed = if two {
            let (first, second) = examples.split_at(examples.len() / 2);
            let (mut packed, rest) =
                crate::threads::side_by_side(|| PackedSteps::written(first, &names), &|| {
                    PackedSteps::written(second, &names)
                });
            packed.append(rest);
            packed
        } else {
            PackedSteps::written(examples, &names)
        };
        packed.names = names.list;
        packed
    }

    /// [`PackedSteps::of`] on this thread (what the tests compare it with).
    #[cfg(test)]
    pub(super) fn of_here(examples: &[PlannedExample]) -> PackedSteps {
        let names = Names::of(examples);
        let mut packed = PackedSteps::written(examples, &names);
        packed.names = names.list;
        packed
    }

    /// Take the steps and row binding out of each of `examples`, packed
    /// before: what is left is the rest of each example.
    pub(super) fn strip(examples: &mut [PlannedExample]) {
        for example in examples {
            example.steps = Vec::new();
            example.row = None;
        }
    }

    /// The steps of `examples` written, naming `names` (not kept).
    fn written(examples: &[PlannedExample], names: &Names) -> PackedSteps {
        let mut w = Writer(Vec::new());
        let mut packed = PackedSteps {
            ends: Vec::with_capacity(examples.len()),
            line_ends: Vec::with_capacity(examples.len()),
            ..PackedSteps::default()
        };
        for example in examples {
            packed.lines.extend(example_lines(example));
            packed.line_ends.push(packed.lines.len());
            w.steps_and_row(example, names);
            packed.ends.push(w.0.len());
        }
        packed.bytes = w.0;
        // Held until the oath's trials have run: not the growth's spare room.
        packed.bytes.shrink_to_fit();
        packed.lines.shrink_to_fit();
        packed
    }

    /// Put `other`'s examples, which name the same names, after these.
    fn append(&mut self, other: PackedSteps) {
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

    /// Packed steps from stored sections: `sections` each example's bytes
    /// as `Writer::steps_and_row` wrote them, and its step lines; `names`
    /// what their steps name.
    pub(super) fn from_sections(
        sections: &[(&[u8], Vec<u32>)],
        names: Vec<Arc<str>>,
    ) -> PackedSteps {
        // Each list made as long as it will be: held until the oath's
        // trials have run.
        let bytes = sections.iter().map(|(section, _)| section.len()).sum();
        let lines = sections.iter().map(|(_, lines)| lines.len()).sum();
        let mut packed = PackedSteps {
            bytes: Vec::with_capacity(bytes),
            ends: Vec::with_capacity(sections.len()),
            lines: Vec::with_capacity(lines),
            line_ends: Vec::with_capacity(sections.len()),
            names,
        };
        for (section, lines) in sections {
            packed.bytes.extend_from_slice(section);
            packed.ends.push(packed.bytes.len());
            packed.lines.extend_from_slice(lines);
            packed.line_ends.push(packed.lines.len());
        }
        packed
    }

    /// Example `index`'s section as `Writer::steps_and_row` wrote it.
    pub(super) fn section(&self, index: usize) -> Option<&[u8]> {
        let start = match index {
            0 => 0,
            i => *self.ends.get(i - 1)?,
        };
        self.bytes.get(start..*self.ends.get(index)?)
    }

    /// Put the steps and row binding of example `index` back into `shell`,
    /// that example as [`PackedSteps::pack`] left it. False, and `shell`
    /// untouched, when there is no such example or its bytes do not read.
    pub fn unpack(&self, index: usize, shell: &mut PlannedExample) -> bool {
        let Some(bytes) = self.section(index) else {
            return false;
        };
        let mut r = Reader::naming(bytes, &self.names);
        match r.steps_and_row() {
            Some((steps, row)) if r.done() => {
                shell.steps = steps;
                shell.row = row;
                true
            }
            _ => false,
        }
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

    /// How many bytes the packed steps take.
    pub fn size(&self) -> usize {
        self.bytes.len()
    }
}
