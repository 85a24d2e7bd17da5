//! Grouping units into examples (spec 20 §20.8): merging across blank lines,
//! delimiters, naming and spans.
//!
//! A reference unit is placed among the open examples by spec 70 §70.3.2,
//! §70.3.3 and the decision of §70.6.1: only the link itself is subject to
//! the delimiter rule, and the parts its section contributes stay one run of
//! steps. An example opened by a link is named after the first spliced
//! paragraph, sits under the link's headings and spans the link, until a
//! paragraph of its own merges in and gives it its name and headings.

use super::model::{Expectation, PlannedExample};
use super::units::{MatchedUnit, ReferenceUnit, Unit};
use crate::source::Span;

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
                        rename(example, &unit);
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
                let mut state = Open {
                    example: &mut open,
                    from_reference: &mut from_reference,
                    closed: &mut examples,
                };
                place(&reference, parts, &mut state);
            }
        }
    }
    examples.extend(open);
    examples
}

fn start(unit: MatchedUnit<'_>) -> PlannedExample {
    let candidate = unit.candidate;
    PlannedExample {
        name: unit.name,
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

/// The grouping state a reference unit changes.
pub(super) struct Open<'a> {
    /// The open example.
    pub example: &'a mut Option<PlannedExample>,
    /// Whether the open example is named after a spliced paragraph.
    pub from_reference: &'a mut bool,
    /// The closed examples, in order.
    pub closed: &'a mut Vec<PlannedExample>,
}

/// Splice the `parts` of `reference` in where the link stands.
fn place(reference: &ReferenceUnit<'_>, parts: Vec<MatchedUnit<'_>>, open: &mut Open<'_>) {
    let link = reference.candidate;
    if parts.is_empty() {
        // A link under a heading that resolves to nothing still ends the
        // example before it, as the heading would (spec 70 §70.6.1).
        if link.preceded_by_delimiter {
            open.closed.extend(open.example.take());
        }
        return;
    }
    for (i, part) in parts.into_iter().enumerate() {
        let continues = i > 0 || !link.preceded_by_delimiter;
        match open.example.as_mut() {
            Some(example) if continues => merge(example, part),
            _ => {
                open.closed.extend(open.example.take());
                let mut example = start(part);
                example.scope_stack = link.scope_stack.clone();
                example.span = link.span;
                *open.from_reference = true;
                *open.example = Some(example);
            }
        }
        // The example's span is in the running oath: it ends at the link
        // until a paragraph of its own extends it.
        if let Some(example) = open.example.as_mut() {
            example.span = join(example.span, link.span);
        }
    }
}

/// An own paragraph merging into an example named after a spliced one: the
/// example takes the paragraph's name and headings.
fn rename(example: &mut PlannedExample, unit: &MatchedUnit<'_>) {
    example.name.clone_from(&unit.name);
    example.scope_stack = unit.candidate.scope_stack.clone();
}
