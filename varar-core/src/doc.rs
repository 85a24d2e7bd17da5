//! The document model (spec 10 §11): what parsing produces and what planning
//! consumes. Serialises to the `doc` conformance artifact.

#[cfg(feature = "serde")]
use serde::Serialize;

use std::sync::Arc;

use crate::source::Span;

/// A parsed oath: every candidate example plus the tables and fences that
/// attach to nothing.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Doc {
    /// The path the caller passed to `parse`.
    pub path: String,
    /// Every paragraph, list item and blockquote, prose included, in source order.
    pub examples: Vec<Candidate>,
    /// Tables and fences with no candidate before them in their section.
    pub orphan_attachments: Vec<Attachment>,
    /// Every heading, all levels, in source order. Reference blocks resolve
    /// against them (spec 70 §70.3.1); `doc.json` does not list them.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub headings: Vec<Heading>,
}

/// A heading (spec 10 §3.7): its level, its text and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Heading {
    /// 1 for `#`, 6 for `######` (setext: 1 for `===`, 2 for `---`).
    pub level: u8,
    /// The trimmed raw text, inline markup kept.
    pub text: String,
    /// From the heading's first character to the end of its last line.
    pub span: Span,
}

/// A text block with its attached tables and fences (spec 10 §7).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Candidate {
    /// Heading texts above the candidate, outermost first.
    pub scope_stack: Arc<[String]>,
    /// From the text block's start to the end of its last attachment.
    pub span: Span,
    /// The text block, then its attachments.
    pub body: CandidateBody,
    /// Whether a heading or thematic break (or the file start) precedes it
    /// since the previous candidate.
    pub preceded_by_delimiter: bool,
}

/// `body[0]` is always a text block; the rest are attachments. Serialised as
/// one flat array, as in the artifact.
#[derive(Clone, Debug, PartialEq)]
pub struct CandidateBody {
    /// `body[0]`.
    pub text: TextBlock,
    /// `body[1..]`, in source order.
    pub attachments: Vec<Attachment>,
}

#[cfg(feature = "serde")]
impl Serialize for CandidateBody {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = serializer.serialize_seq(Some(1 + self.attachments.len()))?;
        seq.serialize_element(&self.text)?;
        for a in &self.attachments {
            seq.serialize_element(a)?;
        }
        seq.end()
    }
}

/// Which kind of text block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextKind {
    /// A paragraph.
    Paragraph,
    /// A list item; `ordered` and its marker span.
    ListItem {
        /// Whether the marker is a number.
        ordered: bool,
        /// The bullet or number with its `.`/`)`.
        marker_span: Span,
    },
    /// A blockquote.
    Blockquote,
}

/// A paragraph, list item or blockquote: the text steps are matched against.
#[derive(Clone, Debug, PartialEq)]
pub struct TextBlock {
    /// Which kind, with the list-item fields.
    pub kind: TextKind,
    /// Raw source with only block markers removed (spec 10 §4).
    pub text: String,
    /// The block's source range.
    pub span: Span,
    /// Maps block-text offsets back to source offsets.
    pub segment_map: Vec<SegmentOffset>,
}

impl TextBlock {
    /// Lift a UTF-16 offset in the block text to a source offset (spec 10 §4):
    /// the last entry with `text_offset <= t` wins.
    pub fn lift(&self, t: u32) -> u32 {
        let entry = self
            .segment_map
            .iter()
            .rev()
            .find(|s| s.text_offset <= t)
            .or(self.segment_map.first());
        match entry {
            Some(s) => s.source_offset + (t.saturating_sub(s.text_offset)),
            None => self.span.start_offset + t,
        }
    }
}

#[cfg(feature = "serde")]
impl Serialize for TextBlock {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(None)?;
        match self.kind {
            TextKind::Paragraph => map.serialize_entry("kind", "paragraph")?,
            TextKind::Blockquote => map.serialize_entry("kind", "blockquote")?,
            TextKind::ListItem {
                ordered,
                marker_span,
            } => {
                map.serialize_entry("kind", "list_item")?;
                map.serialize_entry("ordered", &ordered)?;
                map.serialize_entry("markerSpan", &marker_span)?;
            }
        }
        map.serialize_entry("text", &self.text)?;
        map.serialize_entry("span", &self.span)?;
        map.serialize_entry("segmentMap", &self.segment_map)?;
        map.end()
    }
}

/// One entry of a segment map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct SegmentOffset {
    /// Offset in the block text (UTF-16).
    pub text_offset: u32,
    /// Offset in the source (UTF-16).
    pub source_offset: u32,
}

/// A table or a fenced code block after a text block.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "kind", rename_all = "lowercase"))]
pub enum Attachment {
    /// A pipe table.
    Table(Table),
    /// A fenced code block (doc string or `error` fence).
    Fence(Fence),
}

impl Attachment {
    /// The block's source span.
    pub fn span(&self) -> Span {
        match self {
            Attachment::Table(t) => t.span,
            Attachment::Fence(f) => f.span,
        }
    }
}

/// A pipe table (spec 10 §3.4, §5). The delimiter row is not kept.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Table {
    /// Header line start to last row line end.
    pub span: Span,
    /// The header row.
    pub header: TableRow,
    /// Data rows, ragged as written.
    pub rows: Vec<TableRow>,
}

/// One table row: trimmed cells and their spans.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct TableRow {
    /// Trimmed cell texts, inline markup kept.
    pub cells: Vec<String>,
    /// Span of each trimmed cell.
    pub cell_spans: Vec<Span>,
    /// The row's line.
    pub span: Span,
}

/// A fenced code block (spec 10 §3.3).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Fence {
    /// Opening line start to closing line end.
    pub span: Span,
    /// The info string (`""` when none).
    pub info: String,
    /// The body, ending with `\n` when the fence is closed.
    pub body: String,
    /// Span of the body, ending at column 1 of the closing line.
    pub body_span: Span,
}

impl Fence {
    /// Whether this is an `error` fence (exact, case-sensitive info).
    pub fn is_error(&self) -> bool {
        self.info == "error"
    }

    /// Whether the fence has a closing line: an unclosed fence runs to the
    /// end of the file and its span is the opening line only (spec 10 §3.3).
    pub fn is_closed(&self) -> bool {
        self.span.end_line > self.span.start_line
    }
}
