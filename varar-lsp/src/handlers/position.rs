//! Positions between the engine and the protocol (pure). Both count UTF-16
//! code units (the protocol's default encoding, the model's spans), so a
//! [`Span`]'s 1-based line and column become a 0-based LSP position by
//! subtracting one; offsets come from the text's line table.

use lsp_types::{Position, Range, TextDocumentContentChangeEvent};
use varar_core::source::{Source, Span};

/// The LSP range of a span.
pub fn range(span: &Span) -> Range {
    Range {
        start: Position::new(
            span.start_line.saturating_sub(1),
            span.start_col.saturating_sub(1),
        ),
        end: Position::new(
            span.end_line.saturating_sub(1),
            span.end_col.saturating_sub(1),
        ),
    }
}

/// The UTF-16 offset of an LSP position; a character past the end of its
/// line is clamped to the line's end, a line past the end to the text's end.
pub fn offset(source: &Source<'_>, position: Position) -> u32 {
    let Some(start) = source.line_start(position.line + 1) else {
        return source.len_utf16();
    };
    let end = source
        .line_start(position.line + 2)
        .map_or(source.len_utf16(), |next| next - 1);
    start.saturating_add(position.character).min(end)
}

/// The LSP position of a UTF-16 offset.
pub fn position(source: &Source<'_>, offset: u32) -> Position {
    let (line, col) = source.position(offset.min(source.len_utf16()));
    Position::new(line - 1, col - 1)
}

/// Apply one change of `textDocument/didChange` (incremental, or the whole
/// text when it has no range).
pub fn apply_change(text: &mut String, change: &TextDocumentContentChangeEvent) {
    let Some(range) = change.range else {
        text.clone_from(&change.text);
        return;
    };
    let from = byte_of(text, range.start);
    let to = byte_of(text, range.end).max(from);
    text.replace_range(from..to, &change.text);
}

/// The byte index of an LSP position in `text`, as [`offset`] then
/// [`Source::byte_of_utf16`] give it (a character past the end of its line
/// is the line's end, a line past the end the text's end, the middle of a
/// surrogate pair its char's start), found among the line breaks before
/// it: a keystroke in a 5 MB oath indexes no line of it (1.4 ms, issue 39),
/// and the breaks are found by one vectorised search, not one search a
/// line (1.1 ms).
fn byte_of(text: &str, position: Position) -> usize {
    let mut start = 0;
    if let Some(before) = (position.line as usize).checked_sub(1) {
        match memchr::memchr_iter(b'\n', text.as_bytes()).nth(before) {
            Some(at) => start = at + 1,
            None => return text.len(),
        }
    }
    let line = &text[start..];
    let line = &line[..line.find('\n').unwrap_or(line.len())];
    let mut units = 0u32;
    for (at, ch) in line.char_indices() {
        let next = units + ch.len_utf16() as u32;
        if next > position.character {
            return start + at;
        }
        units = next;
    }
    start + line.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(
        range: Option<((u32, u32), (u32, u32))>,
        text: &str,
    ) -> TextDocumentContentChangeEvent {
        TextDocumentContentChangeEvent {
            range: range
                .map(|((a, b), (c, d))| Range::new(Position::new(a, b), Position::new(c, d))),
            range_length: None,
            text: text.into(),
        }
    }

    #[test]
    fn spans_become_zero_based_ranges() {
        let source = Source::new("# T\n\nI greet \"😀\".\n");
        let span = source.span(14, 16);
        assert_eq!(
            range(&span),
            Range::new(Position::new(2, 9), Position::new(2, 11))
        );
        assert_eq!(offset(&source, Position::new(2, 9)), 14);
        assert_eq!(position(&source, 14), Position::new(2, 9));
        // Past the end of a line: its end; past the last line: the end.
        assert_eq!(offset(&source, Position::new(0, 99)), 3);
        assert_eq!(offset(&source, Position::new(9, 0)), source.len_utf16());
    }

    #[test]
    fn incremental_changes_count_utf16_units() {
        let mut text = "a😀b\nc\n".to_string();
        apply_change(&mut text, &change(Some(((0, 3), (0, 4))), "B"));
        assert_eq!(text, "a😀B\nc\n");
        apply_change(&mut text, &change(Some(((0, 1), (1, 0))), ""));
        assert_eq!(text, "ac\n");
        apply_change(&mut text, &change(Some(((1, 0), (1, 0))), "new"));
        assert_eq!(text, "ac\nnew");
        apply_change(&mut text, &change(None, "whole"));
        assert_eq!(text, "whole");
    }

    #[test]
    fn a_position_is_the_byte_a_source_gives_it() {
        // Every line and character, past the ends and inside a surrogate
        // pair, against the position tables of a source.
        for text in ["", "a", "\n", "a😀b\r\nc\n\néé", "x\n😀\n"] {
            let source = Source::new(text);
            for line in 0..5 {
                for character in 0..8 {
                    let at = Position::new(line, character);
                    let want = source.byte_of_utf16(offset(&source, at));
                    assert_eq!(byte_of(text, at), want, "{text:?} at {at:?}");
                }
            }
        }
    }
}
