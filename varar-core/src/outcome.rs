//! The outcome of running one planned example (spec 30 §30.1.1, §30.7): one
//! [`StepOutcome`] per planned step and the example's failure after the
//! expected-failure inversion. The executor (in `varar-runner`, which calls
//! the step functions) produces it; the run results, the conformance trace
//! and the failure rendering read it.

use crate::failure::Failure;

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
    /// the example passes. A failing teardown is the failure only when the
    /// example had none of its own.
    pub failure: Option<Failure>,
    /// Every failed state teardown (`teardown of <S> failed: …`), shown
    /// after the example's own failure.
    pub teardown: Vec<String>,
}

impl ExampleRun {
    /// Whether the example passes (after inversion).
    pub fn passed(&self) -> bool {
        self.failure.is_none()
    }

    /// The run with every failure [`Failure::bounded`] and every teardown
    /// message cut at [`crate::untrusted::TEXT_LIMIT`] (issue 34): what the
    /// executor hands on, after the `error` fence was judged on the whole
    /// text, so that the result file, the run record and the failure text
    /// all hold the same bounded text.
    pub fn bounded(mut self) -> ExampleRun {
        // In place, and only what failed: most runs fail nowhere, and a
        // new list of every step was a percent of a debug run.
        for step in &mut self.steps {
            if matches!(step, StepOutcome::Failed(_))
                && let StepOutcome::Failed(failure) = std::mem::replace(step, StepOutcome::Skipped)
            {
                *step = StepOutcome::Failed(failure.bounded());
            }
        }
        for message in &mut self.teardown {
            *message = crate::untrusted::cut_string(std::mem::take(message));
        }
        ExampleRun {
            failure: self.failure.map(Failure::bounded),
            ..self
        }
    }
}
