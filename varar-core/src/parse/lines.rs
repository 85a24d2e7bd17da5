//! Source lines for block structure, in UTF-8 byte indices (spec 10 §2.1): a
//! line's text keeps the CR of a CRLF, and there is always one more line than
//! line endings. Like CommonMark, a lone CR also ends a line here; positions
//! (line and column numbers) still count LFs only, in [`crate::source`].
//!
//! A leading BOM is not part of line 1's content: block structure ignores it
//! (as GitHub and editors do), while every position still counts it.

use std::cell::Cell;
use std::ops::Range;

use crate::source::line_from_hint;

/// Byte ranges of every line of a text.
#[derive(Debug)]
pub(crate) struct Lines {
    /// Byte index where each line's content starts (after the BOM on line 0).
    starts: Vec<usize>,
    /// Byte index of each line's LF (or lone CR), or the text length for the
    /// last line.
    ends: Vec<usize>,
    /// The line [`Lines::line_of`] found last: the walker asks in document
    /// order, so the next is most often a few lines on (a binary search
    /// each time was a tenth of parsing a 5 MB oath, issue 39). Only a
    /// hint: any value gives the same answers.
    hint: Cell<usize>,
}

impl Lines {
    /// Index the lines of `text`.
    pub(crate) fn new(text: &str) -> Self {
        let mut starts = vec![bom_len(text)];
        let mut ends = Vec::new();
        let bytes = text.as_bytes();
        // Only the line breaks are visited: a byte loop over a 10 MB oath
        // was a twentieth of planning it in an unoptimised build. Without a
        // CR (most texts), the standard library's search for LFs is the
        // quickest there (its optimised code runs in every build; memchr's
        // is compiled as the caller is), and both are asked only once.
        if !bytes.contains(&b'\r') {
            for (i, _) in text.match_indices('\n') {
                ends.push(i);
                starts.push(i + 1);
            }
            ends.push(text.len());
            return Lines {
                starts,
                ends,
                hint: Cell::new(0),
            };
        }
        for i in memchr::memchr2_iter(b'\n', b'\r', bytes) {
            // A lone CR ends a line for CommonMark (and so for pulldown-cmark);
            // in CRLF the CR stays part of its line.
            if bytes[i] == b'\n' || bytes.get(i + 1) != Some(&b'\n') {
                ends.push(i);
                starts.push(i + 1);
            }
        }
        ends.push(text.len());
        Lines {
            starts,
            ends,
            hint: Cell::new(0),
        }
    }

    /// Number of lines.
    pub(crate) fn count(&self) -> usize {
        self.starts.len()
    }

    /// 0-based line holding byte `b` (a line ending belongs to its line).
    pub(crate) fn line_of(&self, b: usize) -> usize {
        // The last line whose start is at most `b` (starts rise strictly),
        // or line 0 for a byte of the BOM: walked to from the hint when it
        // lies at or after the hint's line, else searched.
        let line = line_from_hint(&self.starts, b, self.hint.get());
        self.hint.set(line);
        line
    }

    /// 0-based line of the last byte of `range` (its start when empty).
    pub(crate) fn last_line_of(&self, range: &Range<usize>) -> usize {
        self.line_of(range.end.saturating_sub(1).max(range.start))
    }

    /// Byte index where line `i`'s content starts.
    pub(crate) fn start(&self, i: usize) -> usize {
        self.starts
            .get(i)
            .copied()
            .unwrap_or(usize::MAX)
            .min(self.end(i))
    }

    /// Byte index of line `i`'s LF or lone CR (or the end of the text).
    pub(crate) fn end(&self, i: usize) -> usize {
        self.ends
            .get(i)
            .or(self.ends.last())
            .copied()
            .unwrap_or_default()
    }

    /// The LF (or lone CR) that ends line `i`, if any.
    pub(crate) fn terminator<'t>(&self, text: &'t str, i: usize) -> &'t str {
        if i + 1 < self.count() {
            let end = self.end(i);
            text.get(end..end + 1).unwrap_or_default()
        } else {
            ""
        }
    }
}

/// Byte length of a leading U+FEFF, or 0.
pub(crate) fn bom_len(text: &str) -> usize {
    if text.starts_with('\u{feff}') {
        '\u{feff}'.len_utf8()
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_of_bytes_in_any_order_are_those_of_a_search() {
        // A BOM, CRLF, lone CR, empty lines; the hint left anywhere.
        let text: String = "\u{feff}".to_owned()
            + &(0..50)
                .map(|i| "y".repeat(i % 5) + ["\n", "\r\n", "\r"][i % 3])
                .collect::<String>();
        let l = Lines::new(&text);
        let search = |b: usize| match l.starts.binary_search(&b) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let len = text.len();
        let mut order: Vec<usize> = (0..=len + 2).collect();
        order.extend((0..=len).rev());
        order.extend((0..=len).map(|b| (b * 31) % (len + 1)));
        for b in order {
            assert_eq!(l.line_of(b), search(b), "byte {b}");
        }
    }

    #[test]
    fn lines_split_at_lf_and_keep_cr() {
        let l = Lines::new("a\r\nb\n");
        assert_eq!(l.count(), 3);
        assert_eq!((l.start(0), l.end(0)), (0, 2));
        assert_eq!((l.start(1), l.end(1)), (3, 4));
        assert_eq!((l.start(2), l.end(2)), (5, 5));
        assert_eq!(l.line_of(2), 0);
        assert_eq!(l.line_of(3), 1);
        assert_eq!(
            (l.terminator("a\r\nb\n", 1), l.terminator("a\r\nb\n", 2)),
            ("\n", "")
        );
    }

    #[test]
    fn every_short_text_of_line_breaks_is_split_as_byte_by_byte() {
        // Every text of up to six bytes from `a`, CR and LF, against the
        // rule read a byte at a time.
        let alphabet = [b'a', b'\r', b'\n'];
        for len in 0..=6u32 {
            for code in 0..3usize.pow(len) {
                let text: String = (0..len)
                    .map(|i| char::from(alphabet[code / 3usize.pow(i) % 3]))
                    .collect();
                let b = text.as_bytes();
                let want: Vec<usize> = (0..b.len())
                    .filter(|&i| b[i] == b'\n' || (b[i] == b'\r' && b.get(i + 1) != Some(&b'\n')))
                    .chain([b.len()])
                    .collect();
                let lines = Lines::new(&text);
                let starts: Vec<usize> =
                    [0].into_iter().chain(want.iter().map(|e| e + 1)).collect();
                assert_eq!(lines.ends, want, "{text:?}");
                assert_eq!(lines.starts, starts[..want.len()], "{text:?}");
            }
        }
    }

    #[test]
    fn a_lone_cr_ends_a_line() {
        let text = "a\rb\r\nc";
        let l = Lines::new(text);
        assert_eq!(l.count(), 3);
        assert_eq!((l.end(0), l.start(1), l.end(1)), (1, 2, 4));
        assert_eq!((l.terminator(text, 0), l.terminator(text, 1)), ("\r", "\n"));
        assert_eq!(l.terminator(text, 2), "");
    }

    #[test]
    fn bom_is_skipped_on_line_one_only() {
        let l = Lines::new("\u{feff}x\n\u{feff}");
        assert_eq!(l.start(0), 3);
        assert_eq!(l.start(1), 5);
        assert_eq!(Lines::new("").count(), 1);
    }
}
