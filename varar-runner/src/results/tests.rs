use serde_json::{Value, json};

use super::*;
use crate::compare::testing::{span, step};
use crate::execute::StepOutcome;
use crate::failure::{CellDiff, FailureKind, Problem};
use crate::plan::{Expectation, PlannedStep};
use crate::source::Span;

const FIXTURE: &str = include_str!("../../../conformance/corpus/run-results/expected.json");

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("invalid JSON: {e}\n{text}"))
}

fn write(results: &OathResults) -> String {
    results
        .to_json_string()
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
    let parsed: OathResults = serde_json::from_str(FIXTURE).unwrap_or_else(|e| panic!("{e}"));
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
        scope_stack: Vec::new(),
        span: span(0, 10, 1),
        expected,
        steps,
        row: None,
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
    let up = Failure::unexpected_pass(Some((0, s.match_span)));
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
    let thrown = Failure::locate(Problem::Thrown("boom".into()), 0, s.match_span);
    let got = to_json(&example_result(&ex, &run_failing(thrown), "x/y.md"));
    assert_eq!(got["failure"]["message"], "boom");
    assert!(got["failure"].get("cells").is_none());
}

#[test]
fn without_an_anchor_the_line_falls_back() {
    let unanchored = Failure {
        kind: FailureKind::Thrown,
        message: "factory failed".into(),
        cells: Vec::new(),
        anchor: None,
        step: None,
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

#[test]
fn long_step_texts_are_cut_in_the_stack() {
    let text = "é".repeat(61);
    let s = step(0, &text, 0, 2);
    let f = Failure::locate(Problem::Thrown("boom".into()), 0, s.match_span);
    let r = example_result(
        &example(vec![s], Expectation::Pass),
        &run_failing(f),
        "a.md",
    );
    let want = format!("boom\n    at {}… (a.md:2:1)", "é".repeat(60));
    assert_eq!(r.failure.map(|f| f.stack), Some(want));
}
