//! One test per row of spec 10 §10 (and the project's own decisions that go
//! with them): where the reference's line scanner and CommonMark/GFM differ,
//! this project reads the document as CommonMark does. `docs/markdown.md`
//! lists the same rows for users.

use super::tests::{doc, summary};

#[test]
fn setext_headings_are_headings() {
    // Reference: paragraph `Intro` + thematic break.
    assert_eq!(
        summary("Intro\n---\n\nx\n\nTitle\n  two\n===\n\ny\n"),
        [
            "paragraph \"x\" [11,12) 4:1-4:2 seg 0>11 pbd in [\"Intro\"]",
            "paragraph \"y\" [31,32) 10:1-10:2 seg 0>31 pbd in [\"Title\\ntwo\"]",
        ]
    );
}

#[test]
fn indented_code_is_a_code_block_and_gives_nothing() {
    // Reference: paragraph `    code`.
    assert_eq!(summary("    code\n"), Vec::<String>::new());
    assert_eq!(
        summary("I echo:\n\n    hi\n"),
        ["paragraph \"I echo:\" [0,7) 1:1-1:8 seg 0>0 pbd"]
    );
}

#[test]
fn tilde_indented_and_multi_word_info_fences_are_fences() {
    // Reference: all three are paragraph text.
    assert_eq!(
        summary("x\n\n```js title\ncode\n```\n~~~\nt\n~~~\n  ```\n  in\n  ```\n"),
        [
            "paragraph \"x\" [0,1) 1:1-1:2 seg 0>0 pbd cand [0,50) 1:1-11:6",
            "  fence \"js title\" \"code\\n\" body [15,20) 4:1-5:1 span [3,23) 3:1-5:4",
            "  fence \"\" \"t\\n\" body [28,30) 7:1-8:1 span [24,33) 6:1-8:4",
            "  fence \"\" \"in\\n\" body [40,45) 10:1-11:1 span [34,50) 9:1-11:6",
        ]
    );
}

#[test]
fn closing_fence_with_a_word_does_not_close() {
    // Reference: ```` ```python ```` closes the fence.
    assert_eq!(
        summary("x\n\n```\na\n```python\nb\n```\n"),
        [
            "paragraph \"x\" [0,1) 1:1-1:2 seg 0>0 pbd cand [0,24) 1:1-7:4",
            "  fence \"\" \"a\\n```python\\nb\\n\" body [7,21) 4:1-7:1 span [3,24) 3:1-7:4",
        ]
    );
}

#[test]
fn list_item_continuation_lazy_and_multi_paragraph_lines_are_part_of_the_item() {
    // Reference: item `a`, paragraphs `  b` and `  c`, item `d`, paragraph `e`.
    assert_eq!(
        summary("- a\n  b\n\n  c\n- d\ne\n"),
        [
            "list_item(ul [0,1) 1:1-1:2) \"a\\n  b\\n\\n  c\" [0,12) 1:1-4:4 seg 0>2,2>4,6>8,7>9 pbd",
            "list_item(ul [13,14) 5:1-5:2) \"d\\ne\" [13,18) 5:1-6:2 seg 0>15,2>17",
        ]
    );
}

#[test]
fn nested_lists_are_a_tree_of_items() {
    // Each item is its own candidate; the outer item's text stops where the
    // nested list starts, and its later paragraph is a paragraph.
    assert_eq!(
        summary("- a\n  - b\n    1. c\n\n  after\n"),
        [
            "list_item(ul [0,1) 1:1-1:2) \"a\" [0,3) 1:1-1:4 seg 0>2 pbd",
            "list_item(ul [6,7) 2:3-2:4) \"b\" [4,9) 2:1-2:6 seg 0>8",
            "list_item(ol [14,16) 3:5-3:7) \"c\" [10,18) 3:1-3:9 seg 0>17",
            "paragraph \"  after\" [20,27) 5:1-5:8 seg 0>20",
        ]
    );
}

#[test]
fn only_an_ordered_item_starting_at_one_interrupts_a_paragraph() {
    assert_eq!(
        summary("para\n2. x\n\npara\n1. x\n"),
        [
            "paragraph \"para\\n2. x\" [0,9) 1:1-2:5 seg 0>0 pbd",
            "paragraph \"para\" [11,15) 4:1-4:5 seg 0>11",
            "list_item(ol [16,18) 5:1-5:3) \"x\" [16,20) 5:1-5:5 seg 0>19",
        ]
    );
    // An empty item cannot interrupt a paragraph either.
    assert_eq!(
        summary("a\n* \nb\n"),
        ["paragraph \"a\\n* \\nb\" [0,6) 1:1-3:2 seg 0>0 pbd"]
    );
}

#[test]
fn empty_list_items_are_not_candidates() {
    // Reference: a list_item with text "" (which takes the delimiter).
    assert_eq!(
        summary("- \n\nx\n"),
        ["paragraph \"x\" [4,5) 3:1-3:2 seg 0>4 pbd"]
    );
}

#[test]
fn list_item_text_is_the_raw_rest_of_the_line() {
    // CommonMark's inline content would drop the trailing spaces; block text
    // stays raw (spec 10 §0), as in the reference.
    assert_eq!(
        summary("- a  *b*  \n"),
        ["list_item(ul [0,1) 1:1-1:2) \"a  *b*  \" [0,10) 1:1-1:11 seg 0>2 pbd"]
    );
}

#[test]
fn blockquote_lazy_continuation_continues_the_quote() {
    // Reference: blockquote `a`, paragraph `lazy`.
    assert_eq!(
        summary("> a\nlazy\n"),
        ["blockquote \"a\\nlazy\" [0,8) 1:1-2:5 seg 0>2,2>4 pbd"]
    );
}

#[test]
fn blockquote_content_is_nested_blocks() {
    // Reference: one blockquote whose text keeps `- b`, the fence and `> d`.
    assert_eq!(
        summary("> a\n> - b\n>\n>   ```\n>   x\n>   ```\n> > d\n"),
        [
            "blockquote \"a\" [0,3) 1:1-1:4 seg 0>2 pbd",
            "list_item(ul [6,7) 2:3-2:4) \"b\" [4,9) 2:1-2:6 seg 0>8 cand [4,33) 2:1-6:8",
            "  fence \"\" \"x\\n\" body [20,26) 5:1-6:1 span [12,33) 4:1-6:8",
            "blockquote \"d\" [34,39) 7:1-7:6 seg 0>38",
        ]
    );
}

#[test]
fn a_later_paragraph_of_a_quoted_item_drops_only_the_quote_marker() {
    assert_eq!(
        summary("> - a\n>\n>   - b\n>\n>   c\n"),
        [
            "list_item(ul [2,3) 1:3-1:4) \"a\" [0,5) 1:1-1:6 seg 0>4 pbd",
            "list_item(ul [12,13) 3:5-3:6) \"b\" [8,15) 3:1-3:8 seg 0>14",
            "paragraph \"  c\" [18,23) 5:1-5:6 seg 0>20",
        ]
    );
}

#[test]
fn paragraph_text_stays_the_raw_slice() {
    // CommonMark strips a paragraph's leading and trailing whitespace; block
    // text stays raw (spec 10 §0), as in the reference.
    assert_eq!(
        summary("   a  \n"),
        ["paragraph \"   a  \" [0,6) 1:1-1:7 seg 0>0 pbd"]
    );
}

#[test]
fn tables_without_outer_pipes_are_tables() {
    assert_eq!(
        summary("a | b\n- | -\n1 | 2\n"),
        ["orphan table [0,17) 1:1-3:6 \"a\"@0|\"b\"@4 / \"1\"@12|\"2\"@16"]
    );
}

#[test]
fn table_column_count_is_checked_and_rows_are_padded_or_cut() {
    // A delimiter row with another column count makes no table.
    assert_eq!(
        summary("| a | b |\n| - |\n"),
        ["paragraph \"| a | b |\\n| - |\" [0,15) 1:1-2:6 seg 0>0 pbd"]
    );
    // Short rows get empty cells after the row's text; long rows are cut.
    assert_eq!(
        summary("| a | b |\n| - | - |\n| 1 |\n| 1 | 2 | 3 |\n"),
        ["orphan table [0,39) 1:1-4:14 \"a\"@2|\"b\"@6 / \"1\"@22|\"\"@25 / \"1\"@28|\"2\"@32"]
    );
}

#[test]
fn escaped_pipe_is_a_literal_pipe_in_a_cell() {
    // Reference: `\|` splits (`x \` and `y`). The cell keeps the raw `\|`.
    assert_eq!(
        summary("| x \\| y | z |\n|---|---|\n"),
        ["orphan table [0,24) 1:1-2:10 \"x \\\\| y\"@2|\"z\"@11"]
    );
}

#[test]
fn table_body_line_without_pipes_is_a_row() {
    // Reference: the table ends and `plain` starts a paragraph.
    assert_eq!(
        summary("| a |\n|---|\nplain\n\npara\n"),
        [
            "paragraph \"para\" [19,23) 5:1-5:5 seg 0>19 pbd",
            "orphan table [0,17) 1:1-3:6 \"a\"@2 / \"plain\"@12",
        ]
    );
}

#[test]
fn html_blocks_and_link_reference_definitions_give_nothing() {
    // Reference: each is a prose paragraph candidate.
    assert_eq!(
        summary("<!-- note -->\n\n[ref]: http://x\n\n<div>\nI add 1.\n</div>\n\ntext\n"),
        ["paragraph \"text\" [55,59) 9:1-9:5 seg 0>55 pbd"]
    );
}

#[test]
fn thematic_breaks_allow_at_most_three_spaces_of_indentation() {
    // Four spaces make indented code, which does not delimit.
    let pbd = |src: &str| -> Vec<bool> {
        doc(src)
            .examples
            .iter()
            .map(|c| c.preceded_by_delimiter)
            .collect()
    };
    assert_eq!(pbd("a\n\n    ***\n\nb\n"), [true, false]);
    assert_eq!(pbd("a\n\n   ***\n\nb\n"), [true, true]);
}

#[test]
fn headings_allow_three_spaces_and_hash_alone_is_empty() {
    // Reference: column 1 only, and `# #` has the text `#`.
    assert_eq!(
        summary("   # T\n\nx\n\n    # U\n\ny\n\n# #\n\nz\n"),
        [
            "paragraph \"x\" [8,9) 3:1-3:2 seg 0>8 pbd in [\"T\"]",
            "paragraph \"y\" [20,21) 7:1-7:2 seg 0>20 in [\"T\"]",
            "paragraph \"z\" [28,29) 11:1-11:2 seg 0>28 pbd in [\"\"]",
        ]
    );
}

#[test]
fn a_leading_bom_does_not_hide_a_heading() {
    // Reference (and pulldown-cmark 0.13 alone): the line is a paragraph.
    assert_eq!(
        summary("\u{feff}# Title\n\nx\n"),
        ["paragraph \"x\" [10,11) 3:1-3:2 seg 0>10 pbd in [\"Title\"]"]
    );
}

#[test]
fn tabs_expand_to_tab_stops_for_structure() {
    // A leading tab is four columns: indented code, not a list item.
    assert_eq!(summary("\t- x\n"), Vec::<String>::new());
    // After a marker a tab is ordinary whitespace.
    assert_eq!(
        summary("-\tx\n"),
        ["list_item(ul [0,1) 1:1-1:2) \"x\" [0,3) 1:1-1:4 seg 0>2 pbd"]
    );
}

#[test]
fn crlf_list_items_and_blockquotes_still_work() {
    // Reference (spec 10 §9): one paragraph `- a\r\n- b\r`.
    assert_eq!(
        summary("- a\r\n- b\r\n"),
        [
            "list_item(ul [0,1) 1:1-1:2) \"a\\r\" [0,4) 1:1-1:5 seg 0>2 pbd",
            "list_item(ul [5,6) 2:1-2:2) \"b\\r\" [5,9) 2:1-2:5 seg 0>7",
        ]
    );
}

#[test]
fn headings_inside_containers_are_headings() {
    assert_eq!(
        summary("> # Q\n\nx\n"),
        ["paragraph \"x\" [7,8) 3:1-3:2 seg 0>7 pbd in [\"Q\"]"]
    );
}

#[test]
fn nested_fence_bodies_drop_markers_and_fence_indentation() {
    // The body is what a reader sees as code: container markers and the
    // fence's own indentation removed, CRs kept. An unclosed fence ends
    // with its container.
    assert_eq!(
        summary("- x\n\n  ```\n  a\r\n   b\n  ```\n\n> ```\n> c\n\nd\n"),
        [
            "list_item(ul [0,1) 1:1-1:2) \"x\" [0,3) 1:1-1:4 seg 0>2 pbd cand [0,33) 1:1-8:6",
            "  fence \"\" \"a\\r\\n b\\n\" body [11,21) 4:1-6:1 span [5,26) 3:1-6:6",
            "  fence \"\" \"c\\n\" body [34,38) 9:1-10:1 span [28,33) 8:1-8:6",
            "paragraph \"d\" [39,40) 11:1-11:2 seg 0>39",
        ]
    );
}

#[test]
fn front_matter_is_a_break_and_a_setext_heading() {
    assert_eq!(
        summary("---\ntitle: x\n---\n\ny\n"),
        ["paragraph \"y\" [18,19) 5:1-5:2 seg 0>18 pbd in [\"title: x\"]"]
    );
}

#[test]
fn a_lone_cr_ends_a_line_for_structure() {
    // Reference: only LF ends a line, so `#␍>⇥- |#` is one paragraph line.
    // Positions still count lines at LF only.
    assert_eq!(
        summary("#\r>\t- |#\n\n> a\r> b\n\n```\r\nx\ry\n```\n"),
        [
            "list_item(ul [4,5) 1:5-1:6) \"|#\" [2,8) 1:3-1:9 seg 0>6 pbd in [\"\"]",
            "blockquote \"a\\nb\" [10,17) 3:1-3:8 seg 0>12,2>16 in [\"\"] cand [10,31) 3:1-7:4",
            "  fence \"\" \"x\\ry\\n\" body [24,28) 6:1-7:1 span [19,31) 5:1-7:4",
        ]
    );
}
