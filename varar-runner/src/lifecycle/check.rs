//! Checking the registrations against the steps (spec 60.4–60.6): one
//! registration per type, factories that take resources only, and a route
//! for every step's state parameter.

use std::any::TypeId;
use std::collections::HashMap;

use super::errors::{LifecycleError, LifecycleErrors, twice};
use super::model::{Lifecycle, Make, ResourceSpec, Route, StateSpec, StepUse, TeardownSpec};
use crate::step::{Access, type_label};

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
        check_factories(&states, &resources, &by_resource, &mut errors);
        let routes = route_steps(steps, &by_resource, &by_state, &mut errors);
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
}

/// A factory may not build a resource type, and takes resources only.
fn check_factories(
    states: &[StateSpec],
    resources: &[ResourceSpec],
    by_resource: &HashMap<TypeId, usize>,
    errors: &mut Vec<LifecycleError>,
) {
    for factory in states {
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
}

/// Where each step's state parameter comes from: the shared resource, its
/// factory, or `Default`. A state type with neither is reported once, at
/// the first step that takes it.
fn route_steps(
    steps: &[StepUse<'_>],
    by_resource: &HashMap<TypeId, usize>,
    by_state: &HashMap<TypeId, usize>,
    errors: &mut Vec<LifecycleError>,
) -> Vec<Option<Route>> {
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
    routes
}
