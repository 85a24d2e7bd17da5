//! A recorded failure as text for people (pure): the layout of the
//! harness's own failure output (spec 40 §7.6, STYLE §2.6), rebuilt from a
//! run-result `failure` instead of the plan. With the text the offsets
//! point into (only when the result is fresh), it shows the source line
//! with the failing span underlined and, for each mismatched cell, the
//! expected text (sliced from the source, as the format intends) against
//! the recorded actual value; without it, the message and the recorded
//! stack.

use varar_core::render::{Styles, expected_actual, header, snippet};
use varar_core::results::{CellFailure, ResultFailure};
use varar_core::source::{Source, Span};

/// How many failing cells are shown in full (as the harness does).
const MAX_CELLS: usize = 12;

/// The text of one failed example. `text` is the document the failure's
/// offsets point into (`docPath`, else the oath), or `None` when it is
/// unknown or stale.
pub fn render(
    oath_path: &str,
    example: &str,
    failure: &ResultFailure,
    text: Option<&str>,
) -> String {
    let path = failure.doc_path.as_deref().unwrap_or(oath_path);
    let source = text.map(Source::new);
    let fits = |from: u32, to: u32| {
        source
            .as_ref()
            .is_some_and(|s| from <= to && to <= s.len_utf16())
    };
    let anchor = failure
        .anchor
        .filter(|a| fits(a.from, a.to))
        .and_then(|a| source.as_ref().map(|s| s.span(a.from, a.to)));
    let mut out = header(path, anchor, failure.line, &failure.message);
    out.push('\n');
    let cells: Vec<&CellFailure> = failure
        .cells
        .iter()
        .filter(|c| fits(c.from, c.to))
        .collect();
    match &source {
        Some(source) if !cells.is_empty() => push_cells(&mut out, source, &cells),
        _ => push_message(&mut out, failure, source.as_ref().zip(anchor)),
    }
    out.push_str(&format!("  in example \"{example}\"\n"));
    out
}

/// Each mismatched cell: the source line with the cell underlined, the
/// expected text against the recorded actual value.
fn push_cells(out: &mut String, source: &Source<'_>, cells: &[&CellFailure]) {
    let styles = Styles::plain();
    for cell in cells.iter().take(MAX_CELLS) {
        let span = source.span(cell.from, cell.to);
        out.push_str(&snippet(source, span, "expected here", &styles));
        let expected = source.slice_utf16(cell.from, cell.to);
        out.push_str(&expected_actual("", expected, &cell.actual, &styles));
    }
    if cells.len() > MAX_CELLS {
        out.push_str(&format!(
            "  … and {} more failing cell(s)\n",
            cells.len() - MAX_CELLS
        ));
    }
}

/// The rest of the message, then the anchored line when the source is
/// known, else the recorded frames.
fn push_message(out: &mut String, failure: &ResultFailure, anchored: Option<(&Source<'_>, Span)>) {
    for extra in failure.message.lines().skip(1) {
        out.push_str("  ");
        out.push_str(extra);
        out.push('\n');
    }
    match anchored {
        Some((source, span)) => out.push_str(&snippet(source, span, "here", &Styles::plain())),
        None => {
            // No source to show: the recorded frame says where.
            for frame in failure
                .stack
                .lines()
                .filter(|l| l.trim_start().starts_with("at "))
            {
                out.push_str("  ");
                out.push_str(frame.trim_start());
                out.push('\n');
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use varar_core::results::{Anchor, CellFailure};

    use super::*;

    const OATH: &str = "# Fees\n\nThe late fee is £2.55.\n";

    fn failure(message: &str) -> ResultFailure {
        ResultFailure {
            line: 3,
            message: message.into(),
            stack: format!("{message}\n    at The late fee is {{money}} (fees.md:3:17)"),
            cells: Vec::new(),
            anchor: None,
            doc_path: None,
        }
    }

    fn utf16(s: &str) -> u32 {
        s.encode_utf16().count() as u32
    }

    #[test]
    fn a_cell_mismatch_shows_the_line_the_underline_and_expected_against_actual() {
        let from = utf16("# Fees\n\nThe late fee is ");
        let mut f = failure("cell 1: expected £2.55 but was £2.60");
        f.cells.push(CellFailure {
            from,
            to: from + 5,
            actual: "£2.60".into(),
        });
        f.anchor = Some(Anchor { from, to: from + 5 });
        let text = render("fees.md", "The late fee is £2.55", &f, Some(OATH));
        assert_eq!(
            text,
            "fees.md:3:17: cell 1: expected £2.55 but was £2.60\n\
             \x20 |\n\
             3 | The late fee is £2.55.\n\
             \x20 |                 ^^^^^ expected here\n\
             \x20 - expected: £2.55\n\
             \x20 + actual:   £2.60\n\
             \x20 in example \"The late fee is £2.55\"\n"
        );
    }

    #[test]
    fn without_a_fresh_source_the_message_and_the_recorded_frame_are_shown() {
        let mut f = failure("the till is closed\nsecond line");
        f.anchor = Some(Anchor { from: 8, to: 30 });
        let text = render("fees.md", "x", &f, None);
        assert_eq!(
            text,
            "fees.md:3: the till is closed\n  second line\n  at The late fee is {money} (fees.md:3:17)\n  in example \"x\"\n"
        );
    }

    #[test]
    fn offsets_past_the_end_of_the_text_are_not_drawn() {
        let mut f = failure("boom");
        f.anchor = Some(Anchor { from: 5, to: 500 });
        let text = render("fees.md", "x", &f, Some(OATH));
        assert!(text.starts_with("fees.md:3: boom\n"), "{text}");
    }

    #[test]
    fn a_failure_in_another_document_is_headed_with_that_document() {
        let mut f = failure("boom");
        f.doc_path = Some("shared.md".into());
        assert!(render("a.md", "x", &f, None).starts_with("shared.md:3: boom"));
    }
}
