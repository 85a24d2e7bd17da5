//! Reuse by link, planned (spec 70 §70.3): the worked examples of §70.7,
//! one test per decision of §70.6, and the properties that keep planning
//! without links what it was. Real parser, real registry, real workspace.

mod decisions;
mod properties;
mod rules;
mod worked;

use varar_core::plan::{Diagnostic, Plan, PlannedExample, PlannedStep, plan_oath};
use varar_core::registry::{Registry, Role, StepSpec, Trailing};
use varar_core::source::Span;
use varar_core::workspace::Workspace;

/// A registry of these expressions, in this order (`t.steps.rs`, line =
/// position).
fn registry(steps: &[(&str, Role)]) -> Registry {
    let specs = steps
        .iter()
        .enumerate()
        .map(|(i, &(expression, role))| {
            StepSpec::new(expression, role, "t.steps.rs", i as u32 + 1, Trailing::None)
        })
        .collect();
    Registry::build(Vec::new(), specs).unwrap_or_else(|e| panic!("{e}"))
}

/// `I add {int}`, `the total is {int}` and `something explodes`, the steps
/// of the reference's worked examples.
fn steps() -> Registry {
    registry(&[
        ("I add {int}", Role::Stimulus),
        ("the total is {int}", Role::Sensor),
        ("something explodes", Role::Stimulus),
    ])
}

/// Plan `oath` of the workspace made of `files`.
fn plan_in(files: &[(&str, &str)], oath: &str) -> Plan {
    plan_in_with(files, oath, &steps())
}

/// [`plan_in`] against `registry`.
fn plan_in_with(files: &[(&str, &str)], oath: &str, registry: &Registry) -> Plan {
    let ws = Workspace::build(files.iter().copied());
    match plan_oath(&ws, oath, registry) {
        Ok(plan) => plan,
        Err(e) => panic!("{e}"),
    }
}

/// `[start,end) L:C–L:C`, the notation of the spec.
fn at(span: &Span) -> String {
    format!(
        "[{},{}) {}:{}-{}:{}",
        span.start_offset,
        span.end_offset,
        span.start_line,
        span.start_col,
        span.end_line,
        span.end_col
    )
}

/// An example as `name | scope / stack | span`.
fn example(e: &PlannedExample) -> String {
    format!(
        "{} | {} | {}",
        e.name,
        e.scope_stack.join(" / "),
        at(&e.span)
    )
}

/// A step as `text @ document L:C [start,end)` (`document` is `-` for the
/// oath being planned).
fn step(s: &PlannedStep) -> String {
    format!(
        "{} @ {} {}:{} [{},{})",
        s.text,
        s.doc_path.as_deref().unwrap_or("-"),
        s.match_span.start_line,
        s.match_span.start_col,
        s.match_span.start_offset,
        s.match_span.end_offset
    )
}

/// Every example with its steps.
fn examples(plan: &Plan) -> Vec<(String, Vec<String>)> {
    plan.examples
        .iter()
        .map(|e| (example(e), e.steps.iter().map(step).collect()))
        .collect()
}

/// A diagnostic as `code @ document span`.
fn diagnostic(d: &Diagnostic) -> String {
    format!(
        "{} @ {} {}",
        d.code.as_str(),
        d.doc_path.as_deref().unwrap_or("-"),
        at(&d.span)
    )
}

fn diagnostics(plan: &Plan) -> Vec<String> {
    plan.diagnostics.iter().map(diagnostic).collect()
}

/// Owned strings, for comparing with the summaries above.
fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// One expected example: its summary and its steps.
fn ex(summary: &str, steps: &[&str]) -> (String, Vec<String>) {
    (summary.to_string(), strings(steps))
}
