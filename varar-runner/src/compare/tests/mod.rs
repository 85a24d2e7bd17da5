pub(crate) mod support;

use super::*;
use crate::step::ArgValue;
use support::{V, doc_string, list_of_rows, map, row_binding, s, span, step, table, with_arg};

fn one(v: V) -> Returned {
    Returned::One(Box::new(v))
}

fn many(vs: Vec<V>) -> Returned {
    Returned::Many(
        vs.into_iter()
            .map(|v| Box::new(v) as Box<dyn Observed>)
            .collect(),
    )
}

fn message(result: Result<(), Problem>) -> String {
    match result {
        Ok(()) => "ok".to_string(),
        Err(problem @ Problem::Mismatch(_)) => {
            let located = varar_core::failure::Failure::locate(problem, 0, span(0, 0, 1));
            format!("mismatch: {located}")
        }
        Err(Problem::Shape(m)) => format!("shape: {m}"),
        Err(Problem::Thrown { message, .. }) => format!("thrown: {message}"),
    }
}

/// `The result is {int}` with `3` at offset 14.
fn int_step() -> PlannedStep {
    with_arg(
        step(0, "The result is 3", 0, 1),
        "3",
        "int",
        ArgValue::Int("3".into()),
        14,
    )
}

/// `The square of {int} is {int}` with `7` and `49`.
fn two_int_step() -> PlannedStep {
    let st = step(0, "The square of 7 is 49", 0, 1);
    let st = with_arg(st, "7", "int", ArgValue::Int("7".into()), 14);
    with_arg(st, "49", "int", ArgValue::Int("49".into()), 19)
}

fn table_step(rows: &[&[&str]]) -> PlannedStep {
    let mut st = step(0, "I echo the table", 0, 1);
    st.data_table = Some(table(rows, 20, 3));
    st
}

fn doc_step(content: &str) -> PlannedStep {
    let mut st = step(0, "I echo the following:", 0, 1);
    st.doc_string = Some(doc_string(content, 71, 8));
    st
}

#[test]
fn slot_contract_and_inline_parameters() {
    let money = with_arg(
        step(0, "The late fee is £2.55", 72, 5),
        "£2.55",
        "money",
        ArgValue::Custom {
            name: "money".into(),
            groups: vec![Some("£2.55".into())],
        },
        88,
    );
    let emph = with_arg(
        step(0, "I mention *Emma*", 0, 1),
        "*Emma*",
        "emph",
        ArgValue::Text("Emma".into()),
        10,
    );
    let float = with_arg(
        step(0, "It weighs 2.0", 0, 1),
        "2.0",
        "float",
        ArgValue::Float("2.0".into()),
        10,
    );
    let cases: Vec<(&str, PlannedStep, Returned, &str)> = vec![
        (
            "zero slots, nothing",
            step(0, "I check", 0, 1),
            Returned::Nothing,
            "ok",
        ),
        (
            "zero slots, a value",
            step(0, "I check", 0, 1),
            one(V::Int(1)),
            "shape: this sensor has no parameters, data table or doc string — nothing to compare a return value against (throw to fail, return nothing to pass)",
        ),
        (
            "zero slots, null is a value",
            step(0, "I check", 0, 1),
            one(V::Null),
            "shape: this sensor has no parameters, data table or doc string — nothing to compare a return value against (throw to fail, return nothing to pass)",
        ),
        ("one slot, equal", int_step(), one(V::Int(3)), "ok"),
        (
            "one slot, nothing",
            int_step(),
            Returned::Nothing,
            "shape: a sensor with 1 slot(s) must return one value per slot, got nothing",
        ),
        (
            "one slot, differs",
            int_step(),
            one(V::Int(4)),
            "mismatch: cell 1: expected 3 but was 4",
        ),
        (
            "no coercion",
            int_step(),
            one(s("3")),
            "mismatch: cell 1: expected 3 but was 3",
        ),
        (
            "null is compared",
            int_step(),
            one(V::Null),
            "mismatch: cell 1: expected 3 but was null",
        ),
        (
            "a tuple is never unwrapped",
            int_step(),
            many(vec![V::Int(3)]),
            "mismatch: cell 1: expected 3 but was [3]",
        ),
        (
            "format applies",
            money.clone(),
            one(V::Money(260)),
            "mismatch: cell 1: expected £2.55 but was £2.60",
        ),
        ("format is display only", money, one(V::Money(255)), "ok"),
        (
            "emph format",
            emph.clone(),
            one(s("Ben")),
            "mismatch: cell 1: expected *Emma* but was *Ben*",
        ),
        ("emph equal", emph, one(s("Emma")), "ok"),
        (
            "whole float",
            float.clone(),
            one(V::Float(3.0)),
            "mismatch: cell 1: expected 2.0 but was 3",
        ),
        (
            "fractional float",
            float,
            one(V::Float(2.6)),
            "mismatch: cell 1: expected 2.0 but was 2.6",
        ),
        (
            "unreadable document value",
            with_arg(step(0, "x", 0, 1), "x", "int", ArgValue::Int("x".into()), 0),
            one(V::Int(1)),
            "thrown: cannot read x as int",
        ),
        (
            "two slots, equal",
            two_int_step(),
            many(vec![V::Int(7), V::Int(49)]),
            "ok",
        ),
        (
            "two slots, nothing",
            two_int_step(),
            Returned::Nothing,
            "shape: a sensor with 2 slot(s) must return one value per slot, got nothing",
        ),
        (
            "two slots, not a sequence",
            two_int_step(),
            one(s("49")),
            "shape: a sensor with 2 slots must return an array of 2 values, got string",
        ),
        (
            "two slots, wrong length",
            two_int_step(),
            many(vec![V::Int(7), V::Int(49), V::Int(0)]),
            "shape: sensor return must have 2 element(s), got 3",
        ),
        (
            "only failing cells are listed",
            two_int_step(),
            many(vec![V::Int(7), V::Int(48)]),
            "mismatch: cell 2: expected 49 but was 48",
        ),
        (
            "every failing cell is listed",
            two_int_step(),
            many(vec![V::Int(6), V::Bool(true)]),
            "mismatch: cell 1: expected 7 but was 6; cell 2: expected 49 but was true",
        ),
    ];
    for (name, st, returned, want) in cases {
        assert_eq!(message(check_sensor(&st, &returned)), want, "{name}");
    }
}

#[test]
fn an_inline_mismatch_is_anchored_at_its_param_span() {
    let Err(Problem::Mismatch(cells)) =
        check_sensor(&two_int_step(), &many(vec![V::Int(7), V::Int(48)]))
    else {
        panic!("expected a mismatch");
    };
    assert_eq!(cells[0].span, span(19, 21, 1));
    assert_eq!(
        (cells[0].expected.as_str(), cells[0].actual.as_str()),
        ("49", "48")
    );
}

#[test]
fn inline_mismatches_hide_the_trailing_slot() {
    let mut st = int_step();
    st.data_table = Some(table(&[&["a"], &["1"]], 20, 3));
    // The table slot holds a non-table: never examined, because cell 1 fails.
    let got = check_sensor(&st, &many(vec![V::Int(4), V::Int(0)]));
    assert_eq!(message(got), "mismatch: cell 1: expected 3 but was 4");
    let got = check_sensor(&st, &many(vec![V::Int(3), V::Int(0)]));
    assert_eq!(
        message(got),
        "shape: expected a table (array of rows), got number"
    );
}

#[test]
fn whole_tables() {
    let two_col: &[&[&str]] = &[&["name", "n"], &["Ada", "7"], &["Bob", "8"]];
    let cases: Vec<(&str, &[&[&str]], V, &str)> = vec![
        (
            "equal",
            two_col,
            list_of_rows(&[&["Ada", "7"], &["Bob", "8"]]),
            "ok",
        ),
        (
            "numbers compare as strings",
            two_col,
            V::List(vec![
                V::List(vec![s("Ada"), V::Int(7)]),
                V::List(vec![s("Bob"), V::Int(8)]),
            ]),
            "ok",
        ),
        (
            "not a list",
            two_col,
            s("Ada"),
            "shape: expected a table (array of rows), got string",
        ),
        (
            "the header must not be returned",
            two_col,
            list_of_rows(&[&["name", "n"], &["Ada", "7"], &["Bob", "8"]]),
            "shape: expected 2 row(s), got 3",
        ),
        (
            "mixed rows",
            two_col,
            V::List(vec![
                V::List(vec![s("Ada"), s("7")]),
                map(&[("name", s("Bob")), ("n", s("8"))]),
            ]),
            "shape: table rows must be all arrays or all objects",
        ),
        (
            "rows that are neither",
            two_col,
            V::List(vec![s("Ada"), s("Bob")]),
            "shape: table rows must be all arrays or all objects",
        ),
        (
            "list row width",
            two_col,
            list_of_rows(&[&["Ada", "7"], &["Bob", "8", "x"]]),
            "shape: row 1: expected 2 column(s), got 3",
        ),
        (
            "earlier diffs are thrown away on a shape error",
            two_col,
            list_of_rows(&[&["Eve", "9"], &["Bob"]]),
            "shape: row 1: expected 2 column(s), got 1",
        ),
        (
            "map rows, extra keys ignored",
            two_col,
            V::List(vec![
                map(&[("n", s("7")), ("name", s("Ada")), ("extra", s("?"))]),
                map(&[("name", s("Bob")), ("n", V::Int(8))]),
            ]),
            "ok",
        ),
        (
            "map row missing a column",
            two_col,
            V::List(vec![
                map(&[("name", s("Ada"))]),
                map(&[("name", s("Bob")), ("n", s("8"))]),
            ]),
            "shape: row 0: missing column \"n\"",
        ),
        (
            "cells in row-major order, labelled by header",
            two_col,
            list_of_rows(&[&["ada", "7"], &["Bob", "9"]]),
            "mismatch: name: expected Ada but was ada; n: expected 8 but was 9",
        ),
        (
            "a short source row expects empty cells",
            &[&["a", "b"], &["1"]],
            list_of_rows(&[&["1", "2"]]),
            "mismatch: b: expected  but was 2",
        ),
        (
            "no data rows, empty list",
            &[&["a", "b"]],
            V::List(vec![]),
            "ok",
        ),
    ];
    for (name, rows, returned, want) in cases {
        assert_eq!(
            message(check_sensor(&table_step(rows), &one(returned))),
            want,
            "{name}"
        );
    }
}

#[test]
fn table_cell_spans_fall_back_to_the_row_span() {
    let st = table_step(&[&["a", "b"], &["1"]]);
    let Err(Problem::Mismatch(cells)) = check_sensor(&st, &one(list_of_rows(&[&["0", "2"]])))
    else {
        panic!("expected a mismatch");
    };
    let Some(row) = st.data_table.as_ref().and_then(|t| t.rows.first()) else {
        panic!("no row");
    };
    assert_eq!(cells[0].span, row.cell_spans[0]);
    assert_eq!(cells[1].span, row.span);
}

#[test]
fn doc_strings() {
    let cases: Vec<(&str, V, &str)> = vec![
        ("equal", s("hello\n"), "ok"),
        (
            "exact: the final newline counts",
            s("hello"),
            r#"mismatch: doc string: expected "hello\n" but was "hello""#,
        ),
        (
            "bundle 06",
            s("goodbye"),
            r#"mismatch: doc string: expected "hello\n" but was "goodbye""#,
        ),
        (
            "not a string",
            V::Int(1),
            "shape: expected a doc string (string), got number",
        ),
        (
            "a list is an object",
            V::List(vec![]),
            "shape: expected a doc string (string), got object",
        ),
    ];
    for (name, returned, want) in cases {
        assert_eq!(
            message(check_sensor(&doc_step("hello\n"), &one(returned))),
            want,
            "{name}"
        );
    }
    let Err(Problem::Mismatch(cells)) = check_sensor(&doc_step("hello\n"), &one(s("goodbye")))
    else {
        panic!("expected a mismatch");
    };
    assert_eq!(cells[0].span, span(71, 77, 8));
    assert_eq!(cells[0].actual, "\"goodbye\"");
}

#[test]
fn header_bound_row_checks() {
    let cases: Vec<(&str, Returned, &str)> = vec![
        (
            "nothing",
            Returned::Nothing,
            "shape: a header-bound row step must return a row object with one value per bound cell, got nothing",
        ),
        ("not a record passes unchecked", one(V::Int(99)), "ok"),
        ("empty record passes", one(map(&[])), "ok"),
        (
            "equal",
            one(map(&[("score", s("10")), ("grade", s("A"))])),
            "ok",
        ),
        (
            "missing columns are inputs",
            one(map(&[("grade", s("A"))])),
            "ok",
        ),
        (
            "bundle 07",
            one(map(&[("score", s("99")), ("grade", s("A"))])),
            "mismatch: score: expected 10 but was 99",
        ),
        (
            "header order, numbers as text",
            one(map(&[
                ("grade", s("B")),
                ("score", V::Int(11)),
                ("x", s("y")),
            ])),
            "mismatch: score: expected 10 but was 11; grade: expected A but was B",
        ),
    ];
    for (name, returned, want) in cases {
        assert_eq!(
            message(check_row(&row_binding(), &returned)),
            want,
            "{name}"
        );
    }
}

#[test]
fn json_quote_matches_json_stringify() {
    let cases = [
        ("", r#""""#),
        ("hello\n", r#""hello\n""#),
        ("say \"hi\" \\ bye", r#""say \"hi\" \\ bye""#),
        ("\u{8}\u{c}\n\r\t", r#""\b\f\n\r\t""#),
        ("\u{0}\u{1f}", r#""\u0000\u001f""#),
        (
            "£ 😀 \u{7f} \u{2028}\u{2029}",
            "\"£ 😀 \u{7f} \u{2028}\u{2029}\"",
        ),
    ];
    for (input, want) in cases {
        assert_eq!(json_quote(input), want, "{input:?}");
    }
}

#[test]
fn stimulus_returns() {
    let cases: Vec<(Returned, &str)> = vec![
        (Returned::Nothing, "ok"),
        (one(map(&[("count", V::Int(1))])), "ok"),
        (
            one(V::Int(1)),
            "shape: a stimulus must return the complete next state, or nothing to leave it unchanged",
        ),
        (
            many(vec![map(&[])]),
            "shape: a stimulus must return the complete next state, or nothing to leave it unchanged",
        ),
    ];
    for (returned, want) in cases {
        assert_eq!(message(check_stimulus(&returned)), want, "{returned:?}");
    }
}

#[test]
fn a_tuple_for_a_table_slot_is_read_as_rows() {
    // Two list rows returned as a tuple where one table slot was expected.
    let st = table_step(&[&["name", "n"], &["Ada", "7"], &["Bob", "8"]]);
    let rows = many(vec![
        V::List(vec![s("Ada"), s("7")]),
        V::List(vec![s("Bob"), s("9")]),
    ]);
    assert_eq!(
        message(check_sensor(&st, &rows)),
        "mismatch: n: expected 8 but was 9"
    );
    let mixed = many(vec![V::List(vec![s("Ada"), s("7")]), s("Bob")]);
    assert_eq!(
        message(check_sensor(&st, &mixed)),
        "shape: table rows must be all arrays or all objects"
    );
}

#[test]
fn rendering_through_the_real_value_impls() {
    // The engine-side rules applied to the crate's own `Observed` impls.
    let cases: Vec<(Box<dyn Observed>, &str, &str)> = vec![
        (Box::new(2.0_f64), "float", "2"),
        (Box::new(2.6_f64), "float", "2.6"),
        (Box::new(-3_i64), "int", "-3"),
        (Box::new(true), "word", "true"),
        (Box::new(String::from("a b")), "string", "a b"),
        (Box::new(String::from("Emma")), "emph", "*Emma*"),
    ];
    for (value, ty, want) in cases {
        assert_eq!(render_inline(value.as_ref(), ty), want);
    }
}
