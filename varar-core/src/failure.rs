//! What went wrong in an example and where (spec 30 §30.4–30.6).
//!
//! A failure is data: each kind holds what only it has (the failing cells of
//! a mismatch, the shape problem of a return, the payload and panic site of
//! a thrown error), and its `Display` is the spec 30 message, the text
//! `error` fences match against. Comparisons produce an unlocated
//! [`Problem`]; the executor ties it to its step with [`Failure::locate`],
//! which applies the anchor rule once for every artifact (trace, run
//! result, rendering).

use std::fmt;

use crate::source::Span;
use crate::untrusted::cut_string;

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

/// The four failure kinds (spec 30 §30.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FailureKind {
    /// One or more compared cells differ.
    CellMismatch,
    /// A return does not fit the slot contract.
    ReturnShape,
    /// An example with an `error` fence had no failure.
    UnexpectedPass,
    /// A handler error, a panic or a wiring error.
    Thrown,
}

impl FailureKind {
    /// The kind as written in `trace.json`.
    pub fn as_str(self) -> &'static str {
        match self {
            FailureKind::CellMismatch => "cell-mismatch",
            FailureKind::ReturnShape => "return-shape",
            FailureKind::UnexpectedPass => "unexpected-pass",
            FailureKind::Thrown => "thrown",
        }
    }
}

/// One failing cell of a cell mismatch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellDiff {
    /// `cell N`, a header cell text or `doc string`.
    pub column: String,
    /// The document's text (JSON-quoted for doc strings).
    pub expected: String,
    /// The rendered actual value (JSON-quoted for doc strings).
    pub actual: String,
    /// Where the expected text sits in the source.
    pub span: Span,
}

/// What the document attached to a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attached {
    /// A table.
    Table,
    /// A closed fenced code block.
    DocString,
    /// A fence with no closing line: it runs to the end of the file.
    UnterminatedFence,
}

/// How a return does not fit its slots: the return-shape rows of spec 30
/// §30.4, plus the one this port adds for an attachment the step function
/// does not take (issue 10).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Shape {
    /// A stimulus returned something that is not a next state.
    StimulusNotState,
    /// A zero-slot sensor returned a value.
    ZeroSlotValue,
    /// A sensor with `slots ≥ 1` returned nothing.
    GotNothing {
        /// The slot count.
        slots: usize,
    },
    /// A sensor with `slots ≥ 2` returned something that is not a sequence.
    NotASequence {
        /// The slot count.
        slots: usize,
        /// What it returned.
        found: JsType,
    },
    /// A sensor with `slots ≥ 2` returned a sequence of the wrong length.
    WrongLength {
        /// The slot count.
        slots: usize,
        /// The sequence's length.
        got: usize,
    },
    /// A table slot's value is not a list.
    NotATable {
        /// What it is.
        found: JsType,
    },
    /// A returned table has the wrong number of data rows.
    RowCount {
        /// The table's data rows.
        expected: usize,
        /// The returned rows.
        got: usize,
    },
    /// Mixed, or neither list nor map, rows in a returned table.
    MixedRows,
    /// A list row (0-based) has the wrong width.
    RowWidth {
        /// The row.
        row: usize,
        /// The header's width.
        expected: usize,
        /// The row's width.
        got: usize,
    },
    /// A map row (0-based) lacks a header column.
    MissingColumn {
        /// The row.
        row: usize,
        /// The column.
        column: String,
    },
    /// A doc-string slot's value is not a string.
    NotADocString {
        /// What it is.
        found: JsType,
    },
    /// A header-bound row step returned nothing.
    RowGotNothing,
    /// The document attaches a table or doc string to the step, which
    /// makes it one more slot, but the step function does not take it and
    /// its return does not answer it.
    AttachmentNotTaken {
        /// What is attached.
        attached: Attached,
        /// The attachment's first line.
        line: u32,
        /// The step's captured parameters.
        params: usize,
    },
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shape::StimulusNotState => f.write_str(
                "a stimulus must return the complete next state, or nothing to leave it unchanged",
            ),
            // The dash is U+2014.
            Shape::ZeroSlotValue => f.write_str(
                "this sensor has no parameters, data table or doc string \u{2014} nothing to \
                 compare a return value against (throw to fail, return nothing to pass)",
            ),
            Shape::GotNothing { slots } => write!(
                f,
                "a sensor with {slots} slot(s) must return one value per slot, got nothing"
            ),
            Shape::NotASequence { slots, found } => write!(
                f,
                "a sensor with {slots} slots must return an array of {slots} values, got {}",
                found.as_str()
            ),
            Shape::WrongLength { slots, got } => {
                write!(f, "sensor return must have {slots} element(s), got {got}")
            }
            Shape::NotATable { found } => write!(
                f,
                "expected a table (array of rows), got {}",
                found.as_str()
            ),
            Shape::RowCount { expected, got } => {
                write!(f, "expected {expected} row(s), got {got}")
            }
            Shape::MixedRows => f.write_str("table rows must be all arrays or all objects"),
            Shape::RowWidth { row, expected, got } => {
                write!(f, "row {row}: expected {expected} column(s), got {got}")
            }
            Shape::MissingColumn { row, column } => {
                write!(f, "row {row}: missing column \"{column}\"")
            }
            Shape::NotADocString { found } => {
                write!(f, "expected a doc string (string), got {}", found.as_str())
            }
            Shape::RowGotNothing => f.write_str(
                "a header-bound row step must return a row object with one value per bound \
                 cell, got nothing",
            ),
            Shape::AttachmentNotTaken {
                attached,
                line,
                params,
            } => {
                let what = match attached {
                    Attached::Table => format!("a table (line {line})"),
                    Attached::DocString => format!("a doc string (line {line})"),
                    Attached::UnterminatedFence => format!(
                        "a doc string: the fence opened on line {line} is never closed, so it \
                         runs to the end of the file,"
                    ),
                };
                write!(
                    f,
                    "{what} is attached to this step, which makes it the sensor's slot {}; \
                     the function does not take it and does not return a value for it: take it \
                     as the last argument, or separate it from the paragraph",
                    params + 1
                )
            }
        }
    }
}

/// Where a panicking step panicked, captured by the quiet panic hook.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PanicSite {
    /// `file:line:column` of the `panic!`, `unwrap` or `assert!`.
    pub location: String,
    /// The step's own frames of the backtrace, when `RUST_BACKTRACE` asked
    /// for one.
    pub backtrace: Option<String>,
}

/// A failure not yet tied to a step: what a comparison or a handler reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// Failing cells, in comparison order (never empty).
    Mismatch(Vec<CellDiff>),
    /// The return does not fit the slot contract.
    Shape(Shape),
    /// A handler error, panic payload or wiring message.
    Thrown {
        /// The message, used as is.
        message: String,
        /// Where it panicked, for a panic.
        panic: Option<PanicSite>,
    },
}

impl Problem {
    /// A thrown problem that is not a panic.
    pub fn thrown(message: impl Into<String>) -> Problem {
        Problem::Thrown {
            message: message.into(),
            panic: None,
        }
    }
}

/// The unexpected-pass message (spec 30 §30.4).
pub const UNEXPECTED_PASS: &str = "expected the example to fail, but it passed";

/// A located failure of one example. `Display` is its spec 30 §30.4
/// message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// One or more cells differ; anchored at the first.
    CellMismatch {
        /// The attributed step.
        step: usize,
        /// The failing cells in comparison order (never empty).
        cells: Vec<CellDiff>,
    },
    /// A return that does not fit its slots.
    ReturnShape {
        /// The attributed step.
        step: usize,
        /// Its match span: the anchor.
        span: Span,
        /// What is wrong.
        shape: Shape,
    },
    /// An example with an `error` fence passed.
    UnexpectedPass {
        /// The last step and its match span (`None` without steps).
        last: Option<(usize, Span)>,
    },
    /// A handler error, a panic or a wiring problem.
    Thrown {
        /// The attributed step and its match span; `None` when no step
        /// was involved.
        at: Option<(usize, Span)>,
        /// The error or panic message.
        message: String,
        /// Where it panicked, for a panic.
        panic: Option<PanicSite>,
    },
}

impl Failure {
    /// Tie a problem to the step at `step` whose match span is `match_span`
    /// (the anchor rule: the first failing cell of a mismatch, the step's
    /// match span otherwise).
    pub fn locate(problem: Problem, step: usize, match_span: Span) -> Failure {
        match problem {
            Problem::Mismatch(cells) if !cells.is_empty() => Failure::CellMismatch { step, cells },
            // An empty mismatch is no mismatch; kept visible as a failure.
            Problem::Mismatch(_) => Failure::Thrown {
                at: Some((step, match_span)),
                message: "a comparison failed without a failing cell".to_string(),
                panic: None,
            },
            Problem::Shape(shape) => Failure::ReturnShape {
                step,
                span: match_span,
                shape,
            },
            Problem::Thrown { message, panic } => Failure::Thrown {
                at: Some((step, match_span)),
                message,
                panic,
            },
        }
    }

    /// Which kind.
    pub fn kind(&self) -> FailureKind {
        match self {
            Failure::CellMismatch { .. } => FailureKind::CellMismatch,
            Failure::ReturnShape { .. } => FailureKind::ReturnShape,
            Failure::UnexpectedPass { .. } => FailureKind::UnexpectedPass,
            Failure::Thrown { .. } => FailureKind::Thrown,
        }
    }

    /// The anchor (§30.6); absent only when no step was involved.
    pub fn anchor(&self) -> Option<Span> {
        match self {
            Failure::CellMismatch { cells, .. } => cells.first().map(|c| c.span),
            Failure::ReturnShape { span, .. } => Some(*span),
            Failure::UnexpectedPass { last } => last.map(|(_, span)| span),
            Failure::Thrown { at, .. } => at.map(|(_, span)| span),
        }
    }

    /// Index of the attributed step in the example.
    pub fn step(&self) -> Option<usize> {
        match self {
            Failure::CellMismatch { step, .. } | Failure::ReturnShape { step, .. } => Some(*step),
            Failure::UnexpectedPass { last } => last.map(|(i, _)| i),
            Failure::Thrown { at, .. } => at.map(|(i, _)| i),
        }
    }

    /// The failing cells of a cell mismatch; empty for the other kinds.
    pub fn cells(&self) -> &[CellDiff] {
        match self {
            Failure::CellMismatch { cells, .. } => cells,
            _ => &[],
        }
    }

    /// Where a panicking step panicked.
    pub fn panic(&self) -> Option<&PanicSite> {
        match self {
            Failure::Thrown { panic, .. } => panic.as_ref(),
            _ => None,
        }
    }

    /// The §30.4 message as it is kept and shown (the result file, the
    /// run record, the failure text): cut at
    /// [`TEXT_LIMIT`](crate::untrusted::TEXT_LIMIT) when longer, as the
    /// messages of many failing cells may be together. `Display` gives it
    /// whole, for the `error` fence's test (§30.5).
    pub fn bounded_message(&self) -> String {
        cut_string(self.to_string())
    }

    /// The failure with every text a step or the document supplied (a
    /// thrown message, a panic's location and backtrace, a cell's column,
    /// expected and actual text, a missing column) cut at
    /// [`TEXT_LIMIT`](crate::untrusted::TEXT_LIMIT) (issue 34): what the
    /// harness keeps once the `error` fence was judged on the whole text.
    pub fn bounded(self) -> Failure {
        match self {
            Failure::CellMismatch { step, cells } => Failure::CellMismatch {
                step,
                cells: cells
                    .into_iter()
                    .map(|c| CellDiff {
                        column: cut_string(c.column),
                        expected: cut_string(c.expected),
                        actual: cut_string(c.actual),
                        span: c.span,
                    })
                    .collect(),
            },
            Failure::ReturnShape {
                step,
                span,
                shape: Shape::MissingColumn { row, column },
            } => Failure::ReturnShape {
                step,
                span,
                shape: Shape::MissingColumn {
                    row,
                    column: cut_string(column),
                },
            },
            Failure::Thrown { at, message, panic } => Failure::Thrown {
                at,
                message: cut_string(message),
                panic: panic.map(|site| PanicSite {
                    location: cut_string(site.location),
                    backtrace: site.backtrace.map(cut_string),
                }),
            },
            other => other,
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::CellMismatch { cells, .. } => {
                for (i, c) in cells.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    write!(
                        f,
                        "{}: expected {} but was {}",
                        c.column, c.expected, c.actual
                    )?;
                }
                Ok(())
            }
            Failure::ReturnShape { shape, .. } => shape.fmt(f),
            Failure::UnexpectedPass { .. } => f.write_str(UNEXPECTED_PASS),
            Failure::Thrown { message, .. } => f.write_str(message),
        }
    }
}
