//! The judging of run records, on records built as the harness writes
//! them ([`crate::verdict::testing`]).

use crate::hash::sha256_hex;

use super::*;
use crate::verdict::testing::*;

const A: &str = "# A\n\nI add 2.\n";

fn codes(problems: &[ErrorRecord]) -> Vec<Code> {
    problems.iter().map(|e| e.code).collect()
}

fn expected(oaths: &[&str]) -> BTreeSet<String> {
    oaths.iter().map(|o| (*o).to_owned()).collect()
}

#[test]
fn no_record_is_missing_run_and_unknown_versions_are_absent() {
    let mut none = RunEvidence::none();
    let found = none.problems(&expected(&["a.md"]));
    assert_eq!(codes(&found), [Code::MissingRun]);
    assert_eq!(found[0].path.as_deref(), Some(".varar/.runs"));
    none.unknown_version.push(".varar/.runs/r/p.run".into());
    let found = none.problems(&BTreeSet::new());
    assert!(
        found[0]
            .message
            .ends_with("(1 record file left out: a record of a version this reader does not know)"),
        "{found:?}"
    );
    none.invalid
        .push(ErrorRecord::new(Code::InvalidRun, "bad").with_path("x.run"));
    assert_eq!(codes(&none.problems(&BTreeSet::new())), [Code::InvalidRun]);
}

#[test]
fn a_complete_fresh_run_has_no_problem() {
    let e = evidence_of(vec![process(
        "r",
        "p",
        "07:00:00",
        &[("a.md", A)],
        vec![item(
            "a.md::I add 2",
            "a.md",
            3,
            1,
            Some(Outcome::Passed),
            None,
        )],
    )]);
    assert_eq!(e.problems(&expected(&["a.md"])), []);
}

#[test]
fn issue19_a_changed_or_gone_source_makes_the_run_stale() {
    let mut e = evidence_of(vec![process("r", "p", "07:00:00", &[("a.md", A)], vec![])]);
    e.now
        .documents
        .insert("a.md".into(), FileNow::Sha256(sha256_hex(b"# A edited\n")));
    let found = e.problems(&BTreeSet::new());
    assert_eq!(codes(&found), [Code::StaleRun]);
    assert!(
        found[0]
            .message
            .starts_with("`a.md` changed after the latest run (`r`: it read sha256 "),
        "{found:?}"
    );
    assert_eq!(found[0].path.as_deref(), Some("a.md"));
    e.now.documents.insert("a.md".into(), FileNow::Missing);
    e.now.config = Some(FileNow::Sha256(sha256_hex(b"{}")));
    let found = e.problems(&BTreeSet::new());
    assert_eq!(codes(&found), [Code::StaleRun, Code::StaleRun]);
    assert!(
        found[0]
            .message
            .starts_with("`varar.config.json` changed after the latest run")
    );
    assert!(found[1].message.contains("no longer exists"), "{found:?}");
}

#[test]
fn issue19_a_process_that_never_ended_and_items_that_did_not_run_are_incomplete() {
    let mut exited = process(
        "r",
        "p1",
        "07:00:00",
        &[("a.md", A)],
        vec![
            item("a.md::x", "a.md", 3, 1, Some(Outcome::Passed), None),
            item("a.md::y", "a.md", 5, 1, None, None),
        ],
    );
    exited.complete = false;
    exited.ended_at = None;
    exited.unselected = vec!["a.md::z".into()];
    let e = evidence_of(vec![exited]);
    let found = e.problems(&expected(&["a.md", "b.md"]));
    assert_eq!(
        codes(&found),
        [
            Code::IncompleteRun,
            Code::IncompleteRun,
            Code::IncompleteRun
        ]
    );
    assert_eq!(found[0].path.as_deref(), Some(".varar/.runs/r/p1.run"));
    assert!(found[0].message.contains("process `p1`"), "{found:?}");
    assert!(
        found[1].message.starts_with(
            "the latest run (`r`) planned 2 items of `a.md` that did not run (`a.md::y`, …)"
        ),
        "{found:?}"
    );
    assert_eq!(found[1].oath_path.as_deref(), Some("a.md"));
    assert!(
        found[2]
            .message
            .starts_with("`b.md` has examples, but the latest run"),
        "{found:?}"
    );
}

#[test]
fn issue19_the_latest_run_is_the_one_that_started_last() {
    let old = process(
        "old",
        "p",
        "06:00:00",
        &[("a.md", A)],
        vec![item(
            "a.md::x",
            "a.md",
            3,
            1,
            Some(Outcome::Failed),
            Some("boom"),
        )],
    );
    let new = process(
        "new",
        "p",
        "07:00:00",
        &[("a.md", A)],
        vec![item("a.md::x", "a.md", 3, 1, Some(Outcome::Passed), None)],
    );
    let e = evidence_of(vec![new, old]);
    assert_eq!(e.runs, 2);
    let run = e.latest.as_ref().unwrap_or_else(|| panic!("a run"));
    assert_eq!(run.run_id, "new");
    assert_eq!(failed_items(run).count(), 0);
}

#[test]
fn issue19_failed_then_passed_is_recovered_and_counted_as_passed() {
    let docs = [("a.md", A)];
    let e = evidence_of(vec![
        process(
            "r",
            "p1",
            "07:00:00",
            &docs,
            vec![item(
                "a.md::x",
                "a.md",
                3,
                1,
                Some(Outcome::Failed),
                Some("flaky"),
            )],
        ),
        process(
            "r",
            "p2",
            "07:00:01",
            &docs,
            vec![item("a.md::x", "a.md", 3, 2, Some(Outcome::Passed), None)],
        ),
        process(
            "r",
            "p3",
            "07:00:02",
            &docs,
            vec![item(
                "a.md::varar:drift:7",
                "a.md",
                7,
                1,
                Some(Outcome::Failed),
                Some("drift"),
            )],
        ),
    ]);
    let run = e.latest.as_ref().unwrap_or_else(|| panic!("a run"));
    let recovered: Vec<&str> = recovered_items(run).map(|i| i.name.as_str()).collect();
    assert_eq!(recovered, ["a.md::x"]);
    assert_eq!(last_failure(&run.items[0]), Some("flaky"));
    let failed: Vec<&str> = failed_items(run).map(|i| i.name.as_str()).collect();
    assert_eq!(failed, ["a.md::varar:drift:7"]);
    assert_eq!(
        counts(run),
        ItemCounts {
            planned: 2,
            passed: 1,
            failed: 1,
            ignored: 0,
            not_run: 0,
            not_selected: 0,
            recovered: 1,
        }
    );
}

#[test]
fn example_items_are_found_by_their_name_and_line() {
    let run = RunRecord::combine(vec![process(
        "r",
        "p",
        "07:00:00",
        &[],
        vec![
            item(
                "a.md::One::I add 2",
                "a.md",
                3,
                1,
                Some(Outcome::Passed),
                None,
            ),
            item(
                "a.md::Two::I add 2",
                "a.md",
                9,
                1,
                Some(Outcome::Passed),
                None,
            ),
            item(
                "a.md::Two::I add 2[1]",
                "a.md",
                12,
                1,
                Some(Outcome::Passed),
                None,
            ),
        ],
    )])
    .remove(0);
    let example = |lines: Vec<u32>| ExampleResult {
        name: "I add 2".into(),
        status: crate::results::Status::Passed,
        lines,
        failure: None,
    };
    let line_of = |e: ExampleResult| example_item(&run, "a.md", &e).map(|i| i.line);
    assert_eq!(line_of(example(vec![3])), Some(3));
    assert_eq!(line_of(example(vec![9])), Some(9));
    assert_eq!(line_of(example(vec![12])), Some(12));
    assert_eq!(line_of(example(vec![])), Some(3));
    assert!(example_item(&run, "b.md", &example(vec![3])).is_none());
    assert!(!names_example("a.md::I add 23", "I add 2"));
    assert!(names_example("a.md::H::I call a::b[2]", "I call  a::b"));
    assert!(!names_example("a.md::H::I call a::b", "b c"));
    assert_eq!(oath_of_name("varar/a.md::H::x"), "varar/a.md");
    assert_eq!(
        oath_of_name("[varar] d.md::varar:diagnostic:reference-cycle:5"),
        "d.md"
    );
}

#[test]
fn only_documents_whose_digest_is_the_recorded_one_are_fresh() {
    let run = RunRecord::combine(vec![process(
        "r",
        "p",
        "07:00:00",
        &[("a.md", A), ("b.md", "# B\n")],
        vec![],
    )])
    .remove(0);
    let a = sha256_hex(A.as_bytes());
    let fresh = fresh_documents(&run, |p| (p == "a.md").then_some(a.as_str()));
    assert_eq!(fresh, expected(&["a.md"]));
}
