//! Running one example inside its libtest trial (spec 60.6–60.7).
//!
//! Without a limit the example runs on the trial's own thread. With one, it
//! runs on a thread of its own (reused from a pool), which the trial waits
//! for until the limit
//! (plus a short grace for an async step's cancellation and teardown to
//! report): a blocking sync step that never returns keeps only that thread,
//! which is abandoned, and the trial fails with the `timed out` message at
//! the step the example had reached.

use std::sync::Arc;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use super::pool::Pool;
use super::runtime::{Clock, RuntimeHandle};
use super::watch::ExampleProgress;
use crate::drive::timed_out;
use crate::execute::{Context, ExampleRun, StepOutcome, Steps, execute_with, invert};
use crate::harness::setup::timeout::Limit;
use crate::lifecycle::{Lifecycle, ResourceStore};
use crate::linked::LinkedSteps;
use varar_core::failure::{Failure, Problem};
use varar_core::plan::PlannedExample;

/// How long a trial waits past the limit for the example to report itself
/// (an async step is cancelled and its states torn down in that time).
const GRACE: Duration = Duration::from_millis(250);

/// What every example of a run shares.
pub(crate) struct RunShared {
    pub steps: Arc<LinkedSteps>,
    pub lifecycle: Arc<Lifecycle>,
    pub resources: Arc<ResourceStore>,
    pub runtime: RuntimeHandle,
    pub limit: Option<Limit>,
    /// Threads for limited examples.
    pub threads: Arc<Pool>,
    /// The project whose `.varar/` receives an oath's results as soon as
    /// its last example has run (`None` for a listing, which runs none).
    pub results_root: Option<std::path::PathBuf>,
    /// How failures are drawn (once for the run, not once per trial).
    pub styles: varar_core::render::Styles,
    /// Every example that has started, for the watchdog.
    pub watch: Arc<super::watch::Watch>,
}

/// Run one example and return its outcome.
pub(crate) fn run_example(
    shared: &Arc<RunShared>,
    example: &Arc<PlannedExample>,
    progress: &Arc<ExampleProgress>,
) -> ExampleRun {
    progress.begin();
    let Some(limit) = shared.limit.clone() else {
        let run = execute_here(shared, example, progress, None);
        progress.finish();
        return run;
    };
    let (tx, rx) = mpsc::sync_channel(1);
    let clock = Clock::start(&limit);
    let spawned = {
        let (shared, example, progress) = (
            Arc::clone(shared),
            Arc::clone(example),
            Arc::clone(progress),
        );
        let threads = Arc::clone(&shared.threads);
        threads.run(Box::new(move || {
            let run = execute_here(&shared, &example, &progress, Some(&clock));
            progress.finish();
            let _ = tx.send(run);
        }))
    };
    if spawned.is_err() {
        // No thread to spare: run here, with the deadline for async steps.
        let clock = Clock::start(&limit);
        let run = execute_here(shared, example, progress, Some(&clock));
        progress.finish();
        return run;
    }
    match rx.recv_timeout(limit.duration + GRACE) {
        Ok(run) => return run,
        Err(RecvTimeoutError::Disconnected) => return lost(example, progress),
        Err(RecvTimeoutError::Timeout) => {}
    }
    if progress.is_tearing_down()
        && let Ok(run) = rx.recv_timeout(limit.duration)
    {
        return run;
    }
    progress.abandon();
    timed_out_run(example, progress.step_index(), &limit.written)
}

fn execute_here(
    shared: &RunShared,
    example: &PlannedExample,
    progress: &ExampleProgress,
    clock: Option<&Clock>,
) -> ExampleRun {
    let steps = Steps {
        steps: &shared.steps,
        lifecycle: &shared.lifecycle,
    };
    shared.runtime.with_driver(clock, |driver| {
        execute_with(
            example,
            &steps,
            &Context {
                lifecycle: Some(&shared.lifecycle),
                resources: Some(&shared.resources),
                driver,
                progress,
            },
        )
    })
}

/// The outcome of an example abandoned at step `at`.
pub(crate) fn timed_out_run(example: &PlannedExample, at: usize, limit: &str) -> ExampleRun {
    let text = example.steps.get(at).map(|s| &*s.text).unwrap_or("");
    let span = example
        .steps
        .get(at)
        .map(|s| s.match_span)
        .unwrap_or(example.span);
    let failure = Failure::locate(Problem::thrown(timed_out(limit, text)), at, span);
    let steps = (0..example.steps.len())
        .map(|i| match i.cmp(&at) {
            std::cmp::Ordering::Less => StepOutcome::Passed,
            std::cmp::Ordering::Equal => StepOutcome::Failed(failure.clone()),
            std::cmp::Ordering::Greater => StepOutcome::Skipped,
        })
        .collect();
    let last = example
        .steps
        .len()
        .checked_sub(1)
        .map(|i| (i, example.steps[i].match_span));
    ExampleRun {
        steps,
        failure: invert(&example.expected, Some(failure), last),
        teardown: Vec::new(),
    }
    .bounded()
}

/// The example's thread ended without a result (it cannot panic: every
/// call into user code is caught), reported rather than ignored.
fn lost(example: &PlannedExample, progress: &ExampleProgress) -> ExampleRun {
    let at = progress.step_index();
    let span = example
        .steps
        .get(at)
        .map(|s| s.match_span)
        .unwrap_or(example.span);
    let failure = Failure::locate(
        Problem::thrown("the example's thread ended without reporting a result"),
        at,
        span,
    );
    ExampleRun {
        steps: vec![StepOutcome::Skipped; example.steps.len()],
        failure: Some(failure),
        teardown: Vec::new(),
    }
}
