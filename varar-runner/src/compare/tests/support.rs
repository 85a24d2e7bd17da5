//! A small dynamic value for tests of comparison and execution: it plays
//! every shape a sensor can return without depending on the real
//! `Observed` impls.

use crate::step::{ArgValue, JsType, Observed, ObservedRow};
use varar_core::doc::{self, TableRow};
use varar_core::plan::{PlannedArg, PlannedDocString, PlannedStep, RowBinding, RowCheck};
use varar_core::source::Span;

/// A test value.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum V {
    Int(i64),
    Float(f64),
    Str(String),
    Bool(bool),
    Null,
    List(Vec<V>),
    Map(Vec<(String, V)>),
    /// A custom `{money}` value in pence, formatted `£x.yy`.
    Money(i64),
}

pub(crate) fn s(text: &str) -> V {
    V::Str(text.to_string())
}

pub(crate) fn list_of_rows(rows: &[&[&str]]) -> V {
    V::List(
        rows.iter()
            .map(|r| V::List(r.iter().map(|c| s(c)).collect()))
            .collect(),
    )
}

pub(crate) fn map(entries: &[(&str, V)]) -> V {
    V::Map(
        entries
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
    )
}

impl Observed for V {
    fn js_type(&self) -> JsType {
        match self {
            V::Int(_) | V::Float(_) => JsType::Number,
            V::Str(_) => JsType::String,
            V::Bool(_) => JsType::Boolean,
            _ => JsType::Object,
        }
    }

    fn render(&self) -> String {
        match self {
            V::Int(i) => i.to_string(),
            // Rust's shortest round-trip form, which drops `.0` like JavaScript.
            V::Float(f) if f.fract() == 0.0 && f.is_finite() => format!("{}", *f as i64),
            V::Float(f) => f.to_string(),
            V::Str(t) => t.clone(),
            V::Bool(b) => b.to_string(),
            V::Null => "null".to_string(),
            V::Money(p) => format!("Money({p})"),
            other => format!("{other:?}"),
        }
    }

    fn format(&self) -> Option<String> {
        match self {
            V::Money(p) => Some(format!("£{}.{:02}", p / 100, p % 100)),
            _ => None,
        }
    }

    fn equals(&self, expected: &ArgValue) -> Result<bool, String> {
        Ok(match (self, expected) {
            (V::Int(i), ArgValue::Int(t)) => {
                *i == t
                    .parse::<i64>()
                    .map_err(|_| format!("cannot read {t} as int"))?
            }
            (V::Float(f), ArgValue::Float(t)) => {
                *f == t
                    .parse::<f64>()
                    .map_err(|_| format!("cannot read {t} as float"))?
            }
            (V::Str(a), ArgValue::Text(b)) => a == b,
            (V::Money(p), ArgValue::Custom { name, groups }) if name == "money" => {
                let text = groups.first().cloned().flatten().unwrap_or_default();
                let digits: String = text.chars().filter(char::is_ascii_digit).collect();
                *p == digits
                    .parse::<i64>()
                    .map_err(|_| format!("cannot read {text} as money"))?
            }
            _ => false,
        })
    }

    fn as_table(&self) -> Option<Vec<ObservedRow>> {
        let V::List(rows) = self else { return None };
        Some(
            rows.iter()
                .map(|r| match r {
                    V::List(cells) => ObservedRow::List(cells.iter().map(V::render).collect()),
                    V::Map(_) => ObservedRow::Map(r.as_record().unwrap_or_default()),
                    _ => ObservedRow::Other,
                })
                .collect(),
        )
    }

    fn as_list(&self) -> Option<Vec<String>> {
        match self {
            V::List(items) => Some(items.iter().map(V::render).collect()),
            _ => None,
        }
    }

    fn as_text(&self) -> Option<&str> {
        match self {
            V::Str(t) => Some(t),
            _ => None,
        }
    }

    fn as_record(&self) -> Option<Vec<(String, String)>> {
        match self {
            V::Map(entries) => Some(
                entries
                    .iter()
                    .map(|(k, v)| (k.clone(), v.render()))
                    .collect(),
            ),
            _ => None,
        }
    }
}

/// A one-line span at `from..to` on `line`.
pub(crate) fn span(from: u32, to: u32, line: u32) -> Span {
    Span {
        start_offset: from,
        end_offset: to,
        start_line: line,
        start_col: 1,
        end_line: line,
        end_col: 1 + to - from,
    }
}

/// A step of registry entry `index` with text at `from..` on `line`, and no
/// parameters or attachments.
pub(crate) fn step(index: usize, text: &str, from: u32, line: u32) -> PlannedStep {
    let to = from + text.len() as u32;
    PlannedStep {
        text: text.into(),
        match_span: span(from, to, line),
        param_spans: Vec::new(),
        inner_spans: Vec::new(),
        step: index,
        matched_expression: text.into(),
        args: Vec::new(),
        data_table: None,
        doc_string: None,
        doc_path: None,
    }
}

/// Add a parameter whose notation `raw` sits at `from..` on the step's line.
pub(crate) fn with_arg(
    mut step: PlannedStep,
    raw: &str,
    ty: &str,
    value: ArgValue,
    from: u32,
) -> PlannedStep {
    let line = step.match_span.start_line;
    step.param_spans
        .push(span(from, from + raw.len() as u32, line));
    step.inner_spans
        .push(span(from, from + raw.len() as u32, line));
    step.args.push(PlannedArg {
        raw: raw.into(),
        parameter_type: ty.into(),
        value: value.into(),
    });
    step
}

/// A table starting on `line` at offset `from`: every row is one line of
/// 10 units and every cell 2 units, so spans are easy to predict.
pub(crate) fn table(rows: &[&[&str]], from: u32, line: u32) -> Box<doc::Table> {
    let row = |i: usize, cells: &[&str]| {
        let start = from + 10 * i as u32;
        let l = line + i as u32;
        TableRow {
            cells: cells.iter().map(|c| c.to_string()).collect(),
            cell_spans: (0..cells.len())
                .map(|j| span(start + 2 + 3 * j as u32, start + 4 + 3 * j as u32, l))
                .collect(),
            span: span(start, start + 9, l),
        }
    };
    let header = row(0, rows.first().copied().unwrap_or(&[]));
    let data = rows
        .iter()
        .enumerate()
        .skip(1)
        .map(|(i, r)| row(i, r))
        .collect();
    Box::new(doc::Table {
        span: span(from, from + 10 * rows.len() as u32, line),
        header,
        rows: data,
    })
}

/// A doc string with its body span.
pub(crate) fn doc_string(content: &str, from: u32, line: u32) -> Box<PlannedDocString> {
    Box::new(PlannedDocString {
        content: content.to_string(),
        content_type: String::new(),
        span: span(from, from + content.len() as u32, line),
        fence_line: line.saturating_sub(1),
        closed: true,
    })
}

/// The header-bound row of bundle 07: `| 10 | A |` under `| score | grade |`.
pub(crate) fn row_binding() -> RowBinding {
    RowBinding {
        checks: vec![
            RowCheck {
                column: "score".into(),
                value: "10".into(),
                span: span(108, 110, 9),
            },
            RowCheck {
                column: "grade".into(),
                value: "A".into(),
                span: span(116, 117, 9),
            },
        ],
    }
}
