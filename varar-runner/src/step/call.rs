//! Calling a step: what its generated entry point receives ([`Invocation`])
//! and hands back ([`StepResult`]), sync or async ([`Handler`]).

use super::result::{BoxFuture, StepResult};
use super::world::World;
use varar_core::data::{DocString, Row, Table};
use varar_expression::ArgValue;

/// What a handler is called with: the transformed captures and the trailing
/// attachment of this step in this example.
#[derive(Clone, Copy, Debug)]
pub struct Invocation<'a> {
    /// One value per expression parameter, in order.
    pub args: &'a [ArgValue],
    /// The row object of a header-bound row example.
    pub row: Option<&'a Row>,
    /// The trailing data table, header first.
    pub table: Option<&'a Table>,
    /// The trailing doc string.
    pub doc_string: Option<&'a DocString>,
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
