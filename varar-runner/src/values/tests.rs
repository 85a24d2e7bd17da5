//! Reading slots into typed arguments, and how returned values render and
//! compare.

use std::collections::{BTreeMap, HashMap};

use super::*;
use crate::step::{ArgValue, Invocation, Observed, ObservedRow, Parameter};
use varar_core::data::{DocString, Row, Table};

fn inv(args: &[ArgValue]) -> Invocation<'_> {
    Invocation {
        args: args.into(),
        row: None,
        table: None,
        doc_string: None,
    }
}

fn int(t: &str) -> ArgValue {
    ArgValue::Int(t.into())
}

fn float(t: &str) -> ArgValue {
    ArgValue::Float(t.into())
}

fn text(t: &str) -> ArgValue {
    ArgValue::Text(t.into())
}

#[test]
fn integers_are_read_in_range_or_fail_with_a_message() {
    let args = [
        int("300"),
        int("-5"),
        int("170141183460469231731687303715884105727"),
    ];
    let i = inv(&args);
    assert_eq!(read_int::<i64>(&i, 0), Ok(300));
    assert_eq!(read_int::<u16>(&i, 0), Ok(300));
    assert_eq!(
        read_int::<u8>(&i, 0).map_err(|e| e.message),
        Err("cannot read 300 as u8".into())
    );
    assert_eq!(read_int::<i32>(&i, 1), Ok(-5));
    assert_eq!(
        read_int::<u64>(&i, 1).map_err(|e| e.message),
        Err("cannot read -5 as u64".into())
    );
    assert_eq!(read_int::<i128>(&i, 2), Ok(i128::MAX));
    assert_eq!(
        read_int::<i64>(&i, 3).map_err(|e| e.message),
        Err("this step has 3 slot(s), but the function takes 4".into())
    );
}

#[test]
fn a_planned_steps_arguments_are_read_in_place_as_a_list_of_them_is() {
    use std::sync::Arc;
    use varar_core::plan::PlannedArg;
    let values = [int("300"), text("hi there")];
    let planned: Vec<PlannedArg> = values
        .iter()
        .map(|v| PlannedArg {
            raw: "raw".into(),
            parameter_type: "int".into(),
            value: Arc::new(v.clone()),
        })
        .collect();
    let (listed, in_place) = (
        inv(&values),
        Invocation {
            args: crate::step::Args::planned(&planned),
            ..inv(&values)
        },
    );
    for i in [listed, in_place] {
        assert_eq!(i.args.len(), 2);
        assert_eq!(read_int::<i64>(&i, 0), Ok(300));
        assert_eq!(read_text::<String>(&i, 1), Ok("hi there".to_owned()));
        assert_eq!(
            read_int::<i64>(&i, 2).map_err(|e| e.message),
            Err("this step has 2 slot(s), but the function takes 3".into())
        );
    }
}

#[test]
fn floats_and_text_are_read() {
    let args = [float("1.5E3"), float("-.5"), text("hi there")];
    let i = inv(&args);
    assert_eq!(read_float::<f64>(&i, 0), Ok(1500.0));
    assert_eq!(read_float::<f32>(&i, 1), Ok(-0.5));
    assert_eq!(read_text::<String>(&i, 2), Ok("hi there".to_string()));
    let bad = [float("-")];
    assert_eq!(
        read_float::<f64>(&inv(&bad), 0).map_err(|e| e.message),
        Err("cannot read - as f64".into())
    );
}

/// `Money` stands for any type, a foreign one included: the impl is made
/// local by a marker, as `#[varar::parameter]` does.
#[derive(Debug, PartialEq)]
struct Money(i64);

struct Marker;

impl Parameter<Marker> for Money {
    const NAME: &'static str = "money";
    const REGEX: &'static str = r"£(\d+)\.(\d{2})";
    fn parse(groups: &[Option<&str>]) -> Result<Self, String> {
        let pounds: i64 = group(groups, 0)?.parse().map_err(|_| "bad pounds")?;
        let pence: i64 = optional_group(groups, 1)
            .unwrap_or("0")
            .parse()
            .map_err(|_| "bad pence")?;
        Ok(Money(pounds * 100 + pence))
    }
    fn format(&self) -> Option<String> {
        Some(format!("£{}.{:02}", self.0 / 100, self.0 % 100))
    }
}

fn money(groups: &[Option<&str>]) -> ArgValue {
    ArgValue::Custom {
        name: "money".into(),
        groups: groups.iter().map(|g| g.map(str::to_string)).collect(),
    }
}

#[test]
fn custom_values_are_parsed_by_their_type() {
    let args = [
        money(&[Some("2"), Some("55")]),
        money(&[None, Some("1")]),
        int("3"),
    ];
    let i = inv(&args);
    assert_eq!(read_custom::<Money, _>(&i, 0), Ok(Money(255)));
    assert_eq!(
        read_custom::<Money, _>(&i, 1).map_err(|e| e.message),
        Err("capture group 1 did not participate".into())
    );
    assert_eq!(
        read_custom::<Money, _>(&i, 2).map_err(|e| e.message),
        Err("argument 1 is not a {money} value: Int(\"3\")".replace("argument 1", "argument 3"))
    );
    // Compared through the type's parse and shown with its format.
    let observed = observe_custom::<Money, Marker>(Money(255));
    assert_eq!(observed.equals(&args[0]), Ok(true));
    assert_eq!(
        observe_custom::<Money, Marker>(Money(260)).equals(&args[0]),
        Ok(false)
    );
    assert_eq!(observed.equals(&int("255")), Ok(false));
    assert_eq!(observed.format().as_deref(), Some("£2.55"));
    assert_eq!(observed.render(), "Money(255)");
    let none = observe_custom_option::<Money, Marker>(None);
    assert_eq!(none.render(), "null");
    assert!(name_is("money", "money"));
    assert!(!name_is("money", "mone"));
    assert!(!name_is("money", "monex"));
}

#[test]
fn trailing_attachments_are_read_or_reported_missing() {
    let table = Table::new(vec![vec!["h".into()]]);
    let doc = DocString::default();
    let row = Row::default();
    let full = Invocation {
        args: (&[] as &[ArgValue]).into(),
        row: Some(&row),
        table: Some(&table),
        doc_string: Some(&doc),
    };
    assert_eq!(read_trailing::<Table>(&full), Ok(&table));
    assert_eq!(read_trailing::<DocString>(&full), Ok(&doc));
    assert_eq!(read_trailing::<Row>(&full), Ok(&row));
    let empty = inv(&[]);
    assert!(read_trailing::<Table>(&empty).is_err());
    assert!(read_trailing::<DocString>(&empty).is_err());
    assert!(read_trailing::<Row>(&empty).is_err());
    use crate::step::{Trailing, TrailingData};
    assert_eq!(
        [Table::KIND, DocString::KIND, Row::KIND],
        [Trailing::Table, Trailing::DocString, Trailing::Row]
    );
}

#[test]
fn numbers_render_like_the_reference() {
    let cases: Vec<(Box<dyn Observed>, &str)> = vec![
        (Box::new(42i64), "42"),
        (Box::new(-7i8), "-7"),
        (Box::new(2.0f64), "2"),
        (Box::new(2.6f64), "2.6"),
        (Box::new(0.5f32), "0.5"),
        (Box::new(-0.0f64), "0"),
        (Box::new(f64::INFINITY), "Infinity"),
        (Box::new(f64::NEG_INFINITY), "-Infinity"),
        (Box::new(f64::NAN), "NaN"),
        (Box::new(true), "true"),
        (Box::new(String::from("x y")), "x y"),
        (Box::new("static"), "static"),
        (Box::new(None::<i64>), "null"),
        (Box::new(Some(3u8)), "3"),
        (Box::new(vec![1, 2]), "[1, 2]"),
        (Box::new(vec!["a".to_string()]), "[\"a\"]"),
    ];
    for (value, want) in cases {
        assert_eq!(value.render(), want);
    }
}

#[test]
fn equality_has_no_coercion() {
    type Case = (Box<dyn Observed>, ArgValue, Result<bool, String>);
    let cases: Vec<Case> = vec![
        (Box::new(1i64), int("1"), Ok(true)),
        (Box::new(1i64), int("2"), Ok(false)),
        (Box::new(1i64), float("1"), Ok(false)),
        (Box::new(1i64), text("1"), Ok(false)),
        (
            Box::new(5u8),
            int("300"),
            Err("cannot read 300 as u8".into()),
        ),
        (Box::new(2.0f64), float("2.0"), Ok(true)),
        (Box::new(2.0f64), int("2"), Ok(true)),
        (Box::new(1500.0f64), float("1.5E3"), Ok(true)),
        (Box::new(0.0f64), float("-0"), Ok(false)),
        (Box::new(f64::NAN), float("NaN"), Ok(true)),
        (Box::new(2.5f32), float("2.5"), Ok(true)),
        (Box::new(String::from("1")), int("1"), Ok(false)),
        (Box::new(String::from("lhr")), text("lhr"), Ok(true)),
        (Box::new("lhr"), text("LHR"), Ok(false)),
        (Box::new(true), text("true"), Ok(false)),
        (Box::new(None::<i64>), int("1"), Ok(false)),
        (Box::new(Some(1i64)), int("1"), Ok(true)),
    ];
    for (value, expected, want) in cases {
        assert_eq!(
            value.equals(&expected),
            want,
            "{} vs {expected:?}",
            value.render()
        );
    }
}

#[test]
fn tables_records_and_text() {
    let rows = vec![vec!["a".to_string(), "b".to_string()]];
    assert_eq!(
        rows.as_table(),
        Some(vec![ObservedRow::List(vec!["a".into(), "b".into()])])
    );
    let numbers = vec![vec![1, 2]];
    assert_eq!(
        numbers.as_table(),
        Some(vec![ObservedRow::List(vec!["1".into(), "2".into()])])
    );
    let records = vec![Row::default().with("n", 1)];
    assert_eq!(
        records.as_table(),
        Some(vec![ObservedRow::Map(vec![("n".into(), "1".into())])])
    );
    let scalars = vec![1, 2];
    assert_eq!(
        scalars.as_table(),
        Some(vec![ObservedRow::Other, ObservedRow::Other])
    );
    let table = Table::new(vec![vec!["h".into()], vec!["x".into()]]);
    assert_eq!(
        table.as_table().map(|t| t.len()),
        Some(2),
        "header included"
    );

    let mut map = BTreeMap::new();
    map.insert("score", 99);
    map.insert("grade", 1);
    assert_eq!(
        map.as_record(),
        Some(vec![
            ("grade".into(), "1".into()),
            ("score".into(), "99".into())
        ])
    );
    assert_eq!(map.render(), "{\"grade\": 1, \"score\": 99}");
    let mut hash: HashMap<String, String> = HashMap::new();
    hash.insert("b".into(), "2".into());
    hash.insert("a".into(), "1".into());
    assert_eq!(hash.render(), "{\"a\": \"1\", \"b\": \"2\"}");
    let row = Row::default().with("score", "99");
    assert_eq!(row.as_record(), Some(vec![("score".into(), "99".into())]));

    let doc = DocString {
        content: "hello\n".into(),
        content_type: "text".into(),
    };
    assert_eq!(doc.as_text(), Some("hello\n"));
    assert_eq!(String::from("x").as_text(), Some("x"));
    assert_eq!(1i64.as_text(), None);
}
