use super::build::drift_name;
use super::*;
use crate::drift::{Drift, HARNESS_DRIFT_HINT};
use crate::hash::source_hash;
use crate::lock::{Lock, LockEntry, LockExample, serialize_lock};
use crate::record::{Outcome, RemovedExample, RunRecord};
use crate::results::{Anchor, CellFailure, ExampleResult, OathResults, ResultFailure, Status};
use crate::source::{Source, Span};
use crate::verdict::testing::{item, process};

const SHELF: &str = "# Shelf\n\nI put 3 buns on the shelf. Now 3 buns are left.\n\n\
                     Each row: the opening and the closing stock.\n\n\
                     | opening | closing |\n| ------: | ------: |\n| 0       | 5       |\n\n\
                     The receipt reads:\n\n```text\nTotal 4\n```\n";
const PATH: &str = "varar/shelf.md";

fn at(text: &str, needle: &str, nth: usize) -> (u32, u32) {
    let byte = text.match_indices(needle).nth(nth).map(|(i, _)| i);
    let byte = byte.unwrap_or_else(|| panic!("no {needle:?}"));
    let source = Source::new(text);
    let from = source.utf16_of_byte(byte);
    (from, from + needle.len() as u32)
}

fn failed_with(line: u32, cells: Vec<(u32, u32, &str)>) -> ExampleResult {
    ExampleResult {
        name: "x".into(),
        status: Status::Failed,
        lines: vec![line],
        failure: Some(ResultFailure {
            line,
            message: "expected".into(),
            stack: String::new(),
            cells: cells
                .into_iter()
                .map(|(from, to, actual)| CellFailure {
                    from,
                    to,
                    actual: actual.into(),
                })
                .collect(),
            anchor: Some(Anchor { from: 0, to: 1 }),
            doc_path: None,
        }),
    }
}

/// A drift item's failure text as the harness records it: a header, the
/// message, a snippet, the hint.
fn drift_text(name: &str) -> String {
    let drift = Drift {
        name: name.into(),
        line: 3,
        span: Span::default(),
    };
    format!(
        "varar/shelf.md:3:1: {}\n  |\n3 | Each row: the opening.\n  | ^^^^ no step matches this any \
         more\n{HARNESS_DRIFT_HINT}\n",
        drift.message()
    )
}

fn run_of(items: Vec<crate::record::Item>, removed: Vec<RemovedExample>) -> RunRecord {
    let mut p = process("r1", "p1", "10:00:00", &[(PATH, SHELF)], items);
    p.removed = removed;
    RunRecord::combine(vec![p]).remove(0)
}

fn results(examples: Vec<ExampleResult>) -> OathResults {
    OathResults {
        version: 1,
        oath_path: PATH.into(),
        source_hash: source_hash(SHELF),
        documents: Vec::new(),
        examples,
    }
}

#[test]
fn a_drift_a_cell_a_parameter_and_a_removal_are_listed_with_their_ids() {
    let cell = at(SHELF, "5", 0);
    let param = at(SHELF, "3", 1);
    let run = run_of(
        vec![
            item(
                "varar/shelf.md::Shelf::I put 3 buns",
                PATH,
                3,
                1,
                Some(Outcome::Failed),
                Some("expected 3"),
            ),
            item(
                "varar/shelf.md::Shelf::row::0 / 5",
                PATH,
                9,
                1,
                Some(Outcome::Failed),
                Some("expected 5"),
            ),
            item(
                "varar/shelf.md::varar:drift:5",
                PATH,
                5,
                1,
                Some(Outcome::Failed),
                Some(&drift_text(
                    "Each row: the opening and the \"closing\" stock",
                )),
            ),
            item("varar/shelf.md::x", PATH, 1, 1, Some(Outcome::Passed), None),
        ],
        vec![RemovedExample {
            oath_path: PATH.into(),
            name: "Gone".into(),
            line: 12,
        }],
    );
    let stored = results(vec![
        failed_with(3, vec![(param.0, param.1, "2")]),
        failed_with(9, vec![(cell.0, cell.1, "6")]),
    ]);
    let review = review(
        &run,
        &[OathInput {
            oath_path: PATH,
            text: Some(SHELF),
            results: Some(&stored),
        }],
    );
    let ids: Vec<(&str, ChangeKind)> = review
        .changes
        .iter()
        .map(|c| (c.id.as_str(), c.kind))
        .collect();
    assert_eq!(
        ids,
        [
            ("varar/shelf.md::Shelf::I put 3 buns", ChangeKind::Value),
            ("varar/shelf.md::Shelf::row::0 / 5", ChangeKind::Value),
            ("varar/shelf.md::varar:drift:5", ChangeKind::Drift),
            ("varar/shelf.md::varar:removed:12", ChangeKind::Removed),
        ]
    );
    assert!(
        review.changes.iter().all(|c| c.refused.is_none()),
        "{review:#?}"
    );
    assert_eq!(
        review.changes[2].acceptance,
        Acceptance::DropFromLock {
            name: "Each row: the opening and the \"closing\" stock".into(),
            line: 5
        }
    );
    let Acceptance::WriteValues { cells } = &review.changes[1].acceptance else {
        panic!("not a value")
    };
    assert_eq!(
        (cells[0].expected.as_str(), cells[0].actual.as_str()),
        ("5", "6")
    );
    let written = write_values(PATH, SHELF, cells).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(written, SHELF.replacen("| 5 ", "| 6 ", 1));
}

#[test]
fn nothing_is_accepted_from_an_oath_edited_after_the_run() {
    let cell = at(SHELF, "5", 0);
    let run = run_of(
        vec![item(
            "varar/shelf.md::row",
            PATH,
            9,
            1,
            Some(Outcome::Failed),
            Some("expected 5"),
        )],
        Vec::new(),
    );
    let stored = results(vec![failed_with(9, vec![(cell.0, cell.1, "6")])]);
    let edited = SHELF.replace("# Shelf", "# The shelf");
    let review = review(
        &run,
        &[OathInput {
            oath_path: PATH,
            text: Some(&edited),
            results: Some(&stored),
        }],
    );
    assert_eq!(
        review.changes[0].refused,
        Some(Refusal::ChangedSinceRun(PATH.into()))
    );
    // The edit itself refuses a span that no longer holds the expected text.
    let Acceptance::WriteValues { cells } = &review.changes[0].acceptance else {
        panic!("not a value")
    };
    assert!(matches!(
        write_values(PATH, &edited, cells),
        Err(ReviewError::ExpectedMoved { .. })
    ));
}

#[test]
fn an_observed_value_that_would_break_the_markdown_is_not_written() {
    let cell = at(SHELF, "5", 0);
    for actual in ["6 | 7", "6\n7", " "] {
        assert!(
            !writable_value(PATH, SHELF, cell.0, cell.1, actual),
            "{actual:?}"
        );
    }
    assert!(writable_value(PATH, SHELF, cell.0, cell.1, "6"));
    let run = run_of(
        vec![item(
            "varar/shelf.md::row",
            PATH,
            9,
            1,
            Some(Outcome::Failed),
            Some("x"),
        )],
        Vec::new(),
    );
    let stored = results(vec![failed_with(9, vec![(cell.0, cell.1, "a|b")])]);
    let review = review(
        &run,
        &[OathInput {
            oath_path: PATH,
            text: Some(SHELF),
            results: Some(&stored),
        }],
    );
    assert_eq!(review.changes[0].refused, Some(Refusal::UnfitValue));
}

#[test]
fn a_doc_string_is_not_written_by_review() {
    let fence = at(SHELF, "Total 4", 0);
    let run = run_of(
        vec![item(
            "varar/shelf.md::receipt",
            PATH,
            11,
            1,
            Some(Outcome::Failed),
            Some("expected"),
        )],
        Vec::new(),
    );
    let stored = results(vec![failed_with(
        11,
        vec![(fence.0, fence.1, "\"Total 5\"")],
    )]);
    let review = review(
        &run,
        &[OathInput {
            oath_path: PATH,
            text: Some(SHELF),
            results: Some(&stored),
        }],
    );
    assert_eq!(review.changes[0].refused, Some(Refusal::NoTextSpan));
}

fn lock_of(examples: &[(&str, i64)]) -> String {
    let mut lock = Lock::default();
    lock.oaths.insert(
        "varar/a.md".into(),
        LockEntry {
            source_hash: "fnv1a:00000000".into(),
            examples: vec![LockExample {
                name: "other".into(),
                line: 1,
            }],
        },
    );
    lock.oaths.insert(
        PATH.into(),
        LockEntry {
            source_hash: "fnv1a:11111111".into(),
            examples: examples
                .iter()
                .map(|(n, l)| LockExample {
                    name: (*n).into(),
                    line: *l,
                })
                .collect(),
        },
    );
    serialize_lock(&lock)
}

#[test]
fn dropping_a_drift_changes_only_that_example_of_the_lock() {
    let before = lock_of(&[("same", 3), ("kept", 5), ("same", 20)]);
    let drop = |line, exact| LockDrop {
        oath_path: PATH.into(),
        name: "same".into(),
        line,
        exact,
    };
    let (after, found) =
        drop_from_lock(before.as_bytes(), &[drop(17, false)]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(found, [true]);
    assert_eq!(after, lock_of(&[("same", 3), ("kept", 5)]));
    // A removal goes only by its exact line; one already gone is reported.
    let (after, found) = drop_from_lock(before.as_bytes(), &[drop(3, true), drop(4, true)])
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(found, [true, false]);
    assert_eq!(after, lock_of(&[("kept", 5), ("same", 20)]));
}

#[test]
fn a_lock_not_written_as_its_writer_writes_it_is_refused() {
    let before = lock_of(&[("same", 3)]).replace("  \"version\"", "\"version\"");
    let drop = LockDrop {
        oath_path: PATH.into(),
        name: "same".into(),
        line: 3,
        exact: true,
    };
    assert!(matches!(
        drop_from_lock(before.as_bytes(), &[drop]),
        Err(ReviewError::LockNotCanonical)
    ));
}

#[test]
fn the_drift_name_is_read_back_from_its_message() {
    for name in ["plain", "with \"quotes\".", "ends with \".\nFix"] {
        assert_eq!(drift_name(&drift_text(name)).as_deref(), Some(name));
    }
    assert_eq!(drift_name("something else"), None);
}

#[test]
fn kinds_round_trip_by_name() {
    for kind in [ChangeKind::Drift, ChangeKind::Value, ChangeKind::Removed] {
        assert_eq!(ChangeKind::parse(kind.as_str()), Some(kind));
    }
    assert_eq!(ChangeKind::parse("all"), None);
}
