//! The registrations as the checks and the executor see them, and where
//! each step's state comes from ([`Route`]).

use std::any::{Any, TypeId};

use crate::step::{DefaultCtor, ResourceBuild, StateBuild, StateParam, TeardownCall, Unwrap};

/// A `#[varar::resource]` function.
#[derive(Clone, Debug)]
pub struct ResourceSpec {
    /// The function's name.
    pub name: String,
    /// The type it builds.
    pub type_id: TypeId,
    /// `type_name` of that type.
    pub type_name: &'static str,
    /// The entry point.
    pub build: ResourceBuild,
    /// Takes the value back for teardown.
    pub unwrap: Unwrap,
    /// Where it is declared.
    pub file: String,
    /// Where it is declared.
    pub line: u32,
}

/// A `#[varar::state]` factory.
#[derive(Clone, Debug)]
pub struct StateSpec {
    /// The function's name.
    pub name: String,
    /// The state type it builds.
    pub type_id: TypeId,
    /// `type_name` of that type.
    pub type_name: &'static str,
    /// The resource types it takes, in order.
    pub needs: Vec<(TypeId, &'static str)>,
    /// The entry point.
    pub build: StateBuild,
    /// Where it is declared.
    pub file: String,
    /// Where it is declared.
    pub line: u32,
}

/// A `#[varar::teardown]` function.
#[derive(Clone, Debug)]
pub struct TeardownSpec {
    /// The function's name.
    pub name: String,
    /// The type it tears down.
    pub type_id: TypeId,
    /// `type_name` of that type.
    pub type_name: &'static str,
    /// The entry point.
    pub run: fn(Box<dyn Any + Send>) -> TeardownCall,
    /// Where it is declared.
    pub file: String,
    /// Where it is declared.
    pub line: u32,
}

/// How a state is made when a step first needs it.
#[derive(Clone, Copy, Debug)]
pub enum Make {
    /// By the factory at this index of [`Lifecycle::states`].
    Factory(usize),
    /// By `Default`.
    Default(DefaultCtor),
}

/// Where a step's state parameter comes from.
#[derive(Clone, Copy, Debug)]
pub enum Route {
    /// The run-wide resource at this index of [`Lifecycle::resources`].
    Resource(usize),
    /// The example's own state of this type.
    State {
        /// The state type.
        type_id: TypeId,
        /// `type_name` of it.
        type_name: &'static str,
        /// How to make it.
        make: Make,
    },
}

/// A step as the checks see it.
#[derive(Clone, Copy, Debug)]
pub struct StepUse<'a> {
    /// The expression (how messages name the step).
    pub expression: &'a str,
    /// Where it is declared.
    pub file: &'a str,
    /// Where it is declared.
    pub line: u32,
    /// Its state parameter.
    pub state: Option<StateParam>,
}

/// The checked registrations and each step's route.
#[derive(Clone, Debug, Default)]
pub struct Lifecycle {
    /// The resource functions.
    pub resources: Vec<ResourceSpec>,
    /// The state factories.
    pub states: Vec<StateSpec>,
    /// The teardowns.
    pub teardowns: Vec<TeardownSpec>,
    /// Per step (registry order): where its state parameter comes from.
    pub routes: Vec<Option<Route>>,
}

impl Lifecycle {
    /// The route of the step at registry index `step`.
    pub fn route(&self, step: usize) -> Option<Route> {
        self.routes.get(step).copied().flatten()
    }

    /// The teardown of a type, if one is registered.
    pub fn teardown(&self, type_id: TypeId) -> Option<&TeardownSpec> {
        self.teardowns.iter().find(|t| t.type_id == type_id)
    }
}
