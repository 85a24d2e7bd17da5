//! Spec 70 §70.1.4, every row of the table of inputs and outcomes (referring
//! oath `varar/sub/main.md`). The heading slugs listed under the table are
//! tested in `slug.rs`.

use super::*;
use crate::parse::parse;
use crate::source::Source;

const MAIN: &str = "varar/sub/main.md";

/// `(text, path, slug)` of the reference recognised in `block`, if any.
fn outcome(block: &str) -> Option<(String, String, String)> {
    recognise(block, MAIN).map(|r| (r.text, r.path, r.slug))
}

fn reference(text: &str, path: &str, slug: &str) -> Option<(String, String, String)> {
    Some((text.to_owned(), path.to_owned(), slug.to_owned()))
}

/// The block text of the first candidate of `markdown`, as parsed.
fn first_block(markdown: &str) -> String {
    let source = Source::new(markdown);
    let doc = parse(MAIN, &source);
    match doc.examples.first() {
        Some(c) => c.body.text.text.clone(),
        None => panic!("no candidate in {markdown:?}"),
    }
}

#[test]
fn row_1_plain_padded_and_spaced_targets() {
    for block in [
        "[Fill](shared.md#fill)",
        "  [Fill](shared.md#fill)  ",
        "[Fill]( shared.md#fill )",
    ] {
        assert_eq!(
            outcome(block),
            reference("Fill", "varar/sub/shared.md", "fill"),
            "{block:?}"
        );
    }
}

#[test]
fn row_2_list_item_and_blockquote_texts() {
    for markdown in ["- [Fill](shared.md#fill)\n", "> [Fill](shared.md#fill)\n"] {
        let text = first_block(markdown);
        assert_eq!(text, "[Fill](shared.md#fill)", "{markdown:?}");
        assert_eq!(
            outcome(&text),
            reference("Fill", "varar/sub/shared.md", "fill"),
            "{markdown:?}"
        );
    }
}

#[test]
fn row_3_multi_line_and_empty_link_text() {
    let text = first_block("[Fill\nthe basket](shared.md#fill)\n");
    assert_eq!(
        outcome(&text),
        reference("Fill\nthe basket", "varar/sub/shared.md", "fill")
    );
    assert_eq!(
        outcome("[](shared.md#fill)"),
        reference("", "varar/sub/shared.md", "fill")
    );
}

#[test]
fn row_4_same_file_fragment_and_whole_file() {
    assert_eq!(outcome("[Fill](#fill)"), reference("Fill", MAIN, "fill"));
    let whole = recognise("[Fill](#)", MAIN);
    assert_eq!(
        whole.as_ref().map(Reference::key).as_deref(),
        Some("varar/sub/main.md#")
    );
    assert!(whole.is_some_and(|r| r.is_whole_file()));
}

#[test]
fn row_5_whole_file_of_another_oath() {
    for block in ["[Fill](shared.md)", "[Fill](shared.md#)"] {
        let r = recognise(block, MAIN);
        assert_eq!(
            r.as_ref().map(Reference::key).as_deref(),
            Some("varar/sub/shared.md#"),
            "{block:?}"
        );
        assert_eq!(
            r.map(|r| r.location()).as_deref(),
            Some("varar/sub/shared.md")
        );
    }
}

#[test]
fn row_6_and_7_path_arithmetic() {
    let cases = [
        ("./shared.md#fill", "varar/sub/shared.md"),
        ("../shared.md#fill", "varar/shared.md"),
        ("a/./b/../shared.md#fill", "varar/sub/a/shared.md"),
        ("../../../up/shared.md#fill", "../up/shared.md"),
    ];
    for (target, path) in cases {
        let block = format!("[Fill]({target})");
        assert_eq!(outcome(&block), reference("Fill", path, "fill"), "{target}");
    }
}

#[test]
fn row_8_fragments_are_normalised() {
    let cases = [
        ("#Fill-The-Basket", "fill-the-basket"),
        ("#fees,-vat--rounding", "fees-vat--rounding"),
        // Percent-decoded first (issue 21; the reference gives `fill20it`).
        ("#fill%20it", "fill-it"),
        ("#x#y", "xy"),
        ("#café-ß", "café-ß"),
        ("#fill-the-basket!", "fill-the-basket"),
    ];
    for (fragment, slug) in cases {
        let block = format!("[Fill](shared.md{fragment})");
        assert_eq!(
            outcome(&block),
            reference("Fill", "varar/sub/shared.md", slug),
            "{fragment}"
        );
    }
}

#[test]
fn row_9_angle_brackets_delimit_the_destination() {
    // Issue 21: CommonMark's angle-bracket destination (the reference keeps
    // the brackets in the path: `varar/sub/<shared.md`).
    let r = recognise("[Fill](<shared.md#fill>)", MAIN);
    assert_eq!(
        r.map(|r| (r.path, r.slug)),
        Some(("varar/sub/shared.md".to_owned(), "fill".to_owned()))
    );
}

#[test]
fn issue21_link_destinations_are_percent_decoded_and_may_be_angle_bracketed() {
    let cases = [
        (
            "[Sp](with%20space.md#spaced)",
            "varar/sub/with space.md",
            "spaced",
        ),
        (
            "[Sp](<with space.md#spaced>)",
            "varar/sub/with space.md",
            "spaced",
        ),
        ("[Sp]( <with space.md> )", "varar/sub/with space.md", ""),
        (
            "[C](menu.md#caf%C3%A9-au-lait)",
            "varar/sub/menu.md",
            "café-au-lait",
        ),
        ("[C](#caf%C3%A9-au-lait)", MAIN, "café-au-lait"),
        ("[P](<a (1).md#x>)", "varar/sub/a (1).md", "x"),
        // `%23` is no fragment separator; a sequence that is no UTF-8 stays.
        ("[H](a%23b.md)", "varar/sub/a#b.md", ""),
        ("[B](bad%FF.md#x)", "varar/sub/bad%FF.md", "x"),
        ("[U](%2E%2E/up.md)", "varar/up.md", ""),
    ];
    for (block, path, slug) in cases {
        let r = recognise(block, MAIN);
        assert_eq!(
            r.map(|r| (r.path, r.slug)),
            Some((path.to_owned(), slug.to_owned())),
            "{block}"
        );
    }
    for prose in [
        "[Sp](<with space.md#spaced>",
        "[Sp](<a<b.md>)",
        "[Sp](<with space.md> \"title\")",
        "[Sp](<>)",
        "[Sp](<https://x/a.md>)",
        "[Sp](%2Fvarar%2Fa.md)",
    ] {
        assert!(recognise(prose, MAIN).is_none(), "{prose}");
    }
}

#[test]
fn row_10_odd_but_valid_references() {
    let cases = [
        ("[a)](x.md)", "a)", "varar/sub/x.md", ""),
        ("[Fill](.md)", "Fill", "varar/sub/.md", ""),
        (
            "[Fill](my%20file.md#fill)",
            "Fill",
            // Decoded (issue 21; the reference keeps `my%20file.md`).
            "varar/sub/my file.md",
            "fill",
        ),
    ];
    for (block, text, path, slug) in cases {
        assert_eq!(outcome(block), reference(text, path, slug), "{block:?}");
    }
}

#[test]
fn rows_11_and_12_anything_around_or_inside_the_link_is_prose() {
    for block in [
        "See [Fill](shared.md#fill).",
        "[Fill](shared.md#fill).",
        "**[Fill](shared.md#fill)**",
        "![Fill](shared.md#fill)",
        "[A](a.md) [B](b.md)",
        "[Fill](shared.md \"title\")",
        "[Fill](my file.md#fill)",
        "[Fill](#Fill the basket)",
        "[a](x(1).md)",
        "[Fill [x]](shared.md#fill)",
        "[a\\]b](x.md)",
        "[Fill][ref]",
        "<shared.md#fill>",
    ] {
        assert_eq!(outcome(block), None, "{block:?} is prose");
    }
}

#[test]
fn row_13_targets_that_are_not_oath_shaped_are_prose() {
    for target in [
        "https://example.com/varar/shared.md#fill",
        "mailto:shared.md",
        "C:/x/shared.md",
        "/varar/shared.md#fill",
        "shared.MD#fill",
        "shared.txt#fill",
        "shared.md?x=1#fill",
        "shared",
        "dir/",
    ] {
        let block = format!("[Fill]({target})");
        assert_eq!(outcome(&block), None, "{target} is prose");
    }
}

#[test]
fn keys_and_locations() {
    let r = recognise("[Fill](../shared.md#Fill)", MAIN);
    assert_eq!(
        r.as_ref()
            .map(|r| (r.key(), r.location(), r.target.clone())),
        Some((
            "varar/shared.md#fill".to_owned(),
            "varar/shared.md#fill".to_owned(),
            "../shared.md#Fill".to_owned()
        ))
    );
}
