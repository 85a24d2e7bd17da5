//! Comparing what a step returned with what the document says (spec 30
//! §30.2–30.3). Pure functions from a planned step and a [`Returned`] value
//! to `Ok(())` or an unlocated [`Problem`].

pub mod messages;

use crate::step::{JsType, Observed, ObservedRow, Returned};
use varar_core::doc;
use varar_core::failure::{CellDiff, Problem, Shape};
use varar_core::plan::{PlannedDocString, PlannedStep, RowBinding};

/// The slots a sensor must answer: its parameters, then one for the trailing
/// table or doc string (spec 30 §30.2).
pub fn slot_count(step: &PlannedStep) -> usize {
    let trailing = step.data_table.is_some() || step.doc_string.is_some();
    step.args.len() + usize::from(trailing)
}

/// One slot's value: a bare returned value, or a tuple returned where a
/// single value was expected (which the contract never unwraps).
#[derive(Clone, Copy)]
enum Slot<'a> {
    One(&'a dyn Observed),
    Tuple(&'a [Box<dyn Observed>]),
}

impl Slot<'_> {
    fn js_type(self) -> JsType {
        match self {
            Slot::One(v) => v.js_type(),
            Slot::Tuple(_) => JsType::Object,
        }
    }
}

/// A stimulus's return (spec 30 §30.1.3). In Rust the next state goes back
/// through the [`World`](crate::step::World), so a handler normally returns
/// nothing; a record it hands back anyway is accepted as the exposed state
/// (the row object of a header-bound stimulus), anything else is a
/// return-shape error.
pub fn check_stimulus(returned: &Returned) -> Result<(), Problem> {
    match returned {
        Returned::Nothing => Ok(()),
        Returned::One(v) if v.js_type() == JsType::Object => Ok(()),
        _ => Err(Problem::Shape(Shape::StimulusNotState)),
    }
}

/// Apply the sensor slot contract and compare every slot (spec 30 §30.2):
/// inline parameters first, then the trailing table or doc string.
pub fn check_sensor(step: &PlannedStep, returned: &Returned) -> Result<(), Problem> {
    let n = slot_count(step);
    let slots: Vec<Slot<'_>> = match (n, returned) {
        (0, Returned::Nothing) => return Ok(()),
        (0, _) => return Err(Problem::Shape(Shape::ZeroSlotValue)),
        (_, Returned::Nothing) => return Err(Problem::Shape(Shape::GotNothing { slots: n })),
        (1, Returned::One(v)) => vec![Slot::One(v.as_ref())],
        (1, Returned::Many(vs)) => vec![Slot::Tuple(vs)],
        (_, Returned::One(v)) => {
            return Err(Problem::Shape(Shape::NotASequence {
                slots: n,
                found: v.js_type(),
            }));
        }
        (_, Returned::Many(vs)) if vs.len() != n => {
            return Err(Problem::Shape(Shape::WrongLength {
                slots: n,
                got: vs.len(),
            }));
        }
        (_, Returned::Many(vs)) => vs.iter().map(|v| Slot::One(v.as_ref())).collect(),
    };
    compare_inline(step, &slots)?;
    let Some(last) = slots.get(step.args.len()).copied() else {
        return Ok(());
    };
    if let Some(table) = &step.data_table {
        compare_table(table, last)
    } else if let Some(doc_string) = &step.doc_string {
        compare_doc_string(doc_string, last)
    } else {
        Ok(())
    }
}

/// Inline parameters by structural equality; all of them are compared before
/// reporting, and only the failing ones are listed (spec 30 §30.3.1).
fn compare_inline(step: &PlannedStep, slots: &[Slot<'_>]) -> Result<(), Problem> {
    let mut cells = Vec::new();
    for (i, (arg, slot)) in step.args.iter().zip(slots).enumerate() {
        let (equal, actual) = match *slot {
            Slot::One(v) => (
                v.equals(&arg.value).map_err(Problem::thrown)?,
                render_inline(v, &arg.parameter_type),
            ),
            Slot::Tuple(vs) => (false, render_tuple(vs)),
        };
        if !equal {
            cells.push(CellDiff {
                column: format!("cell {}", i + 1),
                expected: arg.raw.to_string(),
                actual,
                span: step.param_spans.get(i).copied().unwrap_or(step.match_span),
            });
        }
    }
    if cells.is_empty() {
        Ok(())
    } else {
        Err(Problem::Mismatch(cells))
    }
}

/// The actual side of an inline parameter (spec 30 §30.3.5): the value's own
/// format, then the `{emph}` format, then rules 2–4.
pub fn render_inline(value: &dyn Observed, parameter_type: &str) -> String {
    if let Some(formatted) = value.format() {
        return formatted;
    }
    if parameter_type == "emph" {
        return format!("*{}*", value.render());
    }
    value.render()
}

/// A tuple returned for one slot, shown as a list (rule 4: port-native).
fn render_tuple(values: &[Box<dyn Observed>]) -> String {
    let parts: Vec<String> = values.iter().map(|v| v.render()).collect();
    format!("[{}]", parts.join(", "))
}

/// A whole table in the trailing slot (spec 30 §30.3.2). The header is never
/// returned; rows compare as strings.
fn compare_table(table: &doc::Table, slot: Slot<'_>) -> Result<(), Problem> {
    let rows = match slot {
        Slot::One(v) => v
            .as_table()
            .ok_or_else(|| Problem::Shape(Shape::NotATable { found: v.js_type() }))?,
        Slot::Tuple(vs) => vs.iter().map(|v| ObservedRow::of(v.as_ref())).collect(),
    };
    if rows.len() != table.rows.len() {
        return Err(Problem::Shape(Shape::RowCount {
            expected: table.rows.len(),
            got: rows.len(),
        }));
    }
    let all_lists = rows.iter().all(|r| matches!(r, ObservedRow::List(_)));
    let all_maps = rows.iter().all(|r| matches!(r, ObservedRow::Map(_)));
    if !all_lists && !all_maps {
        return Err(Problem::Shape(Shape::MixedRows));
    }
    let header = &table.header.cells;
    let mut cells = Vec::new();
    for (i, (returned, source)) in rows.iter().zip(&table.rows).enumerate() {
        let actuals: Vec<&str> = match returned {
            ObservedRow::List(values) => {
                if values.len() != header.len() {
                    return Err(Problem::Shape(Shape::RowWidth {
                        row: i,
                        expected: header.len(),
                        got: values.len(),
                    }));
                }
                values.iter().map(String::as_str).collect()
            }
            ObservedRow::Map(record) => {
                let mut actuals = Vec::with_capacity(header.len());
                for column in header {
                    match lookup(record, column) {
                        Some(v) => actuals.push(v),
                        None => {
                            return Err(Problem::Shape(Shape::MissingColumn {
                                row: i,
                                column: column.clone(),
                            }));
                        }
                    }
                }
                actuals
            }
            // Excluded by the all-lists-or-all-maps check above.
            ObservedRow::Other => return Err(Problem::Shape(Shape::MixedRows)),
        };
        for (j, (column, actual)) in header.iter().zip(actuals).enumerate() {
            let expected = source.cells.get(j).map(String::as_str).unwrap_or("");
            if expected != actual {
                cells.push(CellDiff {
                    column: column.clone(),
                    expected: expected.to_string(),
                    actual: actual.to_string(),
                    span: source.cell_spans.get(j).copied().unwrap_or(source.span),
                });
            }
        }
    }
    if cells.is_empty() {
        Ok(())
    } else {
        Err(Problem::Mismatch(cells))
    }
}

/// A record's value for a column; with duplicate keys the later one wins,
/// as in an object literal.
fn lookup<'a>(record: &'a [(String, String)], column: &str) -> Option<&'a str> {
    record
        .iter()
        .rev()
        .find(|(k, _)| k == column)
        .map(|(_, v)| v.as_str())
}

/// A doc string in the trailing slot: exact equality, shown JSON-quoted
/// (spec 30 §30.3.3).
fn compare_doc_string(doc_string: &PlannedDocString, slot: Slot<'_>) -> Result<(), Problem> {
    let text = match slot {
        Slot::One(v) => v.as_text(),
        Slot::Tuple(_) => None,
    };
    let Some(text) = text else {
        return Err(Problem::Shape(Shape::NotADocString {
            found: slot.js_type(),
        }));
    };
    if text == doc_string.content {
        return Ok(());
    }
    Err(Problem::Mismatch(vec![CellDiff {
        column: "doc string".to_string(),
        expected: json_quote(&doc_string.content),
        actual: json_quote(text),
        span: doc_string.span,
    }]))
}

/// The header-bound row check, run once after the step loop against the
/// last step's return (spec 30 §30.3.4). A return that is not a record
/// passes unchecked (the reference's known hole), and only returned columns
/// are compared.
pub fn check_row(binding: &RowBinding, last_return: &Returned) -> Result<(), Problem> {
    let record = match last_return {
        Returned::Nothing => return Err(Problem::Shape(Shape::RowGotNothing)),
        Returned::One(v) => v.as_record(),
        Returned::Many(_) => None,
    };
    let Some(record) = record else {
        return Ok(());
    };
    let cells: Vec<CellDiff> = binding
        .checks
        .iter()
        .filter_map(|check| {
            let actual = lookup(&record, &check.column)?;
            (actual != check.value).then(|| CellDiff {
                column: check.column.to_string(),
                expected: check.value.clone(),
                actual: actual.to_string(),
                span: check.span,
            })
        })
        .collect();
    if cells.is_empty() {
        Ok(())
    } else {
        Err(Problem::Mismatch(cells))
    }
}

/// Quote a string exactly as JavaScript's `JSON.stringify` does (spec 30
/// §30.3.6): short escapes, `\u00XX` for other controls, everything else raw.
pub fn json_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    varar_core::json::write_string(&mut out, s);
    out
}

#[cfg(test)]
pub(crate) mod tests;
