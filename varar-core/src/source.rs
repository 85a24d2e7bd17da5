//! Source text and positions (spec 10 §1).
//!
//! Every position in the model is a UTF-16 code-unit offset into the unchanged
//! source, with 1-based lines (split at LF only) and 1-based UTF-16 columns.
//! Rust strings are indexed by UTF-8 bytes, so [`Source`] is the one place
//! where the two are converted: everything downstream keeps UTF-16 values.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// A range of the source in UTF-16 code units, end exclusive, with the line and
/// column of both ends (spec 10 §1.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Span {
    /// UTF-16 offset of the first unit.
    pub start_offset: u32,
    /// UTF-16 offset just past the last unit.
    pub end_offset: u32,
    /// 1-based line of `start_offset`.
    pub start_line: u32,
    /// 1-based UTF-16 column of `start_offset`.
    pub start_col: u32,
    /// 1-based line of `end_offset`.
    pub end_line: u32,
    /// 1-based UTF-16 column of `end_offset`.
    pub end_col: u32,
}

impl Span {
    /// Number of UTF-16 units covered.
    pub fn len(&self) -> u32 {
        self.end_offset.saturating_sub(self.start_offset)
    }

    /// Whether the span covers nothing.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// An oath's text with the tables needed to convert between UTF-8 byte
/// indices, UTF-16 offsets and line/column positions.
///
/// ```
/// use varar_core::source::Source;
/// let src = Source::new("# 😀\nhi");
/// assert_eq!(src.len_utf16(), 7);
/// let span = src.span(5, 7);
/// assert_eq!((span.start_line, span.start_col, span.end_col), (2, 1, 3));
/// ```
#[derive(Debug)]
pub struct Source<'a> {
    text: &'a str,
    /// Shared, so a source can be rebuilt over the same text for free.
    tables: Arc<Tables>,
    /// The line index (0-based) of the last position asked for: planning
    /// and the editor ask in document order, so the next is most often on
    /// that line or a few after (a binary search over a 5 MB oath's lines
    /// for each of them was a sixth of a keystroke's work, issue 39). Only
    /// a hint: any value gives the same answers.
    hint: AtomicU32,
}

impl Clone for Source<'_> {
    fn clone(&self) -> Self {
        Source {
            text: self.text,
            tables: Arc::clone(&self.tables),
            hint: AtomicU32::new(self.hint.load(Ordering::Relaxed)),
        }
    }
}

/// How many lines past the hint [`line_from_hint`] looks before it
/// searches.
const WALK: usize = 8;

/// The index of the last of `starts` (rising strictly) at or before `x`,
/// 0 when none is: walked to from the line `hint` when `x` lies at or after
/// its start, else searched. Callers ask in document order, so the answer
/// is most often a few lines on from the last (a binary search each time
/// was a tenth of parsing a 5 MB oath, issue 39); any hint gives the same
/// answer. The parser's byte lines and the UTF-16 positions both use it.
pub(crate) fn line_from_hint<T: Copy + Ord>(starts: &[T], x: T, hint: usize) -> usize {
    if starts.get(hint).is_some_and(|&s| s <= x) {
        let mut i = hint;
        for _ in 0..WALK {
            match starts.get(i + 1) {
                Some(&next) if next <= x => i += 1,
                _ => return i,
            }
        }
    }
    // A plain index loop: `binary_search` is a chain of closures and
    // calls in an unoptimised build (a user's test build), where a span of
    // every step of 180 000 examples spent a twentieth of the run in it.
    let (mut lo, mut hi) = (0, starts.len());
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if starts[mid] <= x {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// The position tables of one text (see [`Source::tables`]).
#[derive(Debug)]
pub struct Tables {
    /// UTF-16 offset of each line start (index 0 is line 1).
    line_starts: Vec<u32>,
    /// For non-ASCII text: the UTF-16 offset of every byte index that starts a
    /// char, plus the end. Empty when the text is ASCII (offsets are equal).
    byte_to_u16: Vec<u32>,
    /// For non-ASCII text: (UTF-16 offset, byte index) of every char start.
    starts: Vec<(u32, usize)>,
    len_utf16: u32,
    /// Byte length of the text they index.
    text_len: usize,
}

impl<'a> Source<'a> {
    /// Index `text` for position conversions.
    pub fn new(text: &'a str) -> Self {
        let mut line_starts = vec![0];
        let ascii = crate::text::is_ascii(text);
        let mut byte_to_u16 = Vec::new();
        let mut starts = Vec::new();
        let mut u: u32 = 0;
        if ascii {
            // One UTF-16 unit a byte: only the line starts are needed,
            // found with the byte search (a char loop costs a few hundred
            // instructions a byte in an unoptimised build).
            let mut from = 0;
            while let Some(at) = text[from..].find('\n') {
                from += at + 1;
                line_starts.push(from as u32);
            }
            u = text.len() as u32;
        } else {
            byte_to_u16 = vec![0; text.len() + 1];
            for (b, ch) in text.char_indices() {
                byte_to_u16[b] = u;
                starts.push((u, b));
                u += ch.len_utf16() as u32;
                if ch == '\n' {
                    line_starts.push(u);
                }
            }
            byte_to_u16[text.len()] = u;
        }
        Source {
            text,
            tables: Arc::new(Tables {
                line_starts,
                byte_to_u16,
                starts,
                len_utf16: u,
                text_len: text.len(),
            }),
            hint: AtomicU32::new(0),
        }
    }

    /// The position tables, to rebuild this source later with
    /// [`Source::with_tables`] instead of indexing the text again (a failing
    /// example renders its excerpt from a source over the whole oath).
    pub fn tables(&self) -> Arc<Tables> {
        Arc::clone(&self.tables)
    }

    /// A source over `text` with the tables of an earlier source over the
    /// very same text; tables of another text are ignored and rebuilt.
    pub fn with_tables(text: &'a str, tables: Arc<Tables>) -> Self {
        if tables.text_len != text.len() {
            return Source::new(text);
        }
        Source {
            text,
            tables,
            hint: AtomicU32::new(0),
        }
    }

    /// The unchanged text.
    pub fn text(&self) -> &'a str {
        self.text
    }

    /// Length in UTF-16 code units.
    pub fn len_utf16(&self) -> u32 {
        self.tables.len_utf16
    }

    /// UTF-16 offset of a byte index. The index must be a char boundary (or
    /// the end); inside a char it maps to the char's start.
    pub fn utf16_of_byte(&self, byte: usize) -> u32 {
        if self.tables.byte_to_u16.is_empty() {
            return byte.min(self.text.len()) as u32;
        }
        let mut b = byte.min(self.text.len());
        while !self.text.is_char_boundary(b) {
            b -= 1;
        }
        self.tables.byte_to_u16[b]
    }

    /// Byte index of a UTF-16 offset, clamped to the text. An offset in the
    /// middle of a surrogate pair maps to the start of that char.
    pub fn byte_of_utf16(&self, u: u32) -> usize {
        if self.tables.byte_to_u16.is_empty() {
            return (u as usize).min(self.text.len());
        }
        if u >= self.tables.len_utf16 {
            return self.text.len();
        }
        // Char starts as (utf16, byte), ascending in both.
        match self.tables.starts.binary_search_by_key(&u, |&(u16, _)| u16) {
            Ok(i) => self.tables.starts[i].1,
            Err(i) => self.tables.starts[i - 1].1,
        }
    }

    /// The text between two UTF-16 offsets (clamped).
    pub fn slice_utf16(&self, from: u32, to: u32) -> &'a str {
        let a = self.byte_of_utf16(from);
        let b = self.byte_of_utf16(to.max(from));
        &self.text[a..b]
    }

    /// 1-based (line, column) of a UTF-16 offset (spec 10 §1.3). Offsets past
    /// the end keep adding columns on the last line.
    pub fn position(&self, u: u32) -> (u32, u32) {
        let starts = &self.tables.line_starts;
        // The first line starts at 0, so some line starts at or before `u`.
        let idx = line_from_hint(starts, u, self.hint.load(Ordering::Relaxed) as usize);
        self.hint.store(idx as u32, Ordering::Relaxed);
        (idx as u32 + 1, u - starts[idx] + 1)
    }

    /// The full [`Span`] of a UTF-16 range.
    pub fn span(&self, from: u32, to: u32) -> Span {
        let starts = &self.tables.line_starts;
        let first = line_from_hint(starts, from, self.hint.load(Ordering::Relaxed) as usize);
        // The end is looked for from the start's line on (most spans end
        // on it).
        let last = line_from_hint(starts, to, first);
        self.hint.store(first as u32, Ordering::Relaxed);
        let (start_line, start_col) = (first as u32 + 1, from - starts[first] + 1);
        let (end_line, end_col) = (last as u32 + 1, to - starts[last] + 1);
        Span {
            start_offset: from,
            end_offset: to,
            start_line,
            start_col,
            end_line,
            end_col,
        }
    }

    /// The [`Span`] of a UTF-8 byte range.
    pub fn span_of_bytes(&self, from: usize, to: usize) -> Span {
        self.span(self.utf16_of_byte(from), self.utf16_of_byte(to))
    }

    /// 1-based line of a UTF-16 offset.
    pub fn line_of(&self, u: u32) -> u32 {
        self.position(u).0
    }

    /// UTF-16 offset where a 1-based line starts, if the line exists.
    pub fn line_start(&self, line: u32) -> Option<u32> {
        self.tables
            .line_starts
            .get(line.checked_sub(1)? as usize)
            .copied()
    }

    /// Number of lines (one more than the number of LFs).
    pub fn line_count(&self) -> u32 {
        self.tables.line_starts.len() as u32
    }
}

/// Length of a string in UTF-16 code units.
pub fn utf16_len(s: &str) -> u32 {
    // ASCII (most text) is one unit per byte.
    if crate::text::is_ascii(s) {
        return s.len() as u32;
    }
    s.chars().map(|c| c.len_utf16() as u32).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_in_any_order_are_those_of_a_search() {
        // Lines of every length (empty ones too), the hint left anywhere:
        // forwards, backwards, far jumps, past the end.
        let text: String = (0..60).map(|i| "x".repeat(i % 7) + "\n").collect();
        let s = Source::new(&text);
        let len = s.len_utf16();
        let search = |u: u32| {
            let starts = &s.tables.line_starts;
            let i = starts.partition_point(|&start| start <= u) - 1;
            (i as u32 + 1, u - starts[i] + 1)
        };
        let mut order: Vec<u32> = (0..=len + 3).collect();
        order.extend((0..=len).rev());
        order.extend((0..=len).map(|u| (u * 37) % (len + 1)));
        for u in order {
            assert_eq!(s.position(u), search(u), "offset {u}");
        }
    }

    #[test]
    fn spans_find_their_lines_as_a_binary_search_does() {
        for text in ["", "a", "\n", "ab\n\ncd\ne\n", "x\n😀\nyz\n\n\nw"] {
            let src = Source::new(text);
            let starts = &src.tables.line_starts;
            let want = |u: u32| {
                let i = match starts.binary_search(&u) {
                    Ok(i) => i,
                    Err(i) => i - 1,
                };
                (i as u32 + 1, u - starts[i] + 1)
            };
            for from in 0..=src.len_utf16() + 1 {
                assert_eq!(src.position(from), want(from), "{text:?} at {from}");
                for to in 0..=src.len_utf16() + 1 {
                    let span = src.span(from, to);
                    assert_eq!(
                        (span.start_line, span.start_col, span.end_line, span.end_col),
                        (want(from).0, want(from).1, want(to).0, want(to).1),
                        "{text:?} {from}..{to}"
                    );
                }
            }
        }
    }

    #[test]
    fn ascii_offsets_equal_bytes() {
        let s = Source::new("ab\ncd\n");
        assert_eq!(s.utf16_of_byte(4), 4);
        assert_eq!(s.byte_of_utf16(4), 4);
        assert_eq!(s.position(3), (2, 1));
        assert_eq!(s.position(6), (3, 1));
        assert_eq!(s.line_count(), 3);
    }

    #[test]
    fn astral_chars_count_two_units() {
        // The list item of bundle 11: ends at col 21, not 20, because of the emoji.
        let text = "- I greet \"😀wörld\".";
        let s = Source::new(text);
        assert_eq!(s.len_utf16(), 20);
        let emoji_byte = text.find('😀').unwrap();
        assert_eq!(s.utf16_of_byte(emoji_byte), 11);
        assert_eq!(s.utf16_of_byte(emoji_byte + 4), 13);
        assert_eq!(s.byte_of_utf16(13), emoji_byte + 4);
        assert_eq!(s.slice_utf16(11, 13), "😀");
        assert_eq!(s.position(20), (1, 21));
    }

    #[test]
    fn byte_of_utf16_round_trips_every_char_boundary() {
        let text = "é£日😀\r\n\u{feff}a\u{301}😀x";
        let s = Source::new(text);
        for (b, _) in text.char_indices().chain([(text.len(), ' ')]) {
            let u = s.utf16_of_byte(b);
            assert_eq!(s.byte_of_utf16(u), b, "byte {b}");
        }
    }

    #[test]
    fn cr_counts_as_a_column_and_past_end_adds_columns() {
        let s = Source::new("a\r\nb");
        assert_eq!(s.position(2), (1, 3));
        assert_eq!(s.position(3), (2, 1));
        assert_eq!(s.position(5), (2, 3));
    }

    #[test]
    fn rebuilt_sources_share_their_tables_and_refuse_another_text() {
        let text = "# T\n\nI pay £2.55 😀.\n";
        let first = Source::new(text);
        let owned = text.to_string();
        let again = Source::with_tables(&owned, first.tables());
        assert!(Arc::ptr_eq(&first.tables, &again.tables));
        assert_eq!(again.span(8, 20), first.span(8, 20));
        // Tables of another text are not used.
        let other = Source::with_tables("ab\ncd", first.tables());
        assert!(!Arc::ptr_eq(&first.tables, &other.tables));
        assert_eq!(other.line_count(), 2);
    }
}
