//! What went wrong in an example and where (spec 30 §30.4–30.6).
//!
//! Comparisons produce an unlocated [`Problem`]; the executor ties it to the
//! step it happened at with [`Failure::locate`], which applies the anchor rule
//! once for every artifact (trace, run result, rendering).

use crate::source::Span;

/// The four failure kinds (spec 30 §30.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
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

/// A failure not yet tied to a step: what a comparison or a handler reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// Failing cells, in comparison order (never empty).
    Mismatch(Vec<CellDiff>),
    /// A return-shape message (spec 30 §30.4).
    Shape(String),
    /// A handler error, panic payload or wiring message.
    Thrown(String),
}

/// The unexpected-pass message (spec 30 §30.4).
pub const UNEXPECTED_PASS: &str = "expected the example to fail, but it passed";

/// A located failure of one example.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// Which kind.
    pub kind: FailureKind,
    /// The §30.4 message (for `thrown`, the error or panic message).
    pub message: String,
    /// Failing cells of a cell mismatch, in comparison order; empty otherwise.
    pub cells: Vec<CellDiff>,
    /// The anchor (§30.6); absent only when no step was involved.
    pub anchor: Option<Span>,
    /// Index of the attributed step in the example.
    pub step: Option<usize>,
}

impl Failure {
    /// Tie a problem to the step at `step` whose match span is `match_span`,
    /// applying the anchor rule: the first failing cell for a mismatch, the
    /// step's match span otherwise.
    pub fn locate(problem: Problem, step: usize, match_span: Span) -> Failure {
        let (kind, message, cells) = match problem {
            Problem::Mismatch(cells) => {
                (FailureKind::CellMismatch, mismatch_message(&cells), cells)
            }
            Problem::Shape(m) => (FailureKind::ReturnShape, m, Vec::new()),
            Problem::Thrown(m) => (FailureKind::Thrown, m, Vec::new()),
        };
        let anchor = cells.first().map(|c| c.span).unwrap_or(match_span);
        Failure {
            kind,
            message,
            cells,
            anchor: Some(anchor),
            step: Some(step),
        }
    }

    /// An unexpected pass, attributed to the last step (`None` when the
    /// example has no steps).
    pub fn unexpected_pass(last: Option<(usize, Span)>) -> Failure {
        Failure {
            kind: FailureKind::UnexpectedPass,
            message: UNEXPECTED_PASS.to_string(),
            cells: Vec::new(),
            anchor: last.map(|(_, span)| span),
            step: last.map(|(i, _)| i),
        }
    }
}

/// The cell-mismatch message: `{column}: expected {expected} but was
/// {actual}` per failing cell, joined with `; `.
pub fn mismatch_message(cells: &[CellDiff]) -> String {
    cells
        .iter()
        .map(|c| format!("{}: expected {} but was {}", c.column, c.expected, c.actual))
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::testing::span;

    fn cell(column: &str, expected: &str, actual: &str, s: Span) -> CellDiff {
        CellDiff {
            column: column.into(),
            expected: expected.into(),
            actual: actual.into(),
            span: s,
        }
    }

    #[test]
    fn kinds_have_their_trace_names() {
        let cases = [
            (FailureKind::CellMismatch, "cell-mismatch"),
            (FailureKind::ReturnShape, "return-shape"),
            (FailureKind::UnexpectedPass, "unexpected-pass"),
            (FailureKind::Thrown, "thrown"),
        ];
        for (kind, name) in cases {
            assert_eq!(kind.as_str(), name);
        }
    }

    #[test]
    fn mismatch_message_joins_failing_cells() {
        let s = span(0, 1, 1);
        assert_eq!(
            mismatch_message(&[cell("cell 1", "£2.55", "£2.60", s)]),
            "cell 1: expected £2.55 but was £2.60"
        );
        assert_eq!(
            mismatch_message(&[
                cell("after", "VÁR", "VAR", s),
                cell("after", "BDD", "bdd", s)
            ]),
            "after: expected VÁR but was VAR; after: expected BDD but was bdd"
        );
    }

    #[test]
    fn a_mismatch_is_anchored_at_its_first_cell() {
        let step = span(40, 60, 5);
        let first = span(71, 77, 8);
        let second = span(80, 82, 9);
        let f = Failure::locate(
            Problem::Mismatch(vec![
                cell("a", "1", "2", first),
                cell("b", "3", "4", second),
            ]),
            2,
            step,
        );
        assert_eq!(f.kind, FailureKind::CellMismatch);
        assert_eq!(f.anchor, Some(first));
        assert_eq!(f.step, Some(2));
        assert_eq!(
            f.message,
            "a: expected 1 but was 2; b: expected 3 but was 4"
        );
    }

    #[test]
    fn other_kinds_are_anchored_at_the_step() {
        let step = span(40, 60, 5);
        for (problem, kind) in [
            (Problem::Shape("bad".into()), FailureKind::ReturnShape),
            (Problem::Thrown("boom".into()), FailureKind::Thrown),
        ] {
            let f = Failure::locate(problem, 0, step);
            assert_eq!(f.kind, kind);
            assert_eq!(f.anchor, Some(step));
            assert!(f.cells.is_empty());
        }
    }

    #[test]
    fn unexpected_pass_points_at_the_last_step() {
        let last = span(254, 273, 9);
        let f = Failure::unexpected_pass(Some((1, last)));
        assert_eq!(f.message, "expected the example to fail, but it passed");
        assert_eq!((f.anchor, f.step), (Some(last), Some(1)));
        assert_eq!(Failure::unexpected_pass(None).anchor, None);
    }
}
