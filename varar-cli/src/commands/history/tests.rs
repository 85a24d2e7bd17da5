//! The history listing, on records built as the harness writes them.

use std::collections::BTreeSet;

use varar_core::hash::sha256_hex;
use varar_core::record::Outcome;

use super::*;
use varar_core::verdict::kept::{UnjudgedRun, combine_kept};
use varar_core::verdict::run_evidence::{FileNow, SourcesNow};
use varar_core::verdict::testing::{CONFIG, item, process};

const A: &str = "# A\n\nI add 2.\n";
const X: &str = "a.md::A::I add 2";

fn now(text: &str) -> SourcesNow {
    SourcesNow {
        config: Some(FileNow::Sha256(sha256_hex(CONFIG.as_bytes()))),
        documents: [(
            "a.md".to_owned(),
            FileNow::Sha256(sha256_hex(text.as_bytes())),
        )]
        .into(),
    }
}

#[test]
fn runs_are_listed_newest_first_with_sources_completeness_and_counts() {
    let old = process(
        "old",
        "p",
        "07:00:00",
        &[("a.md", "# A, before\n")],
        vec![item(X, "a.md", 3, 1, Some(Outcome::Failed), Some("no"))],
    );
    let new = process(
        "new",
        "p",
        "08:00:00",
        &[("a.md", A)],
        vec![
            item(X, "a.md", 3, 1, Some(Outcome::Failed), Some("no")),
            item(X, "a.md", 3, 2, Some(Outcome::Passed), None),
        ],
    );
    let mut cut = process("cut", "p", "09:00:00", &[("a.md", A)], Vec::new());
    cut.complete = false;
    let runs = combine_kept(vec![old, new.clone(), new, cut]);
    let l = listing("h".to_owned(), &runs, &now(A), Vec::new());
    let rows: Vec<_> = l
        .runs
        .iter()
        .map(|r| (r.run_id.as_str(), r.complete, r.fresh))
        .collect();
    assert_eq!(
        rows,
        [
            ("cut", false, true),
            ("new", true, true),
            ("old", true, false)
        ]
    );
    assert_eq!(l.runs[1].processes, 1, "a record found twice counts once");
    assert_eq!(
        (l.runs[1].counts.passed, l.runs[1].counts.recovered),
        (1, 1)
    );
    let text = render_text(&l);
    assert!(
        text.starts_with("3 runs kept in `h`, newest first:\n"),
        "{text}"
    );
    assert!(
        text.contains(
            "new  2026-12-01T08:00:00.000Z  complete    fresh    1 passed, 0 failed, 1 recovered\n"
        ),
        "{text}"
    );
    assert!(text.contains("incomplete  fresh"), "{text}");
    assert!(text.contains("changed  0 passed, 1 failed"), "{text}");
}

#[test]
fn an_empty_history_says_how_to_fill_it() {
    let l = listing("target/varar/history".to_owned(), &[], &now(A), Vec::new());
    assert!(render_text(&l).starts_with("no run kept in `target/varar/history`"));
}

#[test]
fn issue34_a_run_with_an_unreadable_record_and_an_empty_run_directory_are_listed_as_such() {
    let whole = process("whole", "p", "07:00:00", &[("a.md", A)], Vec::new());
    let part = process("part", "p", "08:00:00", &[("a.md", A)], Vec::new());
    let runs = combine_kept(vec![whole, part]);
    let partial = BTreeSet::from(["part".to_owned()]);
    let unjudged = [UnjudgedRun {
        name: "killed".to_owned(),
        modified: Some("2026-12-01T09:00:00.000Z".to_owned()),
        standing: Standing::Unrecorded,
    }];
    let l = listing_kept(
        "h".to_owned(),
        (&runs, &partial, &unjudged),
        &now(A),
        Vec::new(),
    );
    let rows: Vec<_> = l
        .runs
        .iter()
        .map(|r| (r.run_id.as_str(), r.standing, r.complete))
        .collect();
    assert_eq!(
        rows,
        [
            ("killed", Standing::Unrecorded, false),
            ("part", Standing::Unreadable, false),
            ("whole", Standing::Complete, true),
        ]
    );
    let text = render_text(&l);
    assert!(
        text.contains("part    2026-12-01T08:00:00.000Z  unreadable  fresh"),
        "{text}"
    );
}

#[test]
fn issue34_a_run_id_with_a_newline_and_controls_cannot_forge_a_line() {
    let hostile = process(
        "r\n9 runs kept\u{1b}[2J\u{202e}",
        "p",
        "08:00:00",
        &[("a.md", A)],
        Vec::new(),
    );
    let runs = combine_kept(vec![hostile]);
    let l = listing("h\u{7}".to_owned(), &runs, &now(A), Vec::new());
    let text = render_text(&l);
    assert!(
        text.starts_with("1 run kept in `h\\u{0007}`, newest first:\n"),
        "{text}"
    );
    assert!(
        text.contains("r\\u{000A}9 runs kept\\u{001B}[2J\\u{202E}  2026-12-01T08:00:00.000Z"),
        "{text}"
    );
    assert_eq!(text.lines().count(), 2, "{text}");
}

#[test]
fn issue34_a_run_directory_named_with_controls_cannot_forge_a_line() {
    let unjudged = [UnjudgedRun {
        name: "killed\n9 runs kept\u{1b}[2J".to_owned(),
        modified: Some("2026-12-01T09:00:00.000Z\u{7}".to_owned()),
        standing: Standing::Unrecorded,
    }];
    let l = listing_kept(
        "h".to_owned(),
        (&[], &BTreeSet::new(), &unjudged),
        &now(A),
        Vec::new(),
    );
    let text = render_text(&l);
    assert!(
        text.contains("killed\\u{000A}9 runs kept\\u{001B}[2J  2026-12-01T09:00:00.000Z\\u{0007}"),
        "{text}"
    );
    assert_eq!(text.lines().count(), 2, "{text}");
}

#[test]
fn issue37_a_filtered_run_is_listed_as_filtered_with_what_it_did_not_select() {
    const Y: &str = "a.md::A::I add 3";
    // `cargo test "I add 2"`: one item selected and passed, the other
    // planned and left out by the filter.
    let mut filtered = process(
        "filtered",
        "p",
        "08:00:00",
        &[("a.md", A)],
        vec![item(X, "a.md", 3, 1, Some(Outcome::Passed), None)],
    );
    filtered.arguments = vec!["I add 2".to_owned()];
    filtered.unselected = vec![Y.to_owned()];
    // A process that never ended with the same selection is incomplete.
    let mut cut = filtered.clone();
    cut.run_id = "cut".to_owned();
    cut.started_at = "2026-12-01T09:00:00.000Z".to_owned();
    cut.complete = false;
    cut.ended_at = None;
    let runs = combine_kept(vec![filtered, cut]);
    let l = listing("h".to_owned(), &runs, &now(A), Vec::new());
    let standings: Vec<_> = l
        .runs
        .iter()
        .map(|r| (r.run_id.as_str(), r.standing))
        .collect();
    assert_eq!(
        standings,
        [
            ("cut", Standing::Incomplete),
            ("filtered", Standing::Filtered)
        ]
    );
    assert_eq!(l.runs[1].counts.not_selected, 1);
    let text = render_text(&l);
    assert!(
        text.contains(
            "filtered  2026-12-01T08:00:00.000Z  filtered    fresh    1 passed, 0 failed, 0 recovered, 1 not selected\n"
        ),
        "{text}"
    );
    assert!(!text.contains("not run"), "{text}");
}
