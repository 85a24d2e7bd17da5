//! Placing a reference unit among the open examples (spec 70 §70.3.2,
//! §70.3.3, and the decision of §70.6.1).
//!
//! Only the link itself is subject to the delimiter rule: the parts its
//! section contributes stay one run of steps. An example opened by a link is
//! named after the first spliced paragraph, sits under the link's headings
//! and spans the link, until a paragraph of its own merges in and gives it
//! its name and headings.

use super::{example_name, join, merge, start};
use crate::plan::model::PlannedExample;
use crate::plan::resolve::ReferenceUnit;
use crate::plan::units::MatchedUnit;

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
pub(super) fn place(
    reference: &ReferenceUnit<'_>,
    parts: Vec<MatchedUnit<'_>>,
    open: &mut Open<'_>,
) {
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
pub(super) fn rename(example: &mut PlannedExample, unit: &MatchedUnit<'_>) {
    example.name = example_name(&unit.candidate.body.text.text);
    example.scope_stack = unit.candidate.scope_stack.clone();
}
