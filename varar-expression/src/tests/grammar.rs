//! Grammar (§20.2.1–§20.2.2), regex generation (§20.2.3) and parameter names
//! (§20.2.5).

use super::{accepts, compiled, regex_of};
use crate::Expression;

fn names(source: &str) -> Vec<String> {
    match Expression::parse(source) {
        Ok(e) => e
            .parameter_names()
            .into_iter()
            .map(str::to_string)
            .collect(),
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn parameter_names_in_source_order() {
    let cases: &[(&str, &[&str])] = &[
        ("I have {int} cukes", &["int"]),
        ("I divide {int} by {int}", &["int", "int"]),
        ("{string} and {word} then {}", &["string", "word", ""]),
        ("x \\{int\\} {int}", &["int"]),
        ("no parameters", &[]),
        ("{a b}", &["a b"]),
        ("{} x", &[""]),
        ("I fly to {airport}", &["airport"]),
    ];
    for (source, expected) in cases {
        assert_eq!(names(source), *expected, "{source:?}");
    }
}

#[test]
fn source_is_kept_verbatim() {
    match Expression::parse("a \\(b\\) {int}") {
        Ok(e) => assert_eq!(e.source(), "a \\(b\\) {int}"),
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn generated_regexes() {
    let cases: &[(&str, &str)] = &[
        (
            "the basket contains {int} user(s) and {int} asset(s)",
            "^the basket contains (-?[0-9]+) user(?:s)? and (-?[0-9]+) asset(?:s)?$",
        ),
        ("", "^$"),
        ("I eat/drink", "^I (?:eat|drink)$"),
        ("a/b c", "^(?:a|b) c$"),
        ("a/b/c", "^(?:a|b|c)$"),
        ("x/y(s)", "^(?:x|y(?:s)?)$"),
        ("a(b)/c", "^(?:a(?:b)?|c)$"),
        ("a}/b", "^(?:a\\}|b)$"),
        ("{int} x/y(s)", "^(-?[0-9]+) (?:x|y(?:s)?)$"),
        ("a/b{int}", "^(?:a|b)(-?[0-9]+)$"),
        ("foo/bar baz/qux", "^(?:foo|bar) (?:baz|qux)$"),
        ("a b/c", "^a (?:b|c)$"),
        ("ab/c", "^(?:ab|c)$"),
        (
            "I (really )like/love it",
            "^I (?:(?:really )?like|love) it$",
        ),
        ("a\\/b/c", "^(?:a/b|c)$"),
        ("( )", "^(?: )?$"),
        ("(})", "^(?:\\})?$"),
        ("a)", "^a\\)$"),
        ("}", "^\\}$"),
        ("a\\/b", "^a/b$"),
        ("\\(a\\)", "^\\(a\\)$"),
        ("\\{int\\}", "^\\{int\\}$"),
        ("a\\\\b", "^a\\\\b$"),
        ("a\\ b/c", "^(?:a b|c)$"),
        (
            "1.5 $ ^ * + ? [x] |",
            "^1\\.5 \\$ \\^ \\* \\+ \\? \\[x\\] \\|$",
        ),
        ("I echo the following:", "^I echo the following:$"),
        ("tab\there", "^tab\there$"),
    ];
    for (source, expected) in cases {
        assert_eq!(regex_of(source), *expected, "{source:?}");
    }
}

#[test]
fn optional_text_and_alternation_match_as_documented() {
    let cases: &[(&str, &str, bool)] = &[
        ("user(s)", "user", true),
        ("user(s)", "users", true),
        ("user(s)", "userss", false),
        ("I eat/drink", "I eat", true),
        ("I eat/drink", "I drink", true),
        ("I eat/drink", "I eat/drink", false),
        ("I eat/drink", "eat", false),
        ("a/b c", "a c", true),
        ("a/b c", "b c", true),
        ("a/b c", "a", false),
        ("x/y(s)", "ys", true),
        ("x/y(s)", "xs", false),
        ("a\\/b", "a/b", true),
        ("a\\(b\\)", "a(b)", true),
        ("a\\(b\\)", "a", false),
        ("a\\{int\\}", "a{int}", true),
        ("a\\{int\\}", "a5", false),
        ("Case", "case", false),
        ("a b", "a  b", false),
        ("a b", "a\tb", false),
        ("a)", "a)", true),
    ];
    for (source, input, expected) in cases {
        assert_eq!(
            accepts(&compiled(source), input),
            *expected,
            "{source:?} on {input:?}"
        );
    }
}
