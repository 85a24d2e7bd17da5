//! The one rule of what is drawn as current, on records built as the
//! harness writes them.

use std::collections::BTreeSet;

use crate::hash::source_hash;
use crate::record::{Outcome, RunRecord};
use crate::results::{DocumentHash, ExampleResult, OathResults, Status};

use super::*;

use crate::verdict::run_evidence::RunEvidence;
use crate::verdict::standing::{Against, Draws};
use crate::verdict::testing::{evidence_of, item, process, vouched};

fn example(name: &str) -> ExampleResult {
    ExampleResult {
        name: name.to_owned(),
        status: Status::Passed,
        lines: vec![3],
        failure: None,
    }
}

/// The result of `oath` made from `text`, naming `documents` (path, text).
fn results(oath: &str, text: &str, documents: &[(&str, &str)]) -> OathResults {
    OathResults {
        version: if documents.is_empty() { 1 } else { 2 },
        oath_path: oath.to_owned(),
        source_hash: source_hash(text),
        documents: documents
            .iter()
            .map(|(p, t)| DocumentHash {
                path: (*p).to_owned(),
                source_hash: source_hash(t),
            })
            .collect(),
        examples: vec![example("x")],
    }
}

fn expected(oaths: &[&str]) -> BTreeSet<String> {
    oaths.iter().map(|o| (*o).to_owned()).collect()
}

#[test]
fn issue34_a_filtered_run_vouches_for_what_it_ran_and_not_for_an_earlier_runs_result() {
    // r1 ran b.md as "old"; r2, later, ran only a.md, which links to
    // b.md, and read b.md "new". b.md's result is r1's: the latest run
    // does not vouch for it, and its reading of b.md does not make an
    // earlier result of b.md current, whatever text the result claims.
    let ran_b = item("b.md::B::x", "b.md", 3, 1, Some(Outcome::Passed), None);
    let r1 = process("r1", "p", "07:00:00", &[("b.md", "old")], vec![ran_b]);
    let r2 = process(
        "r2",
        "p",
        "08:00:00",
        &[("a.md", "A"), ("b.md", "new")],
        vec![item(
            "a.md::A::x",
            "a.md",
            3,
            1,
            Some(Outcome::Passed),
            None,
        )],
    );
    let e = evidence_of(vec![r1, r2]);
    let standing = e.standing(Against {
        expected: &expected(&["a.md", "b.md"]),
        sources: true,
    });
    let run = e.latest.as_ref();
    let latest = Latest {
        standing: Some(&standing),
        run,
    };
    let read = RunRead::of(run);
    assert_eq!(
        read.vouched(["a.md", "b.md"]),
        vouched(&[("a.md", "A"), ("b.md", "new")]),
        "what the latest run read"
    );
    // b.md's result, of the text as it is now ("new"): an earlier run's.
    let b = results("b.md", "new", &[]);
    let text = |_: Option<&str>| Some("new");
    let of_text = drawn(latest, "b.md", &b, text, &read.vouched(["b.md"]))
        .unwrap_or_else(|e| panic!("{e:?}"));
    assert!(
        of_text
            .oath()
            .is_err_and(|why| why.starts_with("the latest run is incomplete"))
    );
    assert!(of_text.example(&example("x")).is_err());
    // b.md's result of the text r1 read ("old"), the file "old" again:
    // r2 read another text, so no record of the latest run names it.
    let b = results("b.md", "old", &[]);
    let text = |_: Option<&str>| Some("old");
    assert!(matches!(
        drawn(latest, "b.md", &b, text, &read.vouched(["b.md"])),
        Err(Stale {
            why: Staleness::Unvouched { .. },
            ..
        })
    ));
    // a.md's result, whose examples use b.md as r2 read it: current.
    let a = results("a.md", "A", &[("b.md", "new")]);
    let text = |doc: Option<&str>| Some(if doc.is_some() { "new" } else { "A" });
    let of_text = drawn(latest, "a.md", &a, text, &read.vouched(["a.md", "b.md"]))
        .unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(of_text.oath(), Ok(()));
    assert_eq!(of_text.example(&example("x")), Ok(()));
    // b.md edited since: a.md's result is stale, naming b.md.
    let text = |doc: Option<&str>| Some(if doc.is_some() { "newer" } else { "A" });
    let stale = drawn(latest, "a.md", &a, text, &read.vouched(["a.md", "b.md"]));
    assert!(
        stale.as_ref().is_err_and(|s| s
            .said
            .starts_with("its examples use `b.md`: `b.md` changed")),
        "{stale:?}"
    );
}

#[test]
fn issue34_one_example_run_alone_vouches_for_that_example_only() {
    // An editor's ▶ Run of x: y, planned but not selected, did not run.
    let mut one = process(
        "one",
        "p",
        "09:00:00",
        &[("a.md", "A")],
        vec![item(
            "a.md::A::x",
            "a.md",
            3,
            1,
            Some(Outcome::Passed),
            None,
        )],
    );
    one.unselected = vec!["a.md::A::y".to_owned()];
    let e = evidence_of(vec![one]);
    let standing = e.standing(Against {
        expected: &expected(&["a.md"]),
        sources: true,
    });
    let latest = Latest {
        standing: Some(&standing),
        run: e.latest.as_ref(),
    };
    let read = RunRead::of(e.latest.as_ref());
    let mut a = results("a.md", "A", &[]);
    a.examples.push(example("y"));
    let of_text = drawn(latest, "a.md", &a, |_| Some("A"), &read.vouched(["a.md"]))
        .unwrap_or_else(|e| panic!("{e:?}"));
    assert!(
        of_text.oath().is_err(),
        "the oath as a whole is not the run's"
    );
    assert_eq!(of_text.example(&example("x")), Ok(()));
    assert!(of_text.example(&example("y")).is_err());
}

#[test]
fn issue34_without_any_run_record_nothing_is_current() {
    let e = RunEvidence::none();
    let standing = e.standing(Against {
        expected: &BTreeSet::new(),
        sources: true,
    });
    assert_eq!(standing.draws, Draws::All);
    let latest = Latest {
        standing: Some(&standing),
        run: None,
    };
    let read = RunRead::of(None);
    let a = results("a.md", "A", &[]);
    assert!(matches!(
        drawn(latest, "a.md", &a, |_| Some("A"), &read.vouched(["a.md"])),
        Err(Stale {
            why: Staleness::Unvouched { .. },
            ..
        })
    ));
}

#[test]
fn issue34_processes_of_one_run_that_read_two_texts_vouch_for_neither() {
    let one = process("r4", "p", "07:00:00", &[("b.md", "one")], Vec::new());
    let mut two = process("r4", "q", "07:00:01", &[("b.md", "two")], Vec::new());
    two.process_id = "q".into();
    let run: Vec<RunRecord> = RunRecord::combine(vec![one, two]);
    let read = RunRead::of(run.first());
    assert!(read.vouched(["b.md"]).is_empty());
    // An oath the run read without items of it is vouched for by it.
    let none = process("r3", "p", "09:00:00", &[("c.md", "C")], Vec::new());
    let run = RunRecord::combine(vec![none]);
    let read = RunRead::of(run.first());
    assert_eq!(read.vouched(["c.md"]), vouched(&[("c.md", "C")]));
    assert!(read.vouched(["d.md"]).is_empty());
}
