//! What a sensor hands back, seen by the engine without knowing its type:
//! the comparisons of spec 30 §30.3 read values through [`Observed`].

use varar_core::failure::JsType;
use varar_expression::ArgValue;

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
/// str`, [`Table`](varar_core::data::Table), [`DocString`](varar_core::data::DocString), [`Row`](varar_core::data::Row), vectors of rows and every custom
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
