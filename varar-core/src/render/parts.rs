//! The pieces every report is made of: the clickable header and the
//! expected/actual lines.

use super::styles::Styles;
use crate::source::Span;
use crate::untrusted::{cut, terminal_line};

/// The first line of every report: `path:line:col: message`, pointing at the
/// start of `span` (or the whole line when there is none). The path and
/// the message's first line are escaped for a terminal, on one line.
pub fn header(path: &str, span: Option<Span>, fallback_line: u32, message: &str) -> String {
    let first = terminal_line(message.lines().next().unwrap_or(""));
    let path = terminal_line(path);
    match span {
        Some(s) => format!("{path}:{}:{}: {first}", s.start_line, s.start_col),
        None => format!("{path}:{fallback_line}: {first}"),
    }
}

/// One expected/actual pair as `-`/`+` lines, each value's lines prefixed.
/// Very long values are cut: past 40 lines, with a note saying how many
/// were left out, and past [`crate::untrusted::TEXT_LIMIT`] bytes, with the
/// cut's note (STYLE §2.6). Each line is escaped for a terminal.
pub fn expected_actual(label: &str, expected: &str, actual: &str, styles: &Styles) -> String {
    const MAX_LINES: usize = 40;
    let mut out = String::new();
    if !label.is_empty() {
        out.push_str(&format!(
            "  {}\n",
            styles.paint(styles.hint, &terminal_line(label))
        ));
    }
    let (expected, actual) = (cut(expected), cut(actual));
    for (sign, name, value, style) in [
        ("-", "expected", &*expected, styles.minus),
        ("+", "actual", &*actual, styles.plus),
    ] {
        let lines: Vec<&str> = if value.is_empty() {
            vec![""]
        } else {
            value.split('\n').collect()
        };
        for (i, line) in lines.iter().take(MAX_LINES).enumerate() {
            let tag = if i == 0 {
                format!("{name}:")
            } else {
                String::new()
            };
            let line = terminal_line(line);
            out.push_str(&styles.paint(style, &format!("  {sign} {tag:<9} {line}")));
            out.push('\n');
        }
        if lines.len() > MAX_LINES {
            out.push_str(&format!(
                "  {sign}           … {} more line(s)\n",
                lines.len() - MAX_LINES
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::Styles;
    use crate::source::Source;

    #[test]
    fn header_points_at_the_span_start() {
        let src = Source::new("# T\n\nThe fee is £2.55.\n");
        let span = src.span(16, 21);
        assert_eq!(
            header(
                "fees.md",
                Some(span),
                3,
                "cell 1: expected £2.55 but was £2.60"
            ),
            "fees.md:3:12: cell 1: expected £2.55 but was £2.60"
        );
        assert_eq!(header("a.md", None, 7, "boom\nmore"), "a.md:7: boom");
    }

    #[test]
    fn expected_actual_is_readable_without_colour() {
        let text = expected_actual("cell 1", "£2.55", "£2.60", &Styles::plain());
        assert_eq!(text, "  cell 1\n  - expected: £2.55\n  + actual:   £2.60\n");
    }

    #[test]
    fn a_hostile_path_message_and_values_are_escaped_before_colour() {
        assert_eq!(
            header("a\u{1b}.md", None, 1, "boom\u{7}\u{202e}\u{0}\nnext"),
            "a\\u{001B}.md:1: boom\\u{0007}\\u{202E}\\u{0000}"
        );
        let text = expected_actual(
            "col\u{9b}",
            "x\u{1b}[2J",
            "y\r",
            &Styles::plain().colorize(),
        );
        assert!(text.contains("col\\u{009B}"), "{text}");
        assert!(
            text.contains("\x1b[31m  - expected: x\\u{001B}[2J\x1b[0m"),
            "{text}"
        );
        assert!(
            text.contains("\x1b[32m  + actual:   y\\u{000D}\x1b[0m"),
            "{text}"
        );
    }

    #[test]
    fn a_huge_value_is_cut_in_the_expected_actual_lines() {
        let huge = "v".repeat(3 * crate::untrusted::TEXT_LIMIT);
        let text = expected_actual("", "a", &huge, &Styles::plain());
        assert!(
            text.len() < crate::untrusted::TEXT_LIMIT + 100,
            "{}",
            text.len()
        );
        assert!(text.ends_with(&format!(
            "… [{} bytes cut]\n",
            huge.len() - (crate::untrusted::TEXT_LIMIT - 36)
        )));
    }

    #[test]
    fn colour_wraps_but_keeps_the_words() {
        let text = expected_actual("", "a", "b", &Styles::plain().colorize());
        assert!(text.contains("\x1b[31m  - expected: a\x1b[0m"));
        assert!(text.contains("\x1b[32m  + actual:   b\x1b[0m"));
    }
}
