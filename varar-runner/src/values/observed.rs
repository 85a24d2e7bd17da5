//! `Observed` for the non-numeric types a sensor naturally returns: strings,
//! doc strings, booleans, `Option`, rows, tables, lists and maps (spec 30
//! §30.3.5 rules 2–4; tables per §30.3.2).

use std::collections::{BTreeMap, HashMap};

use crate::step::{ArgValue, JsType, Observed, ObservedRow};
use varar_core::data::{DocString, Row, Table};

/// Shared `Observed` body of the string-like types.
fn text_equals(text: &str, expected: &ArgValue) -> Result<bool, String> {
    Ok(matches!(expected, ArgValue::Text(t) if t == text))
}

impl Observed for String {
    fn js_type(&self) -> JsType {
        JsType::String
    }
    fn render(&self) -> String {
        self.clone()
    }
    fn equals(&self, expected: &ArgValue) -> Result<bool, String> {
        text_equals(self, expected)
    }
    fn as_text(&self) -> Option<&str> {
        Some(self)
    }
}

impl Observed for &'static str {
    fn js_type(&self) -> JsType {
        JsType::String
    }
    fn render(&self) -> String {
        (*self).to_string()
    }
    fn equals(&self, expected: &ArgValue) -> Result<bool, String> {
        text_equals(self, expected)
    }
    fn as_text(&self) -> Option<&str> {
        Some(self)
    }
}

impl Observed for DocString {
    fn js_type(&self) -> JsType {
        JsType::String
    }
    fn render(&self) -> String {
        self.content.clone()
    }
    fn equals(&self, expected: &ArgValue) -> Result<bool, String> {
        text_equals(&self.content, expected)
    }
    fn as_text(&self) -> Option<&str> {
        Some(&self.content)
    }
}

impl Observed for bool {
    fn js_type(&self) -> JsType {
        JsType::Boolean
    }
    fn render(&self) -> String {
        self.to_string()
    }
    // No built-in slot holds a boolean, and there is no coercion.
    fn equals(&self, _expected: &ArgValue) -> Result<bool, String> {
        Ok(false)
    }
}

/// `None` is the JSON-like null of §30.2: a value, rendered `null`.
impl<T: Observed> Observed for Option<T> {
    fn js_type(&self) -> JsType {
        match self {
            Some(v) => v.js_type(),
            None => JsType::Object,
        }
    }
    fn render(&self) -> String {
        match self {
            Some(v) => v.render(),
            None => "null".to_string(),
        }
    }
    fn format(&self) -> Option<String> {
        self.as_ref().and_then(Observed::format)
    }
    fn equals(&self, expected: &ArgValue) -> Result<bool, String> {
        match self {
            Some(v) => v.equals(expected),
            None => Ok(false),
        }
    }
    fn as_table(&self) -> Option<Vec<ObservedRow>> {
        self.as_ref().and_then(Observed::as_table)
    }
    fn as_text(&self) -> Option<&str> {
        self.as_ref().and_then(Observed::as_text)
    }
    fn as_record(&self) -> Option<Vec<(String, String)>> {
        self.as_ref().and_then(Observed::as_record)
    }
}

/// A value inside a container: strings quoted so `["1"]` and `[1]` differ.
fn render_nested(v: &dyn Observed) -> String {
    match v.js_type() {
        JsType::String => format!("{:?}", v.render()),
        _ => v.render(),
    }
}

fn render_record<'a>(entries: impl Iterator<Item = (&'a str, String)>) -> String {
    let parts: Vec<String> = entries.map(|(k, v)| format!("{k:?}: {v}")).collect();
    format!("{{{}}}", parts.join(", "))
}

impl Observed for Row {
    fn js_type(&self) -> JsType {
        JsType::Object
    }
    fn render(&self) -> String {
        render_record(self.iter().map(|(k, v)| (k, format!("{v:?}"))))
    }
    fn equals(&self, _expected: &ArgValue) -> Result<bool, String> {
        Ok(false)
    }
    fn as_record(&self) -> Option<Vec<(String, String)>> {
        Some(
            self.iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        )
    }
}

/// A whole [`Table`] is returned as it is, header row included; the table
/// check (§30.3.2) wants the data rows only, so return `table.data_rows()`
/// (as a `Vec`) to echo a table.
impl Observed for Table {
    fn js_type(&self) -> JsType {
        JsType::Object
    }
    fn render(&self) -> String {
        format!("{:?}", self.rows())
    }
    fn equals(&self, _expected: &ArgValue) -> Result<bool, String> {
        Ok(false)
    }
    fn as_table(&self) -> Option<Vec<ObservedRow>> {
        Some(
            self.rows()
                .iter()
                .map(|r| ObservedRow::List(r.clone()))
                .collect(),
        )
    }
}

/// A list: a table when its elements are lists or records.
impl<T: Observed> Observed for Vec<T> {
    fn js_type(&self) -> JsType {
        JsType::Object
    }
    fn render(&self) -> String {
        let parts: Vec<String> = self.iter().map(|v| render_nested(v)).collect();
        format!("[{}]", parts.join(", "))
    }
    fn equals(&self, _expected: &ArgValue) -> Result<bool, String> {
        Ok(false)
    }
    fn as_table(&self) -> Option<Vec<ObservedRow>> {
        Some(self.iter().map(|v| ObservedRow::of(v)).collect())
    }
    fn as_list(&self) -> Option<Vec<String>> {
        Some(self.iter().map(Observed::render).collect())
    }
}

/// Shared `Observed` body of the record types.
macro_rules! record_body {
    () => {
        fn js_type(&self) -> JsType {
            JsType::Object
        }
        fn render(&self) -> String {
            let mut entries: Vec<(&str, String)> = self
                .iter()
                .map(|(k, v)| (k.as_ref(), render_nested(v)))
                .collect();
            // HashMap order is arbitrary; keep the rendering stable.
            entries.sort_by(|a, b| a.0.cmp(b.0));
            render_record(entries.into_iter())
        }
        fn equals(&self, _expected: &ArgValue) -> Result<bool, String> {
            Ok(false)
        }
        fn as_record(&self) -> Option<Vec<(String, String)>> {
            Some(
                self.iter()
                    .map(|(k, v)| (k.as_ref().to_string(), v.render()))
                    .collect(),
            )
        }
    };
}

/// A record (header-bound row return, or a table row): keys to values.
impl<K, V> Observed for BTreeMap<K, V>
where
    K: AsRef<str> + Send + 'static,
    V: Observed,
{
    record_body!();
}

/// A record (header-bound row return, or a table row): keys to values.
impl<K, V, S> Observed for HashMap<K, V, S>
where
    K: AsRef<str> + Send + 'static,
    V: Observed,
    S: Send + 'static,
{
    record_body!();
}
