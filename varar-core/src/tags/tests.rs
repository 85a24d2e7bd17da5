//! The tag reader: where a tag comment's tags go, and that they change
//! nothing the parser reads (the overlay).

use proptest::prelude::*;

use super::{TagExpression, TagIndex, comment_tags, selects};
use crate::names::ItemKind;
use crate::parse::parse;
use crate::source::Source;

fn owned(tags: &[&str]) -> Vec<String> {
    tags.iter().map(|t| (*t).to_owned()).collect()
}

#[test]
fn a_tag_comment_is_only_tags() {
    assert_eq!(
        comment_tags("<!-- @slow @db -->\n"),
        Some(owned(&["@slow", "@db"]))
    );
    assert_eq!(comment_tags("<!--@a-->"), Some(owned(&["@a"])));
    assert_eq!(
        comment_tags("<!--\n  @a\n  @b @a\n-->"),
        Some(owned(&["@a", "@b"]))
    );
    assert_eq!(
        comment_tags("<!-- @x(1) @Ä -->"),
        Some(owned(&["@x(1)", "@Ä"]))
    );
    for other in [
        "<!-- -->",
        "<!-- TODO @slow -->",
        "<!-- @slow --> text",
        "<!-- @ -->",
        "<!-- @a@b -->",
        "<div>@slow</div>",
    ] {
        assert_eq!(comment_tags(other), None, "{other}");
    }
}

#[test]
fn a_comment_above_a_heading_tags_its_section_and_subsections() {
    let text = "\
<!-- @shop -->
# Shop

I add 1.

<!-- @slow -->
## Basket

I add 2.

### Totals

I add 3.

## Till

I add 4.

# Other

I add 5.
";
    let index = TagIndex::of(text);
    assert_eq!(index.at(4), ["@shop"]);
    assert_eq!(index.at(9), ["@shop", "@slow"]);
    assert_eq!(index.at(13), ["@shop", "@slow"], "a subsection");
    assert_eq!(index.at(17), ["@shop"], "a sibling section ends it");
    assert!(index.at(21).is_empty(), "a higher heading ends it");
    assert!(index.unattached().is_empty());
}

#[test]
fn a_comment_above_a_paragraph_tags_that_example_and_its_table_rows() {
    let text = "\
# Shop

<!-- @smoke -->
I add these:

| n |
|---|
| 1 |
| 2 |

<!-- @a -->

<!-- @b @a -->
- I add 9.
- I add 10.

I add 11.
";
    let index = TagIndex::of(text);
    assert_eq!(index.at(4), ["@smoke"]);
    assert_eq!(index.at(8), ["@smoke"], "a row of its table");
    assert_eq!(index.at(9), ["@smoke"]);
    assert_eq!(
        index.at(14),
        ["@a", "@b"],
        "comments in a row add up, blank lines allowed"
    );
    assert!(index.at(15).is_empty(), "only the item below");
    assert!(index.at(17).is_empty());
    assert!(index.at(1).is_empty());
}

#[test]
fn tags_that_stand_above_nothing_taggable_are_unattached() {
    let text = "\
<!-- @fence -->
```
x
```

<!-- @break -->
---

<!-- @comment -->
<!-- not tags -->
I add 1.

> <!-- @quote -->

I add 2.

I add 3:

<!-- @attached -->
```text
x
```

<!-- @end -->
";
    let index = TagIndex::of(text);
    assert!(index.is_empty(), "{index:?}");
    assert!(index.at(17).is_empty(), "the example holding the fence");
    assert_eq!(index.unattached(), [1, 6, 9, 13, 19, 24]);
}

#[test]
fn setext_headings_quotes_bom_and_crlf_count_lines_as_positions_do() {
    let text = "\u{feff}<!-- @s -->\r\nShop\r\n====\r\n\r\n> <!-- @q -->\r\n> I add 1.\r\n";
    let index = TagIndex::of(text);
    assert_eq!(index.at(6), ["@s", "@q"]);
    let doc = parse("a.md", &Source::new(text));
    assert_eq!(doc.examples[0].span.start_line, 6);
}

#[test]
fn a_text_without_comments_is_never_parsed_and_has_no_tags() {
    let index = TagIndex::of("# Shop\n\nI add 1 @slow.\n");
    assert_eq!(index, TagIndex::default());
    assert!(index.is_empty());
}

/// A block of a generated document: a heading (level 1–3) or a paragraph,
/// maybe with a tag comment above.
#[derive(Clone, Debug)]
struct Block {
    heading: Option<u8>,
    tags: Vec<&'static str>,
}

fn blocks() -> impl Strategy<Value = Vec<Block>> {
    let block = (
        prop::option::of(1u8..=3),
        prop::collection::vec(prop::sample::select(vec!["@a", "@b", "@c"]), 0..3),
    )
        .prop_map(|(heading, tags)| Block { heading, tags });
    prop::collection::vec(block, 0..12)
}

/// The text of `blocks`, with or without its tag comments, and each
/// paragraph's first line in the text with them.
fn render(blocks: &[Block], tagged: bool) -> (String, Vec<u32>) {
    let mut text = String::new();
    let mut lines = Vec::new();
    for (i, block) in blocks.iter().enumerate() {
        if tagged && !block.tags.is_empty() {
            text.push_str(&format!("<!-- {} -->\n", block.tags.join(" ")));
        }
        match block.heading {
            Some(level) => text.push_str(&format!("{} Part {i}\n\n", "#".repeat(level.into()))),
            None => {
                lines.push(text.lines().count() as u32 + 1);
                text.push_str(&format!("I add {i}.\n\n"));
            }
        }
    }
    (text, lines)
}

/// What each paragraph's tags must be: its sections', outer first, then
/// its own.
fn expected(blocks: &[Block]) -> Vec<Vec<String>> {
    let mut open: Vec<(u8, Vec<&str>)> = Vec::new();
    let mut out = Vec::new();
    for block in blocks {
        match block.heading {
            Some(level) => {
                open.retain(|(l, _)| *l < level);
                open.push((level, block.tags.clone()));
            }
            None => {
                let mut tags: Vec<String> = Vec::new();
                for tag in open.iter().flat_map(|(_, t)| t).chain(&block.tags) {
                    if !tags.iter().any(|t| t == tag) {
                        tags.push((*tag).to_owned());
                    }
                }
                out.push(tags);
            }
        }
    }
    out
}

#[test]
fn an_expression_selects_examples_and_drift_by_their_tags_and_never_hides_a_document_s_problems() {
    let index = TagIndex::of("<!-- @slow -->\n# Shop\n\nI add 2.\n");
    let fast = TagExpression::parse("not @slow").unwrap_or_else(|e| panic!("{e}"));
    assert!(!selects(&fast, ItemKind::Example, &index, 4));
    assert!(!selects(&fast, ItemKind::Drift, &index, 4));
    assert!(selects(&fast, ItemKind::Diagnostic, &index, 4));
    assert!(selects(&fast, ItemKind::ReadError, &index, 0));
    let slow = TagExpression::parse("@slow").unwrap_or_else(|e| panic!("{e}"));
    assert!(selects(&slow, ItemKind::Example, &index, 4));
}

proptest! {
    #[test]
    fn tags_reach_their_sections_and_examples_and_change_no_parse(blocks in blocks()) {
        let (plain, _) = render(&blocks, false);
        let (tagged, lines) = render(&blocks, true);
        let index = TagIndex::of(&tagged);
        let got: Vec<Vec<String>> = lines
            .iter()
            .map(|&l| index.at(l).into_iter().map(str::to_owned).collect())
            .collect();
        prop_assert_eq!(got, expected(&blocks));
        prop_assert!(index.unattached().is_empty());
        // The overlay: the same examples, texts and scopes, and the same
        // headings, as without the comments.
        let seen = |text: &str| {
            let doc = parse("a.md", &Source::new(text));
            let examples: Vec<_> = doc
                .examples
                .iter()
                .map(|c| (c.body.text.text.clone(), c.scope_stack.to_vec()))
                .collect();
            let headings: Vec<_> = doc.headings.iter().map(|h| (h.level, h.text.clone())).collect();
            (examples, headings, doc.orphan_attachments.len())
        };
        prop_assert_eq!(seen(&tagged), seen(&plain));
    }

    #[test]
    fn any_text_reads(text in "(<!-- @a -->|\n|# h|- i|> q|I add 1\\.| |```|\\||---){0,30}") {
        let index = TagIndex::of(&text);
        let lines = text.lines().count() as u32 + 1;
        for line in 0..=lines + 1 {
            for tag in index.at(line) {
                prop_assert_eq!(tag, "@a");
            }
        }
    }
}
