//! The conformance trace artifact `trace.json` (spec 30 §30.7): every planned
//! step of every example with its outcome and, where it failed, the failure
//! as located by the anchor rule.

use serde_json::{Map, Value, json};

use crate::execute::{ExampleRun, StepLookup, StepOutcome};
use crate::failure::{Failure, FailureKind};
use crate::plan::{Plan, PlannedExample};

/// The trace of a plan's examples and their runs (in plan order; `runs[i]`
/// belongs to `plan.examples[i]`). Object keys come out sorted, the
/// canonical form of the goldens.
pub fn trace<R: StepLookup + ?Sized>(plan: &Plan, runs: &[ExampleRun], registry: &R) -> Value {
    let examples: Vec<Value> = plan
        .examples
        .iter()
        .zip(runs)
        .map(|(example, run)| example_trace(example, run, registry))
        .collect();
    json!({ "examples": examples })
}

fn example_trace<R: StepLookup + ?Sized>(
    example: &PlannedExample,
    run: &ExampleRun,
    registry: &R,
) -> Value {
    let steps: Vec<Value> = example
        .steps
        .iter()
        .enumerate()
        .map(|(i, step)| {
            let file = registry.target(step.step).map(|t| t.file).unwrap_or("");
            let mut entry = Map::new();
            entry.insert("exampleName".into(), json!(example.name));
            entry.insert("ordinal".into(), json!(i + 1));
            entry.insert("stepText".into(), json!(step.text));
            entry.insert("matchedExpression".into(), json!(step.matched_expression));
            entry.insert(
                "contextKey".into(),
                json!({ "exampleName": example.name, "stepFile": step_file(file) }),
            );
            let outcome = match run.steps.get(i) {
                Some(StepOutcome::Passed) => "pass",
                Some(StepOutcome::Failed(f)) => {
                    entry.insert("failure".into(), failure_trace(example, f));
                    "fail"
                }
                Some(StepOutcome::Skipped) | None => "skipped",
            };
            entry.insert("outcome".into(), json!(outcome));
            Value::Object(entry)
        })
        .collect();
    json!({
        "name": example.name,
        "outcome": if run.passed() { "pass" } else { "fail" },
        "steps": steps,
    })
}

/// A step's failure object (spec 30 §30.7.2): `line` is the attributed
/// step's line, `anchor` the anchor rule's span; `thrown` has no message.
fn failure_trace(example: &PlannedExample, f: &Failure) -> Value {
    let step = f.step().and_then(|i| example.steps.get(i));
    let mut out = Map::new();
    out.insert("kind".into(), json!(f.kind().as_str()));
    if let Some(step) = step {
        out.insert("line".into(), json!(step.match_span.start_line));
    }
    if let Some(anchor) = f.anchor() {
        out.insert("anchor".into(), json!(anchor));
    }
    if f.kind() != FailureKind::Thrown {
        out.insert("message".into(), json!(f.to_string()));
    }
    if let Failure::CellMismatch { cells, .. } = f {
        let cells: Vec<Value> = cells
            .iter()
            .map(|c| {
                json!({
                    "column": c.column,
                    "expected": c.expected,
                    "actual": c.actual,
                    "span": c.span,
                })
            })
            .collect();
        out.insert("cells".into(), Value::Array(cells));
    }
    Value::Object(out)
}

/// The step file's stem as the trace reports it: the base name (after the
/// last `/` or `\`) with its last extension removed.
pub fn step_file(path: &str) -> &str {
    let base = path.rsplit(['/', '\\']).next().unwrap_or(path);
    match base.rfind('.') {
        Some(dot) if dot > 0 => &base[..dot],
        _ => base,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::testing::{span, step};
    use crate::execute::StepTarget;
    use crate::failure::{CellDiff, Problem};
    use crate::plan::Expectation;
    use crate::step::{Role, Trailing};

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

    fn registry() -> Vec<StepTarget<'static>> {
        vec![StepTarget {
            role: Role::Sensor,
            expression: "x",
            file: "conformance/src/bundles/money.steps.rs",
            handler: None,
            trailing: Trailing::None,
            route: None,
        }]
    }

    fn example(n: usize, expected: Expectation) -> PlannedExample {
        PlannedExample {
            name: "ex".into(),
            scope_stack: Vec::new(),
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
        let got = trace(&plan, &[run], registry().as_slice());
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
            examples: vec![ex.clone(), ex.clone()],
            diagnostics: Vec::new(),
        };
        let thrown = Failure::locate(Problem::thrown("boom"), 0, ex.steps[0].match_span);
        let shape = Failure::locate(
            Problem::Shape(crate::failure::Shape::MixedRows),
            0,
            ex.steps[0].match_span,
        );
        let runs: Vec<ExampleRun> = [thrown, shape]
            .into_iter()
            .map(|f| ExampleRun {
                steps: vec![StepOutcome::Failed(f.clone())],
                failure: Some(f),
                teardown: Vec::new(),
            })
            .collect();
        let got = trace(&plan, &runs, registry().as_slice());
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
}
