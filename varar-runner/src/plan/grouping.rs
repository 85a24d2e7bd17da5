//! Grouping units into examples (spec 20 §20.8): merging across blank lines,
//! delimiters, naming and spans. Reference units (spec 70 §70.3.2) are
//! placed by [`splice`].

mod splice;

use super::model::{Expectation, PlannedExample};
use super::resolve::ReferenceUnit;
use super::units::{MatchedUnit, Unit};
use crate::source::Span;
use crate::text::example_name;

/// Turns a reference unit into the matched units its section contributes.
pub(crate) type Resolve<'r, 'd> = dyn FnMut(&ReferenceUnit<'d>) -> Vec<MatchedUnit<'d>> + 'r;

/// Walk the units in document order with one open example (no unit is a
/// reference).
#[cfg(test)]
pub(crate) fn group(units: Vec<Unit<'_>>) -> Vec<PlannedExample> {
    group_with(units, &mut |_| Vec::new())
}

/// Walk the units in document order with one open example; reference units
/// are resolved (by `resolve`) where they stand.
pub(crate) fn group_with<'d>(
    units: Vec<Unit<'d>>,
    resolve: &mut Resolve<'_, 'd>,
) -> Vec<PlannedExample> {
    let mut examples = Vec::new();
    let mut open: Option<PlannedExample> = None;
    // Whether the open example is still named after a spliced paragraph.
    let mut from_reference = false;
    for unit in units {
        match unit {
            Unit::HeaderBound(rows) => {
                examples.extend(open.take());
                examples.extend(rows);
            }
            Unit::Unmatched => examples.extend(open.take()),
            Unit::Matched(unit) => match open.as_mut() {
                Some(example) if !unit.candidate.preceded_by_delimiter => {
                    if std::mem::take(&mut from_reference) {
                        splice::rename(example, &unit);
                    }
                    merge(example, unit)
                }
                _ => {
                    examples.extend(open.take());
                    open = Some(start(unit));
                    from_reference = false;
                }
            },
            Unit::Reference(reference) => {
                let parts = resolve(&reference);
                let mut state = splice::Open {
                    example: &mut open,
                    from_reference: &mut from_reference,
                    closed: &mut examples,
                };
                splice::place(&reference, parts, &mut state);
            }
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
