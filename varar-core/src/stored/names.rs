//! The step expressions and parameter types an oath's steps name, each
//! written once before its examples, each step naming them by number: a
//! step's expression was most of the bytes of a short step, written again
//! for every step, and read back by comparing strings.

use std::sync::Arc;

use crate::plan::{PlannedExample, PlannedStep};

/// The names of an oath's steps, numbered in the order first met.
#[derive(Debug, Default)]
pub(super) struct Names {
    /// Every expression and parameter type, once.
    pub(super) list: Vec<Arc<str>>,
    /// By a step's index in the registry, the number of its expression
    /// ([`NONE`] for a step not met): a plan's steps of one index share
    /// one expression, so most look-ups are one.
    by_step: Vec<u32>,
    /// The numbers of the parameter types, a few per oath.
    types: Vec<u32>,
}

/// No number (yet).
const NONE: u32 = u32::MAX;

impl Names {
    /// The names the steps of `examples` name.
    pub(super) fn of<'a>(examples: impl IntoIterator<Item = &'a PlannedExample>) -> Names {
        let mut names = Names::default();
        for step in examples.into_iter().flat_map(|e| &e.steps) {
            if names.expression(step) == NONE {
                let number = names.push(&step.matched_expression);
                if names.by_step.len() <= step.step {
                    names.by_step.resize(step.step + 1, NONE);
                }
                names.by_step[step.step] = number;
            }
            for arg in &step.args {
                if names.parameter_type(&arg.parameter_type) == NONE {
                    let number = names.push(&arg.parameter_type);
                    names.types.push(number);
                }
            }
        }
        names
    }

    /// `name`'s number, met now.
    fn push(&mut self, name: &Arc<str>) -> u32 {
        let number = u32::try_from(self.list.len()).unwrap_or(NONE);
        self.list.push(Arc::clone(name));
        number
    }

    /// The number of `step`'s expression, [`NONE`] when it was not met.
    pub(super) fn expression(&self, step: &PlannedStep) -> u32 {
        let same = |&number: &u32| {
            self.list
                .get(number as usize)
                .is_some_and(|name| same(name, &step.matched_expression))
        };
        match self.by_step.get(step.step) {
            Some(number) if same(number) => *number,
            // Another expression under the same index: no plan made from
            // one registry has it, and it is looked for among them all.
            _ => self.find(&step.matched_expression),
        }
    }

    /// The number of the parameter type `name`, [`NONE`] when it was not
    /// met.
    pub(super) fn parameter_type(&self, name: &Arc<str>) -> u32 {
        self.types
            .iter()
            .copied()
            .find(|&number| {
                self.list
                    .get(number as usize)
                    .is_some_and(|n| same(n, name))
            })
            .unwrap_or(NONE)
    }

    /// The number of `name`, [`NONE`] when it was not met.
    fn find(&self, name: &Arc<str>) -> u32 {
        self.list
            .iter()
            .position(|kept| same(kept, name))
            .and_then(|i| u32::try_from(i).ok())
            .unwrap_or(NONE)
    }
}

/// Whether two shared values are the same: mostly the one `Arc` (of the
/// registry's names, of an oath's heading lists), compared by content
/// only when they are two.
pub(super) fn same<T: ?Sized + PartialEq>(a: &Arc<T>, b: &Arc<T>) -> bool {
    Arc::ptr_eq(a, b) || **a == **b
}
