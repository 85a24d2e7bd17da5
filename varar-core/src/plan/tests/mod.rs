//! Planning end to end: real parser, real sentence splitter, real registries
//! built with `Registry::build`, on the rules no corpus golden pins.

mod prefilter;
mod without_links;

use super::*;
use crate::plan::grouping;
use crate::plan::matching::Matcher;
use crate::plan::split::SplitSentence;
use crate::plan::units::plan_one;
use crate::registry::{Registry, StepSpec};
use crate::registry::{Role, Trailing};
use varar_expression::ArgValue;

/// A registry of these expressions, in this order (`t.steps.rs`, line =
/// position); shared with the reuse-by-link tests.
pub(super) fn registry(steps: &[(&str, Role)]) -> Registry {
    let specs = steps
        .iter()
        .enumerate()
        .map(|(i, &(expression, role))| StepSpec {
            expression: expression.into(),
            role,
            file: "t.steps.rs".to_string(),
            line: i as u32 + 1,
            trailing: Trailing::None,
        })
        .collect();
    match Registry::build(Vec::new(), specs) {
        Ok(r) => r,
        Err(e) => panic!("{e}"),
    }
}

fn stimuli(expressions: &[&str]) -> Registry {
    let steps: Vec<_> = expressions.iter().map(|&e| (e, Role::Stimulus)).collect();
    registry(&steps)
}

fn plan_text(text: &str, registry: &Registry) -> Plan {
    let source = Source::new(text);
    let doc = crate::parse::parse("t.md", &source);
    plan(&doc, &source, registry)
}

/// A step as (matched expression, text, start offset, end offset).
type StepSummary = (String, String, u32, u32);

/// Per example: name and (matched expression, text, start, end) per step.
fn summary(plan: &Plan) -> Vec<(String, Vec<StepSummary>)> {
    plan.examples
        .iter()
        .map(|e| {
            let steps = e
                .steps
                .iter()
                .map(|s| {
                    (
                        s.matched_expression.to_string(),
                        s.text.to_string(),
                        s.match_span.start_offset,
                        s.match_span.end_offset,
                    )
                })
                .collect();
            (e.name.clone(), steps)
        })
        .collect()
}

fn st(expr: &str, text: &str, start: u32, end: u32) -> StepSummary {
    (expr.to_string(), text.to_string(), start, end)
}

#[test]
fn hidden_collision_makes_the_whole_block_ambiguous() {
    let reg = stimuli(&["I have {int} cukes today", "cukes", "cu{word}", "alpha"]);
    let plan = plan_text("alpha. I have 5 cukes today.\n", &reg);
    assert!(plan.examples.is_empty());
    assert_eq!(plan.diagnostics.len(), 1);
    let d = &plan.diagnostics[0];
    assert_eq!(d.code, DiagnosticCode::AmbiguousMatch);
    assert_eq!((d.span.start_offset, d.span.end_offset), (16, 21));
    assert_eq!(
        d.message,
        "Ambiguous step: \"cukes\"\nMatched by:\n  'cukes'    at t.steps.rs:2\n  'cu{word}'    at t.steps.rs:3"
    );
}

#[test]
fn a_stimulus_and_a_sensor_that_tie_are_ambiguous() {
    let reg = registry(&[
        ("I have {int} cukes", Role::Stimulus),
        ("I have 5 cukes", Role::Sensor),
    ]);
    let plan = plan_text("# Cukes\n\nI have 5 cukes.\n", &reg);
    assert!(plan.examples.is_empty());
    let spans: Vec<_> = plan
        .diagnostics
        .iter()
        .map(|d| (d.code.as_str(), d.span.start_offset, d.span.end_offset))
        .collect();
    assert_eq!(spans, [("ambiguous-match", 9, 23)]);
}

#[test]
fn overlap_resolution_between_expressions() {
    let cases: [(&[&str], &str, Vec<StepSummary>); 4] = [
        (
            &["I have {int}", "I have {int} cukes"],
            "I have 5 cukes.",
            vec![st("I have {int} cukes", "I have 5 cukes", 0, 14)],
        ),
        (
            &["beta gamma", "alpha beta"],
            "alpha beta gamma.",
            vec![st("alpha beta", "alpha beta", 0, 10)],
        ),
        (
            &["gamma", "alpha"],
            "alpha beta gamma.",
            vec![st("alpha", "alpha", 0, 5), st("gamma", "gamma", 11, 16)],
        ),
        (
            &["I increment"],
            "I incremented it. I increment I increment.",
            vec![
                st("I increment", "I increment", 0, 11),
                st("I increment", "I increment", 18, 29),
                st("I increment", "I increment", 30, 41),
            ],
        ),
    ];
    for (exprs, text, want) in cases {
        let plan = plan_text(text, &stimuli(exprs));
        assert!(plan.diagnostics.is_empty(), "{text}");
        let name = text.trim_end_matches('.').to_string();
        assert_eq!(summary(&plan), vec![(name, want)], "{text}");
    }
}

#[test]
fn an_expression_matching_empty_text_gives_an_empty_step() {
    let plan = plan_text("abc.\n", &stimuli(&["{}"]));
    assert_eq!(
        summary(&plan),
        vec![(
            "abc".to_string(),
            vec![st("{}", "abc.", 0, 4), st("{}", "", 4, 4)]
        )]
    );
    let raws: Vec<_> = plan.examples[0].steps[1]
        .args
        .iter()
        .map(|a| (&*a.raw, &*a.parameter_type))
        .collect();
    assert_eq!(raws, [("", "")]);
}

#[test]
fn a_raw_text_is_the_source_under_its_span_even_where_the_block_reads_otherwise() {
    // In a block quote, the second value is broken across lines: the
    // block text (and the value) reads a line break where the source has a
    // line break and the quote's marker, and the raw text is the source's.
    // The first is the block's own text.
    let text = "> I greet \"a b\". I greet \"c\n> d\".\n";
    let plan = plan_text(text, &stimuli(&["I greet {string}"]));
    let args: Vec<_> = plan.examples[0]
        .steps
        .iter()
        .map(|s| (s.args[0].raw.to_string(), (*s.args[0].value).clone()))
        .collect();
    assert_eq!(
        args,
        [
            ("\"a b\"".to_string(), ArgValue::Text("a b".into())),
            ("\"c\n> d\"".to_string(), ArgValue::Text("c\nd".into())),
        ]
    );
}

#[test]
fn blockquote_lines_lift_to_their_own_source_lines() {
    let text = "> I greet \"a\".\n> I greet \"b\".\n";
    let plan = plan_text(text, &stimuli(&["I greet {string}"]));
    let steps = &plan.examples[0].steps;
    let got: Vec<_> = steps
        .iter()
        .map(|s| {
            let (m, p) = (s.match_span, s.param_spans[0]);
            (
                m.start_line,
                m.start_col,
                m.end_col,
                p.start_col,
                s.args[0].raw.to_string(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (1, 3, 14, 11, "\"a\"".to_string()),
            (2, 3, 14, 11, "\"b\"".to_string())
        ]
    );
    assert_eq!(plan.examples[0].name, "I greet \"a\". I greet \"b\"");
}

#[test]
fn ordered_list_items_lift_past_the_marker() {
    let text = "1. I greet \"a\".\n2. I greet \"b\".\n";
    let plan = plan_text(text, &stimuli(&["I greet {string}"]));
    let got: Vec<_> = plan
        .examples
        .iter()
        .flat_map(|e| &e.steps)
        .map(|s| {
            (
                s.match_span.start_line,
                s.match_span.start_col,
                s.match_span.end_col,
            )
        })
        .collect();
    // Consecutive items are not delimited, so they merge into one example.
    assert_eq!(plan.examples.len(), 1);
    assert_eq!(got, [(1, 4, 15), (2, 4, 15)]);
}

#[test]
fn merged_error_fences_keep_the_first_message() {
    let text = "# H\n\nalpha.\n\n```error\n\n```\n\nbeta.\n\n```error\n second \n```\n\ngamma.\n\n```error\nthird\n```\n";
    let plan = plan_text(text, &stimuli(&["alpha", "beta", "gamma"]));
    assert!(plan.diagnostics.is_empty());
    assert_eq!(plan.examples.len(), 1);
    let e = &plan.examples[0];
    assert_eq!(
        e.expected,
        Expectation::Fail {
            message: Some("second".into())
        }
    );
    assert_eq!(e.steps.len(), 3);
    assert_eq!(e.span.start_offset, 5);
    assert_eq!(e.span.end_offset as usize, text.len() - 1);
    let json = plan.to_json();
    assert_eq!(json["examples"][0]["expectedErrorMessage"], "second");
}

#[test]
fn header_bound_rows_never_merge_with_their_neighbours() {
    let text = "alpha.\n\nI check x.\n\n| x |\n|---|\n| 1 |\n| 2 |\n\nalpha again.\n";
    let plan = plan_text(text, &stimuli(&["alpha", "I check"]));
    let names: Vec<_> = plan.examples.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["alpha", "1", "2", "alpha again"]);
    assert_eq!(*plan.examples[1].scope_stack, ["I check"]);
    assert!(plan.examples[1].row.is_some());
    assert!(plan.examples[3].row.is_none());
}

#[test]
fn only_body_1_attaches() {
    let text = "alpha.\n\n```\nx\n```\n\n| a |\n|---|\n| 1 |\n";
    let plan = plan_text(text, &stimuli(&["alpha"]));
    let step = &plan.examples[0].steps[0];
    assert_eq!(
        step.doc_string.as_ref().map(|d| d.content.as_str()),
        Some("x\n")
    );
    assert_eq!(step.data_table, None);
    // The example still spans both attachments.
    assert_eq!(plan.examples[0].span.end_line, 9);
}

#[test]
fn prose_delimits_and_vanishes_but_blank_lines_merge() {
    let text = "Intro prose.\n\nalpha.\nMore prose.\n\nMiddle.\n\nbeta.\n\nalpha.\n";
    let plan = plan_text(text, &stimuli(&["alpha", "beta"]));
    assert_eq!(
        summary(&plan),
        vec![
            (
                "alpha. More prose".to_string(),
                vec![st("alpha", "alpha", 14, 19)]
            ),
            (
                "beta".to_string(),
                vec![st("beta", "beta", 43, 47), st("alpha", "alpha", 50, 55)]
            ),
        ]
    );
}

#[test]
fn whole_word_search() {
    let cases: [(&str, &str, Option<usize>); 10] = [
        ("I report the score and grade.", "score", Some(13)),
        ("scoreboard score", "score", Some(11)),
        ("scores", "score", None),
        ("_score", "score", None),
        ("1score", "score", None),
        ("é-score", "score", Some(3)),
        // U+0301 is a mark, not \p{L}: it does not glue the word.
        ("score\u{301}", "score", Some(0)),
        ("", "", Some(0)),
        ("ab", "", None),
        ("a  b", "", Some(2)),
    ];
    for (text, word, want) in cases {
        assert_eq!(
            units::find_whole_word(text, word),
            want,
            "{text:?} / {word:?}"
        );
    }
}

/// Planning without reuse by link (every link-only paragraph is prose), with
/// any set of step definitions and any sentence splitter, so the stages can
/// be tested with hand-made hits. [`plan`] equals it on documents without
/// reference blocks (a property test holds them to that).
pub(super) fn plan_with(
    doc: &Doc,
    source: &Source<'_>,
    matcher: &dyn Matcher,
    split: &dyn Fn(&str) -> Vec<SplitSentence>,
) -> Plan {
    let mut diagnostics = Vec::new();
    let mut notices = Vec::new();
    let units = doc
        .examples
        .iter()
        .map(|candidate| {
            plan_one(
                candidate,
                source,
                matcher,
                split,
                &mut diagnostics,
                &mut notices,
            )
        })
        .collect();
    Plan {
        examples: grouping::group(units),
        diagnostics,
        notices,
    }
}
