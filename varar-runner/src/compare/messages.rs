//! The exact return-shape messages of spec 30 §30.4 and the wiring messages of
//! §30.2.1. They take part in `error`-fence substring matching, so their
//! wording is observable behaviour: change none without changing the spec.

use crate::step::JsType;

/// A stimulus returned something that is not a next state.
pub const STIMULUS_NOT_STATE: &str =
    "a stimulus must return the complete next state, or nothing to leave it unchanged";

/// A zero-slot sensor returned a value. The dash is U+2014.
pub const ZERO_SLOT_VALUE: &str = "this sensor has no parameters, data table or doc string \u{2014} nothing to compare a return value against (throw to fail, return nothing to pass)";

/// Mixed or non-list, non-map rows in a returned table.
pub const MIXED_ROWS: &str = "table rows must be all arrays or all objects";

/// A header-bound row step returned nothing.
pub const ROW_GOT_NOTHING: &str =
    "a header-bound row step must return a row object with one value per bound cell, got nothing";

/// A sensor with `n ≥ 1` slots returned nothing.
pub fn got_nothing(n: usize) -> String {
    format!("a sensor with {n} slot(s) must return one value per slot, got nothing")
}

/// A sensor with `n ≥ 2` slots returned something that is not a sequence.
pub fn not_a_sequence(n: usize, found: JsType) -> String {
    format!(
        "a sensor with {n} slots must return an array of {n} values, got {}",
        found.as_str()
    )
}

/// A sensor with `n ≥ 2` slots returned a sequence of the wrong length.
pub fn wrong_length(n: usize, m: usize) -> String {
    format!("sensor return must have {n} element(s), got {m}")
}

/// A table slot's value is not a list.
pub fn not_a_table(found: JsType) -> String {
    format!("expected a table (array of rows), got {}", found.as_str())
}

/// A returned table has the wrong number of data rows.
pub fn row_count(n: usize, m: usize) -> String {
    format!("expected {n} row(s), got {m}")
}

/// A list row (0-based `i`) has the wrong width.
pub fn row_width(i: usize, h: usize, k: usize) -> String {
    format!("row {i}: expected {h} column(s), got {k}")
}

/// A map row (0-based `i`) lacks a header column.
pub fn missing_column(i: usize, column: &str) -> String {
    format!("row {i}: missing column \"{column}\"")
}

/// A doc-string slot's value is not a string.
pub fn not_a_doc_string(found: JsType) -> String {
    format!("expected a doc string (string), got {}", found.as_str())
}

/// A step whose role is neither stimulus nor sensor (unreachable with the
/// typed API; kept so the table of §30.4 is complete).
pub fn unknown_step_kind(kind: &str) -> String {
    format!("unknown step kind: {kind}")
}

/// Wiring: the document gives `m` slots but the function takes `k`.
pub fn slot_count_mismatch(m: usize, k: usize) -> String {
    format!("this step has {m} slot(s), but the function takes {k}")
}

/// Wiring: the function takes one kind of attachment, the document gives the other.
pub fn attachment_mismatch(given: &str, taken: &str) -> String {
    format!("this step has {given}, but the function takes {taken}")
}

/// Wiring: the function takes a header-bound row, the step is not bound to one.
pub const NO_ROW: &str =
    "this step is not bound to a header-bound table row, but the function takes a row";

/// Wiring: the registered step has no function to call.
pub fn no_handler(expression: &str) -> String {
    format!("no function is registered for the step \"{expression}\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_return_shape_message_has_its_exact_text() {
        let cases: Vec<(String, &str)> = vec![
            (
                STIMULUS_NOT_STATE.to_string(),
                "a stimulus must return the complete next state, or nothing to leave it unchanged",
            ),
            (
                ZERO_SLOT_VALUE.to_string(),
                "this sensor has no parameters, data table or doc string — nothing to compare a return value against (throw to fail, return nothing to pass)",
            ),
            (
                got_nothing(1),
                "a sensor with 1 slot(s) must return one value per slot, got nothing",
            ),
            (
                not_a_sequence(2, JsType::String),
                "a sensor with 2 slots must return an array of 2 values, got string",
            ),
            (
                wrong_length(3, 2),
                "sensor return must have 3 element(s), got 2",
            ),
            (
                not_a_table(JsType::Number),
                "expected a table (array of rows), got number",
            ),
            (row_count(1, 2), "expected 1 row(s), got 2"),
            (
                MIXED_ROWS.to_string(),
                "table rows must be all arrays or all objects",
            ),
            (row_width(0, 2, 3), "row 0: expected 2 column(s), got 3"),
            (
                missing_column(1, "grade"),
                "row 1: missing column \"grade\"",
            ),
            (
                not_a_doc_string(JsType::Boolean),
                "expected a doc string (string), got boolean",
            ),
            (
                ROW_GOT_NOTHING.to_string(),
                "a header-bound row step must return a row object with one value per bound cell, got nothing",
            ),
            (unknown_step_kind("hook"), "unknown step kind: hook"),
            (
                slot_count_mismatch(1, 2),
                "this step has 1 slot(s), but the function takes 2",
            ),
        ];
        for (got, want) in cases {
            assert_eq!(got, want);
        }
        assert!(ZERO_SLOT_VALUE.contains('\u{2014}'));
    }
}
