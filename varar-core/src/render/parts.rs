//! The pieces every report is made of: the clickable header and the
//! expected/actual lines.

use super::styles::Styles;
use crate::source::Span;

/// The first line of every report: `path:line:col: message`, pointing at the
/// start of `span` (or the whole line when there is none).
pub fn header(path: &str, span: Option<Span>, fallback_line: u32, message: &str) -> String {
    let first = message.lines().next().unwrap_or("");
    match span {
        Some(s) => format!("{path}:{}:{}: {first}", s.start_line, s.start_col),
        None => format!("{path}:{fallback_line}: {first}"),
    }
}

/// One expected/actual pair as `-`/`+` lines, each value's lines prefixed.
/// Very long values are cut, with a note saying how much was left out.
pub fn expected_actual(label: &str, expected: &str, actual: &str, styles: &Styles) -> String {
    const MAX_LINES: usize = 40;
    let mut out = String::new();
    if !label.is_empty() {
        out.push_str(&format!("  {}\n", styles.paint(styles.hint, label)));
    }
    for (sign, name, value, style) in [
        ("-", "expected", expected, styles.minus),
        ("+", "actual", actual, styles.plus),
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
    fn colour_wraps_but_keeps_the_words() {
        let text = expected_actual("", "a", "b", &Styles::plain().colorize());
        assert!(text.contains("\x1b[31m  - expected: a\x1b[0m"));
        assert!(text.contains("\x1b[32m  + actual:   b\x1b[0m"));
    }
}
