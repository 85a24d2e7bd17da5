//! Scanning a sentence (§20.6 steps 1–2): unanchored global-`exec`
//! semantics, empty matches, byte offsets and the anchored re-match.

use super::{compiled, compiled_with};
use crate::ArgValue;
use crate::{Hit, ParameterTypes};

/// (expression, sentence, expected hit spans)
type SpanCase = (&'static str, &'static str, &'static [(usize, usize)]);

fn spans(source: &str, sentence: &str) -> Vec<(usize, usize)> {
    compiled(source)
        .scan(sentence)
        .iter()
        .map(|h| (h.start, h.end))
        .collect()
}

#[test]
fn hits_are_unanchored_without_word_boundaries() {
    let cases: &[SpanCase] = &[
        ("I increment", "I increment the count.", &[(0, 11)]),
        ("I increment", "I incremented", &[(0, 11)]),
        (
            "I convert {int} to roman numerals",
            "I convert 1 to roman numerals.",
            &[(0, 29)],
        ),
        ("The result is {word}.", "The result is I.", &[(0, 16)]),
        ("The count is {int}", "The count is 1.", &[(0, 14)]),
        ("cukes", "cukes and cukes", &[(0, 5), (10, 15)]),
        ("aa", "aaaaa", &[(0, 2), (2, 4)]),
        ("{int}", "1 22 -333", &[(0, 1), (2, 4), (5, 9)]),
        ("Given x", "x", &[]),
        (
            "the basket contains {int} user(s) and {int} asset(s)",
            "Then the basket contains 2 users and 1 asset.",
            &[(5, 44)],
        ),
        // `+5` never matches `{int}`.
        ("I have {int} cukes", "I have +5 cukes", &[]),
    ];
    for (source, sentence, expected) in cases {
        assert_eq!(
            spans(source, sentence),
            *expected,
            "{source:?} in {sentence:?}"
        );
    }
}

#[test]
fn empty_matches_follow_javascript_global_exec() {
    let cases: &[SpanCase] = &[
        // §20.6: `{}` alone against `abc.` gives [0,4) and [4,4).
        ("{}", "abc.", &[(0, 4), (4, 4)]),
        ("{}", "", &[(0, 0)]),
        // An empty match right where the previous match ended is kept
        // (`find_iter` would drop the one at 2).
        ("(a)", "bab", &[(0, 0), (1, 2), (2, 2), (3, 3)]),
        ("(a)", "aa", &[(0, 1), (1, 2), (2, 2)]),
        // After an empty match the search moves one code point, not one byte.
        ("(a)", "😀é", &[(0, 0), (4, 4), (6, 6)]),
    ];
    for (source, sentence, expected) in cases {
        assert_eq!(
            spans(source, sentence),
            *expected,
            "{source:?} in {sentence:?}"
        );
    }
}

fn params(source: &str, sentence: &str) -> Vec<(usize, usize, usize, usize, String, ArgValue)> {
    let hits = compiled(source).scan(sentence);
    let Some(Hit {
        params: Some(params),
        ..
    }) = hits.into_iter().next()
    else {
        panic!("{source:?} should hit {sentence:?} with params");
    };
    params
        .into_iter()
        .map(|p| {
            (
                p.start,
                p.end,
                p.inner_start,
                p.inner_end,
                p.type_name.to_string(),
                p.value,
            )
        })
        .collect()
}

#[test]
fn params_carry_byte_spans_types_and_values() {
    let t = |s: &str| ArgValue::Text(s.to_string());
    // Bundle 01 (sentence-relative), 08, 11, 19 and 14.
    assert_eq!(
        params(
            "I convert {int} to roman numerals",
            "I convert 1 to roman numerals."
        ),
        vec![(10, 11, 10, 11, "int".into(), ArgValue::Int("1".into()))]
    );
    assert_eq!(
        params("The result is {word}.", "The result is I."),
        vec![(14, 15, 14, 15, "word".into(), t("I"))]
    );
    assert_eq!(
        params("The result is {word}", "The result is I."),
        vec![(14, 16, 14, 16, "word".into(), t("I."))]
    );
    assert_eq!(
        params("I greet {string}", "I greet \"world\""),
        vec![(8, 15, 9, 14, "string".into(), t("world"))]
    );
    assert_eq!(
        params("I greet {string}", "I greet \"😀wörld\""),
        vec![(8, 20, 9, 19, "string".into(), t("😀wörld"))]
    );
    assert_eq!(
        params("I mention {emph}", "I mention *Emma* today."),
        vec![(10, 16, 11, 15, "emph".into(), t("Emma"))]
    );
    assert_eq!(
        params("The square of {int} is {int}.", "The square of 12 is 144."),
        vec![
            (14, 16, 14, 16, "int".into(), ArgValue::Int("12".into())),
            (20, 23, 20, 23, "int".into(), ArgValue::Int("144".into())),
        ]
    );
    assert_eq!(
        params("I pay {float} now", "I pay -1.5E3 now"),
        vec![(
            6,
            12,
            6,
            12,
            "float".into(),
            ArgValue::Float("-1.5E3".into())
        )]
    );
}

#[test]
fn float_divergence_rejects_digitless_bindings() {
    // The reference binds `-` here (its lookahead sees the later `3`); the
    // Rust pattern needs a digit inside the number (documented divergence).
    assert_eq!(
        spans("I pay {float} for 3 items", "I pay - for 3 items"),
        vec![]
    );
    assert_eq!(spans("I have {float}", "I have abc 5 now."), vec![]);
    assert_eq!(
        spans("I pay {float} for 3 items", "I pay 2 for 3 items"),
        vec![(0, 19)]
    );
}

#[test]
fn word_uses_the_javascript_whitespace_class() {
    // U+0085 is not JS whitespace (Rust's `\s` includes it); U+FEFF is.
    assert_eq!(spans("{word}", "a\u{85}b c"), vec![(0, 4), (5, 6)]);
    assert_eq!(spans("{word}", "a\u{FEFF}b"), vec![(0, 1), (4, 5)]);
    assert_eq!(
        spans("{word}", "x\u{A0}y\u{3000}z"),
        vec![(0, 1), (3, 4), (7, 8)]
    );
    // `{}` is JS `.`: it stops at CR, LF, U+2028 and U+2029 only.
    assert_eq!(spans("a{}", "a b\u{85}\u{FEFF}c\rd"), vec![(0, 9)]);
    assert_eq!(spans("a{}", "a x\u{2028}a"), vec![(0, 3), (6, 7)]);
}

#[test]
fn failed_re_match_keeps_the_hit_without_params() {
    let mut types = ParameterTypes::new();
    assert_eq!(types.define("tail", "\\Ba"), Ok(()));
    let hits = compiled_with("{tail}", &types).scan("ba");
    // The scan sees `b` before `a`; the re-match of `a` alone does not.
    assert_eq!(
        hits,
        vec![Hit {
            start: 1,
            end: 2,
            params: None
        }]
    );
}

#[test]
fn expressions_without_parameters_have_empty_params() {
    let hits = compiled("I do nothing at all").scan("I do nothing at all.");
    assert_eq!(
        hits,
        vec![Hit {
            start: 0,
            end: 19,
            params: Some(vec![])
        }]
    );
}

#[test]
fn compiled_expression_reports_source_and_names() {
    let c = compiled("I divide {int} by {int}");
    assert_eq!(c.source(), "I divide {int} by {int}");
    assert_eq!(c.parameter_type_names(), vec!["int", "int"]);
    assert_eq!(c.regex_source(), "^I divide (-?[0-9]+) by (-?[0-9]+)$");
}
