//! Long and over-long text in a run result: step texts cut in the stack,
//! and messages, stacks and actual values bounded at `TEXT_LIMIT` (issue
//! 34) when built and when read.

use varar_core::failure::{CellDiff, Failure, Problem};
use varar_core::plan::Expectation;
use varar_core::results::*;
use varar_core::untrusted::TEXT_LIMIT;

use super::support::{span, step};
use super::{example, run_failing, write};

#[test]
fn long_step_texts_are_cut_in_the_stack() {
    let text = "é".repeat(61);
    let s = step(0, &text, 0, 2);
    let f = Failure::locate(Problem::thrown("boom"), 0, s.match_span);
    let r = example_result(
        &example(vec![s], Expectation::Pass),
        &run_failing(f),
        "a.md",
    );
    let want = format!("boom\n    at {}… (a.md:2:1)", "é".repeat(60));
    assert_eq!(r.failure.map(|f| f.stack), Some(want));
}

#[test]
fn issue34_a_20_mb_panic_message_is_stored_cut_with_its_frame() {
    let s = step(0, "I panic", 10, 2);
    let huge = "x".repeat(20 * 1024 * 1024);
    let f = Failure::locate(Problem::thrown(huge.clone()), 0, s.match_span);
    let r = example_result(
        &example(vec![s], Expectation::Pass),
        &run_failing(f),
        "a.md",
    );
    let failure = r.failure.unwrap_or_else(|| panic!("failed"));
    let kept = TEXT_LIMIT - 36;
    assert_eq!(
        failure.message,
        format!("{}… [{} bytes cut]", &huge[..kept], huge.len() - kept)
    );
    assert!(failure.stack.len() <= TEXT_LIMIT, "{}", failure.stack.len());
    assert!(
        failure
            .stack
            .ends_with("bytes cut]\n    at I panic (a.md:2:1)")
    );
    // Read back, nothing is cut again.
    let text = write(&oath_results(
        "a.md",
        "h",
        vec![ExampleResult {
            name: "n".into(),
            status: Status::Failed,
            lines: vec![2],
            failure: Some(failure.clone()),
        }],
    ));
    let read = parse_run_result(text.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(read.examples[0].failure.as_ref(), Some(&failure));
}

#[test]
fn issue34_many_failing_cells_give_a_bounded_message_and_each_actual_is_cut() {
    let s = step(0, "I compare", 10, 2);
    let cells = (0..40)
        .map(|i| CellDiff {
            column: format!("cell {i}"),
            expected: "e".repeat(10_000),
            actual: "a".repeat(100_000),
            span: span(10, 12, 2),
        })
        .collect();
    let f = Failure::locate(Problem::Mismatch(cells), 0, s.match_span);
    let r = example_result(
        &example(vec![s], Expectation::Pass),
        &run_failing(f),
        "a.md",
    );
    let failure = r.failure.unwrap_or_else(|| panic!("failed"));
    assert!(failure.message.len() <= TEXT_LIMIT);
    assert!(varar_core::untrusted::was_cut(&failure.message));
    assert_eq!(failure.cells.len(), 40);
    assert!(failure.cells.iter().all(|c| c.actual.len() <= TEXT_LIMIT));
}

#[test]
fn issue34_a_crafted_file_with_megabytes_of_message_is_read_cut() {
    let huge = "m".repeat(3 * TEXT_LIMIT);
    let text = format!(
        r#"{{"version": 1, "oathPath": "a.md", "sourceHash": "h", "examples": [
            {{"name": "n", "status": "failed", "lines": [1], "failure": {{
                "line": 1, "message": "{huge}", "stack": "{huge}",
                "cells": [{{"from": 0, "to": 1, "actual": "{huge}"}}]}}}}]}}"#
    );
    let read = parse_run_result(text.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    let failure = read.examples[0]
        .failure
        .as_ref()
        .unwrap_or_else(|| panic!("failed"));
    let note = format!("… [{} bytes cut]", huge.len() - (TEXT_LIMIT - 36));
    assert!(
        failure.message.ends_with(&note),
        "{}",
        &failure.message[TEXT_LIMIT - 40..]
    );
    assert!(failure.stack.ends_with(&note));
    assert!(failure.cells[0].actual.ends_with(&note));
}
