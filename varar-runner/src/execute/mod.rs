//! Running one planned example (spec 30 §30.1, spec 60): a fresh [`World`]
//! per example, each step's state prepared before it runs (a lent resource,
//! a factory's value or `Default`), every handler call under `catch_unwind`
//! (an `async fn` step's future driven by the [`Driver`]), the sensor slot
//! contract, the header-bound row check after the loop, the
//! expected-failure inversion (§30.5), and the teardown of the example's
//! states in reverse order of creation, whatever happened. The run it
//! returns holds every message cut at `varar_core::untrusted::TEXT_LIMIT`
//! (issue 34), after the `error` fence was judged on the whole text.
//!
//! The executor never inspects or copies a state, and never reads the
//! clock: a deadline comes in through the driver, and progress goes out
//! through [`Progress`], both supplied by the shell.

mod context;
mod states;

use std::panic::{AssertUnwindSafe, catch_unwind};

#[cfg(test)]
pub use context::StepTarget;
pub use context::{Context, Progress, StepLookup, Steps, Unwatched};
pub use varar_core::outcome::{ExampleRun, StepOutcome};

use crate::compare::{self, messages};
use crate::drive::{
    BuiltIn, Driver, Interrupted, catch_future, explain_panic, panic_message, take_panic_site,
    timed_out, while_in_step,
};
use crate::linked::LinkedSteps;
use crate::step::{Args, Handler, Invocation, Returned, Role, Trailing, World};
use varar_core::data::{DocString, Row, Table};
use varar_core::failure::{Attached, Failure, Problem, Shape};
use varar_core::plan::{Expectation, PlannedExample, PlannedStep, RowBinding};
use varar_core::source::Span;

/// Run one planned example against the registered steps (spec 30 §30.1.1),
/// with states from `Default`, on the built-in executor and without a
/// deadline. Handler errors and panics fail only this example.
pub fn execute<R: StepLookup + ?Sized>(example: &PlannedExample, registry: &R) -> ExampleRun {
    let driver = BuiltIn::new();
    execute_with(
        example,
        registry,
        &Context {
            lifecycle: None,
            resources: None,
            driver: &driver,
            progress: &Unwatched,
        },
    )
}

/// Run one planned example against the linked steps (spec 30 §30.1.1),
/// with states from `Default` (no resources, no factories), on the built-in
/// executor and without a deadline: what the conformance trace and the
/// bench run outside the harness. Handler errors and panics fail only this
/// example; call [`crate::install_quiet_panic_hook`] first to keep the
/// caught panics from printing.
pub fn execute_linked(example: &PlannedExample, steps: &LinkedSteps) -> ExampleRun {
    execute(example, steps)
}

/// Run one planned example in `context` (spec 30 §30.1.1, spec 60).
pub fn execute_with<R: StepLookup + ?Sized, D: Driver>(
    example: &PlannedExample,
    registry: &R,
    context: &Context<'_, D>,
) -> ExampleRun {
    let mut world = World::new();
    let mut steps = vec![StepOutcome::Skipped; example.steps.len()];
    let mut last_return = Returned::Nothing;
    let mut failure = None;
    // A row example's row, made once for all its steps.
    let row = example.row.as_ref().map(RowBinding::row);
    for (i, step) in example.steps.iter().enumerate() {
        context.progress.step(i);
        let mut outcome = run_step(
            (example, row.as_ref()),
            (i, step),
            registry,
            &mut world,
            context,
        );
        if outcome.is_ok()
            && let Some(deadline) = context.driver.deadline()
            && deadline.remaining().is_none()
        {
            // A blocking step returned after the limit: it is the one that
            // exceeded it.
            outcome = Err(Problem::thrown(timed_out(deadline.limit(), &step.text)));
        }
        match outcome {
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
    drop(last_return);
    context.progress.tearing_down();
    let teardown = states::tear_down(&mut world, context);
    let mut failure = invert(&example.expected, failure, last);
    let messages = teardown.iter().map(|(m, _)| m.clone()).collect();
    if failure.is_none()
        && let Some((message, step)) = teardown.into_iter().next()
    {
        let span = example
            .steps
            .get(step)
            .map(|s| s.match_span)
            .unwrap_or(example.span);
        failure = Some(Failure::locate(Problem::thrown(message), step, span));
    }
    // The fence was judged on the whole text; what is kept is bounded
    // (issue 34).
    ExampleRun {
        steps,
        failure,
        teardown: messages,
    }
    .bounded()
}

/// Expected-failure inversion (spec 30 §30.5).
pub fn invert(
    expected: &Expectation,
    failure: Option<Failure>,
    last: Option<(usize, Span)>,
) -> Option<Failure> {
    match (expected, failure) {
        (Expectation::Pass, failure) => failure,
        (Expectation::Fail { .. }, None) => Some(Failure::UnexpectedPass { last }),
        (Expectation::Fail { message: None }, Some(_)) => None,
        (Expectation::Fail { message: Some(m) }, Some(f)) if f.to_string().contains(m.as_str()) => {
            None
        }
        // The message is not contained: the original failure stands, unchanged.
        (Expectation::Fail { .. }, Some(f)) => Some(f),
    }
}

/// Prepare the step's state, call it and apply its role's return rules.
fn run_step<R: StepLookup + ?Sized, D: Driver>(
    (example, row): (&PlannedExample, Option<&Row>),
    (index, step): (usize, &PlannedStep),
    registry: &R,
    world: &mut World,
    context: &Context<'_, D>,
) -> Result<Returned, Problem> {
    let target = registry
        .target(step.step)
        .ok_or_else(|| Problem::thrown(messages::no_handler(&step.matched_expression)))?;
    let handler = target
        .handler
        .ok_or_else(|| Problem::thrown(messages::no_handler(target.expression)))?;
    check_wiring(example, step, target.trailing)?;
    world.enter_file(target.file);
    states::prepare(world, target.route, index, context)
        .map_err(|e| Problem::thrown(e.message(context.driver, &step.text)))?;
    let table = step.data_table.as_ref().map(|t| {
        let rows = std::iter::once(&t.header).chain(&t.rows);
        Table::new(rows.map(|r| r.cells.clone()).collect())
    });
    let doc_string = step.doc_string.as_ref().map(|d| DocString {
        content: d.content.clone(),
        content_type: d.content_type.clone(),
    });
    let invocation = Invocation {
        args: Args::planned(&step.args),
        row,
        table: table.as_ref(),
        doc_string: doc_string.as_ref(),
    };
    let returned = call(handler, world, &invocation, context.driver, &step.text)?;
    match target.role {
        Role::Stimulus => compare::check_stimulus(&returned)?,
        // A row example's return is checked once, after the loop.
        Role::Sensor if example.row.is_some() => {}
        Role::Sensor => compare::check_sensor(step, &returned)
            .map_err(|problem| explain_attachment(step, target.trailing, problem))?,
    }
    Ok(returned)
}

/// A table or doc string the document attaches to a sensor counts as a
/// slot (spec 30 §30.2). When the function does not take it and its return
/// has the wrong number of values, the slot-count message would mislead:
/// say what is attached, and where, instead (issue 10).
fn explain_attachment(step: &PlannedStep, trailing: Trailing, problem: Problem) -> Problem {
    let counting = matches!(
        problem,
        Problem::Shape(
            Shape::GotNothing { .. } | Shape::NotASequence { .. } | Shape::WrongLength { .. }
        )
    );
    if !counting || trailing != Trailing::None {
        return problem;
    }
    let attached = if let Some(table) = &step.data_table {
        Some((Attached::Table, table.span.start_line))
    } else {
        step.doc_string.as_ref().map(|d| {
            let kind = if d.closed {
                Attached::DocString
            } else {
                Attached::UnterminatedFence
            };
            (kind, d.fence_line)
        })
    };
    match attached {
        Some((attached, line)) => Problem::Shape(Shape::AttachmentNotTaken {
            attached,
            line,
            params: step.args.len(),
        }),
        None => problem,
    }
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
        Trailing::Row => return Err(Problem::thrown(messages::NO_ROW)),
        Trailing::Table => "a data table",
        Trailing::DocString => "a doc string",
    };
    match given {
        Some(g) if g == taken => Ok(()),
        Some(g) => Err(Problem::thrown(messages::attachment_mismatch(g, taken))),
        None => Err(Problem::thrown(messages::slot_count_mismatch(
            step.args.len(),
            step.args.len() + 1,
        ))),
    }
}

/// Call a handler, turning an `Err`, a panic or the deadline into a
/// `thrown` problem. A sync handler is a plain call; an async one's future
/// is driven on this thread.
fn call<D: Driver>(
    handler: Handler,
    world: &mut World,
    invocation: &Invocation<'_>,
    driver: &D,
    step_text: &str,
) -> Result<Returned, Problem> {
    let result = match handler {
        Handler::Sync(f) => {
            while_in_step(|| catch_unwind(AssertUnwindSafe(|| f(world, invocation))))
        }
        Handler::Async(f) => match driver.block_on(catch_future(f(world, invocation))) {
            Ok(result) => result,
            Err(Interrupted) => {
                let limit = driver.deadline().map(|d| d.limit()).unwrap_or_default();
                return Err(Problem::thrown(timed_out(limit, step_text)));
            }
        },
    };
    match result {
        Ok(Ok(returned)) => Ok(returned),
        Ok(Err(error)) => Err(Problem::thrown(error.message)),
        Err(payload) => Err(Problem::Thrown {
            message: explain_panic(panic_message(payload.as_ref()), driver.without_tokio()),
            panic: take_panic_site(),
        }),
    }
}

#[cfg(test)]
mod tests;
