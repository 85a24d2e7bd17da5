//! Typed step arguments and returns (spec 50 §50.2, spec 30 §30.1.4,
//! §30.3.1, §30.3.5).
//!
//! The step macros never hand a user a dynamic value: each `{param}` slot is
//! read into the function's own argument type through one of the *kind*
//! traits here ([`IntArg`], [`FloatArg`], [`TextArg`], or the custom type's
//! [`Parameter`] impl), and every value a sensor returns is seen by the engine
//! through [`Observed`], implemented here for the types a user naturally
//! returns. The `*Slot` traits bound a sensor's return type by the kind of the
//! slot it answers, so a `String` returned for an `{int}` slot is a compile
//! error rather than a run-time mismatch.
//!
//! Rendering (rules 2–4 of §30.3.5): strings as they are, integers in decimal,
//! `true`/`false`, floats like JavaScript prints them (`2.0` → `2`, infinities
//! as `Infinity`, `-0` as `0`), `None` as `null`, and anything else in a
//! Rust-like debug form (deliberately outside conformance).

use std::marker::PhantomData;
use varar_core::data::{DocString, Table};

use crate::step::{ArgValue, Invocation, JsType, Observed, Parameter, StepError, TrailingData};

mod observed;
#[cfg(test)]
mod tests;

/// An integer type an `{int}`, `{byte}`, `{short}`, `{long}` or
/// `{biginteger}` slot can be read into (and, for a sensor, returned for).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be read from an integer slot (`{{int}}`, `{{byte}}`, `{{short}}`, `{{long}}`, `{{biginteger}}`)",
    label = "not an integer type",
    note = "use an integer type such as `i64`, `i32` or `u64`"
)]
pub trait IntArg: Sized {
    /// The type's name in `cannot read … as …` messages.
    const TYPE_NAME: &'static str;
    /// Read the digits as written, `None` when out of range.
    fn from_digits(text: &str) -> Option<Self>;
}

/// A float type a `{float}` or `{double}` slot can be read into.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be read from a float slot (`{{float}}`, `{{double}}`)",
    label = "not `f64` or `f32`",
    note = "use `f64` or `f32`"
)]
pub trait FloatArg: Sized {
    /// The type's name in `cannot read … as …` messages.
    const TYPE_NAME: &'static str;
    /// Read the number as written.
    fn from_number(text: &str) -> Option<Self>;
}

/// A text type a `{word}`, `{string}`, `{}`, `{emph}` or `{bigdecimal}` slot
/// can be read into (`&str` arguments are read as a `String` and lent).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be read from a text slot (`{{word}}`, `{{string}}`, `{{}}`, `{{emph}}`, `{{bigdecimal}}`)",
    label = "not `String` or `&str`",
    note = "use `String` or `&str`"
)]
pub trait TextArg: Sized {
    /// Take the transformed text.
    fn from_text(text: String) -> Self;
}

/// A type a sensor may return for an integer slot.
#[diagnostic::on_unimplemented(
    message = "a sensor cannot return `{Self}` for an integer slot",
    label = "an integer slot is answered with an integer type",
    note = "there is no coercion: return an integer type such as `i64`"
)]
pub trait IntSlot {}

/// A type a sensor may return for a float slot.
#[diagnostic::on_unimplemented(
    message = "a sensor cannot return `{Self}` for a float slot",
    label = "a float slot is answered with `f64` or `f32`",
    note = "there is no coercion: return `f64` or `f32`"
)]
pub trait FloatSlot {}

/// A type a sensor may return for a text slot.
#[diagnostic::on_unimplemented(
    message = "a sensor cannot return `{Self}` for a text slot",
    label = "a text slot is answered with `String` or `&'static str`",
    note = "there is no coercion: return `String` or `&'static str`"
)]
pub trait TextSlot {}

/// A type a sensor may return for a trailing doc-string slot.
#[diagnostic::on_unimplemented(
    message = "a sensor cannot return `{Self}` for a doc-string slot",
    label = "a doc string is answered with `String`, `&'static str` or `DocString`"
)]
pub trait DocStringSlot {}

/// A type a sensor may return for a trailing table slot.
#[diagnostic::on_unimplemented(
    message = "a sensor cannot return `{Self}` for a table slot",
    label = "a table is answered with its data rows, e.g. `Vec<Vec<String>>` or `Vec<Row>`"
)]
pub trait TableSlot {}

macro_rules! integers {
    ($($t:ty),*) => {$(
        impl IntArg for $t {
            const TYPE_NAME: &'static str = stringify!($t);
            fn from_digits(text: &str) -> Option<Self> {
                text.parse().ok()
            }
        }
        impl IntSlot for $t {}
        impl Observed for $t {
            fn js_type(&self) -> JsType {
                JsType::Number
            }
            fn render(&self) -> String {
                self.to_string()
            }
            fn equals(&self, expected: &ArgValue) -> Result<bool, String> {
                match expected {
                    ArgValue::Int(text) => match <$t as IntArg>::from_digits(text) {
                        Some(v) => Ok(v == *self),
                        None => Err(cannot_read(text, stringify!($t))),
                    },
                    _ => Ok(false),
                }
            }
        }
    )*};
}

integers!(
    i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize
);

macro_rules! floats {
    ($($t:ty),*) => {$(
        impl FloatArg for $t {
            const TYPE_NAME: &'static str = stringify!($t);
            fn from_number(text: &str) -> Option<Self> {
                text.parse().ok()
            }
        }
        impl FloatSlot for $t {}
        impl Observed for $t {
            fn js_type(&self) -> JsType {
                JsType::Number
            }
            fn render(&self) -> String {
                render_float(f64::from(*self))
            }
            fn equals(&self, expected: &ArgValue) -> Result<bool, String> {
                match expected {
                    ArgValue::Float(text) | ArgValue::Int(text) => {
                        match <$t as FloatArg>::from_number(text) {
                            Some(v) => Ok(same_value(f64::from(v), f64::from(*self))),
                            None => Err(cannot_read(text, stringify!($t))),
                        }
                    }
                    _ => Ok(false),
                }
            }
        }
    )*};
}

floats!(f32, f64);

/// JavaScript's `String(number)` for the common cases: whole numbers without
/// `.0`, `-0` as `0`, infinities spelled out.
fn render_float(v: f64) -> String {
    if v.is_infinite() {
        return if v > 0.0 { "Infinity" } else { "-Infinity" }.to_string();
    }
    if v == 0.0 {
        return "0".to_string();
    }
    // Rust's Display already prints 2.0 as `2` and never uses an exponent.
    v.to_string()
}

/// JavaScript same-value equality: NaN equals NaN, +0 differs from −0.
fn same_value(a: f64, b: f64) -> bool {
    if a.is_nan() || b.is_nan() {
        return a.is_nan() && b.is_nan();
    }
    a == b && a.is_sign_negative() == b.is_sign_negative()
}

fn cannot_read(text: &str, type_name: &str) -> String {
    format!("cannot read {text} as {type_name}")
}

impl TextArg for String {
    fn from_text(text: String) -> Self {
        text
    }
}

impl TextSlot for String {}
impl TextSlot for &'static str {}
impl DocStringSlot for String {}
impl DocStringSlot for &'static str {}
impl DocStringSlot for DocString {}
impl TableSlot for Table {}
impl<T: Observed> TableSlot for Vec<T> {}

/// The text behind a built-in slot value.
fn slot_text<'a>(inv: &Invocation<'a>, index: usize) -> Result<&'a str, StepError> {
    match inv.args.get(index) {
        Some(ArgValue::Int(t) | ArgValue::Float(t) | ArgValue::Text(t)) => Ok(t),
        Some(ArgValue::Custom { name, .. }) => Err(StepError::new(format!(
            "argument {} is a {{{name}}} value, not a built-in one",
            index + 1
        ))),
        None => Err(missing_argument(inv, index)),
    }
}

fn missing_argument(inv: &Invocation<'_>, index: usize) -> StepError {
    StepError::new(format!(
        "this step has {} slot(s), but the function takes {}",
        inv.args.len(),
        index + 1
    ))
}

/// Read argument `index` (0-based) of an integer slot.
pub fn read_int<T: IntArg>(inv: &Invocation<'_>, index: usize) -> Result<T, StepError> {
    let text = slot_text(inv, index)?;
    T::from_digits(text).ok_or_else(|| StepError::new(cannot_read(text, T::TYPE_NAME)))
}

/// Read argument `index` (0-based) of a float slot.
pub fn read_float<T: FloatArg>(inv: &Invocation<'_>, index: usize) -> Result<T, StepError> {
    let text = slot_text(inv, index)?;
    T::from_number(text).ok_or_else(|| StepError::new(cannot_read(text, T::TYPE_NAME)))
}

/// Read argument `index` (0-based) of a text slot.
pub fn read_text<T: TextArg>(inv: &Invocation<'_>, index: usize) -> Result<T, StepError> {
    slot_text(inv, index).map(|t| T::from_text(t.to_string()))
}

/// Read argument `index` (0-based) of a custom slot with the type's parse.
pub fn read_custom<T: Parameter<M>, M>(inv: &Invocation<'_>, index: usize) -> Result<T, StepError> {
    match inv.args.get(index) {
        Some(ArgValue::Custom { name, groups }) if name == T::NAME => {
            let groups: Vec<Option<&str>> = groups.iter().map(Option::as_deref).collect();
            T::parse(&groups).map_err(StepError::new)
        }
        Some(other) => Err(StepError::new(format!(
            "argument {} is not a {{{}}} value: {other:?}",
            index + 1,
            T::NAME
        ))),
        None => Err(missing_argument(inv, index)),
    }
}

/// The trailing table, doc string or row.
pub fn read_trailing<'a, T: TrailingData>(inv: &Invocation<'a>) -> Result<&'a T, StepError> {
    T::from_invocation(inv)
}

/// Capture group `index` of a custom parameter, which must have participated.
pub fn group<'a>(groups: &[Option<&'a str>], index: usize) -> Result<&'a str, String> {
    match groups.get(index) {
        Some(Some(g)) => Ok(g),
        _ => Err(format!("capture group {} did not participate", index + 1)),
    }
}

/// Capture group `index` of a custom parameter, `None` when it did not participate.
pub fn optional_group<'a>(groups: &[Option<&'a str>], index: usize) -> Option<&'a str> {
    groups.get(index).copied().flatten()
}

/// Box a sensor's return for the engine; the bound is the compile-time check
/// that the type can be compared.
pub fn observe<T: Observed>(value: T) -> Box<dyn Observed> {
    Box::new(value)
}

/// Box a sensor's return for a custom slot: the value is compared with the
/// document's through the type's own parse and `PartialEq`, and shown with
/// its format (or `Debug`).
pub fn observe_custom<T: Parameter<M>, M: 'static>(value: T) -> Box<dyn Observed> {
    Box::new(Custom::<T, M>(value, PhantomData))
}

/// [`observe_custom`] for an `Option`: `None` is the JSON-like null.
pub fn observe_custom_option<T: Parameter<M>, M: 'static>(value: Option<T>) -> Box<dyn Observed> {
    Box::new(value.map(|v| Custom::<T, M>(v, PhantomData)))
}

/// What a step needs of the type of one of its custom slots, taken by
/// the macros through one `const fn` bounded by the slot's own trait, so
/// that a type that is no parameter type is one error naming the slot
/// (issue 37): its name for the compile-time name check, its read and its
/// observations.
pub struct CustomSlot<T> {
    /// The name the type declares (`#[varar::parameter(name = …)]`).
    pub name: &'static str,
    /// [`read_custom`] for it.
    pub read: for<'a> fn(&Invocation<'a>, usize) -> Result<T, StepError>,
    /// [`observe_custom`] for it.
    pub observe: fn(T) -> Box<dyn Observed>,
    /// [`observe_custom_option`] for it.
    pub observe_option: fn(Option<T>) -> Box<dyn Observed>,
}

impl<T> CustomSlot<T> {
    /// The slot functions of `T`, the parameter type of marker `M`.
    pub const fn of<M: 'static>() -> CustomSlot<T>
    where
        T: Parameter<M>,
    {
        CustomSlot {
            name: T::NAME,
            read: read_custom::<T, M>,
            observe: observe_custom::<T, M>,
            observe_option: observe_custom_option::<T, M>,
        }
    }
}

/// A custom parameter type's value seen by the engine.
struct Custom<T, M>(T, PhantomData<fn() -> M>);

impl<T: Parameter<M>, M: 'static> Observed for Custom<T, M> {
    fn js_type(&self) -> JsType {
        JsType::Object
    }
    fn render(&self) -> String {
        format!("{:?}", self.0)
    }
    fn format(&self) -> Option<String> {
        self.0.format()
    }
    fn equals(&self, expected: &ArgValue) -> Result<bool, String> {
        custom_equals(&self.0, expected)
    }
}

/// The message of an `Err` a step returned.
pub fn error_message<E: std::fmt::Display + ?Sized>(error: &E) -> StepError {
    StepError::new(error.to_string())
}

/// Compile-time bound: `T` answers an integer slot.
pub const fn int_slot<T: IntSlot + ?Sized>() {}
/// Compile-time bound: `T` answers a float slot.
pub const fn float_slot<T: FloatSlot + ?Sized>() {}
/// Compile-time bound: `T` answers a text slot.
pub const fn text_slot<T: TextSlot + ?Sized>() {}
/// Compile-time bound: `T` answers a doc-string slot.
pub const fn doc_string_slot<T: DocStringSlot + ?Sized>() {}
/// Compile-time bound: `T` answers a table slot.
pub const fn table_slot<T: TableSlot + ?Sized>() {}

/// Whether two names are equal, in a `const` context: the step macros
/// assert with it that a custom slot's type is the parameter type of that
/// name.
pub const fn name_is(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// `Observed::equals` of a custom parameter type: the document value parsed
/// with the type's own parse, then `PartialEq`.
fn custom_equals<T: Parameter<M>, M>(value: &T, expected: &ArgValue) -> Result<bool, String> {
    match expected {
        ArgValue::Custom { name, groups } if name == T::NAME => {
            let groups: Vec<Option<&str>> = groups.iter().map(Option::as_deref).collect();
            T::parse(&groups).map(|parsed| parsed == *value)
        }
        _ => Ok(false),
    }
}
