//! The conformance trace artifact `trace.json` (spec 30 §30.7): every planned
//! step of every example with its outcome and, where it failed, the failure
//! as located by the anchor rule.

use serde_json::{Map, Value, json};

use crate::failure::{Failure, FailureKind};
use crate::outcome::{ExampleRun, StepOutcome};
use crate::plan::{Plan, PlannedExample};
use crate::registry::Registry;

/// The trace of a plan's examples and their runs (in plan order; `runs[i]`
/// belongs to `plan.examples[i]`). Object keys come out sorted, the
/// canonical form of the goldens.
pub fn trace(plan: &Plan, runs: &[ExampleRun], registry: &Registry) -> Value {
    let examples: Vec<Value> = plan
        .examples
        .iter()
        .zip(runs)
        .map(|(example, run)| example_trace(example, run, registry))
        .collect();
    json!({ "examples": examples })
}

fn example_trace(example: &PlannedExample, run: &ExampleRun, registry: &Registry) -> Value {
    let steps: Vec<Value> = example
        .steps
        .iter()
        .enumerate()
        .map(|(i, step)| {
            let file = registry
                .steps
                .get(step.step)
                .map_or("", |s| s.spec.file.as_str());
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
