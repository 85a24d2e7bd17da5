//! The conformance trace (spec 30 §30.7) of hand-made plans and runs.

mod support;

use serde_json::{Value, json};
use support::{span, step};
use varar_core::failure::{CellDiff, Failure, Problem, Shape};
use varar_core::outcome::{ExampleRun, StepOutcome};
use varar_core::plan::{Expectation, Plan, PlannedExample};
use varar_core::registry::{Registry, Role, StepSpec, Trailing};
use varar_core::trace::{step_file, trace};

#[test]
fn step_file_is_the_stem() {
    let cases = [
        ("tests/steps/numerals.steps.rs", "numerals.steps"),
        ("tests\\steps\\numerals.steps.rs", "numerals.steps"),
        ("a/b\\echo.rs", "echo"),
        ("echo", "echo"),
        (".hidden", ".hidden"),
        ("", ""),
    ];
    for (path, want) in cases {
        assert_eq!(step_file(path), want, "{path}");
    }
}

fn registry() -> Registry {
    let step = StepSpec::new(
        "x",
        Role::Sensor,
        "conformance/src/bundles/money.steps.rs",
        1,
        Trailing::None,
    );
    Registry::build(Vec::new(), vec![step]).unwrap_or_else(|e| panic!("{e}"))
}

fn example(n: usize, expected: Expectation) -> PlannedExample {
    PlannedExample {
        name: "ex".into(),
        scope_stack: Vec::new().into(),
        span: span(0, 10, 1),
        expected,
        steps: (0..n)
            .map(|i| step(0, &format!("s{i}"), 10 * i as u32, 5))
            .collect(),
        row: None,
        unmatched: Vec::new(),
    }
}

#[test]
fn failures_skips_and_kinds() {
    let ex = example(3, Expectation::Fail { message: None });
    let cell = CellDiff {
        column: "cell 1".into(),
        expected: "£2.55".into(),
        actual: "£2.60".into(),
        span: span(88, 93, 6),
    };
    let mismatch = Failure::locate(Problem::Mismatch(vec![cell]), 1, ex.steps[1].match_span);
    let plan = Plan {
        notices: Vec::new(),
        examples: vec![ex],
        diagnostics: Vec::new(),
    };
    let run = ExampleRun {
        steps: vec![
            StepOutcome::Passed,
            StepOutcome::Failed(mismatch),
            StepOutcome::Skipped,
        ],
        failure: None,
        teardown: Vec::new(),
    };
    let got = trace(&plan, &[run], &registry());
    let steps = &got["examples"][0]["steps"];
    assert_eq!(got["examples"][0]["outcome"], "pass");
    assert_eq!(steps[0]["outcome"], "pass");
    assert_eq!(steps[2]["outcome"], "skipped");
    assert!(steps[2].get("failure").is_none());
    assert_eq!(steps[1]["contextKey"]["stepFile"], "money.steps");
    assert_eq!(steps[1]["ordinal"], 2);
    let f = &steps[1]["failure"];
    assert_eq!(
        (f["kind"].clone(), f["line"].clone()),
        (json!("cell-mismatch"), json!(5))
    );
    assert_eq!(f["anchor"]["startLine"], 6);
    assert_eq!(f["cells"][0]["span"]["startOffset"], 88);
    assert_eq!(f["message"], "cell 1: expected £2.55 but was £2.60");
}

#[test]
fn thrown_has_no_message_and_shape_has_no_cells() {
    let ex = example(1, Expectation::Pass);
    let plan = Plan {
        notices: Vec::new(),
        examples: vec![ex.clone(), ex.clone()],
        diagnostics: Vec::new(),
    };
    let thrown = Failure::locate(Problem::thrown("boom"), 0, ex.steps[0].match_span);
    let shape = Failure::locate(Problem::Shape(Shape::MixedRows), 0, ex.steps[0].match_span);
    let runs: Vec<ExampleRun> = [thrown, shape]
        .into_iter()
        .map(|f| ExampleRun {
            steps: vec![StepOutcome::Failed(f.clone())],
            failure: Some(f),
            teardown: Vec::new(),
        })
        .collect();
    let got = trace(&plan, &runs, &registry());
    let keys = |v: &Value| -> Vec<String> {
        v.as_object()
            .map(|o| o.keys().cloned().collect())
            .unwrap_or_default()
    };
    assert_eq!(
        keys(&got["examples"][0]["steps"][0]["failure"]),
        ["anchor", "kind", "line"]
    );
    assert_eq!(
        keys(&got["examples"][1]["steps"][0]["failure"]),
        ["anchor", "kind", "line", "message"]
    );
    assert_eq!(got["examples"][1]["outcome"], "fail");
}
