//! Run-wide resources (spec 60.4): each built at most once per run, lazily,
//! by the first example that needs it; concurrent first uses wait for that
//! one build; a failed build is remembered and never retried; teardown runs
//! once, in reverse order of building.
//!
//! The store blocks the *example's* thread while another example builds
//! (never a runtime worker: examples run on libtest's threads). Building and
//! tearing down go through the executor's [`Driver`], so an `async fn`
//! resource runs on the run's runtime.

use std::any::Any;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use super::model::ResourceSpec;
use crate::drive::{Driver, catch_future, explain_panic, guarded, panic_message};
use crate::step::{ResourceBuild, TeardownCall, type_label};

type Shared = Arc<dyn Any + Send + Sync>;

enum Cell {
    Empty,
    Building,
    Built(Shared),
    Failed(String),
    Gone,
}

/// What asking for a resource gave.
#[derive(Clone)]
pub enum Acquired {
    /// The shared value.
    Ready(Shared),
    /// The build failed (now or earlier): spec 60.4's message.
    Failed(String),
    /// The deadline passed while this example was building it; the build
    /// was abandoned and another example may try again.
    Interrupted,
}

/// How tearing down one resource went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResourceTeardown {
    /// Its teardown failed or panicked: the run fails with this message.
    Failed(String),
    /// It could not be taken back (a timed-out example still holds it).
    Skipped(String),
}

/// The resources of one run.
pub struct ResourceStore {
    specs: Vec<ResourceSpec>,
    cells: Vec<(Mutex<Cell>, Condvar)>,
    order: Mutex<Vec<usize>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A poisoned lock only means a panic elsewhere while it was held; the
    // cell is always left in a consistent state.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl ResourceStore {
    /// A store for these resource functions; nothing is built yet.
    pub fn new(specs: Vec<ResourceSpec>) -> Self {
        let cells = specs
            .iter()
            .map(|_| (Mutex::new(Cell::Empty), Condvar::new()))
            .collect();
        ResourceStore {
            specs,
            cells,
            order: Mutex::new(Vec::new()),
        }
    }

    /// The resource at `index`, building it on this thread if nobody has.
    pub fn acquire<D: Driver>(&self, index: usize, driver: &D) -> Acquired {
        let Some((cell, ready)) = self.cells.get(index) else {
            return Acquired::Failed(format!("no resource at index {index}"));
        };
        let spec = &self.specs[index];
        let label = type_label(spec.type_name);
        let mut guard = lock(cell);
        loop {
            match &*guard {
                Cell::Built(v) => return Acquired::Ready(Arc::clone(v)),
                Cell::Failed(m) => return Acquired::Failed(m.clone()),
                Cell::Gone => {
                    return Acquired::Failed(format!("resource {label} was already torn down"));
                }
                Cell::Building => {
                    guard = ready.wait(guard).unwrap_or_else(|e| e.into_inner());
                }
                Cell::Empty => break,
            }
        }
        *guard = Cell::Building;
        drop(guard);
        let outcome = build(spec.build, driver);
        let mut guard = lock(cell);
        let acquired = match outcome {
            Some(Ok(value)) => {
                *guard = Cell::Built(Arc::clone(&value));
                lock(&self.order).push(index);
                Acquired::Ready(value)
            }
            Some(Err(message)) => {
                let message = format!(
                    "resource {label} could not be built: {}",
                    explain_panic(message, driver.without_tokio())
                );
                *guard = Cell::Failed(message.clone());
                Acquired::Failed(message)
            }
            None => {
                *guard = Cell::Empty;
                Acquired::Interrupted
            }
        };
        ready.notify_all();
        acquired
    }

    /// Tear every built resource down, newest first, with its registered
    /// teardown (or by dropping it). Returns what went wrong.
    pub fn teardown_all<D: Driver>(
        &self,
        teardown: impl Fn(std::any::TypeId) -> Option<fn(Box<dyn Any + Send>) -> TeardownCall>,
        driver: &D,
    ) -> Vec<ResourceTeardown> {
        let order = std::mem::take(&mut *lock(&self.order));
        let mut problems = Vec::new();
        for index in order.into_iter().rev() {
            let spec = &self.specs[index];
            let label = type_label(spec.type_name);
            let shared = match std::mem::replace(&mut *lock(&self.cells[index].0), Cell::Gone) {
                Cell::Built(v) => v,
                _ => continue,
            };
            let value = match (spec.unwrap)(shared) {
                Ok(value) => value,
                Err(_still_held) => {
                    problems.push(ResourceTeardown::Skipped(format!(
                        "teardown of resource {label} skipped: an example whose step never returned still holds it"
                    )));
                    continue;
                }
            };
            let Some(run) = teardown(spec.type_id) else {
                // Dropped here, inside the runtime, before it shuts down.
                drop(value);
                continue;
            };
            let result = match guarded(move || run(value)) {
                Err(message) => Err(message),
                Ok(TeardownCall::Done(r)) => r,
                Ok(TeardownCall::Pending(future)) => {
                    match driver.block_on_unlimited(catch_future(future)) {
                        Ok(r) => r,
                        Err(payload) => Err(panic_message(payload.as_ref())),
                    }
                }
            };
            if let Err(message) = result {
                problems.push(ResourceTeardown::Failed(format!(
                    "teardown of resource {label} failed: {}",
                    explain_panic(message, driver.without_tokio())
                )));
            }
        }
        problems
    }
}

/// Run a resource function: `None` when the deadline interrupted it.
fn build<D: Driver>(how: ResourceBuild, driver: &D) -> Option<Result<Shared, String>> {
    match how {
        ResourceBuild::Sync(f) => Some(guarded(f).and_then(|r| r)),
        ResourceBuild::Async(f) => match driver.block_on(catch_future(f())) {
            Ok(Ok(result)) => Some(result),
            Ok(Err(payload)) => Some(Err(panic_message(payload.as_ref()))),
            Err(_) => None,
        },
    }
}
