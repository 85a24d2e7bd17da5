//! The workspace (spec 70 §70.2) and the headings the document model keeps
//! for it.

use super::*;

fn keys(ws: &Workspace<'_>) -> Vec<String> {
    ws.referenced_keys().collect()
}

#[test]
fn the_document_model_keeps_its_headings_with_their_lines() {
    let text =
        "Intro\n\n# Shop\n\n## Fees, VAT & rounding ##\n\nText.\n\nSetext\n---\n\n> # Quoted\n";
    let doc = Document::parse("varar/shop.md", text);
    let headings: Vec<(u8, &str, u32, u32)> = doc
        .doc()
        .headings
        .iter()
        .map(|h| {
            (
                h.level,
                h.text.as_str(),
                h.span.start_line,
                h.span.start_col,
            )
        })
        .collect();
    assert_eq!(
        headings,
        [
            (1, "Shop", 3, 1),
            (2, "Fees, VAT & rounding", 5, 1),
            (2, "Setext", 9, 1),
            (1, "Quoted", 12, 3),
        ]
    );
    let fees = &doc.doc().headings[1];
    assert_eq!((fees.span.start_offset, fees.span.end_offset), (15, 41));
    // `doc.json` does not list them.
    let json = serde_json::to_value(doc.doc()).unwrap_or_default();
    assert!(json.get("headings").is_none());
    assert_eq!(
        json.as_object()
            .map(|o| o.keys().cloned().collect::<Vec<_>>()),
        Some(vec![
            "examples".into(),
            "orphanAttachments".into(),
            "path".into()
        ])
    );
}

#[test]
fn referenced_keys_come_from_every_reference_block_of_every_document() {
    let shared = "# Shared\n\n## Fill\n\n[Inner](#deeper)\n\n## Deeper\n\nI add 1.\n";
    let checkout = "# Pay\n\n[Fill](shared.md#Fill)\n\n[Gone](gone.md#x)\n\n[All](other.md)\n\n\
        See [not a block](shared.md#prose).\n";
    let ws = Workspace::build([
        ("varar/shared.md", shared),
        ("varar/checkout.md", checkout),
        ("varar/other.md", "I add 2.\n"),
    ]);
    // A block inside a consumed section and a link to nowhere count too.
    assert_eq!(
        keys(&ws),
        [
            "varar/gone.md#x",
            "varar/other.md#",
            "varar/shared.md#deeper",
            "varar/shared.md#fill",
        ]
    );
    assert!(ws.is_referenced("varar/other.md#"));
    assert!(!ws.is_referenced("varar/shared.md#prose"));
    assert!(!ws.is_referenced("varar/checkout.md#"));
}

#[test]
fn consumed_candidates_are_those_under_a_referenced_heading_or_in_a_referenced_file() {
    let shared = "I add 0.\n\n# Shared\n\nI add 1.\n\n## Fill\n\nI add 2.\n\n### Deeper\n\nI add 3.\n\n\
        ## After\n\nI add 4.\n";
    let ws = Workspace::build([
        ("varar/shared.md", shared),
        ("varar/checkout.md", "[Fill](shared.md#fill)\n"),
        ("varar/all.md", "I add 5.\n"),
        ("varar/linker.md", "[All](all.md)\n"),
    ]);
    let consumed = |path: &str| ws.document(path).map(|d| ws.consumed(d));
    // The heading's own paragraphs and its sub-headings', not what follows
    // the next heading of the same level.
    assert_eq!(
        consumed("varar/shared.md"),
        Some(vec![false, false, true, true, false])
    );
    assert_eq!(consumed("varar/all.md"), Some(vec![true]));
    assert_eq!(consumed("varar/checkout.md"), Some(vec![false]));
}

#[test]
fn both_sections_of_a_duplicated_heading_are_consumed() {
    let shared = "## Twice\n\nI add 1.\n\n## Twice\n\nI add 2.\n\n## Once\n\nI add 3.\n";
    let ws = Workspace::build([
        ("varar/shared.md", shared),
        ("varar/checkout.md", "[Twice](shared.md#twice)\n"),
    ]);
    let shared = ws.document("varar/shared.md");
    assert_eq!(
        shared.map(|d| ws.consumed(d)),
        Some(vec![true, true, false])
    );
    let lines: Vec<u32> = shared
        .map(|d| d.headings_named("twice"))
        .unwrap_or_default()
        .iter()
        .map(|h| h.span.start_line)
        .collect();
    assert_eq!(lines, [1, 5]);
}

#[test]
fn sections_follow_the_outline() {
    let text = "I add 0.\n\n# Top\n\nI add 1.\n\n## `Fill` **the** basket\n\nI add 2.\n\n\
        ### Sub\n\nI add 3.\n\n## Next\n\nI add 4.\n";
    let doc = Document::parse("varar/x.md", text);
    assert_eq!(doc.section("fill-the-basket"), [2, 3]);
    assert_eq!(doc.section("top"), [1, 2, 3, 4]);
    assert_eq!(doc.section(""), [0, 1, 2, 3, 4]);
    assert!(doc.section("nothing").is_empty());
}

#[test]
fn reference_blocks_are_recognised_per_candidate() {
    let text = "# T\n\nI add 1.\n\n[Fill](#fill)\n\n- [B](../b.md)\n\nSee [x](y.md).\n";
    let doc = Document::parse("varar/sub/a.md", text);
    let found: Vec<(usize, String)> = doc.references().map(|(i, r)| (i, r.key())).collect();
    assert_eq!(
        found,
        [
            (1, "varar/sub/a.md#fill".to_owned()),
            (2, "varar/b.md#".to_owned())
        ]
    );
    assert!(doc.reference(0).is_none());
    assert!(doc.reference(3).is_none());
}

#[test]
fn a_path_given_twice_keeps_its_last_text() {
    let ws = Workspace::build([
        ("varar/a.md", "[Old](old.md)\n"),
        ("varar/a.md", "I add 1.\n"),
    ]);
    assert_eq!(ws.len(), 1);
    assert!(keys(&ws).is_empty());
    let text = ws.document("varar/a.md").map(|d| d.source().text());
    assert_eq!(text, Some("I add 1.\n"));
}

#[test]
fn the_empty_workspace_holds_nothing() {
    let ws = Workspace::empty();
    assert!(ws.is_empty());
    assert!(ws.document("a.md").is_none());
    assert!(!ws.contains("a.md"));
    assert_eq!(ws.paths().count(), 0);
    let doc = Document::parse("a.md", "[All](#)\n");
    assert_eq!(ws.consumed(&doc), [false]);
}

#[test]
fn reaching_follows_links_backwards_through_other_documents() {
    let ws = Workspace::build([
        ("varar/a.md", "[B](b.md#x)\n"),
        ("varar/b.md", "## X\n\n[C](c.md)\n"),
        ("varar/c.md", "I add 1.\n"),
        ("varar/d.md", "[Self](#y)\n\n## Y\n\nI add 2.\n"),
        ("varar/e.md", "No link here.\n"),
    ]);
    let reaching = |p: &str| ws.reaching(p).into_iter().collect::<Vec<_>>();
    assert_eq!(reaching("varar/c.md"), ["varar/a.md", "varar/b.md"]);
    assert_eq!(reaching("varar/b.md"), ["varar/a.md"]);
    assert!(reaching("varar/a.md").is_empty());
    // A document linking into itself reaches itself.
    assert_eq!(reaching("varar/d.md"), ["varar/d.md"]);
    assert!(reaching("varar/e.md").is_empty());
}

#[test]
fn only_a_closing_bracket_followed_by_a_parenthesis_may_link() {
    assert!(may_link("see [the oven](oven.md#heat)"));
    assert!(may_link("](at the start"));
    assert!(may_link("a ] b ] c [x](y)"));
    assert!(!may_link("no link here"));
    assert!(!may_link("a [bracket] (then a space)"));
    assert!(!may_link("ends with ]"));
    assert!(!may_link("( ] ["));
    assert!(!may_link(""));
}

#[test]
fn a_document_parsed_from_another_text_is_not_taken() {
    let text = "# A\n\n[Fill](b.md)\n";
    let other = text.to_string();
    let ws = Workspace::build_parsed(
        [("varar/a.md", text), ("varar/b.md", "# B\n")],
        [
            Document::parse("varar/a.md", &other),
            Document::parse("varar/c.md", "# C\n"),
        ],
    );
    // a.md's text is not the one the document was parsed from: build
    // parsed it again (it links), and c.md is not one of the documents.
    assert_eq!(ws.parsed_count(), 1);
    assert!(!ws.contains("varar/c.md"));
    let taken = Workspace::build_parsed(
        [("varar/a.md", text)],
        [Document::parse("varar/a.md", text)],
    );
    assert_eq!(taken.parsed_count(), 0);
    assert_eq!(
        taken.document("varar/a.md").map(|d| d.doc().examples.len()),
        Some(1)
    );
}
