//! Calling a step: what its generated entry point receives ([`Invocation`])
//! and hands back ([`StepResult`]), sync or async ([`Handler`]).

use super::result::{BoxFuture, StepResult};
use super::world::World;
use varar_core::data::{DocString, Row, Table};
use varar_core::plan::PlannedArg;
use varar_expression::ArgValue;

/// What a handler is called with: the transformed captures and the trailing
/// attachment of this step in this example.
#[derive(Clone, Copy, Debug)]
pub struct Invocation<'a> {
    /// One value per expression parameter, in order.
    pub args: Args<'a>,
    /// The row object of a header-bound row example.
    pub row: Option<&'a Row>,
    /// The trailing data table, header first.
    pub table: Option<&'a Table>,
    /// The trailing doc string.
    pub doc_string: Option<&'a DocString>,
}

/// The values of a step's captures, in order: a list of values, or read
/// in place from the planned step's arguments (what the executor hands
/// over, so that a step's values are not copied each time it runs).
#[derive(Clone, Copy, Debug)]
pub struct Args<'a>(Values<'a>);

#[derive(Clone, Copy, Debug)]
enum Values<'a> {
    Listed(&'a [ArgValue]),
    Planned(&'a [PlannedArg]),
}

impl<'a> Args<'a> {
    /// The values of a planned step's arguments.
    pub fn planned(args: &'a [PlannedArg]) -> Args<'a> {
        Args(Values::Planned(args))
    }

    /// Value `index` (0-based), if there is one.
    pub fn get(&self, index: usize) -> Option<&'a ArgValue> {
        match self.0 {
            Values::Listed(values) => values.get(index),
            Values::Planned(args) => args.get(index).map(|a| &*a.value),
        }
    }

    /// How many values there are.
    pub fn len(&self) -> usize {
        match self.0 {
            Values::Listed(values) => values.len(),
            Values::Planned(args) => args.len(),
        }
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl<'a> From<&'a [ArgValue]> for Args<'a> {
    fn from(values: &'a [ArgValue]) -> Args<'a> {
        Args(Values::Listed(values))
    }
}

impl<'a, const N: usize> From<&'a [ArgValue; N]> for Args<'a> {
    fn from(values: &'a [ArgValue; N]) -> Args<'a> {
        Args(Values::Listed(values))
    }
}

/// The type-erased entry point generated for a step function: a plain call
/// for a `fn` step (no future, no allocation), a boxed future for an
/// `async fn` step.
#[derive(Clone, Copy, Debug)]
pub enum Handler {
    /// A `fn` step.
    Sync(fn(&mut World, &Invocation<'_>) -> StepResult),
    /// An `async fn` step; the future borrows the world and the invocation.
    Async(for<'a> fn(&'a mut World, &'a Invocation<'a>) -> BoxFuture<'a, StepResult>),
}
