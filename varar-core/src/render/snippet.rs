//! The source excerpt under a report: gutter, line, `^^^` underline.
//!
//! Spans are UTF-16 in the model; this is the one place they become display
//! columns (by character width, tabs as four columns), so an underline sits
//! under `😀` or `日本` correctly.

use unicode_width::UnicodeWidthChar;

use super::styles::Styles;
use crate::source::{Source, Span};
use crate::untrusted::{is_bidi_control, push_escaped, terminal_line};

const TAB: &str = "    ";

/// Display width of the first `units` UTF-16 units of `line`.
pub fn display_col(line: &str, units: u32) -> usize {
    let mut seen = 0u32;
    let mut width = 0usize;
    for ch in line.chars() {
        if seen >= units {
            break;
        }
        seen += ch.len_utf16() as u32;
        width += char_width(ch);
    }
    width
}

fn char_width(ch: char) -> usize {
    if ch == '\t' {
        TAB.len()
    } else if is_bidi_control(ch) {
        BIDI_ESCAPE_WIDTH
    } else {
        ch.width().unwrap_or(0)
    }
}

/// The width of a bidirectional control as shown: `\u{202E}`.
const BIDI_ESCAPE_WIDTH: usize = 8;

/// The line as displayed: tabs expanded, CR and other controls dropped,
/// a bidirectional control written as its escape (issue 34: it would
/// reorder the line on a terminal).
fn display_line(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    for ch in line.chars() {
        match ch {
            '\t' => out.push_str(TAB),
            c if c.is_control() => {}
            c if is_bidi_control(c) => push_escaped(&mut out, c),
            c => out.push(c),
        }
    }
    out
}

/// The excerpt for `span`: its first line with the part of the span on that
/// line underlined (a span running on to later lines is underlined to the end
/// of the first one, and the label says how many lines it covers).
pub fn snippet(source: &Source<'_>, span: Span, label: &str, styles: &Styles) -> String {
    let line_no = span.start_line;
    let Some(start) = source.line_start(line_no) else {
        return String::new();
    };
    let end = source
        .line_start(line_no + 1)
        .map(|s| s.saturating_sub(1))
        .unwrap_or(source.len_utf16());
    let line = source.slice_utf16(start, end);
    // A span that stops at column 1 (a doc-string body ends with its newline)
    // does not reach into that last line.
    let last_line = if span.end_line > line_no && span.end_col == 1 {
        span.end_line - 1
    } else {
        span.end_line
    };
    let from = span.start_offset.saturating_sub(start);
    let to = if span.end_line == line_no {
        span.end_offset.saturating_sub(start)
    } else {
        end - start
    };
    let pad = display_col(line, from);
    let width = display_col(line, to).saturating_sub(pad).max(1);
    let gutter_width = line_no.to_string().len();
    let blank = " ".repeat(gutter_width);
    let bar = styles.paint(styles.gutter, "|");
    let mut label = terminal_line(label).into_owned();
    if last_line > line_no {
        let more = last_line - line_no;
        label = if label.is_empty() {
            format!("(and {more} more line(s))")
        } else {
            format!("{label} (and {more} more line(s))")
        };
    }
    let marks = styles.paint(styles.underline, &"^".repeat(width));
    let label = if label.is_empty() {
        String::new()
    } else {
        format!(" {}", styles.paint(styles.underline, &label))
    };
    format!(
        "{blank} {bar}\n{} {bar} {}\n{blank} {bar} {}{marks}{label}\n",
        styles.paint(styles.gutter, &line_no.to_string()),
        display_line(line),
        " ".repeat(pad),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn underlines_by_display_width() {
        let text = "# 😀\n\n- I greet \"😀wörld\".\n";
        let src = Source::new(text);
        // `"😀wörld"` starts at UTF-16 offset 16 (line 3 col 11) and is 9 units.
        let span = src.span(16, 25);
        let out = snippet(&src, span, "here", &Styles::plain());
        assert_eq!(
            out,
            "  |\n3 | - I greet \"😀wörld\".\n  |           ^^^^^^^^^ here\n"
        );
    }

    #[test]
    fn tabs_expand_and_cr_is_hidden() {
        let src = Source::new("\tab\r\nx");
        let out = snippet(&src, src.span(2, 3), "", &Styles::plain());
        assert_eq!(out, "  |\n1 |     ab\n  |      ^\n");
    }

    #[test]
    fn a_bidi_override_in_the_source_is_escaped_and_the_underline_stays_under_the_span() {
        let src = Source::new("a\u{202e}bc\n");
        let out = snippet(&src, src.span(2, 4), "x\u{1b}[2J", &Styles::plain());
        assert_eq!(
            out,
            format!(
                "  |\n1 | a\\u{{202E}}bc\n  | {}^^ x\\u{{001B}}[2J\n",
                " ".repeat(9)
            )
        );
    }

    #[test]
    fn multi_line_spans_say_so() {
        let src = Source::new("```\nhello\nworld\n```\n");
        let out = snippet(&src, src.span(4, 16), "doc string", &Styles::plain());
        assert!(
            out.ends_with("^^^^^ doc string (and 1 more line(s))\n"),
            "{out}"
        );
    }

    #[test]
    fn empty_spans_still_get_one_mark() {
        let src = Source::new("ab");
        let out = snippet(&src, src.span(1, 1), "", &Styles::plain());
        assert!(out.ends_with("|  ^\n"), "{out:?}");
    }
}
