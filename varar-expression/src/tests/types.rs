//! Parameter types (§20.3–§20.4): what each built-in accepts, the values
//! they produce, and custom types.

use super::{accepts, compiled, compiled_with};
use crate::ArgValue;
use crate::{ParameterTypeError, ParameterTypes, outermost_group_count};

/// (type name, accepted inputs, rejected inputs); acceptance is a match of
/// the whole input by the anchored `^({type})$`.
fn acceptance() -> Vec<(&'static str, Vec<&'static str>, Vec<&'static str>)> {
    let ints = (
        vec!["0", "42", "-7", "007", "-0", "12345678901234567890123"],
        // JS `\d` is ASCII: no Arabic-Indic or full-width digits.
        vec![
            "", "-", "+5", "1.5", "1 2", "a", "5a", "\u{663}", "\u{FF15}", "--1", "1-",
        ],
    );
    let floats = (
        vec![
            "1", "-1", "+1", "1.5", ".5", "-.5", "+.5", "0.25", "1.5E3", "1E3", "1E-3", "1E+3",
            "12E5", "-1.5E-3", "007.700",
        ],
        vec![
            "", "-", "+", ".", "1.", "-1.", "1e3", "1.5e3", "E3", "1.5E", "1E+", "1..5", "1.5.5",
            "\u{661}", "1,5", "--1", "0x1F",
        ],
    );
    let mut cases = Vec::new();
    for name in ["int", "byte", "short", "long", "biginteger"] {
        cases.push((name, ints.0.clone(), ints.1.clone()));
    }
    for name in ["float", "double", "bigdecimal"] {
        cases.push((name, floats.0.clone(), floats.1.clone()));
    }
    cases.push((
        "word",
        // U+0085 is not JS whitespace, so a word may contain it.
        vec!["abc", "I.", "a-b,c!", "😀", "wörld", "a\u{85}b", "\"x\""],
        vec![
            "",
            "a b",
            "a\tb",
            "a\nb",
            "a\rb",
            "a\u{B}b",
            "a\u{C}b",
            "a\u{A0}b",
            "a\u{1680}b",
            "a\u{2000}b",
            "a\u{200A}b",
            "a\u{2028}b",
            "a\u{2029}b",
            "a\u{202F}b",
            "a\u{205F}b",
            "a\u{3000}b",
            "a\u{FEFF}b",
            " ",
        ],
    ));
    cases.push((
        "string",
        vec![
            "\"world\"",
            "''",
            "\"\"",
            "'hi there'",
            "\"a \\\"b\\\" c\"",
            "\"a\\\\b\"",
            "'it\\'s'",
            "\"it's\"",
            "'say \"x\"'",
            "\"a\nb\"",
            "\"😀wörld\"",
        ],
        vec![
            "world",
            "\"abc",
            "abc\"",
            "\"a\"b\"",
            "'a'b'",
            "\"a'",
            "\"a\\\"",
            "\"a\\\nb\"",
            "\"a\\\u{2028}b\"",
            "'a\\\rb'",
        ],
    ));
    cases.push((
        "",
        vec!["", "anything at all", " ", "a\tb", "a\u{85}b", "a\u{FEFF}b"],
        vec!["a\nb", "a\rb", "a\u{2028}b", "a\u{2029}b", "\n"],
    ));
    cases.push((
        "emph",
        vec![
            "*Emma*",
            "**Emma**",
            "***Emma***",
            "_Emma_",
            "__Emma__",
            "___Emma___",
            "**_Emma_**",
            "*a b*",
            "_*x*_",
        ],
        vec![
            "Emma",
            "**",
            "*a",
            "*a_",
            "*a*b*",
            "_a_b_",
            "****",
            "*a**",
            "****a****",
            "** **x",
        ],
    ));
    cases
}

#[test]
fn every_built_in_accepts_and_rejects_like_the_reference() {
    for (name, accepted, rejected) in acceptance() {
        let expression = compiled(&format!("{{{name}}}"));
        for input in accepted {
            assert!(
                accepts(&expression, input),
                "{{{name}}} should accept {input:?}"
            );
        }
        for input in rejected {
            assert!(
                !accepts(&expression, input),
                "{{{name}}} should reject {input:?}"
            );
        }
    }
}

/// The value and inner span of the single parameter of `{type}` matched
/// against the whole input.
fn value_of(name: &str, input: &str) -> Valued {
    let hits = compiled(&format!("{{{name}}}")).scan(input);
    let Some(hit) = hits.first() else {
        panic!("{{{name}}} should hit {input:?}");
    };
    assert_eq!(
        (hit.start, hit.end),
        (0, input.len()),
        "{{{name}}} on {input:?}"
    );
    let Some(params) = &hit.params else {
        panic!("{{{name}}} on {input:?} has no params");
    };
    let p = &params[0];
    assert_eq!(&*p.type_name, name);
    (
        p.value.clone(),
        (p.start, p.end),
        (p.inner_start, p.inner_end),
    )
}

fn text(s: &str) -> ArgValue {
    ArgValue::Text(s.to_string())
}

#[test]
fn built_in_values_and_inner_spans() {
    let cases: Vec<(&str, &str, ArgValue, (usize, usize))> = vec![
        ("int", "-42", ArgValue::Int("-42".into()), (0, 3)),
        ("long", "007", ArgValue::Int("007".into()), (0, 3)),
        (
            "biginteger",
            "123456789012345678901234567890",
            ArgValue::Int("123456789012345678901234567890".into()),
            (0, 30),
        ),
        ("float", "1.5E3", ArgValue::Float("1.5E3".into()), (0, 5)),
        ("double", "-.5", ArgValue::Float("-.5".into()), (0, 3)),
        ("bigdecimal", "2.50", text("2.50"), (0, 4)),
        ("word", "I.", text("I."), (0, 2)),
        ("", "any thing", text("any thing"), (0, 9)),
        ("", "", text(""), (0, 0)),
        ("string", "\"world\"", text("world"), (1, 6)),
        ("string", "'hi'", text("hi"), (1, 3)),
        ("string", "\"\"", text(""), (1, 1)),
        ("string", "''", text(""), (1, 1)),
        ("string", "\"a \\\"b\\\" c\"", text("a \"b\" c"), (1, 10)),
        ("string", "'it\\'s'", text("it's"), (1, 6)),
        ("string", "\"say \\'x\\'\"", text("say 'x'"), (1, 10)),
        ("string", "\"a\\\\b\"", text("a\\\\b"), (1, 5)),
        ("string", "\"a\\nb\"", text("a\\nb"), (1, 5)),
        ("string", "\"a\\\\\\\"b\"", text("a\\\\\"b"), (1, 7)),
        ("string", "\"😀wörld\"", text("😀wörld"), (1, 11)),
        ("emph", "*Emma*", text("Emma"), (1, 5)),
        ("emph", "**Emma**", text("Emma"), (2, 6)),
        ("emph", "***Emma***", text("Emma"), (3, 7)),
        ("emph", "_Emma_", text("Emma"), (1, 5)),
        ("emph", "__Emma__", text("Emma"), (2, 6)),
        ("emph", "___Emma___", text("Emma"), (3, 7)),
        ("emph", "**_Emma_**", text("_Emma_"), (2, 8)),
    ];
    for (name, input, value, inner) in cases {
        let (got, span, got_inner) = value_of(name, input);
        assert_eq!(got, value, "{{{name}}} on {input:?}");
        assert_eq!(span, (0, input.len()), "{{{name}}} on {input:?}");
        assert_eq!(got_inner, inner, "{{{name}}} on {input:?}");
    }
}

#[test]
fn custom_type_names_are_checked() {
    let mut types = ParameterTypes::new();
    let cases: Vec<(&str, &str)> = vec![
        (
            "a.b",
            "Illegal character in parameter name {a.b}. Parameter names may not contain '{', '}', '(', ')', '\\' or '/'",
        ),
        (
            "[x]",
            "Illegal character in parameter name {[x]}. Parameter names may not contain '{', '}', '(', ')', '\\' or '/'",
        ),
        (
            "a\\$",
            "Illegal character in parameter name {a\\$}. Parameter names may not contain '{', '}', '(', ')', '\\' or '/'",
        ),
        ("", "The anonymous parameter type has already been defined"),
        ("int", "There is already a parameter type with name int"),
        ("emph", "There is already a parameter type with name emph"),
        (
            "bigdecimal",
            "There is already a parameter type with name bigdecimal",
        ),
    ];
    for name in ["(", ")", "$", "|", "?", "*", "+", "]"] {
        assert!(
            matches!(
                types.define(&format!("a{name}"), "x"),
                Err(ParameterTypeError::IllegalName { .. })
            ),
            "{name:?}"
        );
    }
    for (name, message) in cases {
        match types.define(name, "x") {
            Ok(()) => panic!("{name:?} should be refused"),
            Err(e) => assert_eq!(e.to_string(), message, "{name:?}"),
        }
    }
    assert_eq!(types.define("airport", "[A-Z]{3}"), Ok(()));
    assert_eq!(
        types.define("airport", "[a-z]+").map_err(|e| e.to_string()),
        Err("There is already a parameter type with name airport".to_string())
    );
    assert!(matches!(
        types.define("broken", "(a"),
        Err(ParameterTypeError::InvalidRegex { .. })
    ));
    assert!(matches!(
        types.define("closes", "a)(b"),
        Err(ParameterTypeError::InvalidRegex { .. })
    ));
    // Names with braces or a slash pass the checks but cannot be used.
    assert_eq!(types.define("a{b", "x"), Ok(()));
    assert_eq!(types.define("a/b", "x"), Ok(()));
    let custom: Vec<(&str, &str)> = types.custom().collect();
    assert_eq!(
        custom,
        vec![("airport", "[A-Z]{3}"), ("a{b", "x"), ("a/b", "x")]
    );
}

#[test]
fn built_ins_are_not_custom() {
    assert_eq!(ParameterTypes::new().custom().count(), 0);
}

#[test]
fn outermost_group_counts() {
    let cases: &[(&str, usize)] = &[
        ("abc", 0),
        ("[A-Z]{3}", 0),
        ("£\\d+\\.\\d{2}", 0),
        ("#(\\w+)-(\\d+)", 2),
        ("((a)(b))", 1),
        ("(?:(a)(b))", 2),
        ("(?:(a)|(b))c", 2),
        ("(?P<x>a)(?<y>b)", 2),
        ("(?i)(a)", 1),
        ("(?i:(a))", 1),
        ("\\(a\\)", 0),
        ("[(]a[)]", 0),
        ("(a(b(c)))(d)+", 2),
    ];
    for (pattern, count) in cases {
        assert_eq!(outermost_group_count(pattern), Ok(*count), "{pattern:?}");
    }
    assert!(outermost_group_count("(a").is_err());
    assert!(outermost_group_count("\\p{Nope}").is_err());
}

/// A parameter's value, whole span and inner span.
type Valued = (ArgValue, (usize, usize), (usize, usize));

fn custom_values(types: &ParameterTypes, source: &str, sentence: &str) -> Vec<Valued> {
    let hits = compiled_with(source, types).scan(sentence);
    let Some(params) = hits.first().and_then(|h| h.params.clone()) else {
        panic!("{source:?} should hit {sentence:?} with params");
    };
    params
        .into_iter()
        .map(|p| (p.value, (p.start, p.end), (p.inner_start, p.inner_end)))
        .collect()
}

fn custom(name: &str, groups: &[Option<&str>]) -> ArgValue {
    ArgValue::Custom {
        name: name.to_string(),
        groups: groups.iter().map(|g| g.map(str::to_string)).collect(),
    }
}

#[test]
fn custom_types_pass_their_outermost_groups() {
    let mut types = ParameterTypes::new();
    for (name, regex) in [
        ("airport", "[A-Z]{3}"),
        ("money", "£\\d+\\.\\d{2}"),
        ("tag", "#(\\w+)-(\\d+)"),
        ("either", "(?:(a+)|(b+))!"),
        ("nested", "((x)(y))"),
    ] {
        assert_eq!(types.define(name, regex), Ok(()), "{name}");
    }
    // Bundle 13: no group, so the whole match; param span [9,12).
    assert_eq!(
        custom_values(&types, "I fly to {airport}", "I fly to LHR."),
        vec![(custom("airport", &[Some("LHR")]), (9, 12), (9, 12))]
    );
    // Bundle 15: `£` is two bytes here (the planner converts to UTF-16).
    assert_eq!(
        custom_values(&types, "The late fee is {money}", "The late fee is £2.55"),
        vec![(custom("money", &[Some("£2.55")]), (16, 22), (16, 22))]
    );
    assert_eq!(
        custom_values(&types, "label {tag}", "label #urgent-42"),
        vec![(
            custom("tag", &[Some("urgent"), Some("42")]),
            (6, 16),
            (7, 13)
        )]
    );
    // A group that did not participate arrives as absent.
    assert_eq!(
        custom_values(&types, "go {either}", "go bb!"),
        vec![(custom("either", &[None, Some("bb")]), (3, 6), (3, 5))]
    );
    assert_eq!(
        custom_values(&types, "go {nested}", "go xy"),
        vec![(custom("nested", &[Some("xy")]), (3, 5), (3, 5))]
    );
    // Group numbering shifts past earlier parameters' own groups.
    assert_eq!(
        custom_values(
            &types,
            "{string} {tag} {int} {emph} {either}",
            "'q' #a-1 7 _e_ a!"
        ),
        vec![
            (text("q"), (0, 3), (1, 2)),
            (custom("tag", &[Some("a"), Some("1")]), (4, 8), (5, 6)),
            (ArgValue::Int("7".into()), (9, 10), (9, 10)),
            (text("e"), (11, 14), (12, 13)),
            (custom("either", &[Some("a"), None]), (15, 17), (15, 16)),
        ]
    );
}

#[test]
fn custom_types_are_visible_to_every_expression_and_undefined_otherwise() {
    let mut types = ParameterTypes::new();
    assert!(crate::CompiledExpression::from_source("{airport}", &types).is_err());
    assert_eq!(types.define("airport", "[A-Z]{3}"), Ok(()));
    assert!(crate::CompiledExpression::from_source("{airport}", &types).is_ok());
}

#[test]
fn issue10_14_built_in_names_live_in_one_table() {
    // Every built-in type the registry knows has its slot kind, and no
    // other name does: the macros and the engine read the same table.
    let types = ParameterTypes::new();
    let names = [
        "int",
        "byte",
        "short",
        "long",
        "biginteger",
        "float",
        "double",
        "bigdecimal",
        "word",
        "string",
        "",
        "emph",
    ];
    for name in names {
        assert!(
            types.get(name).is_some(),
            "{name:?} is a registered built-in"
        );
        assert!(crate::built_in(name).is_some(), "{name:?} has a slot kind");
    }
    for name in ["money", "Int", "integer", " "] {
        assert!(
            types.get(name).is_none() && crate::built_in(name).is_none(),
            "{name:?}"
        );
    }
    assert_eq!(crate::built_in("biginteger"), Some(crate::BuiltIn::Int));
    assert_eq!(crate::built_in("double"), Some(crate::BuiltIn::Float));
    assert_eq!(crate::built_in(""), Some(crate::BuiltIn::Text));
}
