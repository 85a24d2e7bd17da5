//! The contract between generated step code and the engine (spec 50).
//!
//! `#[stimulus]`, `#[sensor]` and `#[parameter]` expand to code that only
//! talks to the engine through the items here: a type-erased [`Handler`] that
//! reads its arguments from an [`Invocation`], keeps its state in a [`World`],
//! and hands back what a sensor observed as [`Returned`]. Comparisons stay in
//! the engine (`compare`), so every port rule lives in one place.

use std::future::Future;
use std::pin::Pin;

use crate::data::{DocString, Row, Table};

mod hooks;
mod support;
mod world;

pub use hooks::{
    Access, Built, DefaultCtor, Lent, Need, ResourceBuild, ResourceDef, StateBuild, StateDef,
    StateParam, Stored, TeardownCall, TeardownDef, Unwrap, take, type_label, unwrap_resource,
};
pub use support::{
    ExampleState, NoDefault, Probe, SharedResource, ViaDefault, a_state_must_be_send, fail_text,
    own, share, unwrap_shared,
};
pub use world::World;

/// Whether a step drives the system or observes it (spec 20 §20.12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// Drives the system and evolves the state.
    Stimulus,
    /// Returns what the system did, compared with the document.
    Sensor,
}

pub use varar_expression::ArgValue;

/// JavaScript-style type names used in return-shape messages (spec 30 §30.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsType {
    /// Text.
    String,
    /// Integers and floats.
    Number,
    /// `true`/`false`.
    Boolean,
    /// Lists, maps, records and everything else.
    Object,
}

impl JsType {
    /// The `typeof` spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            JsType::String => "string",
            JsType::Number => "number",
            JsType::Boolean => "boolean",
            JsType::Object => "object",
        }
    }
}

/// One row of a returned table, already rendered to strings.
#[derive(Clone, Debug, PartialEq)]
pub enum ObservedRow {
    /// A positional row.
    List(Vec<String>),
    /// A record: column → cell.
    Map(Vec<(String, String)>),
    /// Anything that is neither.
    Other,
}

/// A value a sensor returned, seen by the engine without knowing its type.
///
/// Implemented for the integer and float types, `bool`, `String`, `&'static
/// str`, [`Table`], [`DocString`], [`Row`], vectors of rows and every custom
/// parameter type (by `#[parameter]`). A sensor whose return type does not
/// implement it is a compile error.
#[diagnostic::on_unimplemented(
    message = "a sensor cannot return `{Self}`: Varar cannot compare it with the document",
    label = "not comparable with a document value",
    note = "return an integer, float, bool, String, a custom #[varar::parameter] type, a table (Vec<Vec<String>>), a doc string (String) or a varar::Row"
)]
pub trait Observed: Send + 'static {
    /// The JavaScript-style type name, for return-shape messages.
    fn js_type(&self) -> JsType;
    /// Rendering rules 2–4 of spec 30 §30.3.5: strings as-is, numbers and
    /// booleans as text, anything else in a Rust debug form.
    fn render(&self) -> String;
    /// Rule 1: a custom type's document notation, if it has a format.
    fn format(&self) -> Option<String> {
        None
    }
    /// Structural equality with a document value of an inline parameter.
    /// There is no coercion: a string never equals an `{int}`. `Err` when the
    /// document value cannot be read as this type (a wiring error).
    fn equals(&self, expected: &ArgValue) -> Result<bool, String>;
    /// The value as table rows, if it is a list.
    fn as_table(&self) -> Option<Vec<ObservedRow>> {
        None
    }
    /// The value as text, if it is a string (doc-string slots).
    fn as_text(&self) -> Option<&str> {
        None
    }
    /// The value as a record, if it is a map (header-bound row checks).
    fn as_record(&self) -> Option<Vec<(String, String)>> {
        None
    }
    /// The value as a list of rendered elements, if it is a list: how a
    /// list-of-lists return becomes [`ObservedRow::List`] rows.
    fn as_list(&self) -> Option<Vec<String>> {
        None
    }
}

impl ObservedRow {
    /// A returned value seen as one table row: a list, a record, or neither.
    pub fn of(value: &dyn Observed) -> ObservedRow {
        if let Some(cells) = value.as_list() {
            ObservedRow::List(cells)
        } else if let Some(record) = value.as_record() {
            ObservedRow::Map(record)
        } else {
            ObservedRow::Other
        }
    }
}

/// What a step handed back.
pub enum Returned {
    /// Nothing: a stimulus, or a sensor returning `()`.
    Nothing,
    /// A bare value (one slot).
    One(Box<dyn Observed>),
    /// A tuple (two or more slots).
    Many(Vec<Box<dyn Observed>>),
}

impl std::fmt::Debug for Returned {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Returned::Nothing => f.write_str("Nothing"),
            Returned::One(v) => write!(f, "One({})", v.render()),
            Returned::Many(vs) => {
                let parts: Vec<String> = vs.iter().map(|v| v.render()).collect();
                write!(f, "Many({})", parts.join(", "))
            }
        }
    }
}

/// A step that failed by returning `Err` or by a wiring problem (an argument
/// that cannot be read, a missing table). Its message is the `thrown` message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepError {
    /// The message, used as is.
    pub message: String,
}

impl StepError {
    /// A step error with this message.
    pub fn new(message: impl Into<String>) -> Self {
        StepError {
            message: message.into(),
        }
    }
}

impl std::fmt::Display for StepError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

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

/// A boxed future borrowing for `'a`: what async entry points hand back.
/// It need not be `Send`: each example drives its futures on its own thread.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + 'a>>;

/// What a step's entry point hands back.
pub type StepResult = Result<Returned, StepError>;

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

/// What a step function takes after its captured parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trailing {
    /// Nothing.
    None,
    /// A [`Table`].
    Table,
    /// A [`DocString`].
    DocString,
    /// A header-bound [`Row`].
    Row,
}

/// A step registered by `#[stimulus]` or `#[sensor]`, collected with `inventory`.
#[derive(Debug)]
pub struct StepDef {
    /// Stimulus or sensor.
    pub role: Role,
    /// The Cucumber Expression as written.
    pub expression: &'static str,
    /// The generated entry point.
    pub handler: Handler,
    /// What the function takes after its captures.
    pub trailing: Trailing,
    /// `file!()` of the step function.
    pub file: &'static str,
    /// `line!()` of the step function.
    pub line: u32,
    /// `column!()` of the step function.
    pub column: u32,
    /// `module_path!()` of the step function.
    pub module_path: &'static str,
    /// The state parameter (`&S`, `&mut S` or `S`), if the step takes one.
    pub state: Option<StateParam>,
}

inventory::collect!(StepDef);

/// A custom parameter type registered by `#[parameter]` (spec 20 §20.4).
#[derive(Debug)]
pub struct ParameterDef {
    /// The name used in expressions (`{money}`).
    pub name: &'static str,
    /// The regex, in `regex`-crate syntax.
    pub regex: &'static str,
    /// `file!()` of the declaration.
    pub file: &'static str,
    /// `line!()` of the declaration.
    pub line: u32,
    /// `module_path!()` of the declaration.
    pub module_path: &'static str,
}

inventory::collect!(ParameterDef);

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
