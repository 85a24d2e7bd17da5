//! Running one planned example (spec 30 §30.1): a fresh [`World`] per
//! example, every handler call under `catch_unwind`, the sensor slot contract,
//! the header-bound row check after the loop and the expected-failure
//! inversion (§30.5).
//!
//! The executor never inspects or copies a state: states live in the
//! [`World`], keyed by step file and state type, and start from `Default` the
//! first time a step of that file asks for them.

mod quiet;

use std::panic::{AssertUnwindSafe, catch_unwind};

pub use quiet::install_quiet_panic_hook;

use crate::compare::{self, messages};
use crate::data::{DocString, Table};
use crate::failure::{Failure, Problem};
use crate::plan::{Expectation, PlannedExample, PlannedStep};
use crate::registry::Registry;
use crate::step::{ArgValue, Handler, Invocation, Returned, Role, Trailing, World};

/// What the executor needs to know about the step definition a planned step
/// was matched to.
#[derive(Clone, Copy, Debug)]
pub struct StepTarget<'a> {
    /// Stimulus or sensor.
    pub role: Role,
    /// The expression as written (for messages).
    pub expression: &'a str,
    /// The step's source file: the key of its state.
    pub file: &'a str,
    /// The entry point; `None` for a definition known only by its expression.
    pub handler: Option<Handler>,
    /// What the function takes after its captures.
    pub trailing: Trailing,
}

/// Looks up step definitions by the registry index planning recorded in
/// [`PlannedStep::step`].
pub trait StepLookup {
    /// The definition at `index`, if there is one.
    fn target(&self, index: usize) -> Option<StepTarget<'_>>;
}

impl StepLookup for Registry {
    fn target(&self, index: usize) -> Option<StepTarget<'_>> {
        self.steps.get(index).map(|s| StepTarget {
            role: s.spec.role,
            expression: &s.spec.expression,
            file: &s.spec.file,
            handler: s.spec.handler,
            trailing: s.spec.trailing,
        })
    }
}

impl StepLookup for [StepTarget<'_>] {
    fn target(&self, index: usize) -> Option<StepTarget<'_>> {
        self.get(index).copied()
    }
}

/// How one planned step ended (the trace's step `outcome`).
#[derive(Clone, Debug, PartialEq)]
pub enum StepOutcome {
    /// It ran without failure.
    Passed,
    /// It failed, or a row-check failure was attributed to it.
    Failed(Failure),
    /// An earlier step failed, so it never ran.
    Skipped,
}

/// The outcome of one planned example.
#[derive(Clone, Debug, PartialEq)]
pub struct ExampleRun {
    /// One outcome per planned step, in step order. A failure here is the
    /// step's own, even when the example was expected to fail.
    pub steps: Vec<StepOutcome>,
    /// The example's failure after expected-failure inversion; `None` when
    /// the example passes.
    pub failure: Option<Failure>,
}

impl ExampleRun {
    /// Whether the example passes (after inversion).
    pub fn passed(&self) -> bool {
        self.failure.is_none()
    }
}

/// Run one planned example against the registered steps (spec 30 §30.1.1).
/// Handler errors and panics fail only this example; they never unwind out.
pub fn execute<R: StepLookup + ?Sized>(example: &PlannedExample, registry: &R) -> ExampleRun {
    let mut world = World::new();
    let mut steps = vec![StepOutcome::Skipped; example.steps.len()];
    let mut last_return = Returned::Nothing;
    let mut failure = None;
    for (i, step) in example.steps.iter().enumerate() {
        match run_step(example, step, registry, &mut world) {
            Ok(returned) => {
                steps[i] = StepOutcome::Passed;
                last_return = returned;
            }
            Err(problem) => {
                let located = Failure::locate(problem, i, step.match_span);
                steps[i] = StepOutcome::Failed(located.clone());
                failure = Some(located);
                break;
            }
        }
    }
    let last = example
        .steps
        .len()
        .checked_sub(1)
        .map(|i| (i, example.steps[i].match_span));
    if failure.is_none()
        && let (Some(binding), Some((i, span))) = (&example.row, last)
        && let Err(problem) = compare::check_row(binding, &last_return)
    {
        // The row check's outcome overrides the row step's own pass.
        let located = Failure::locate(problem, i, span);
        steps[i] = StepOutcome::Failed(located.clone());
        failure = Some(located);
    }
    ExampleRun {
        steps,
        failure: invert(&example.expected, failure, last),
    }
}

/// Expected-failure inversion (spec 30 §30.5).
fn invert(
    expected: &Expectation,
    failure: Option<Failure>,
    last: Option<(usize, crate::source::Span)>,
) -> Option<Failure> {
    match (expected, failure) {
        (Expectation::Pass, failure) => failure,
        (Expectation::Fail { .. }, None) => Some(Failure::unexpected_pass(last)),
        (Expectation::Fail { message: None }, Some(_)) => None,
        (Expectation::Fail { message: Some(m) }, Some(f)) if f.message.contains(m.as_str()) => None,
        // The message is not contained: the original failure stands, unchanged.
        (Expectation::Fail { .. }, Some(f)) => Some(f),
    }
}

/// Call one step and apply its role's return rules.
fn run_step<R: StepLookup + ?Sized>(
    example: &PlannedExample,
    step: &PlannedStep,
    registry: &R,
    world: &mut World,
) -> Result<Returned, Problem> {
    let target = registry
        .target(step.step)
        .ok_or_else(|| Problem::Thrown(messages::no_handler(&step.matched_expression)))?;
    let handler = target
        .handler
        .ok_or_else(|| Problem::Thrown(messages::no_handler(target.expression)))?;
    check_wiring(example, step, target.trailing)?;
    let args: Vec<ArgValue> = step.args.iter().map(|a| a.value.clone()).collect();
    let table = step.data_table.as_ref().map(|t| {
        let rows = std::iter::once(&t.header).chain(&t.rows);
        Table::new(rows.map(|r| r.cells.clone()).collect())
    });
    let doc_string = step.doc_string.as_ref().map(|d| DocString {
        content: d.content.clone(),
        content_type: d.content_type.clone(),
    });
    let invocation = Invocation {
        args: &args,
        row: example.row.as_ref().map(|b| &b.row),
        table: table.as_ref(),
        doc_string: doc_string.as_ref(),
    };
    world.enter_file(target.file);
    let returned = call(handler, world, &invocation)?;
    match target.role {
        Role::Stimulus => compare::check_stimulus(&returned)?,
        // A row example's return is checked once, after the loop.
        Role::Sensor if example.row.is_some() => {}
        Role::Sensor => compare::check_sensor(step, &returned)?,
    }
    Ok(returned)
}

/// The function must not take an attachment the document does not give
/// (spec 30 §30.2.1). One the function ignores is not a wiring error: for a
/// sensor, the slot contract then reports the missing answer.
fn check_wiring(
    example: &PlannedExample,
    step: &PlannedStep,
    trailing: Trailing,
) -> Result<(), Problem> {
    let given = if step.data_table.is_some() {
        Some("a data table")
    } else if step.doc_string.is_some() {
        Some("a doc string")
    } else {
        None
    };
    let taken = match trailing {
        Trailing::None => return Ok(()),
        Trailing::Row if example.row.is_some() => return Ok(()),
        Trailing::Row => return Err(Problem::Thrown(messages::NO_ROW.to_string())),
        Trailing::Table => "a data table",
        Trailing::DocString => "a doc string",
    };
    match given {
        Some(g) if g == taken => Ok(()),
        Some(g) => Err(Problem::Thrown(messages::attachment_mismatch(g, taken))),
        None => Err(Problem::Thrown(messages::slot_count_mismatch(
            step.args.len(),
            step.args.len() + 1,
        ))),
    }
}

/// Call a handler, turning an `Err` or a panic into a `thrown` problem.
fn call(
    handler: Handler,
    world: &mut World,
    invocation: &Invocation<'_>,
) -> Result<Returned, Problem> {
    let result =
        quiet::while_in_step(|| catch_unwind(AssertUnwindSafe(|| handler(world, invocation))));
    match result {
        Ok(Ok(returned)) => Ok(returned),
        Ok(Err(error)) => Err(Problem::Thrown(error.message)),
        Err(payload) => Err(Problem::Thrown(panic_message(payload.as_ref()))),
    }
}

/// The message of a panic payload: the text of `panic!("…")`, or a fixed
/// fallback for payloads that are not text.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&'static str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "handler panicked".to_string()
    }
}

#[cfg(test)]
mod tests;
