//! What an example runs with: the step definitions its planned steps were
//! matched to ([`StepLookup`]), and the shell's driver and progress
//! ([`Context`]).

use crate::drive::Driver;
use crate::lifecycle::{Lifecycle, Make, ResourceStore, Route};
use crate::linked::LinkedSteps;
use crate::step::{Handler, Role, Trailing};

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
    /// Where its state parameter comes from; `None` when it takes none.
    pub route: Option<Route>,
}

/// Looks up step definitions by the registry index planning recorded in
/// [`PlannedStep::step`].
pub trait StepLookup {
    /// The definition at `index`, if there is one.
    fn target(&self, index: usize) -> Option<StepTarget<'_>>;
}

/// Without registered factories or resources, a state comes from `Default`.
impl StepLookup for LinkedSteps {
    fn target(&self, index: usize) -> Option<StepTarget<'_>> {
        let spec = &self.registry().steps.get(index)?.spec;
        let code = self.code(index)?;
        Some(StepTarget {
            role: spec.role,
            expression: &spec.expression,
            file: &spec.file,
            handler: Some(code.handler),
            trailing: spec.trailing,
            route: code.state.and_then(|p| {
                (p.default)().map(|ctor| Route::State {
                    type_id: (p.type_id)(),
                    type_name: (p.type_name)(),
                    make: Make::Default(ctor),
                })
            }),
        })
    }
}

/// The registry with its checked resources and factories.
#[derive(Clone, Copy)]
pub struct Steps<'a> {
    /// The steps.
    pub steps: &'a LinkedSteps,
    /// Their routes, factories, resources and teardowns.
    pub lifecycle: &'a Lifecycle,
}

impl StepLookup for Steps<'_> {
    fn target(&self, index: usize) -> Option<StepTarget<'_>> {
        self.steps.target(index).map(|t| StepTarget {
            route: self.lifecycle.route(index),
            ..t
        })
    }
}

impl StepLookup for [StepTarget<'_>] {
    fn target(&self, index: usize) -> Option<StepTarget<'_>> {
        self.get(index).copied()
    }
}

/// Where an example has got to, for the shell's timeout and `SLOW` notice.
pub trait Progress: Sync {
    /// Step `index` is about to be prepared and run.
    fn step(&self, index: usize);
    /// The steps are over; teardowns are running.
    fn tearing_down(&self) {}
}

/// A [`Progress`] nobody watches.
pub struct Unwatched;

impl Progress for Unwatched {
    fn step(&self, _: usize) {}
}

/// What an example runs with besides its steps.
pub struct Context<'a, D: Driver> {
    /// Factories and teardowns (none when `None`).
    pub lifecycle: Option<&'a Lifecycle>,
    /// The run's resources.
    pub resources: Option<&'a ResourceStore>,
    /// Drives futures and knows the deadline.
    pub driver: &'a D,
    /// Told which step runs.
    pub progress: &'a dyn Progress,
}
