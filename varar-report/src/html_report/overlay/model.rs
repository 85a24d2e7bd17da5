//! What the report draws on an oath's text (the overlay's model): marked
//! blocks, rows, regions and their notes. Built by the parent module.

use std::collections::{BTreeMap, BTreeSet};

use varar_core::results::ResultFailure;

use super::super::html::State;

/// Everything the renderer draws on one oath's text.
#[derive(Debug, Default)]
pub struct Overlay {
    /// Marked text blocks, by the start line of the candidate's text block.
    pub blocks: BTreeMap<u32, BlockMark>,
    /// States of the tables and fences of marked candidates, by start line.
    pub attachments: BTreeMap<u32, State>,
    /// Start lines of tables whose rows are examples (header-bound).
    pub row_tables: BTreeSet<u32>,
    /// The state of each header-bound row, by its line.
    pub rows: BTreeMap<u32, State>,
    /// Highlighted spans as byte ranges of the text, sorted by start.
    pub regions: Vec<Region>,
    /// Every failure shown on the page; `Note::number` is its index + 1.
    pub notes: Vec<Note>,
    /// One row per example result, in the file's order.
    pub examples: Vec<ExampleRow>,
    /// What each link paragraph splices, as HTML to expand under it, by
    /// the start line of its text block (see `spliced`).
    pub spliced: BTreeMap<u32, String>,
}

/// What the latest run adds to an oath's page, once it is known to be a
/// run of this very text (issue 19).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunMarks {
    /// The run's drift and diagnostic items written in this document whose
    /// last attempt failed.
    pub items: Vec<ItemMark>,
    /// For each example of the own results (by index): how many attempts
    /// it took, when it recovered.
    pub recovered: Vec<Option<usize>>,
}

/// A failed item of the run drawn on the page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ItemMark {
    /// Its full test name.
    pub name: String,
    /// `drift` or `diagnostic`.
    pub kind: &'static str,
    /// Its line in this document.
    pub line: u32,
    /// Its message.
    pub message: String,
}

/// Which element a candidate's text block is, so the renderer marks the
/// right one when several start on the same line (`> - item`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockKind {
    /// A paragraph.
    Paragraph,
    /// A list item.
    ListItem,
    /// A blockquote.
    Blockquote,
}

/// The mark of one candidate's text block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockMark {
    /// The element kind of the text block.
    pub kind: BlockKind,
    /// Passed, failed or not run.
    pub state: State,
    /// The label shown on the block (`passed`, `2 of 3 examples failed`).
    pub label: String,
    /// Notes with no span of their own, shown at the end of the block.
    pub notes: Vec<usize>,
    /// The most attempts any recovered example covering it took.
    pub recovered: Option<usize>,
}

/// A highlighted span.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    /// First byte.
    pub start: usize,
    /// Byte after the last.
    pub end: usize,
    /// Index into [`Overlay::notes`].
    pub note: usize,
}

/// One failure as the page shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// The failing example's name.
    pub example: String,
    /// 1-based line in this document (0 when unknown).
    pub line: u32,
    /// What failed.
    pub detail: Detail,
    /// For a failure drawn here but recorded by another oath: that oath.
    pub origin: Option<String>,
    /// For a failure recorded here that belongs to another document: it.
    pub elsewhere: Option<String>,
}

/// The words of a failure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Detail {
    /// A mismatched cell: the text written in the oath and what the step
    /// produced.
    Cell {
        /// `source[from..to]`.
        expected: String,
        /// The rendered actual value.
        actual: String,
    },
    /// Any other failure: its message.
    Message(String),
    /// A failed item of the run that is not an example: its kind (`drift`,
    /// `diagnostic`) and message.
    Item {
        /// The item's kind.
        kind: &'static str,
        /// Its message.
        message: String,
    },
}

/// One example result in the page's summary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExampleRow {
    /// Its name.
    pub name: String,
    /// Passed or failed.
    pub state: State,
    /// Its first step line (`lines[0]`), if any.
    pub line: Option<u32>,
    /// The start line of the first block it covers (the block's anchor).
    pub block: Option<u32>,
    /// Its notes.
    pub notes: Vec<usize>,
    /// How many attempts it took, when it failed (or never ended) before a
    /// retry passed.
    pub recovered: Option<usize>,
    /// Its tags (issue 38, `varar_core::tags`), shown beside it.
    pub tags: Vec<String>,
}

/// A failure recorded by another oath's result whose `docPath` is this
/// document, already checked to be fresh against it.
#[derive(Clone, Copy, Debug)]
pub struct Foreign<'a> {
    /// The oath whose result holds the failure.
    pub oath_path: &'a str,
    /// The failing example's name.
    pub example: &'a str,
    /// The failure (its offsets point into this document).
    pub failure: &'a ResultFailure,
}
