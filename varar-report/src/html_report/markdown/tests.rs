//! Spans land on exactly the text their UTF-16 offsets name.

use std::path::Path;

use super::super::overlay::Detail;
use crate::html_report::tests::support::{
    draw, failed, marks_by_note, passed, range_of, results_of,
};
use varar_core::results::Status;
use varar_core::source::Source;

/// Every conformance bundle run: each cell and anchor of each failure is
/// drawn on exactly `source[from..to]`, its callout names expected and
/// actual, and every example of the run marks a block.
#[test]
fn conformance_bundles_spans_land_on_the_text_they_name() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../conformance/corpus/bundles");
    let mut bundles: Vec<_> = std::fs::read_dir(&corpus)
        .unwrap_or_else(|e| panic!("{e}"))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    bundles.sort();
    let mut spans = 0;
    for dir in bundles {
        let (text, results) = varar_conformance::results::run_results(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        let (overlay, rendered) = draw(&text, &results, &[]);
        let source = Source::new(&text);
        let marks = marks_by_note(&rendered.html);
        let name = dir.display();
        for (i, note) in overlay.notes.iter().enumerate() {
            let region = overlay.regions.iter().find(|r| r.note == i);
            let Some(region) = region else {
                panic!("{name}: note {i} has no span: {note:?}");
            };
            let want = &text[region.start..region.end];
            assert_eq!(
                marks.get(&(i + 1)).map(String::as_str),
                Some(want),
                "{name}: note {i}"
            );
            assert!(rendered.placed[i], "{name}: callout {i} not written");
            spans += 1;
        }
        // Each failure's spans are the ones the result names.
        for e in results
            .examples
            .iter()
            .filter(|e| e.status == Status::Failed)
        {
            let Some(f) = &e.failure else { continue };
            let named: Vec<String> = if f.cells.is_empty() {
                f.anchor
                    .map(|a| source.slice_utf16(a.from, a.to).to_owned())
                    .into_iter()
                    .collect()
            } else {
                f.cells
                    .iter()
                    .map(|c| source.slice_utf16(c.from, c.to).to_owned())
                    .collect()
            };
            for want in named {
                assert!(
                    marks.values().any(|m| *m == want),
                    "{name}: {want:?} not drawn in {marks:?}"
                );
            }
            for c in &f.cells {
                let callout = format!(
                    "<code class=\"varar-actual\">{}</code>",
                    super::escape(&c.actual)
                );
                assert!(
                    rendered.html.contains(&callout),
                    "{name}: actual {:?} not shown",
                    c.actual
                );
            }
        }
        let marked = rendered.html.matches("class=\"varar-example ").count();
        assert!(
            results.examples.is_empty() || marked > 0,
            "{name}: no example block marked"
        );
    }
    // Bundles 06, 07, 15 and 17 fail on purpose.
    assert!(spans >= 4, "only {spans} spans drawn");
}

/// One case: a text, the substring a cell names, and the text the marks
/// must hold (the rendered form: quote prefixes and markup removed).
fn cell_lands(text: &str, needle: &str, nth: usize, line: u32, want: &str) {
    let (from, to) = range_of(text, needle, nth);
    let results = results_of(
        "a.md",
        text,
        vec![failed(
            "x",
            vec![line],
            &[(from, to, "ACTUAL")],
            Some((from, to)),
        )],
    );
    let (overlay, rendered) = draw(text, &results, &[]);
    let marks = marks_by_note(&rendered.html);
    assert_eq!(
        marks.get(&1).map(String::as_str),
        Some(want),
        "{text:?}\n{}",
        rendered.html
    );
    assert_eq!(
        overlay.notes[0].detail,
        Detail::Cell {
            expected: needle.to_owned(),
            actual: "ACTUAL".into()
        }
    );
    assert!(rendered.placed[0], "callout missing:\n{}", rendered.html);
}

#[test]
fn offsets_are_utf16_with_emoji_and_combining_marks_everywhere() {
    // Paragraph: two astral chars before the span, a combining mark inside.
    cell_lands(
        "# T\n\nI greet \"😀🎉\" and cafe\u{301} costs £3.\n",
        "cafe\u{301}",
        0,
        3,
        "cafe\u{301}",
    );
    // Table cell after an emoji cell.
    cell_lands(
        "# T\n\nI check:\n\n| a | b |\n|---|---|\n| 😀 | n\u{303}o |\n",
        "n\u{303}o",
        0,
        3,
        "n\u{303}o",
    );
    // Tight list item.
    cell_lands("- I add 😀 and 2.\n- I add 3.\n", "2", 0, 1, "2");
    // Blockquote over two lines: the `> ` of the second line is not text.
    cell_lands("> I greet 😀\n> and then 7 more.\n", "7", 0, 1, "7");
    // Doc string inside a quote: the body's second line loses its prefix.
    cell_lands(
        "> I echo:\n>\n> ```text\n> é😀 one\n> two\n> ```\n",
        "é😀 one\n> two\n",
        0,
        1,
        "é😀 one\ntwo\n",
    );
    // Inline code and a doc string at the top level.
    cell_lands("I run `ab😀cd` now.\n", "😀c", 0, 1, "😀c");
    cell_lands(
        "I echo:\n\n```\nhello 😀\nworld\n```\n",
        "😀\nwor",
        0,
        1,
        "😀\nwor",
    );
}

#[test]
fn an_anchor_across_markup_marks_the_text_inside_it() {
    let text = "I mention *Emma* and **Bo** today.\n";
    let (from, to) = range_of(text, "I mention *Emma* and **Bo**", 0);
    let results = results_of(
        "a.md",
        text,
        vec![failed("x", vec![1], &[], Some((from, to)))],
    );
    let (_, rendered) = draw(text, &results, &[]);
    assert_eq!(
        marks_by_note(&rendered.html).get(&1).map(String::as_str),
        Some("I mention Emma and Bo")
    );
    assert!(rendered.html.contains("<em><mark"), "{}", rendered.html);
}

#[test]
fn without_cells_or_anchor_the_whole_line_is_marked() {
    let text = "Intro.\n\nI do 😀 it.\r\nAnd more.\n";
    let mut example = failed("x", vec![3], &[], None);
    if let Some(f) = example.failure.as_mut() {
        f.line = 3;
    }
    let results = results_of("a.md", text, vec![example]);
    let (_, rendered) = draw(text, &results, &[]);
    // The CR is not part of the line's text.
    assert_eq!(
        marks_by_note(&rendered.html).get(&1).map(String::as_str),
        Some("I do 😀 it.")
    );
}

#[test]
fn offsets_past_the_end_fall_back_to_the_next_rule() {
    let text = "I add 2.\n";
    let results = results_of(
        "a.md",
        text,
        vec![failed("x", vec![1], &[(5, 99, "3")], Some((0, 5)))],
    );
    let (_, rendered) = draw(text, &results, &[]);
    assert_eq!(
        marks_by_note(&rendered.html).get(&1).map(String::as_str),
        Some("I add")
    );
}

#[test]
fn header_bound_rows_are_marked_row_by_row() {
    let text = "I report the score and grade:\n\n| score | grade |\n|---|---|\n| 10 | A |\n| 20 | B |\n| 30 | C |\n";
    let (from, to) = range_of(text, "20", 0);
    let results = results_of(
        "a.md",
        text,
        vec![
            passed("10 / A", vec![5]),
            failed("20 / B", vec![6], &[(from, to, "99")], Some((from, to))),
        ],
    );
    let (_, rendered) = draw(text, &results, &[]);
    let html = &rendered.html;
    assert!(
        html.contains("<tr id=\"L5\" class=\"varar-row varar-passed\""),
        "{html}"
    );
    assert!(
        html.contains("<tr id=\"L6\" class=\"varar-row varar-failed\""),
        "{html}"
    );
    assert!(
        html.contains("<tr id=\"L7\" class=\"varar-row varar-not-run\""),
        "{html}"
    );
    assert!(
        html.contains("<th class=\"varar-row-status\">result</th>"),
        "{html}"
    );
    assert!(html.contains("1 of 2 examples failed"), "{html}");
    assert!(
        html.contains("varar-cell-failed\" data-varar-state=\"failed\"><mark"),
        "the failing cell carries the state: {html}"
    );
}

#[test]
fn raw_html_and_dangerous_links_never_become_markup() {
    let text = "# Probe <script>alert(1)</script>\n\n<script>alert(2)</script>\n\n\
                I see <img src=x onerror=alert(3)> and [click](javascript:alert(4)) and \
                [ok](https://example.com) and ![pic](http://127.0.0.1:9/x.png).\n\n\
                <!-- hidden -->\n\n<iframe src=\"http://127.0.0.1:9/\"></iframe>\n";
    let results = results_of("a.md", text, vec![]);
    let (_, rendered) = draw(text, &results, &[]);
    let html = &rendered.html;
    for banned in [
        "<script",
        "<img",
        "<iframe",
        "javascript:",
        "src=\"",
        "&lt;!--",
    ] {
        assert!(!html.contains(banned), "{banned} in\n{html}");
    }
    assert!(
        html.contains("&lt;script&gt;alert(2)&lt;/script&gt;"),
        "{html}"
    );
    assert!(
        html.contains("&lt;img src=x onerror=alert(3)&gt;"),
        "{html}"
    );
    assert!(
        html.contains("<a href=\"https://example.com\">ok</a>"),
        "{html}"
    );
    assert!(html.contains("varar-dropped-link"), "{html}");
    // The title keeps the text of the heading, raw HTML tags left out.
    assert_eq!(rendered.title.as_deref(), Some("Probe alert(1)"));
}
