//! What can be wrong with the registrations (spec 60.4–60.6), every
//! problem collected.

use std::fmt;

use crate::step::type_label;

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

pub(super) fn twice(
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
