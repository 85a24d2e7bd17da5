//! Worked examples (spec 10 §12), the pinned rules, and the edge inputs
//! (CRLF, BOM, tabs, emoji, combining marks) with their offsets. The
//! CommonMark divergences of §10 are in `divergences.rs`.

use super::parse;
use crate::doc::{Attachment, Doc, TextBlock, TextKind};
use crate::sentences::split_sentences;
use crate::source::{Source, Span};

pub(super) fn doc(src: &str) -> Doc {
    parse("t.md", &Source::new(src))
}

/// `[s,e) L:C-L:C`, the spec's notation.
pub(super) fn sp(s: Span) -> String {
    format!(
        "[{},{}) {}:{}-{}:{}",
        s.start_offset, s.end_offset, s.start_line, s.start_col, s.end_line, s.end_col
    )
}

fn text_line(t: &TextBlock) -> String {
    let kind = match t.kind {
        TextKind::Paragraph => "paragraph".to_owned(),
        TextKind::Blockquote => "blockquote".to_owned(),
        TextKind::ListItem {
            ordered,
            marker_span,
        } => format!(
            "list_item({} {})",
            if ordered { "ol" } else { "ul" },
            sp(marker_span)
        ),
    };
    let segments: Vec<String> = t
        .segment_map
        .iter()
        .map(|s| format!("{}>{}", s.text_offset, s.source_offset))
        .collect();
    format!(
        "{kind} {:?} {} seg {}",
        t.text,
        sp(t.span),
        segments.join(",")
    )
}

fn attachment_line(a: &Attachment) -> String {
    match a {
        Attachment::Fence(f) => format!(
            "fence {:?} {:?} body {} span {}",
            f.info,
            f.body,
            sp(f.body_span),
            sp(f.span)
        ),
        Attachment::Table(t) => {
            let rows: Vec<String> = std::iter::once(&t.header)
                .chain(&t.rows)
                .map(|r| {
                    r.cells
                        .iter()
                        .zip(&r.cell_spans)
                        .map(|(c, s)| format!("{c:?}@{}", s.start_offset))
                        .collect::<Vec<_>>()
                        .join("|")
                })
                .collect();
            format!("table {} {}", sp(t.span), rows.join(" / "))
        }
    }
}

/// One line per candidate (text block, `pbd` when preceded by a delimiter,
/// the scope stack when not empty), one per attachment (indented) and one
/// per orphan.
pub(super) fn summary(src: &str) -> Vec<String> {
    let d = doc(src);
    let mut out = Vec::new();
    for c in &d.examples {
        let mut line = text_line(&c.body.text);
        if c.preceded_by_delimiter {
            line.push_str(" pbd");
        }
        if !c.scope_stack.is_empty() {
            line.push_str(&format!(" in {:?}", c.scope_stack));
        }
        if c.span != c.body.text.span {
            line.push_str(&format!(" cand {}", sp(c.span)));
        }
        out.push(line);
        for a in &c.body.attachments {
            out.push(format!("  {}", attachment_line(a)));
        }
    }
    for a in &d.orphan_attachments {
        out.push(format!("orphan {}", attachment_line(a)));
    }
    out
}

/// The scope stacks of every candidate.
fn scopes(src: &str) -> Vec<Vec<String>> {
    doc(src)
        .examples
        .into_iter()
        .map(|c| c.scope_stack.to_vec())
        .collect()
}

#[test]
fn w1_scope_multiline_paragraph_and_list_item() {
    let src =
        "# Shop\n\n## Basket\n\nI add 2 apples.\nThe basket has 2 items.\n\n- I remove 1 apple.\n";
    assert_eq!(
        summary(src),
        [
            "paragraph \"I add 2 apples.\\nThe basket has 2 items.\" [19,58) 5:1-6:24 seg 0>19 pbd in [\"Shop\", \"Basket\"]",
            "list_item(ul [60,61) 8:1-8:2) \"I remove 1 apple.\" [60,79) 8:1-8:20 seg 0>62 in [\"Shop\", \"Basket\"]",
        ]
    );
    let d = doc(src);
    let para = &d.examples[0].body.text;
    let lifted: Vec<(u32, u32)> = split_sentences(&para.text)
        .iter()
        .map(|s| (para.lift(s.start), para.lift(s.end)))
        .collect();
    assert_eq!(lifted, [(19, 34), (35, 58)]);
}

#[test]
fn w2_blockquote_segment_map() {
    let src = "> I greet \"Ann\".\n>\n>  The greeting is \"Hi Ann\".\n";
    assert_eq!(
        summary(src),
        [
            "blockquote \"I greet \\\"Ann\\\".\\n\\n The greeting is \\\"Hi Ann\\\".\" [0,47) 1:1-3:29 seg 0>2,15>17,16>21 pbd"
        ]
    );
    let d = doc(src);
    let quote = &d.examples[0].body.text;
    let sentences: Vec<(u32, u32)> = split_sentences(&quote.text)
        .iter()
        .map(|s| (s.start, s.end))
        .collect();
    assert_eq!(sentences, [(0, 14), (17, 42)]);
    assert_eq!((quote.lift(17), quote.lift(42)), (22, 47));
}

#[test]
fn w3_orphans_and_attachments() {
    let src = "| a |\n|---|\n| 1 |\n\nI echo:\n\n```text\nhi\n```\n| k | v |\n| - | - |\n|x|  y z |\n\n---\n\n```error\n```\n";
    assert_eq!(
        summary(src),
        [
            "paragraph \"I echo:\" [19,26) 5:1-5:8 seg 0>19 pbd cand [19,73) 5:1-12:11",
            "  fence \"text\" \"hi\\n\" body [36,39) 8:1-9:1 span [28,42) 7:1-9:4",
            "  table [43,73) 10:1-12:11 \"k\"@45|\"v\"@49 / \"x\"@64|\"y z\"@68",
            "orphan table [0,17) 1:1-3:6 \"a\"@2 / \"1\"@14",
            "orphan fence \"error\" \"\" body [88,88) 16:9-16:9 span [80,92) 16:1-17:4",
        ]
    );
    // The first candidate in the file is preceded by a delimiter.
    assert!(doc(src).examples[0].preceded_by_delimiter);
    let d = doc(src);
    let Attachment::Table(t) = &d.examples[0].body.attachments[1] else {
        panic!("table expected");
    };
    assert_eq!(sp(t.rows[0].cell_spans[1]), "[68,71) 12:6-12:9");
    assert_eq!(sp(t.rows[0].cell_spans[0]), "[64,65) 12:2-12:3");
    assert_eq!(sp(t.header.cell_spans[0]), "[45,46) 10:3-10:4");
}

#[test]
fn w4_utf16_columns() {
    let src = "# 😀 Café\n\n1. Pay £2.55 for 😀.\n";
    assert_eq!(
        summary(src),
        [
            "list_item(ol [11,13) 3:1-3:3) \"Pay £2.55 for 😀.\" [11,31) 3:1-3:21 seg 0>14 pbd in [\"😀 Café\"]"
        ]
    );
    let d = doc(src);
    let sentences = split_sentences(&d.examples[0].body.text.text);
    assert_eq!((sentences.len(), sentences[0].end), (1, 17));
}

#[test]
fn w6_reads_as_commonmark() {
    // The reference gives paragraph `Intro`, a break, item `step one` and a
    // paragraph with the rest (spec 10 §12 W6). CommonMark: a setext heading,
    // one item with two lazy continuation lines, and an HTML block.
    let src = "Intro\n---\n- step one\n  more text\n    indented\n<!-- note -->\n";
    assert_eq!(
        summary(src),
        [
            "list_item(ul [10,11) 3:1-3:2) \"step one\\n  more text\\n    indented\" [10,45) 3:1-5:13 seg 0>12,9>21,21>33 pbd in [\"Intro\"]"
        ]
    );
}

#[test]
fn empty_and_blank_sources_have_no_blocks() {
    for src in ["", "\n", "  \n\t\n", "\r\n", "\u{feff}"] {
        let d = doc(src);
        assert!(
            d.examples.is_empty() && d.orphan_attachments.is_empty(),
            "{src:?}"
        );
        assert_eq!(d.path, "t.md");
    }
}

#[test]
fn scope_stack_pops_equal_and_deeper_levels() {
    assert_eq!(
        scopes("# H1\n### H3\n## H2\n\nx\n"),
        [vec!["H1".to_owned(), "H2".to_owned()]]
    );
    assert_eq!(
        scopes("# Counter\n## A\n\nx\n\n## B\n\ny\n"),
        [vec!["Counter", "A"], vec!["Counter", "B"]]
    );
    assert_eq!(scopes("x\n\n# T\n\ny\n"), [vec![], vec!["T"]]);
    assert_eq!(scopes("# **Bold** `x` #\n\ny\n"), [vec!["**Bold** `x`"]]);
}

#[test]
fn attachments_and_delimiters() {
    // A fence and a table after one candidate both attach; a heading closes
    // attachment and makes the next candidate delimited.
    assert_eq!(
        summary("a\n\n```\nx\n```\n\n| h |\n|---|\n\n# T\n\n```\ny\n```\nb\n\nc\n"),
        [
            "paragraph \"a\" [0,1) 1:1-1:2 seg 0>0 pbd cand [0,25) 1:1-8:6",
            "  fence \"\" \"x\\n\" body [7,9) 4:1-5:1 span [3,12) 3:1-5:4",
            "  table [14,25) 7:1-8:6 \"h\"@16",
            "paragraph \"b\" [42,43) 15:1-15:2 seg 0>42 pbd in [\"T\"]",
            "paragraph \"c\" [45,46) 17:1-17:2 seg 0>45 in [\"T\"]",
            "orphan fence \"\" \"y\\n\" body [36,38) 13:1-14:1 span [32,41) 12:1-14:4",
        ]
    );
    // A thematic break delimits too; prose candidates are kept.
    let d = doc("a\n\n***\n\nb\n\nc\n");
    let pbd: Vec<bool> = d.examples.iter().map(|c| c.preceded_by_delimiter).collect();
    assert_eq!(pbd, [true, true, false]);
}

#[test]
fn first_occurrence_quirk_for_list_items() {
    // `1. 1` has text `1`, found first in the marker: the segment maps to
    // the line start (spec 10 §4.1), and that slice is the same text.
    // (`1. 1.` itself is a nested empty item in CommonMark, so no text.)
    assert_eq!(
        summary("1. 1\n"),
        ["list_item(ol [0,2) 1:1-1:3) \"1\" [0,4) 1:1-1:5 seg 0>0 pbd"]
    );
    assert_eq!(summary("1. 1.\n"), Vec::<String>::new());
    // A list item's text keeps trailing whitespace, and the marker span
    // moves with the indentation.
    assert_eq!(
        summary("  * item  \n"),
        ["list_item(ul [2,3) 1:3-1:4) \"item  \" [0,10) 1:1-1:11 seg 0>4 pbd"]
    );
}

#[test]
fn paragraph_text_is_the_raw_source_slice() {
    assert_eq!(
        summary("  I mention *Emma*  \\\nand `code` &amp; <b>x</b>  \n"),
        [
            "paragraph \"  I mention *Emma*  \\\\\\nand `code` &amp; <b>x</b>  \" [0,49) 1:1-2:28 seg 0>0 pbd"
        ]
    );
}

#[test]
fn fences_closed_unclosed_and_empty() {
    // Spec 10 §3.3's unclosed example: the span is the opening line only.
    assert_eq!(
        summary("x\n\n```\nabc"),
        [
            "paragraph \"x\" [0,1) 1:1-1:2 seg 0>0 pbd cand [0,6) 1:1-3:4",
            "  fence \"\" \"abc\" body [7,11) 4:1-4:5 span [3,6) 3:1-3:4",
        ]
    );
    // With a final LF the empty last line is a body line, so bodySpan ends
    // one past the source.
    let d = doc("```\nabc\n");
    let Attachment::Fence(f) = &d.orphan_attachments[0] else {
        panic!("fence expected");
    };
    assert_eq!(
        (f.body.as_str(), sp(f.body_span)),
        ("abc\n", "[4,9) 2:1-3:2".to_owned())
    );
    // Opening line only, no final LF: no body lines.
    let d = doc("```js");
    let Attachment::Fence(f) = &d.orphan_attachments[0] else {
        panic!("fence expected");
    };
    assert_eq!(
        (
            f.info.as_str(),
            f.body.as_str(),
            sp(f.body_span),
            sp(f.span)
        ),
        (
            "js",
            "",
            "[5,5) 1:6-1:6".to_owned(),
            "[0,5) 1:1-1:6".to_owned()
        )
    );
    // Blank and whitespace-only body lines are kept verbatim.
    let d = doc("```\n\n  \n```\n");
    let Attachment::Fence(f) = &d.orphan_attachments[0] else {
        panic!("fence expected");
    };
    assert_eq!(
        (f.body.as_str(), sp(f.body_span)),
        ("\n  \n", "[4,8) 2:1-4:1".to_owned())
    );
    // A longer closing run closes; a shorter one is body.
    assert_eq!(
        summary("````\n```\n`````\n"),
        ["orphan fence \"\" \"```\\n\" body [5,9) 2:1-3:1 span [0,14) 1:1-3:6"]
    );
}

#[test]
fn crlf_offsets() {
    // Lines keep their CR: spans run up to it, text keeps it, headings,
    // cells and sentences are trimmed.
    let src = "# T\r\n\r\n- a\r\n- b\r\n\r\n> q\r\n> r\r\n\r\n| h |\r\n|---|\r\n| 1 |\r\n\r\n```\r\nx\r\n```\r\n";
    assert_eq!(
        summary(src),
        [
            "list_item(ul [7,8) 3:1-3:2) \"a\\r\" [7,11) 3:1-3:5 seg 0>9 pbd in [\"T\"]",
            "list_item(ul [12,13) 4:1-4:2) \"b\\r\" [12,16) 4:1-4:5 seg 0>14 in [\"T\"]",
            "blockquote \"q\\r\\nr\\r\" [19,28) 6:1-7:5 seg 0>21,3>26 in [\"T\"] cand [19,66) 6:1-15:5",
            "  table [31,51) 9:1-11:7 \"h\"@33 / \"1\"@47",
            "  fence \"\" \"x\\r\\n\" body [59,62) 14:1-15:1 span [54,66) 13:1-15:5",
        ]
    );
    let d = doc(src);
    let sentences = split_sentences(&d.examples[2].body.text.text);
    let texts: Vec<&str> = sentences.iter().map(|s| s.text.as_str()).collect();
    assert_eq!(texts, ["q", "r"]);
}

#[test]
fn bom_offsets() {
    // The BOM is invisible to structure but counts as one unit.
    assert_eq!(
        summary("\u{feff}# Title\n\nI pay.\n"),
        ["paragraph \"I pay.\" [10,16) 3:1-3:7 seg 0>10 pbd in [\"Title\"]"]
    );
    assert_eq!(
        summary("\u{feff}- x\n"),
        ["list_item(ul [1,2) 1:2-1:3) \"x\" [1,4) 1:2-1:5 seg 0>3 pbd"]
    );
    assert_eq!(
        summary("\u{feff}para\n"),
        ["paragraph \"para\" [1,5) 1:2-1:6 seg 0>1 pbd"]
    );
    // Only a leading BOM is special.
    assert_eq!(
        summary("a\n\n\u{feff}# b\n"),
        [
            "paragraph \"a\" [0,1) 1:1-1:2 seg 0>0 pbd",
            "paragraph \"\\u{feff}# b\" [3,7) 3:1-3:5 seg 0>3",
        ]
    );
}

#[test]
fn tab_offsets() {
    // Tabs are one unit; `-⇥item` is an item, `>⇥q` drops the tab, a tab
    // inside a cell is trimmed.
    assert_eq!(
        summary("-\titem\n\n>\tq\n\n|\ta\t|\n|---|\n"),
        [
            "list_item(ul [0,1) 1:1-1:2) \"item\" [0,6) 1:1-1:7 seg 0>2 pbd",
            "blockquote \"q\" [8,11) 3:1-3:4 seg 0>10 cand [8,24) 3:1-6:6",
            "  table [13,24) 5:1-6:6 \"a\"@15",
        ]
    );
}

#[test]
fn emoji_and_combining_mark_offsets() {
    // 😀 is two units, e + U+0301 is two units (one per code point).
    let src = "# e\u{301}😀\n\n- 😀 ok\n\n| e\u{301} | 😀 |\n|---|---|\n| 😀x | a\u{301}b |\n";
    assert_eq!(
        summary(src),
        [
            "list_item(ul [8,9) 3:1-3:2) \"😀 ok\" [8,15) 3:1-3:8 seg 0>10 pbd in [\"e\\u{301}😀\"] cand [8,52) 3:1-7:14",
            "  table [17,52) 5:1-7:14 \"e\\u{301}\"@19|\"😀\"@24 / \"😀x\"@41|\"a\\u{301}b\"@47",
        ]
    );
    let d = doc(src);
    let Attachment::Table(t) = &d.examples[0].body.attachments[0] else {
        panic!("table expected");
    };
    assert_eq!(sp(t.rows[0].cell_spans[1]), "[47,50) 7:9-7:12");
    assert_eq!(sp(t.header.cell_spans[1]), "[24,26) 5:8-5:10");
}
