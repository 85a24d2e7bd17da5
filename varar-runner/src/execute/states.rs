//! An example's states (spec 60.4–60.6): made before the first step that
//! needs them (a lent resource, a factory's value or `Default`), torn down
//! after the example in reverse order of creation.

use super::context::Context;
use crate::drive::{Driver, catch_future, explain_panic, guarded, panic_message, timed_out};
use crate::lifecycle::{Acquired, Lifecycle, Make, ResourceStore, Route, StateSpec};
use crate::step::{Built, Lent, StateBuild, Stored, TeardownCall, World, type_label};

/// Why a step's state could not be made.
#[derive(Debug)]
pub(super) enum PrepareError {
    /// The message to fail with (spec 60.4/60.5 wording).
    Failed(String),
    /// The deadline passed while building.
    Interrupted,
}

impl PrepareError {
    /// The `thrown` message for the step with this text.
    pub(super) fn message<D: Driver>(&self, driver: &D, step_text: &str) -> String {
        match self {
            PrepareError::Failed(m) => m.clone(),
            PrepareError::Interrupted => {
                let limit = driver.deadline().map(|d| d.limit()).unwrap_or_default();
                timed_out(limit, step_text)
            }
        }
    }
}

fn parts<'a, D: Driver>(
    context: &Context<'a, D>,
) -> Result<(&'a Lifecycle, &'a ResourceStore), PrepareError> {
    match (context.lifecycle, context.resources) {
        (Some(l), Some(r)) => Ok((l, r)),
        _ => Err(PrepareError::Failed(
            "this run has no resources or factories".to_string(),
        )),
    }
}

fn acquire<D: Driver>(
    store: &ResourceStore,
    index: usize,
    driver: &D,
) -> Result<std::sync::Arc<dyn std::any::Any + Send + Sync>, PrepareError> {
    match store.acquire(index, driver) {
        Acquired::Ready(value) => Ok(value),
        Acquired::Failed(message) => Err(PrepareError::Failed(message)),
        Acquired::Interrupted => Err(PrepareError::Interrupted),
    }
}

/// Make sure the current file has the state the step at `step` takes.
pub(super) fn prepare<D: Driver>(
    world: &mut World,
    route: Option<Route>,
    step: usize,
    context: &Context<'_, D>,
) -> Result<(), PrepareError> {
    match route {
        None => Ok(()),
        Some(Route::Resource(index)) => {
            let (lifecycle, store) = parts(context)?;
            let spec = &lifecycle.resources[index];
            if !world.has(spec.type_id) {
                let value = acquire(store, index, context.driver)?;
                world.insert(spec.type_id, spec.type_name, Stored::Shared(value), step);
            }
            Ok(())
        }
        Some(Route::State {
            type_id,
            type_name,
            make,
        }) => {
            if world.has(type_id) {
                return Ok(());
            }
            let failed = |message: String| {
                PrepareError::Failed(format!(
                    "state {} could not be built: {message}",
                    type_label(type_name)
                ))
            };
            let value = match make {
                Make::Default(ctor) => guarded(ctor).map_err(failed)?,
                Make::Factory(index) => {
                    let (lifecycle, store) = parts(context)?;
                    factory(&lifecycle.states[index], lifecycle, store, context)?
                        .map_err(|m| failed(explain_panic(m, context.driver.without_tokio())))?
                }
            };
            world.insert(type_id, type_name, Stored::Owned(value), step);
            Ok(())
        }
    }
}

/// Build the resources a factory takes, then call it.
fn factory<D: Driver>(
    spec: &StateSpec,
    lifecycle: &Lifecycle,
    store: &ResourceStore,
    context: &Context<'_, D>,
) -> Result<Built, PrepareError> {
    let mut lent = Lent::new();
    for (type_id, _) in &spec.needs {
        // Checked when the lifecycle was built: every need is a resource.
        let Some(index) = lifecycle
            .resources
            .iter()
            .position(|r| r.type_id == *type_id)
        else {
            continue;
        };
        lent.push(*type_id, acquire(store, index, context.driver)?);
    }
    Ok(match spec.build {
        StateBuild::Sync(f) => guarded(|| f(&lent)).and_then(|r| r),
        StateBuild::Async(f) => match context.driver.block_on(catch_future(f(&lent))) {
            Ok(Ok(built)) => built,
            Ok(Err(payload)) => Err(panic_message(payload.as_ref())),
            Err(_) => return Err(PrepareError::Interrupted),
        },
    })
}

/// Tear down the example's own states, newest first. Returns each failure
/// (`teardown of <S> failed: …`) with the index of the step that made the
/// state. Lent resources are only given back.
pub(super) fn tear_down<D: Driver>(
    world: &mut World,
    context: &Context<'_, D>,
) -> Vec<(String, usize)> {
    let mut failures = Vec::new();
    for released in world.release() {
        let Stored::Owned(value) = released.value else {
            continue;
        };
        let Some(spec) = context.lifecycle.and_then(|l| l.teardown(released.type_id)) else {
            continue;
        };
        let run = spec.run;
        let result = match guarded(move || run(value)) {
            Err(message) => Err(message),
            Ok(TeardownCall::Done(result)) => result,
            Ok(TeardownCall::Pending(future)) => {
                match context.driver.block_on_unlimited(catch_future(future)) {
                    Ok(result) => result,
                    Err(payload) => Err(panic_message(payload.as_ref())),
                }
            }
        };
        if let Err(message) = result {
            failures.push((
                format!(
                    "teardown of {} failed: {}",
                    type_label(released.type_name),
                    explain_panic(message, context.driver.without_tokio())
                ),
                released.step,
            ));
        }
    }
    failures
}
