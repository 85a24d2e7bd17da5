//! Grouping units into examples (spec 20 §20.8): merging across blank lines,
//! delimiters, naming and spans.

use super::model::{Expectation, PlannedExample};
use super::units::{MatchedUnit, Unit};
use crate::source::Span;
use crate::text::collapse_whitespace;

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
    }
}

fn merge(example: &mut PlannedExample, unit: MatchedUnit<'_>) {
    example.steps.extend(unit.steps);
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

/// The block text with JS-whitespace runs collapsed to one space, trimmed,
/// and one trailing `.`, `!` or `?` removed.
pub(crate) fn example_name(text: &str) -> String {
    let mut name = collapse_whitespace(text);
    if name.ends_with(['.', '!', '?']) {
        name.pop();
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::doc::{Candidate, CandidateBody, SegmentOffset, TextBlock, TextKind};
    use crate::plan::model::PlannedStep;

    fn span(start: u32, end: u32) -> Span {
        Span {
            start_offset: start,
            end_offset: end,
            start_line: 1,
            start_col: start + 1,
            end_line: 1,
            end_col: end + 1,
        }
    }

    fn candidate(text: &str, start: u32, end: u32, pbd: bool) -> Candidate {
        Candidate {
            scope_stack: vec![format!("at {start}")],
            span: span(start, end),
            body: CandidateBody {
                text: TextBlock {
                    kind: TextKind::Paragraph,
                    text: text.to_string(),
                    span: span(start, start + text.len() as u32),
                    segment_map: vec![SegmentOffset {
                        text_offset: 0,
                        source_offset: start,
                    }],
                },
                attachments: Vec::new(),
            },
            preceded_by_delimiter: pbd,
        }
    }

    fn step(text: &str) -> PlannedStep {
        PlannedStep {
            text: text.to_string(),
            match_span: span(0, 0),
            param_spans: Vec::new(),
            inner_spans: Vec::new(),
            step: 0,
            matched_expression: text.to_string(),
            args: Vec::new(),
            data_table: None,
            doc_string: None,
        }
    }

    fn matched<'d>(c: &'d Candidate, expected: Expectation) -> Unit<'d> {
        Unit::Matched(MatchedUnit {
            candidate: c,
            steps: vec![step(&c.body.text.text)],
            expected,
        })
    }

    fn fail(message: Option<&str>) -> Expectation {
        Expectation::Fail {
            message: message.map(str::to_string),
        }
    }

    fn summary(examples: &[PlannedExample]) -> Vec<(String, u32, u32, usize)> {
        examples
            .iter()
            .map(|e| {
                (
                    e.name.clone(),
                    e.span.start_offset,
                    e.span.end_offset,
                    e.steps.len(),
                )
            })
            .collect()
    }

    #[test]
    fn names_collapse_whitespace_and_drop_one_terminator() {
        let cases = [
            (
                "I convert 1 to roman numerals. The result is I.",
                "I convert 1 to roman numerals. The result is I",
            ),
            (
                "Given the following users have been imported:",
                "Given the following users have been imported:",
            ),
            ("I greet \"world\".", "I greet \"world\""),
            // Trimmed before the terminator goes, so the space before `!` stays.
            ("  a\n\tb\u{feff} c\u{a0}!  ", "a b c "),
            ("Wait...", "Wait.."),
            ("What?!", "What?"),
            // U+0085 is not JS-whitespace, so it stays.
            ("a\u{85}b", "a\u{85}b"),
            ("", ""),
        ];
        for (text, want) in cases {
            assert_eq!(example_name(text), want, "{text:?}");
        }
    }

    #[test]
    fn bundle_18_merges_until_prose() {
        let p1 = candidate("Given users:", 37, 100, true);
        let p2 = candidate("And assets:", 102, 150, false);
        let p3 = candidate("Then basket.", 152, 196, false);
        let p5 = candidate("Then empty.", 335, 381, false);
        let units = vec![
            matched(&p1, Expectation::Pass),
            matched(&p2, Expectation::Pass),
            matched(&p3, Expectation::Pass),
            // P4, prose.
            Unit::Unmatched,
            matched(&p5, Expectation::Pass),
        ];
        let got = group(units);
        assert_eq!(
            summary(&got),
            vec![
                ("Given users:".to_string(), 37, 196, 3),
                ("Then empty".to_string(), 335, 381, 1),
            ]
        );
        assert_eq!(got[0].scope_stack, vec!["at 37".to_string()]);
        assert_eq!(got[0].span.end_col, 197);
    }

    #[test]
    fn a_delimiter_starts_a_new_example() {
        let a = candidate("A.", 0, 2, true);
        let b = candidate("B.", 10, 12, true);
        let got = group(vec![
            matched(&a, Expectation::Pass),
            matched(&b, Expectation::Pass),
        ]);
        assert_eq!(
            summary(&got),
            vec![("A".to_string(), 0, 2, 1), ("B".to_string(), 10, 12, 1)]
        );
    }

    #[test]
    fn header_bound_rows_close_the_open_example_and_leave_nothing_open() {
        let a = candidate("A.", 0, 2, true);
        let c = candidate("C.", 30, 32, false);
        let row = PlannedExample {
            name: "10 / A".into(),
            scope_stack: Vec::new(),
            span: span(20, 25),
            expected: Expectation::Pass,
            steps: vec![step("r")],
            row: None,
        };
        let got = group(vec![
            matched(&a, Expectation::Pass),
            Unit::HeaderBound(vec![row]),
            matched(&c, Expectation::Pass),
        ]);
        assert_eq!(
            summary(&got),
            vec![
                ("A".to_string(), 0, 2, 1),
                ("10 / A".to_string(), 20, 25, 1),
                ("C".to_string(), 30, 32, 1),
            ]
        );
    }

    #[test]
    fn zero_row_header_bound_unit_still_closes_the_open_example() {
        let a = candidate("A.", 0, 2, true);
        let c = candidate("C.", 30, 32, false);
        let got = group(vec![
            matched(&a, Expectation::Pass),
            Unit::HeaderBound(Vec::new()),
            matched(&c, Expectation::Pass),
        ]);
        assert_eq!(got.len(), 2);
    }

    #[test]
    fn merged_error_fences_make_the_example_fail_and_first_message_wins() {
        let cases: [(Expectation, Expectation, Expectation, Expectation); 4] = [
            (
                Expectation::Pass,
                fail(Some("boom")),
                fail(Some("later")),
                fail(Some("boom")),
            ),
            (
                fail(None),
                fail(Some("second")),
                fail(Some("third")),
                fail(Some("second")),
            ),
            (
                fail(Some("first")),
                Expectation::Pass,
                fail(Some("third")),
                fail(Some("first")),
            ),
            (Expectation::Pass, Expectation::Pass, fail(None), fail(None)),
        ];
        for (e1, e2, e3, want) in cases {
            let a = candidate("A.", 0, 2, true);
            let b = candidate("B.", 4, 6, false);
            let c = candidate("C.", 8, 10, false);
            let got = group(vec![
                matched(&a, e1.clone()),
                matched(&b, e2.clone()),
                matched(&c, e3.clone()),
            ]);
            assert_eq!(got.len(), 1);
            assert_eq!(got[0].expected, want, "{e1:?} {e2:?} {e3:?}");
        }
    }

    #[test]
    fn nothing_in_nothing_out() {
        assert!(group(vec![Unit::Unmatched]).is_empty());
    }
}
