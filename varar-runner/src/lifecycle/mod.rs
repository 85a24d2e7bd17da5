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

mod resources;

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::fmt;

pub use resources::{Acquired, ResourceStore, ResourceTeardown};

use crate::step::{
    Access, DefaultCtor, ResourceBuild, ResourceDef, StateBuild, StateDef, StateParam,
    TeardownCall, TeardownDef, Unwrap, type_label,
};

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

/// What is wrong with the registrations (spec 60.4–60.6).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LifecycleError {
    /// Two functions register the same type.
    #[error(
        "two #[varar::{attribute}] functions for {type_label}: `{first}` at {first_file}:{first_line} and `{second}` at {second_file}:{second_line}"
    )]
    Twice {
        /// `resource`, `state` or `teardown`.
        attribute: &'static str,
        /// The type.
        type_label: String,
        /// The first function.
        first: String,
        /// Its file.
        first_file: String,
        /// Its line.
        first_line: u32,
        /// The second function.
        second: String,
        /// Its file.
        second_file: String,
        /// Its line.
        second_line: u32,
    },
    /// A type has both a resource function and a state factory.
    #[error(
        "{type_label} is both a run-wide resource (`{resource}` at {resource_file}:{resource_line}) and a per-example state (`{factory}` at {factory_file}:{factory_line}): keep one"
    )]
    ResourceAndState {
        /// The type.
        type_label: String,
        /// The resource function.
        resource: String,
        /// Its file.
        resource_file: String,
        /// Its line.
        resource_line: u32,
        /// The factory.
        factory: String,
        /// Its file.
        factory_file: String,
        /// Its line.
        factory_line: u32,
    },
    /// A step takes a resource by `&mut` or by value (spec 60.4's text).
    #[error(
        "{file}:{line}: step \"{expression}\" takes {type_label} {access}, but {type_label} is a run-wide resource: take &{type_label}"
    )]
    ResourceNotShared {
        /// The step's expression.
        expression: String,
        /// The type.
        type_label: String,
        /// `by mut reference` or `by value`.
        access: &'static str,
        /// The step's file.
        file: String,
        /// The step's line.
        line: u32,
    },
    /// A state type with neither a factory nor `Default` (spec 60.5).
    #[error(
        "{file}:{line}: step \"{expression}\" takes the state {type_label}, which has neither a #[varar::state] factory nor a Default implementation: derive or implement Default for {type_label}, or add a #[varar::state] function that returns it"
    )]
    NoFactory {
        /// The first step that uses it.
        expression: String,
        /// The type.
        type_label: String,
        /// The step's file.
        file: String,
        /// The step's line.
        line: u32,
    },
    /// A factory takes something that is not a resource.
    #[error(
        "{file}:{line}: the state factory `{factory}` takes &{type_label}, but {type_label} is not a run-wide resource: declare a #[varar::resource] function that returns it"
    )]
    NotAResource {
        /// The factory.
        factory: String,
        /// The type.
        type_label: String,
        /// The factory's file.
        file: String,
        /// The factory's line.
        line: u32,
    },
}

/// Every problem found, one per line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LifecycleErrors {
    /// The problems; never empty.
    pub errors: Vec<LifecycleError>,
}

impl fmt::Display for LifecycleErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.errors.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for LifecycleErrors {}

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

fn twice(
    attribute: &'static str,
    type_name: &str,
    first: (&str, &str, u32),
    second: (&str, &str, u32),
) -> LifecycleError {
    LifecycleError::Twice {
        attribute,
        type_label: type_label(type_name),
        first: first.0.to_string(),
        first_file: first.1.to_string(),
        first_line: first.2,
        second: second.0.to_string(),
        second_file: second.1.to_string(),
        second_line: second.2,
    }
}

/// The index of each type's registration, and a `Twice` error for every
/// later one.
fn index_by_type<T>(
    attribute: &'static str,
    items: &[T],
    key: impl Fn(&T) -> (TypeId, &'static str, &str, &str, u32),
    errors: &mut Vec<LifecycleError>,
) -> HashMap<TypeId, usize> {
    let mut seen: HashMap<TypeId, usize> = HashMap::new();
    for (i, item) in items.iter().enumerate() {
        let (id, type_name, name, file, line) = key(item);
        match seen.get(&id) {
            Some(&j) => {
                let (_, _, first, first_file, first_line) = key(&items[j]);
                errors.push(twice(
                    attribute,
                    type_name,
                    (first, first_file, first_line),
                    (name, file, line),
                ));
            }
            None => {
                seen.insert(id, i);
            }
        }
    }
    seen
}

impl Lifecycle {
    /// Check the registrations against the steps (in registry order) and
    /// resolve every step's state parameter.
    pub fn build(
        resources: Vec<ResourceSpec>,
        states: Vec<StateSpec>,
        teardowns: Vec<TeardownSpec>,
        steps: &[StepUse<'_>],
    ) -> Result<Lifecycle, LifecycleErrors> {
        let mut errors = Vec::new();
        let by_resource = index_by_type(
            "resource",
            &resources,
            |r| (r.type_id, r.type_name, &r.name, &r.file, r.line),
            &mut errors,
        );
        let by_state = index_by_type(
            "state",
            &states,
            |s| (s.type_id, s.type_name, &s.name, &s.file, s.line),
            &mut errors,
        );
        index_by_type(
            "teardown",
            &teardowns,
            |t| (t.type_id, t.type_name, &t.name, &t.file, t.line),
            &mut errors,
        );
        for factory in &states {
            if let Some(&r) = by_resource.get(&factory.type_id) {
                let resource = &resources[r];
                errors.push(LifecycleError::ResourceAndState {
                    type_label: type_label(factory.type_name),
                    resource: resource.name.clone(),
                    resource_file: resource.file.clone(),
                    resource_line: resource.line,
                    factory: factory.name.clone(),
                    factory_file: factory.file.clone(),
                    factory_line: factory.line,
                });
            }
            for (id, name) in &factory.needs {
                if !by_resource.contains_key(id) {
                    errors.push(LifecycleError::NotAResource {
                        factory: factory.name.clone(),
                        type_label: type_label(name),
                        file: factory.file.clone(),
                        line: factory.line,
                    });
                }
            }
        }
        let mut reported: Vec<TypeId> = Vec::new();
        let mut routes = Vec::with_capacity(steps.len());
        for step in steps {
            let Some(param) = step.state else {
                routes.push(None);
                continue;
            };
            let id = (param.type_id)();
            let name = (param.type_name)();
            if let Some(&r) = by_resource.get(&id) {
                if param.access != Access::Shared {
                    errors.push(LifecycleError::ResourceNotShared {
                        expression: step.expression.to_string(),
                        type_label: type_label(name),
                        access: param.access.describe(),
                        file: step.file.to_string(),
                        line: step.line,
                    });
                }
                routes.push(Some(Route::Resource(r)));
                continue;
            }
            let make = match (by_state.get(&id), (param.default)()) {
                (Some(&f), _) => Some(Make::Factory(f)),
                (None, Some(ctor)) => Some(Make::Default(ctor)),
                (None, None) => None,
            };
            match make {
                Some(make) => routes.push(Some(Route::State {
                    type_id: id,
                    type_name: name,
                    make,
                })),
                None => {
                    if !reported.contains(&id) {
                        reported.push(id);
                        errors.push(LifecycleError::NoFactory {
                            expression: step.expression.to_string(),
                            type_label: type_label(name),
                            file: step.file.to_string(),
                            line: step.line,
                        });
                    }
                    routes.push(None);
                }
            }
        }
        if errors.is_empty() {
            Ok(Lifecycle {
                resources,
                states,
                teardowns,
                routes,
            })
        } else {
            Err(LifecycleErrors { errors })
        }
    }

    /// Build from the `inventory` registrations whose module passes
    /// `include`, checked against `steps` (the registry's, in its order).
    pub fn from_inventory(
        include: impl Fn(&str) -> bool,
        steps: &[StepUse<'_>],
    ) -> Result<Lifecycle, LifecycleErrors> {
        let mut resources: Vec<&ResourceDef> = inventory::iter::<ResourceDef>
            .into_iter()
            .filter(|d| include(d.module_path))
            .collect();
        resources.sort_by_key(|d| (d.file, d.line));
        let mut states: Vec<&StateDef> = inventory::iter::<StateDef>
            .into_iter()
            .filter(|d| include(d.module_path))
            .collect();
        states.sort_by_key(|d| (d.file, d.line));
        let mut teardowns: Vec<&TeardownDef> = inventory::iter::<TeardownDef>
            .into_iter()
            .filter(|d| include(d.module_path))
            .collect();
        teardowns.sort_by_key(|d| (d.file, d.line));
        Lifecycle::build(
            resources
                .into_iter()
                .map(|d| ResourceSpec {
                    name: d.name.to_string(),
                    type_id: (d.type_id)(),
                    type_name: (d.type_name)(),
                    build: d.build,
                    unwrap: d.unwrap,
                    file: d.file.to_string(),
                    line: d.line,
                })
                .collect(),
            states
                .into_iter()
                .map(|d| StateSpec {
                    name: d.name.to_string(),
                    type_id: (d.type_id)(),
                    type_name: (d.type_name)(),
                    needs: d
                        .needs
                        .iter()
                        .map(|n| ((n.type_id)(), (n.type_name)()))
                        .collect(),
                    build: d.build,
                    file: d.file.to_string(),
                    line: d.line,
                })
                .collect(),
            teardowns
                .into_iter()
                .map(|d| TeardownSpec {
                    name: d.name.to_string(),
                    type_id: (d.type_id)(),
                    type_name: (d.type_name)(),
                    run: d.run,
                    file: d.file.to_string(),
                    line: d.line,
                })
                .collect(),
            steps,
        )
    }

    /// The route of the step at registry index `step`.
    pub fn route(&self, step: usize) -> Option<Route> {
        self.routes.get(step).copied().flatten()
    }

    /// The teardown of a type, if one is registered.
    pub fn teardown(&self, type_id: TypeId) -> Option<&TeardownSpec> {
        self.teardowns.iter().find(|t| t.type_id == type_id)
    }
}

#[cfg(test)]
mod tests;
