//! How a step function's arguments are read: custom parameter types
//! ([`Parameter`], spec 20 §20.4, spec 50.3) and the trailing table, doc
//! string or row ([`TrailingData`], spec 30 §30.1.4).

use super::call::Invocation;
use super::result::StepError;
use varar_core::data::{DocString, Row, Table};
use varar_core::registry::Trailing;

/// A custom parameter type: a Rust type read from its regex's capture groups.
///
/// Implemented by `#[varar::parameter]` for the type its parse function
/// returns, under a marker type `M` the attribute generates next to it.
/// The marker is local to the user's crate, so the impl is allowed for any
/// type, one from another crate (`rust_decimal::Decimal`, the crate under
/// test's own `Money`) included: registration implements no foreign trait
/// on a foreign type. The step macros find the impl by the argument's type
/// (`M` is inferred), so one Rust type backs one custom parameter type.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a custom parameter type",
    label = "a slot that is not a built-in type takes a `#[varar::parameter]` type",
    note = "declare one with #[varar::parameter(name = \"…\", regex = \"…\")] on a parse function returning it"
)]
pub trait Parameter<M>: Sized + PartialEq + std::fmt::Debug + Send + 'static {
    /// The name used in expressions.
    const NAME: &'static str;
    /// The regex.
    const REGEX: &'static str;
    /// Build a value from the outermost capture groups (or the whole match).
    fn parse(groups: &[Option<&str>]) -> Result<Self, String>;
    /// The document notation of a value, used to show the actual side of a
    /// mismatch; `None` to fall back to the debug form.
    fn format(&self) -> Option<String>;
}

/// The document's table, doc string or header-bound row, as a step's last
/// argument receives it (spec 30 §30.1.4): implemented for [`Table`],
/// [`DocString`] and [`Row`] only, so the step macros recognise a trailing
/// argument by its type, never by its name.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not varar's `Table`, `DocString` or `Row`",
    label = "a step's last argument named like this receives the document's attachment",
    note = "take `varar::Table`, `varar::DocString` or `varar::Row` here; if this is a type of your own, write it with its path (e.g. `crate::Table`) so it is read as a capture or the state"
)]
pub trait TrailingData: Clone + Send + 'static {
    /// Which attachment.
    const KIND: Trailing;
    /// The attachment of this invocation.
    fn from_invocation<'a>(inv: &Invocation<'a>) -> Result<&'a Self, StepError>;
}

impl TrailingData for Table {
    const KIND: Trailing = Trailing::Table;
    fn from_invocation<'a>(inv: &Invocation<'a>) -> Result<&'a Self, StepError> {
        inv.table
            .ok_or_else(|| StepError::new("this step takes a table, but the document gives none"))
    }
}

impl TrailingData for DocString {
    const KIND: Trailing = Trailing::DocString;
    fn from_invocation<'a>(inv: &Invocation<'a>) -> Result<&'a Self, StepError> {
        inv.doc_string.ok_or_else(|| {
            StepError::new("this step takes a doc string, but the document gives none")
        })
    }
}

impl TrailingData for Row {
    const KIND: Trailing = Trailing::Row;
    fn from_invocation<'a>(inv: &Invocation<'a>) -> Result<&'a Self, StepError> {
        inv.row.ok_or_else(|| {
            StepError::new(
                "this step takes a header-bound row, but the sentence is not bound to a table",
            )
        })
    }
}
