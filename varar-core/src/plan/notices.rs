//! Notices (issue 37): what planning does by the letter of spec 20 §20.7
//! that a reader of the oath would not expect, and examples that check
//! nothing. None of them is a diagnostic: the plan, `plan.json`, the lock
//! and every exit code stay those of the spec; a notice only says, at its
//! span, what is not checked and how to fix the text.
//!
//! The quirks are found while a candidate is planned, where the steps the
//! plan then drops are still at hand ([`Plan::notices`]):
//!
//! - [`NoticeKind::DroppedSteps`]: a header-bound paragraph runs only its
//!   last step for each row; its other steps are dropped (§20.7 step 2);
//! - [`NoticeKind::IgnoredErrorFence`]: the `error` fence of a
//!   header-bound paragraph is ignored (§20.7 step 2);
//! - [`NoticeKind::HeaderBoundWithoutRows`]: a header-bound table with no
//!   data row gives no example, so its paragraph runs nothing (§20.7 step 2);
//! - [`NoticeKind::TableAttachedElsewhere`]: a table goes to its
//!   paragraph's last step (§20.7 step 4), but the sentence that introduces
//!   it is another. The rule, kept narrow so that it says nothing of
//!   ordinary text: the sentence introducing a table is the paragraph's
//!   last sentence that ends with a colon; when there is one and the
//!   paragraph's last step does not lie in it, the table is handed to
//!   another sentence than the one that introduces it. A paragraph with
//!   no sentence ending with a colon gets no such notice.
//!
//! [`checks_nothing`] finds the examples with nothing to compare
//! ([`NoticeKind::ChecksNothing`]): it needs the steps' roles, so it runs
//! on the finished plan.
//!
//! Notices are about the oath's own text: a section another oath's plan
//! splices, or a consumed one, is not looked at from here.
//!
//! [`Plan::notices`]: super::Plan::notices

use super::matching::{BlockMatch, SentenceRef};
use super::model::{Expectation, Notice, NoticeKind, Plan, PlannedStep};
use crate::doc::{Fence, Table, TextBlock};
use crate::registry::{Registry, Role};
use crate::source::{Source, utf16_len};
use crate::untrusted::cut_to;

/// The most bytes of a sentence quoted in a notice.
const QUOTE_LIMIT: usize = 200;

/// The notices of a header-bound paragraph (§20.7 step 2): each step but
/// the `bound` one (the last) dropped, its `error` fence ignored, and its
/// table without rows.
pub(crate) fn header_bound(
    steps: &[PlannedStep],
    table: &Table,
    error_fence: Option<&Fence>,
    notices: &mut Vec<Notice>,
) {
    let Some((bound, dropped)) = steps.split_last() else {
        return;
    };
    let bound_text = quote(&bound.text);
    for step in dropped {
        notices.push(Notice {
            kind: NoticeKind::DroppedSteps,
            span: step.match_span,
            message: format!(
                "\"{}\" never runs: the table below is header-bound to \"{bound_text}\" \
                 (the paragraph names every column), and each row runs only the \
                 paragraph's last step",
                quote(&step.text)
            ),
            fix: format!(
                "make it part of the step each row runs (a column, or the sentence \
                 \"{bound_text}\"), or give it a paragraph of its own, which runs as an \
                 example of its own"
            ),
        });
    }
    if let Some(fence) = error_fence {
        notices.push(Notice {
            kind: NoticeKind::IgnoredErrorFence,
            span: fence.span,
            message: format!(
                "this `error` fence is ignored: the table above is header-bound to \
                 \"{bound_text}\", and its rows are expected to pass"
            ),
            fix: "remove the fence; to expect a failure, write that case as an example of \
                  its own, with its `error` fence"
                .to_owned(),
        });
    }
    if table.rows.is_empty() {
        notices.push(Notice {
            kind: NoticeKind::HeaderBoundWithoutRows,
            span: table.span,
            message: format!(
                "this table has no data row, so \"{bound_text}\" (to which its header \
                 binds it) runs in no example: the paragraph checks nothing"
            ),
            fix: "add a row under the header (each row is an example), or remove the table"
                .to_owned(),
        });
    }
}

/// The notice of a table attached (§20.7 step 4) to the paragraph's last
/// step, `last`, whose hit is the last of `matched`, when the sentence
/// introducing the table (the last of `sentences` ending with a colon) is
/// another.
pub(crate) fn attached_elsewhere(
    sentences: &[SentenceRef<'_>],
    matched: &BlockMatch,
    last: &PlannedStep,
    block: &TextBlock,
    source: &Source<'_>,
    notices: &mut Vec<Notice>,
) {
    let Some(hit) = matched.hits.last() else {
        return;
    };
    let Some(naming) = sentences
        .iter()
        .rev()
        .find(|s| s.text.trim_end().ends_with(':'))
    else {
        return;
    };
    let end = naming.start + utf16_len(naming.text);
    if hit.start < end && naming.start < hit.end {
        return;
    }
    let sentence = naming.text.trim();
    notices.push(Notice {
        kind: NoticeKind::TableAttachedElsewhere,
        span: source.span(block.lift(naming.start), block.lift(end)),
        message: format!(
            "the table below goes to \"{}\", the paragraph's last step, not to \"{}\", \
             which introduces it",
            quote(&last.text),
            quote(sentence)
        ),
        fix: "end the paragraph with the step that takes the table, right above it (a table \
              goes to its paragraph's last step), or split the paragraph"
            .to_owned(),
    });
}

/// The examples of `plan` that check nothing: no step is a sensor of
/// `registry`, no `error` fence expects a failure, and no header-bound row
/// is compared with what the step returns. Nothing such an example does
/// is compared with the document: it fails only when a step panics or
/// returns an error. One notice each, at the example, in plan order.
///
/// ```
/// use varar_core::parse::parse;
/// use varar_core::plan::{NoticeKind, checks_nothing, plan};
/// use varar_core::registry::{Registry, Role, StepSpec, Trailing};
/// use varar_core::source::Source;
///
/// let registry = Registry::build(
///     Vec::new(),
///     vec![StepSpec::new("I add {int}", Role::Stimulus, "steps.rs", 3, Trailing::None)],
/// )
/// .unwrap();
/// let text = "# Till\n\nI add 2.\n";
/// let source = Source::new(text);
/// let planned = plan(&parse("a.md", &source), &source, &registry);
/// let notices = checks_nothing(&planned, &registry);
/// assert_eq!(notices[0].kind, NoticeKind::ChecksNothing);
/// assert_eq!(notices[0].span.start_line, 3);
/// ```
pub fn checks_nothing(plan: &Plan, registry: &Registry) -> Vec<Notice> {
    plan.examples
        .iter()
        .filter(|e| e.expected == Expectation::Pass)
        .filter(|e| e.row.as_ref().is_none_or(|r| r.checks.is_empty()))
        .filter(|e| {
            !e.steps.iter().any(|s| {
                registry
                    .steps
                    .get(s.step)
                    .is_some_and(|r| r.spec.role == Role::Sensor)
            })
        })
        .map(|e| Notice {
            kind: NoticeKind::ChecksNothing,
            span: e.span,
            message: format!(
                "the example \"{}\" checks nothing: its steps are all stimuli, with no \
                 sensor, no `error` fence and no row to compare: nothing it does is \
                 compared with the text, and it fails only when a step panics or returns an \
                 error",
                quote(&e.name)
            ),
            fix: "add a sentence a sensor matches (what the system should then show), or an \
                  `error` fence if it should fail"
                .to_owned(),
        })
        .collect()
}

/// A sentence as a notice quotes it: bounded.
fn quote(text: &str) -> std::borrow::Cow<'_, str> {
    cut_to(text, QUOTE_LIMIT)
}

#[cfg(test)]
mod tests;
