//! Which blocks, rows and notes results land on.

use std::collections::BTreeMap;

use varar_core::lock::{LockEntry, LockExample};
use varar_core::parse::parse;
use varar_core::source::Source;

use varar_core::hash::source_hash;

use super::*;
use crate::html_report::tests::support::{
    CHECKOUT, SHARED, checkout_results, draw, failed, marks_by_note, passed, range_of, results_of,
};

const MERGED: &str = "# Basket\n\nI add 1.\n\n| item |\n|---|\n| bun |\n\nThe count is 1.\n\n## Other\n\nI add 2. The count is 3.\n\nJust prose.\n";

#[test]
fn a_result_covers_every_candidate_holding_one_of_its_lines() {
    let (from, to) = range_of(MERGED, "3", 0);
    let results = results_of(
        "a.md",
        MERGED,
        vec![
            passed("I add 1", vec![3, 9]),
            failed("I add 2", vec![13], &[(from, to, "2")], Some((from, to))),
        ],
    );
    let (overlay, rendered) = draw(MERGED, &results, &[]);
    let states: BTreeMap<u32, State> = overlay.blocks.iter().map(|(l, b)| (*l, b.state)).collect();
    assert_eq!(
        states,
        BTreeMap::from([(3, State::Passed), (9, State::Passed), (13, State::Failed)])
    );
    assert_eq!(overlay.attachments.get(&5), Some(&State::Passed));
    assert_eq!(overlay.examples[1].block, Some(13));
    let html = &rendered.html;
    assert!(
        html.contains("<p id=\"L3\" class=\"varar-example varar-passed\""),
        "{html}"
    );
    assert!(
        html.contains("<p id=\"L9\" class=\"varar-example varar-passed\""),
        "{html}"
    );
    assert!(
        html.contains("<p id=\"L13\" class=\"varar-example varar-failed\""),
        "{html}"
    );
    assert!(
        html.contains("<p id=\"L15\">Just prose.</p>"),
        "prose stays plain: {html}"
    );
    assert!(
        html.contains("varar-table varar-attached varar-passed"),
        "{html}"
    );
}

#[test]
fn the_fresh_baseline_tells_which_examples_did_not_run() {
    let text = "I add 1.\n\nI add 2.\n\nProse.\n";
    let results = results_of("a.md", text, vec![passed("I add 1", vec![1])]);
    let source = Source::new(text);
    let doc = parse("a.md", &source);
    let lock = LockEntry {
        source_hash: results.source_hash.clone(),
        examples: vec![
            LockExample {
                name: "I add 1".into(),
                line: 1,
            },
            LockExample {
                name: "I add 2".into(),
                line: 3,
            },
        ],
    };
    let overlay = build(&source, &doc, Some(&results), &[], Some(&lock));
    let states: Vec<(u32, State)> = overlay.blocks.iter().map(|(l, b)| (*l, b.state)).collect();
    assert_eq!(states, [(1, State::Passed), (3, State::NotRun)]);
    assert_eq!(overlay.blocks[&3].label, "not run");
}

#[test]
fn a_list_item_inside_a_quote_marks_the_item_not_the_quote() {
    let text = "> - I add 1.\n> - prose\n";
    let results = results_of("a.md", text, vec![passed("I add 1", vec![1])]);
    let (_, rendered) = draw(text, &results, &[]);
    let html = &rendered.html;
    assert!(html.contains("<blockquote id=\"L1\">"), "{html}");
    assert!(
        html.contains("<li class=\"varar-example varar-passed\""),
        "{html}"
    );
}

#[test]
fn a_doc_path_failure_is_drawn_on_its_own_document_only() {
    let results = checkout_results(source_hash(SHARED));
    let (checkout, shared) = (CHECKOUT, SHARED);
    // On the running oath: the example is failed, nothing is drawn, the
    // note names the other document.
    let (overlay, rendered) = draw(checkout, &results, &[]);
    assert!(overlay.regions.is_empty(), "{:?}", overlay.regions);
    assert!(marks_by_note(&rendered.html).is_empty());
    assert_eq!(
        overlay.notes[0].elsewhere.as_deref(),
        Some("varar/shared.md")
    );
    assert_eq!(overlay.blocks[&3].notes, [0]);
    assert!(
        rendered.placed[0],
        "the note is written at the block: {}",
        rendered.html
    );
    assert!(
        rendered.html.contains("(in varar/shared.md line 5)"),
        "{}",
        rendered.html
    );
    // On the shared document's page: drawn at its own offsets.
    let failure = results.examples[0]
        .failure
        .clone()
        .unwrap_or_else(|| panic!("failure"));
    let foreign = [Foreign {
        oath_path: "varar/checkout.md",
        example: "I add 1",
        failure: &failure,
    }];
    let shared_results = results_of("varar/shared.md", shared, vec![]);
    let (overlay, rendered) = draw(shared, &shared_results, &foreign);
    assert_eq!(
        marks_by_note(&rendered.html).get(&1).map(String::as_str),
        Some("2")
    );
    assert_eq!(
        overlay.notes[0].origin.as_deref(),
        Some("varar/checkout.md")
    );
    assert!(
        rendered
            .html
            .contains("(example “I add 1” of varar/checkout.md)"),
        "{}",
        rendered.html
    );
}

#[test]
fn results_whose_lines_hit_no_block_are_listed_without_a_block() {
    let text = "Prose only.\n";
    let results = results_of(
        "a.md",
        text,
        vec![passed("gone", vec![40]), passed("spliced", vec![])],
    );
    let (overlay, _) = draw(text, &results, &[]);
    assert!(overlay.blocks.is_empty());
    assert_eq!(
        overlay.examples.iter().map(|e| e.block).collect::<Vec<_>>(),
        [None, None]
    );
}

/// The block states of `text` with these results, under a fresh lock that
/// records every candidate at `live` lines.
fn states_with_lock(text: &str, examples: Vec<ExampleResult>, live: &[u32]) -> Vec<(u32, State)> {
    let results = results_of("varar/a.md", text, examples);
    let source = Source::new(text);
    let doc = parse("varar/a.md", &source);
    let lock = LockEntry {
        source_hash: results.source_hash.clone(),
        examples: live
            .iter()
            .map(|&line| LockExample {
                name: format!("line {line}"),
                line: i64::from(line),
            })
            .collect(),
    };
    let overlay = build(&source, &doc, Some(&results), &[], Some(&lock));
    overlay.blocks.iter().map(|(l, b)| (*l, b.state)).collect()
}

#[test]
fn issue21_a_link_paragraph_belongs_to_the_example_it_opens_or_continues() {
    // Opened by the link, continued by an own paragraph (the bakery's
    // `serving-a-customer.md`): the link is part of that example.
    let opened = "# A\n\nProse first.\n\n[Stock](shop.md#stock)\n\nI sell 2.\n";
    assert_eq!(
        states_with_lock(opened, vec![passed("I sell 2", vec![7])], &[5, 7]),
        [(5, State::Passed), (7, State::Passed)]
    );
    assert_eq!(
        states_with_lock(
            opened,
            vec![failed("I sell 2", vec![7], &[], None)],
            &[5, 7]
        ),
        [(5, State::Failed), (7, State::Failed)]
    );
    // Continuing an own paragraph, two links in a row.
    let continued = "# A\n\nI add 1.\n\n[One](#b)\n\n[Two](#c)\n\n## Other\n\nI add 3.\n";
    assert_eq!(
        states_with_lock(
            continued,
            vec![
                passed("I add 1", vec![3]),
                failed("I add 3", vec![11], &[], None)
            ],
            &[3, 5, 7, 11]
        ),
        [
            (3, State::Passed),
            (5, State::Passed),
            (7, State::Passed),
            (11, State::Failed)
        ]
    );
    // Made only of spliced steps (`lines: []`), between own examples.
    let alone = "# A\n\nI add 1.\n\n## B\n\n[Only](shop.md)\n\n## C\n\nI add 3.\n";
    let results = vec![
        passed("I add 1", vec![3]),
        failed("I stock", vec![], &[], None),
        passed("I add 3", vec![11]),
    ];
    assert_eq!(
        states_with_lock(alone, results, &[3, 7, 11]),
        [(3, State::Passed), (7, State::Failed), (11, State::Passed)]
    );
    // The example of a link that did not run is still not run.
    assert_eq!(
        states_with_lock(opened, vec![], &[5, 7]),
        [(5, State::NotRun), (7, State::NotRun)]
    );
}
