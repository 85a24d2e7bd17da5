//! Cutting model nodes out of the source (spec 10 §3.3–§5): given the lines a
//! block covers (from pulldown-cmark) and the containers it sits in, build the
//! block text with its segment map, the fence body, the table cells and the
//! heading text, all from the unchanged source with UTF-16 spans.

use std::ops::Range;

use super::headings;
use super::lines::Lines;
use crate::doc::{Fence, SegmentOffset, Table, TableRow, TextBlock, TextKind};
use crate::source::{Source, utf16_len};
use crate::text::{is_js_whitespace, js_trim_end};

/// An open container block.
#[derive(Clone, Debug)]
pub(crate) enum Container {
    /// A blockquote.
    Quote {
        /// Unique per container instance.
        id: usize,
    },
    /// A list item.
    Item {
        /// Unique per container instance.
        id: usize,
        /// Whether the list is ordered.
        ordered: bool,
        /// Byte range of the bullet or number with its `.`/`)`.
        marker: Range<usize>,
        /// 0-based line of the marker.
        marker_line: usize,
        /// Byte index where the item's text starts on the marker line.
        content_start: usize,
        /// Whether the item already produced its `list_item` block.
        has_text: bool,
    },
}

impl Container {
    /// The container instance's id.
    pub(crate) fn id(&self) -> usize {
        match self {
            Container::Quote { id } | Container::Item { id, .. } => *id,
        }
    }
}

/// What kind of text block to build.
#[derive(Clone, Debug)]
pub(crate) enum TextSpec {
    /// A paragraph outside any container: one raw slice.
    TopParagraph,
    /// A later paragraph of a list item.
    Paragraph,
    /// Paragraphs of a blockquote.
    Quote,
    /// The first paragraph(s) of a list item.
    Item {
        ordered: bool,
        marker: Range<usize>,
        marker_line: usize,
    },
}

/// The list item container whose range starts at byte `start`, inside
/// `outer`: find the marker after the outer markers and any indentation, and
/// where the text after it begins. (With tabs, pulldown-cmark may start the
/// item's range before the outer `>` or even at the previous line's LF, so
/// both are skipped here.)
pub(crate) fn item(
    text: &str,
    lines: &Lines,
    outer: &[Container],
    id: usize,
    ordered: bool,
    start: usize,
) -> Container {
    let bytes = text.as_bytes();
    let mut line = lines.line_of(start);
    let mut start = start;
    // The range may also start at the LF before the marker's line.
    if bytes
        .get(start..lines.end(line))
        .unwrap_or_default()
        .iter()
        .all(|b| matches!(b, b' ' | b'\t' | b'\r'))
        && line + 1 < lines.count()
    {
        line += 1;
        start = lines.start(line);
    }
    let end = lines.end(line);
    let after_outer = content_start(text, lines, outer, line).max(start);
    let marker = [after_outer, start]
        .into_iter()
        .find_map(|from| marker_at(bytes, skip_blanks(bytes, from, end), end))
        .unwrap_or(after_outer..after_outer);
    Container::Item {
        id,
        ordered,
        marker_line: line,
        content_start: skip_blanks(bytes, marker.end, end),
        marker,
        has_text: false,
    }
}

/// The list marker (`-`, `*`, `+`, or digits with `.`/`)`) starting at `m`.
fn marker_at(bytes: &[u8], m: usize, end: usize) -> Option<Range<usize>> {
    if m < end && matches!(bytes[m], b'-' | b'*' | b'+') {
        return Some(m..m + 1);
    }
    let mut i = m;
    while i < end && bytes[i].is_ascii_digit() {
        i += 1;
    }
    (i > m && i < end && matches!(bytes[i], b'.' | b')')).then(|| m..i + 1)
}

/// Byte index where line `line`'s text starts once the markers of
/// `containers` (outermost first) are removed: `>` plus at most one space or
/// tab for a quote, the bullet and the blanks after it on an item's marker
/// line. Continuation lines keep their indentation; a lazy line (no `>`)
/// keeps everything.
pub(crate) fn content_start(
    text: &str,
    lines: &Lines,
    containers: &[Container],
    line: usize,
) -> usize {
    let bytes = text.as_bytes();
    let end = lines.end(line);
    let mut pos = lines.start(line);
    for container in containers {
        match container {
            Container::Quote { .. } => {
                let q = skip_blanks(bytes, pos, end);
                if q < end && bytes[q] == b'>' {
                    pos = q + 1;
                    if pos < end && matches!(bytes[pos], b' ' | b'\t') {
                        pos += 1;
                    }
                } else {
                    break;
                }
            }
            Container::Item {
                marker_line,
                content_start,
                ..
            } => {
                if *marker_line == line {
                    pos = pos.max(*content_start);
                }
            }
        }
    }
    pos.min(end)
}

/// Build a text block over lines `first..=last` (spec 10 §3.6, §3.8, §3.9, §4).
pub(crate) fn text_block(
    source: &Source<'_>,
    lines: &Lines,
    containers: &[Container],
    spec: &TextSpec,
    first: usize,
    last: usize,
) -> TextBlock {
    let text = source.text();
    let end = lines.end(last);
    if let TextSpec::TopParagraph = spec {
        let start = lines.start(first);
        let from = source.utf16_of_byte(start);
        return TextBlock {
            kind: TextKind::Paragraph,
            text: text[start..end].to_owned(),
            span: source.span_of_bytes(start, end),
            segment_map: vec![SegmentOffset {
                text_offset: 0,
                source_offset: from,
            }],
        };
    }
    let mut out = String::new();
    let mut segment_map = Vec::new();
    let mut text_offset = 0u32;
    for line in first..=last {
        let line_start = lines.start(line);
        let line_end = lines.end(line);
        let segment = &text[content_start(text, lines, containers, line)..line_end];
        // The reference finds a segment by its first occurrence in the line
        // (spec 10 §4.1); it is the same text, so the lift stays exact.
        let found = text[line_start..line_end].find(segment).unwrap_or(0);
        segment_map.push(SegmentOffset {
            text_offset,
            source_offset: source.utf16_of_byte(line_start + found),
        });
        out.push_str(segment);
        text_offset += utf16_len(segment);
        if line < last {
            out.push('\n');
            text_offset += 1;
        }
    }
    let (kind, span_start) = match spec {
        TextSpec::Item {
            ordered,
            marker,
            marker_line,
        } => (
            TextKind::ListItem {
                ordered: *ordered,
                marker_span: source.span_of_bytes(marker.start, marker.end),
            },
            lines.start(*marker_line),
        ),
        TextSpec::Quote => (TextKind::Blockquote, lines.start(first)),
        TextSpec::Paragraph | TextSpec::TopParagraph => (TextKind::Paragraph, lines.start(first)),
    };
    TextBlock {
        kind,
        text: out,
        span: source.span_of_bytes(span_start, end),
        segment_map,
    }
}

/// Heading text for a heading block spanning `range` (spec 10 §3.7, §10).
pub(crate) fn heading(
    text: &str,
    lines: &Lines,
    containers: &[Container],
    range: Range<usize>,
) -> String {
    let first = lines.line_of(range.start);
    let last = lines.last_line_of(&range);
    let bytes = text.as_bytes();
    let at = skip_blanks(bytes, range.start, lines.end(first));
    if bytes.get(at) == Some(&b'#') {
        return headings::atx_text(&text[at..lines.end(first)]);
    }
    // Setext: every line but the underline is content.
    let content_last = if last > first { last - 1 } else { first };
    headings::setext_text(
        (first..=content_last)
            .map(|l| &text[content_start(text, lines, containers, l)..lines.end(l)]),
    )
}

/// A fenced code block spanning `range`, whose code text events cover
/// `texts` (spec 10 §3.3, with CommonMark's closing rules).
pub(crate) fn fence(
    source: &Source<'_>,
    lines: &Lines,
    range: Range<usize>,
    texts: &[Range<usize>],
) -> Fence {
    let text = source.text();
    let bytes = text.as_bytes();
    let open = lines.line_of(range.start);
    let open_end = lines.end(open);
    let fence_char = bytes.get(range.start).copied().unwrap_or(b'`');
    let mut run_end = range.start;
    while run_end < open_end && bytes[run_end] == fence_char {
        run_end += 1;
    }
    let info = crate::text::js_trim(&text[run_end..open_end]).to_owned();
    let last_text_line = texts.last().map(|r| lines.last_line_of(r));
    let range_last = lines.last_line_of(&range);
    // The closing line is the one line of the block after all code text.
    let closed = range_last > last_text_line.unwrap_or(open);
    let body_lines = if closed {
        (open + 1)..range_last
    } else if range.end >= text.len() {
        // Unclosed to the end of the file: the reference counts every line,
        // the empty one after a final LF included.
        (open + 1)..lines.count()
    } else {
        (open + 1)..(range_last + 1)
    };
    let mut body = String::new();
    // Code text events are in source order: walk them alongside the lines.
    let mut next = 0;
    for line in body_lines.clone() {
        let (line_start, line_end) = (lines.start(line), lines.end(line));
        while next < texts.len() && texts[next].end <= line_start {
            next += 1;
        }
        // A line inside a text event starts at its beginning; otherwise the
        // first code text on the line is where its content starts (fence
        // indentation and container markers removed); a line without code
        // text is empty.
        let from = match texts.get(next) {
            Some(r) if r.start < line_start => line_start,
            Some(r) if r.start <= line_end => r.start,
            _ => line_end,
        };
        body.push_str(&text[from.min(line_end)..line_end]);
        body.push_str(lines.terminator(text, line));
    }
    let open_start_u16 = source.utf16_of_byte(lines.start(open));
    let open_end_u16 = source.utf16_of_byte(open_end);
    let body_span = if body_lines.is_empty() {
        source.span(open_end_u16, open_end_u16)
    } else {
        let first = source.utf16_of_byte(lines.start(body_lines.start));
        let last_end = source.utf16_of_byte(lines.end(body_lines.end - 1)) + 1;
        source.span(first, last_end)
    };
    let span_end = if closed {
        source.utf16_of_byte(lines.end(range_last))
    } else {
        open_end_u16
    };
    Fence {
        span: source.span(open_start_u16, span_end),
        info,
        body,
        body_span,
    }
}

/// A table from its rows' and cells' ranges, header first (spec 10 §3.4, §5).
pub(crate) fn table(
    source: &Source<'_>,
    lines: &Lines,
    rows: &[(Range<usize>, Vec<Range<usize>>)],
) -> Option<Table> {
    let (header, body) = rows.split_first()?;
    let header_line = lines.line_of(header.0.start);
    let last_line = match body.last() {
        Some((r, _)) => lines.line_of(r.start),
        None => header_line + 1,
    };
    let start = lines.start(header_line);
    Some(Table {
        span: source.span_of_bytes(start, lines.end(last_line.min(lines.count() - 1))),
        header: row(source, lines, header),
        rows: body.iter().map(|r| row(source, lines, r)).collect(),
    })
}

fn row(
    source: &Source<'_>,
    lines: &Lines,
    (range, cells): &(Range<usize>, Vec<Range<usize>>),
) -> TableRow {
    let text = source.text();
    let line = lines.line_of(range.start);
    let (line_start, line_end) = (lines.start(line), lines.end(line));
    let mut out = TableRow {
        cells: Vec::new(),
        cell_spans: Vec::new(),
        span: source.span_of_bytes(line_start, line_end),
    };
    for cell in cells {
        let (from, to) = if cell.start >= line_end {
            // A cell GFM adds to pad a short row: empty, after the row's text.
            let end = line_start + js_trim_end(&text[line_start..line_end]).len();
            (end, end)
        } else {
            let to = cell.end.min(line_end);
            let raw = &text[cell.start..to];
            let lead = raw.len() - raw.trim_start_matches(is_js_whitespace).len();
            let trail = raw.len() - js_trim_end(raw).len();
            if lead == raw.len() {
                // All whitespace: empty where the whitespace ends.
                (to, to)
            } else {
                (cell.start + lead, to - trail)
            }
        };
        out.cells.push(text[from..to].to_owned());
        out.cell_spans.push(source.span_of_bytes(from, to));
    }
    out
}

/// First index at or after `from` (before `end`) that is not a space or tab.
fn skip_blanks(bytes: &[u8], from: usize, end: usize) -> usize {
    let mut i = from;
    while i < end && matches!(bytes[i], b' ' | b'\t') {
        i += 1;
    }
    i
}
