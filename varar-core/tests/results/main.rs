//! The run-result payload (spec 30 §30.8, 70 §70.4): built from planned
//! examples and their runs, merged, written and read back.

#[path = "../support/mod.rs"]
mod support;

mod bounded;

use serde_json::{Value, json};
use support::{span, step};
use varar_core::failure::{CellDiff, Failure, Problem};
use varar_core::outcome::{ExampleRun, StepOutcome};
use varar_core::plan::{Expectation, PlannedExample, PlannedStep};
use varar_core::results::*;
use varar_core::source::Span;

const FIXTURE: &str = include_str!("../../../conformance/corpus/run-results/expected.json");

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("invalid JSON: {e}\n{text}"))
}

fn write(results: &OathResults) -> String {
    results
        .to_text()
        .unwrap_or_else(|e| panic!("cannot serialise: {e}"))
}

/// The value of `run-results/expected.json`, built in memory (spec 30 §30.8.5).
fn fixture_value() -> OathResults {
    OathResults {
        version: 1,
        oath_path: "varar/library.md".into(),
        source_hash: "fnv1a:1622dfca".into(),
        documents: Vec::new(),
        examples: vec![
            ExampleResult {
                name: "Maya borrowed *Emma*, due back on June 1, 2026".into(),
                status: Status::Passed,
                lines: vec![3, 4],
                failure: None,
            },
            ExampleResult {
                name: "Ben borrowed *Dune* for £2.50 & kept it".into(),
                status: Status::Failed,
                lines: vec![13, 14],
                failure: Some(ResultFailure {
                    line: 14,
                    message: "expected £2.50 but was £3.00\nand the library <refused>".into(),
                    stack: "<stack>".into(),
                    cells: vec![CellFailure {
                        from: 71,
                        to: 77,
                        actual: "£3.00".into(),
                    }],
                    anchor: Some(Anchor { from: 60, to: 90 }),
                    doc_path: None,
                }),
            },
            ExampleResult {
                name: "Noor borrowed *Kindred*".into(),
                status: Status::Failed,
                lines: vec![8, 9],
                failure: Some(ResultFailure {
                    line: 9,
                    message: "expected the library to refuse".into(),
                    stack: "<stack>".into(),
                    cells: Vec::new(),
                    anchor: None,
                    doc_path: None,
                }),
            },
        ],
    }
}

#[test]
fn the_fixture_value_serialises_to_the_fixture() {
    let text = write(&fixture_value());
    assert!(text.ends_with("}\n"), "trailing newline");
    assert!(
        !text.contains("null"),
        "optional members are absent, never null"
    );
    assert_eq!(parse(&text), parse(FIXTURE));
    // Declaration key order, not sorted: `version` first, `examples` last.
    let keys: Vec<usize> = [
        "\"version\"",
        "\"oathPath\"",
        "\"sourceHash\"",
        "\"examples\"",
    ]
    .iter()
    .filter_map(|k| text.find(k))
    .collect();
    assert!(
        keys.len() == 4 && keys.windows(2).all(|w| w[0] < w[1]),
        "{text}"
    );
}

#[test]
fn the_fixture_parses_and_round_trips() {
    let parsed = parse_run_result(FIXTURE.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(parsed, fixture_value());
    assert_eq!(parse(&write(&parsed)), parse(FIXTURE));
}

#[test]
fn the_writer_never_reorders_examples() {
    // The fixture's examples are at lines 3, 13, 8: the writer keeps that.
    let text = write(&fixture_value());
    let lines: Vec<Value> = parse(&text)["examples"]
        .as_array()
        .map(|a| a.iter().map(|e| e["lines"][0].clone()).collect())
        .unwrap_or_default();
    assert_eq!(lines, [json!(3), json!(13), json!(8)]);
}

#[test]
fn the_collector_sorts_stably_by_first_line() {
    let ex = |name: &str, lines: Vec<u32>| ExampleResult {
        name: name.into(),
        status: Status::Passed,
        lines,
        failure: None,
    };
    let r = oath_results(
        "a.md",
        "fnv1a:00000000",
        vec![
            ex("c", vec![13]),
            ex("a", vec![8, 9]),
            ex("b", vec![8]),
            ex("empty", vec![]),
        ],
    );
    let names: Vec<&str> = r.examples.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["empty", "a", "b", "c"]);
    assert_eq!(r.version, 1);
}

fn example(steps: Vec<PlannedStep>, expected: Expectation) -> PlannedExample {
    PlannedExample {
        name: "an example".into(),
        scope_stack: Vec::new().into(),
        span: span(0, 10, 1),
        expected,
        steps,
        row: None,
        unmatched: Vec::new(),
    }
}

fn run_failing(failure: Failure) -> ExampleRun {
    ExampleRun {
        steps: vec![StepOutcome::Failed(failure.clone())],
        failure: Some(failure),
        teardown: Vec::new(),
    }
}

fn to_json(result: &ExampleResult) -> Value {
    serde_json::to_value(result).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn passed_examples_have_no_failure_and_deduplicated_lines() {
    // Bundle 18: one step per merged paragraph, plus two steps sharing line 15.
    let steps = vec![
        step(0, "a", 40, 3),
        step(1, "b", 90, 9),
        step(2, "c", 140, 15),
        step(3, "d", 150, 15),
    ];
    let run = ExampleRun {
        steps: vec![StepOutcome::Passed; 4],
        failure: None,
        teardown: Vec::new(),
    };
    let r = example_result(&example(steps, Expectation::Pass), &run, "example.md");
    assert_eq!(
        to_json(&r),
        json!({"name": "an example", "status": "passed", "lines": [3, 9, 15]})
    );
}

#[test]
fn a_doc_string_mismatch_is_anchored_at_the_body() {
    // Bundle 06 (§30.8.4): the failure line is the body's line, not the step's.
    let body = Span {
        start_offset: 71,
        end_offset: 77,
        start_line: 8,
        start_col: 1,
        end_line: 9,
        end_col: 1,
    };
    let s = step(0, "I echo the following:", 44, 5);
    let f = Failure::locate(
        Problem::Mismatch(vec![CellDiff {
            column: "doc string".into(),
            expected: "\"hello\\n\"".into(),
            actual: "\"goodbye\"".into(),
            span: body,
        }]),
        0,
        s.match_span,
    );
    let r = example_result(
        &example(vec![s], Expectation::Pass),
        &run_failing(f),
        "example.md",
    );
    assert_eq!(
        to_json(&r),
        json!({
            "name": "an example",
            "status": "failed",
            "lines": [5],
            "failure": {
                "line": 8,
                "message": "doc string: expected \"hello\\n\" but was \"goodbye\"",
                "stack": "doc string: expected \"hello\\n\" but was \"goodbye\"\n    at I echo the following: (example.md:8:1)",
                "cells": [{"from": 71, "to": 77, "actual": "\"goodbye\""}],
                "anchor": {"from": 71, "to": 77}
            }
        })
    );
}

#[test]
fn thrown_and_unexpected_pass_failures_have_no_cells() {
    let s = step(0, "I do nothing at all", 254, 9);
    let up = Failure::UnexpectedPass {
        last: Some((0, s.match_span)),
    };
    let ex = example(vec![s.clone()], Expectation::Fail { message: None });
    let run = ExampleRun {
        steps: vec![StepOutcome::Passed],
        failure: Some(up),
        teardown: Vec::new(),
    };
    let got = to_json(&example_result(&ex, &run, "example.md"));
    assert_eq!(
        got["failure"],
        json!({
            "line": 9,
            "message": "expected the example to fail, but it passed",
            "stack": "expected the example to fail, but it passed\n    at I do nothing at all (example.md:9:1)",
            "anchor": {"from": 254, "to": 273}
        })
    );
    let thrown = Failure::locate(Problem::thrown("boom"), 0, s.match_span);
    let got = to_json(&example_result(&ex, &run_failing(thrown), "x/y.md"));
    assert_eq!(got["failure"]["message"], "boom");
    assert!(got["failure"].get("cells").is_none());
}

#[test]
fn without_an_anchor_the_line_falls_back() {
    let unanchored = Failure::Thrown {
        at: None,
        message: "factory failed".into(),
        panic: None,
    };
    let ex = example(
        vec![step(0, "a", 40, 3), step(1, "b", 60, 4)],
        Expectation::Pass,
    );
    let got = to_json(&example_result(
        &ex,
        &run_failing(unanchored.clone()),
        "a.md",
    ));
    assert_eq!(
        got["failure"],
        json!({"line": 3, "message": "factory failed", "stack": "factory failed\n"})
    );
    let empty = example(Vec::new(), Expectation::Pass);
    let got = example_result(&empty, &run_failing(unanchored), "a.md");
    assert_eq!(got.failure.map(|f| f.line), Some(0));
}

fn ex(name: &str, line: u32, status: Status) -> ExampleResult {
    ExampleResult {
        name: name.into(),
        status,
        lines: vec![line, line + 1],
        failure: match status {
            Status::Passed => None,
            Status::Failed => Some(ResultFailure {
                line,
                message: "m".into(),
                stack: "s".into(),
                cells: Vec::new(),
                anchor: None,
                doc_path: None,
            }),
        },
    }
}

fn key(name: &str, line: u32) -> ExampleKey {
    ExampleKey {
        name: name.into(),
        lines: vec![line, line + 1],
        line,
    }
}

fn file(hash: &str, examples: Vec<ExampleResult>) -> OathResults {
    OathResults {
        version: 1,
        oath_path: "varar/a.md".into(),
        source_hash: hash.into(),
        documents: Vec::new(),
        examples,
    }
}

#[test]
fn merge_keeps_what_did_not_run_replaces_what_did_and_sorts() {
    let stored = file(
        "h",
        vec![
            ex("a", 3, Status::Passed),
            ex("b", 7, Status::Failed),
            ex("c", 12, Status::Passed),
        ],
    );
    let fresh = file(
        "h",
        vec![ex("d", 9, Status::Failed), ex("b", 7, Status::Passed)],
    );
    let planned = [key("a", 3), key("b", 7), key("d", 9), key("c", 12)];
    let merged = merge_results(Some(&stored), &fresh, &planned, &[1, 2]);
    assert_eq!(
        merged,
        file(
            "h",
            vec![
                ex("a", 3, Status::Passed),
                ex("b", 7, Status::Passed),
                ex("d", 9, Status::Failed),
                ex("c", 12, Status::Passed),
            ]
        )
    );
}

#[test]
fn issue10_1_result_lists_only_current_plan() {
    // Both steps of the oath were renamed: its plan has no example left,
    // and nothing the old file said may survive.
    let stored = file(
        "h",
        vec![ex("a", 3, Status::Failed), ex("b", 7, Status::Failed)],
    );
    let merged = merge_results(Some(&stored), &file("h", Vec::new()), &[], &[]);
    assert!(merged.examples.is_empty(), "{merged:?}");
    // A filtered run keeps an old entry only if its example is still in
    // the plan (same name and lines) and did not run now.
    let planned = [key("a", 3), key("renamed", 7)];
    let merged = merge_results(Some(&stored), &file("h", Vec::new()), &planned, &[]);
    assert_eq!(merged.examples, vec![ex("a", 3, Status::Failed)]);
}

#[test]
fn issue10_1_an_ambiguous_line_keeps_no_passed_entry() {
    // Line 7 passed, then a second step made its paragraph ambiguous: the
    // plan lost the example (the run fails it with a diagnostic item), and
    // the file must not say it passed.
    let stored = file(
        "h",
        vec![ex("a", 3, Status::Passed), ex("b", 7, Status::Passed)],
    );
    let fresh = file("h", vec![ex("a", 3, Status::Passed)]);
    let merged = merge_results(Some(&stored), &fresh, &[key("a", 3)], &[0]);
    assert_eq!(merged.examples, vec![ex("a", 3, Status::Passed)]);
}

#[test]
fn merge_ignores_a_file_of_another_source() {
    let fresh = file("h", vec![ex("b", 7, Status::Passed)]);
    let planned = [key("a", 3), key("b", 7)];
    let mut v2 = file("h", vec![ex("a", 3, Status::Passed)]);
    v2.version = 2;
    let mut with_documents = file("h", vec![ex("a", 3, Status::Passed)]);
    with_documents.documents.push(DocumentHash {
        path: "varar/shared.md".into(),
        source_hash: "fnv1a:00000001".into(),
    });
    for stored in [
        file("other", vec![ex("a", 3, Status::Passed)]),
        v2,
        with_documents,
    ] {
        assert_eq!(merge_results(Some(&stored), &fresh, &planned, &[1]), fresh);
    }
    assert_eq!(merge_results(None, &fresh, &planned, &[1]), fresh);
}

#[test]
fn issue10_12_the_one_writer_puts_members_in_the_reference_order() {
    let mut r = file("h", vec![ex("a", 3, Status::Failed)]);
    if let Some(f) = r.examples[0].failure.as_mut() {
        f.cells.push(CellFailure {
            from: 8,
            to: 9,
            actual: "IV".into(),
        });
        f.anchor = Some(Anchor { from: 1, to: 5 });
    }
    let text = write(&r);
    let order = [
        "\"version\"",
        "\"oathPath\"",
        "\"sourceHash\"",
        "\"examples\"",
        "\"name\"",
        "\"status\"",
        "\"lines\"",
        "\"failure\"",
        "\"line\"",
        "\"message\"",
        "\"stack\"",
        "\"cells\"",
        "\"from\"",
        "\"to\"",
        "\"actual\"",
        "\"anchor\"",
    ];
    let positions: Vec<usize> = order
        .iter()
        .map(|k| text.find(k).unwrap_or(usize::MAX))
        .collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{text}");
    // Version 2 members sit where spec 70 §70.4 puts them.
    r.version = 2;
    r.documents.push(DocumentHash {
        path: "varar/shared.md".into(),
        source_hash: "fnv1a:00000001".into(),
    });
    if let Some(f) = r.examples[0].failure.as_mut() {
        f.doc_path = Some("varar/shared.md".into());
    }
    let text = write(&r);
    let order = [
        "\"version\"",
        "\"oathPath\"",
        "\"sourceHash\": \"h\"",
        "\"documents\"",
        "\"path\"",
        "\"sourceHash\": \"fnv1a:00000001\"",
        "\"examples\"",
        "\"anchor\"",
        "\"docPath\"",
    ];
    let positions: Vec<usize> = order
        .iter()
        .map(|k| text.find(k).unwrap_or(usize::MAX))
        .collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{text}");
    assert_eq!(parse_run_result(text.as_bytes()).ok(), Some(r));
}

/// A step written in `doc` (another oath), spliced in by a link.
fn spliced(text: &str, from: u32, line: u32, doc: &str) -> PlannedStep {
    PlannedStep {
        doc_path: Some(doc.into()),
        ..step(0, text, from, line)
    }
}

#[test]
fn issue11_spliced_steps_add_no_lines_and_fail_in_their_own_document() {
    // Own step on line 5, a spliced one on shared.md line 7 (spec 70 §70.4.3,
    // §70.6.3, §70.6.4).
    let own = step(0, "I add 1", 20, 5);
    let other = spliced("the total is 99", 40, 7, "varar/shared.md");
    let f = Failure::locate(Problem::thrown("boom"), 1, other.match_span);
    let r = example_result(
        &example(vec![own, other], Expectation::Pass),
        &run_failing(f),
        "varar/checkout.md",
    );
    assert_eq!(r.lines, [5]);
    let failure = r.failure.unwrap_or_else(|| panic!("failed"));
    assert_eq!(failure.line, 7);
    assert_eq!(failure.doc_path.as_deref(), Some("varar/shared.md"));
    assert_eq!(
        failure.stack,
        "boom\n    at the total is 99 (varar/shared.md:7:1)"
    );
}

#[test]
fn issue11_version_2_only_when_a_file_names_another_document() {
    let passed = |lines: Vec<u32>| ExampleResult {
        name: "I add 2".into(),
        status: Status::Passed,
        lines,
        failure: None,
    };
    let key = |lines: Vec<u32>, line: u32| ExampleKey {
        name: "I add 2".into(),
        lines,
        line,
    };
    let planned = [key(vec![7], 5), key(Vec::new(), 11), key(vec![3], 3)];
    let ran = vec![
        (0, passed(vec![7])),
        (1, passed(Vec::new())),
        (2, passed(vec![3])),
    ];
    let sort_line = |i: usize| planned[i].sort_line();
    let plain = collected_results("a.md", "h", Vec::new(), ran.clone(), sort_line);
    assert_eq!(plain.version, 1);
    // A link-only example (`lines` empty) sorts by its link's line, 11.
    let order: Vec<Vec<u32>> = plain.examples.iter().map(|e| e.lines.clone()).collect();
    assert_eq!(order, [vec![3], vec![7], vec![]]);
    let shared = DocumentHash {
        path: "shared.md".into(),
        source_hash: "fnv1a:00000001".into(),
    };
    let linked = collected_results("a.md", "h", vec![shared], ran, sort_line);
    assert_eq!(linked.version, 2);
    assert_eq!(results_version(&[], &linked.examples), 1);
}

#[test]
fn issue11_examples_with_equal_keys_merge_in_plan_order() {
    // Two links to one section, each alone under its heading: same name,
    // empty `lines`. The second ran now and failed; the first keeps its
    // stored entry.
    let link_only = |status: Status| ExampleResult {
        name: "I add 2".into(),
        status,
        lines: Vec::new(),
        failure: None,
    };
    let key = |line: u32| ExampleKey {
        name: "I add 2".into(),
        lines: Vec::new(),
        line,
    };
    let mut stored = file(
        "h",
        vec![link_only(Status::Passed), link_only(Status::Passed)],
    );
    let mut fresh = file("h", vec![link_only(Status::Failed)]);
    let planned = [key(5), key(9)];
    for r in [&mut stored, &mut fresh] {
        r.version = 2;
        r.documents = vec![DocumentHash {
            path: "shared.md".into(),
            source_hash: "fnv1a:00000001".into(),
        }];
    }
    let merged = merge_results(Some(&stored), &fresh, &planned, &[1]);
    assert_eq!(merged.version, 2);
    let statuses: Vec<Status> = merged.examples.iter().map(|e| e.status).collect();
    assert_eq!(statuses, [Status::Passed, Status::Failed]);
    // A stored version-1 file of the same hash is never merged with it.
    let v1 = file(
        "h",
        vec![link_only(Status::Passed), link_only(Status::Passed)],
    );
    let merged = merge_results(Some(&v1), &fresh, &planned, &[1]);
    assert_eq!(merged.examples.len(), 1);
}

#[test]
fn the_writer_writes_what_serde_json_pretty_writes() {
    let serde = |r: &OathResults| serde_json::to_string_pretty(r).unwrap_or_default() + "\n";
    let mut results = fixture_value();
    assert_eq!(write(&results), serde(&results));
    results.version = 2;
    results.documents = vec![
        DocumentHash {
            path: "varar/shared \"x\".md".into(),
            source_hash: "fnv1a:00000000".into(),
        },
        DocumentHash {
            path: "varar/b.md".into(),
            source_hash: "fnv1a:11111111".into(),
        },
    ];
    if let Some(failure) = results.examples[1].failure.as_mut() {
        failure.doc_path = Some("varar/shared \"x\".md".into());
        failure.message = "tab\there\u{1}\\ 😀".into();
    }
    results.examples[0].lines.clear();
    assert_eq!(write(&results), serde(&results));
    results.examples.clear();
    assert_eq!(write(&results), serde(&results));
}
