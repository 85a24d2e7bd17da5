//! Resources, state factories and teardowns (spec 60.4–60.6), checked
//! against the steps that use them before anything runs.
//!
//! The macros cannot see each other: `#[stimulus]` on `fn f(shop: &Shop)`
//! does not know whether `Shop` is a run-wide resource or a per-example
//! state. Each registration records its types by `TypeId`; [`Lifecycle::build`]
//! matches them, collects every problem (two resources for one type, a
//! resource taken by `&mut`, a state with neither a factory nor `Default`,
//! a factory taking a non-resource) and resolves each step's state
//! parameter to a [`Route`], so that running a step only follows it.

mod check;
mod errors;
mod linked;
mod model;
mod resources;
#[cfg(test)]
mod tests;

pub use errors::LifecycleErrors;
pub use model::{Lifecycle, Make, Route, StateSpec, StepUse};
pub use resources::{Acquired, ResourceStore, ResourceTeardown};
