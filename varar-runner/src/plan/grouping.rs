//! Grouping units into examples (spec 20 §20.8): merging across blank lines,
//! delimiters, naming and spans.

use super::model::{Expectation, PlannedExample};
use super::units::{MatchedUnit, Unit};
use crate::source::Span;
use crate::text::example_name;

/// Walk the units in document order with one open example.
pub(crate) fn group(units: Vec<Unit<'_>>) -> Vec<PlannedExample> {
    let mut examples = Vec::new();
    let mut open: Option<PlannedExample> = None;
    for unit in units {
        match unit {
            Unit::HeaderBound(rows) => {
                examples.extend(open.take());
                examples.extend(rows);
            }
            Unit::Unmatched => examples.extend(open.take()),
            Unit::Matched(unit) => match open.as_mut() {
                Some(example) if !unit.candidate.preceded_by_delimiter => merge(example, unit),
                _ => {
                    examples.extend(open.take());
                    open = Some(start(unit));
                }
            },
        }
    }
    examples.extend(open);
    examples
}

fn start(unit: MatchedUnit<'_>) -> PlannedExample {
    let candidate = unit.candidate;
    PlannedExample {
        name: example_name(&candidate.body.text.text),
        scope_stack: candidate.scope_stack.clone(),
        span: candidate.span,
        expected: unit.expected,
        steps: unit.steps,
        row: None,
        unmatched: unit.unmatched,
    }
}

fn merge(example: &mut PlannedExample, unit: MatchedUnit<'_>) {
    example.steps.extend(unit.steps);
    example.unmatched.extend(unit.unmatched);
    example.span = join(example.span, unit.candidate.span);
    if let Expectation::Fail { message } = unit.expected {
        match &mut example.expected {
            Expectation::Pass => example.expected = Expectation::Fail { message },
            // The first message wins.
            Expectation::Fail { message: existing } => {
                if existing.is_none() {
                    *existing = message;
                }
            }
        }
    }
}

/// From the start of `first` to the end of `last`.
fn join(first: Span, last: Span) -> Span {
    Span {
        end_offset: last.end_offset,
        end_line: last.end_line,
        end_col: last.end_col,
        ..first
    }
}
