//! The backtracker (`fast.rs`) against the regexes it stands in for: the
//! same hits, spans and arguments for every expression it takes, on
//! sentences built from the characters its parameters care about.

use proptest::prelude::*;

use super::compiled;

/// Expressions of every shape the backtracker takes: texts, optionals,
/// alternations, each built-in it knows, parameters side by side.
const EXPRESSIONS: &[&str] = &[
    "{word} deposits {int}",
    "the balance is {int}",
    "the label reads {string}",
    "I have {int} cuke(s)",
    "I have {int} cuke(s) in my belly/stomach",
    "{int}{int}",
    "{word}{word}",
    "{word} {word}",
    "{}",
    "a{}b",
    "{} and {}",
    "say {string} to {word}",
    "{string}{string}",
    "x/y {word}",
    "(a )b",
    "{int} {}",
    "é{word}😀",
    "{word}s",
    "-{int}",
];

/// Characters that move the parameters' boundaries: digits, minus,
/// quotes, backslash, spaces of several kinds, line breaks, letters of
/// the expressions' texts, multi-byte letters.
fn sentence() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "a",
        "b",
        "x",
        "y",
        "s",
        "I have ",
        "cuke",
        " in my belly",
        "stomach",
        " ",
        "  ",
        "\t",
        "\u{A0}",
        "\u{2003}",
        "\n",
        "\r",
        "\u{2028}",
        "1",
        "23",
        "-",
        "--4",
        "\"",
        "'",
        "\\",
        "\\\"",
        "é",
        "😀",
        " deposits ",
        "the balance is ",
        "the label reads ",
        " and ",
        "say ",
        " to ",
        ".",
        ",",
    ]);
    prop::collection::vec(pieces, 0..14).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn the_backtracker_finds_what_the_regex_finds(
        index in 0..EXPRESSIONS.len(),
        text in sentence(),
    ) {
        let expression = compiled(EXPRESSIONS[index]);
        prop_assert!(expression.has_fast_path(), "{}", EXPRESSIONS[index]);
        prop_assert_eq!(expression.scan(&text), expression.scan_by_regex(&text));
    }
}

#[test]
fn hand_picked_sentences_agree() {
    let cases: &[(&str, &str)] = &[
        (
            "{word} deposits {int}",
            "Kai deposits 146 coins, so Kai deposits -3.",
        ),
        (
            "the label reads {string}",
            "the label reads \"a \\\"b\\\" c\" and 'd'",
        ),
        (
            "the label reads {string}",
            "the label reads \"open \\\n\" \"x\"",
        ),
        ("{string}", "'it''s' \"\" ''"),
        (
            "I have {int} cuke(s)",
            "I have 1 cuke. I have 22 cukes. I have -1 cukess",
        ),
        ("{}", "line\none\u{2028}two"),
        ("{int}{int}", "12345"),
        ("{word}{word}", "abcdé😀"),
    ];
    for (source, text) in cases {
        let expression = compiled(source);
        assert!(expression.has_fast_path(), "{source}");
        assert_eq!(
            expression.scan(text),
            expression.scan_by_regex(text),
            "{source} in {text:?}"
        );
    }
}

#[test]
fn types_it_does_not_know_go_to_the_regex() {
    for source in ["{float}", "{emph}", "a {double} b", "{word} {bigdecimal}"] {
        assert!(!compiled(source).has_fast_path(), "{source}");
    }
}

#[test]
fn a_search_past_its_budget_is_the_regexs() {
    // A long run that `{word}` may end anywhere in, and a text that never
    // follows: quadratic for the backtracker, which gives up; the regex
    // answers (no hit).
    let expression = compiled("{word}{word}!");
    let text = "w".repeat(5_000);
    assert!(expression.scan(&text).is_empty());
    assert_eq!(expression.scan(&text), expression.scan_by_regex(&text));
}
