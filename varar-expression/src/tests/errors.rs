//! Compile errors (§20.2.4): kind, column, pointer and the exact layout.

use super::parse_error;
use crate::{CompiledExpression, ExpressionErrorKind as K, ParameterTypes};

/// (expression, kind, column, pointer line)
fn cases() -> Vec<(&'static str, K, usize, &'static str)> {
    vec![
        ("()", K::OptionalMayNotBeEmpty, 1, "^^"),
        ("a ()", K::OptionalMayNotBeEmpty, 3, "  ^^"),
        (
            "a (b{int})",
            K::ParameterIsNotAllowedInOptional,
            5,
            "    ^---^",
        ),
        ("(a{int})", K::ParameterIsNotAllowedInOptional, 3, "  ^---^"),
        ("({})", K::ParameterIsNotAllowedInOptional, 2, " ^^"),
        ("((a))", K::OptionalIsNotAllowedInOptional, 2, " ^-^"),
        ("(())", K::OptionalIsNotAllowedInOptional, 2, " ^^"),
        ("(((a)))", K::OptionalIsNotAllowedInOptional, 2, " ^---^"),
        ("(a/b)", K::AlternationNotAllowedInOptional, 3, "  ^"),
        (
            "x (a b/c)",
            K::AlternationNotAllowedInOptional,
            7,
            "      ^",
        ),
        ("/a", K::AlternativeMayNotBeEmpty, 1, "^"),
        ("a/", K::AlternativeMayNotBeEmpty, 3, "  ^"),
        ("a/ b", K::AlternativeMayNotBeEmpty, 3, "  ^"),
        ("a//b", K::AlternativeMayNotBeEmpty, 3, "  ^"),
        ("{int}/x", K::AlternativeMayNotBeEmpty, 6, "     ^"),
        ("a/{int}", K::AlternativeMayNotBeEmpty, 3, "  ^"),
        (
            "a/(b)",
            K::AlternativeMayNotExclusivelyContainOptionals,
            3,
            "  ^-^",
        ),
        (
            "(b)/a",
            K::AlternativeMayNotExclusivelyContainOptionals,
            1,
            "^-^",
        ),
        (
            "a/(b{int})",
            K::AlternativeMayNotExclusivelyContainOptionals,
            3,
            "  ^------^",
        ),
        (
            "a/x(b{int})",
            K::ParameterIsNotAllowedInOptional,
            6,
            "     ^---^",
        ),
        ("{a(b}", K::InvalidParameterTypeName, 3, "  ^"),
        ("{a)b}", K::InvalidParameterTypeName, 3, "  ^"),
        ("{a{b}", K::InvalidParameterTypeName, 3, "  ^"),
        ("{a/b}", K::InvalidParameterTypeName, 3, "  ^"),
        ("(a{b)", K::InvalidParameterTypeName, 5, "    ^"),
        ("{a", K::UnclosedParameter, 1, "^"),
        ("x {int", K::UnclosedParameter, 3, "  ^"),
        ("(a", K::UnclosedOptional, 1, "^"),
        ("x (a b", K::UnclosedOptional, 3, "  ^"),
        ("((a)", K::UnclosedOptional, 1, "^"),
        ("\\a", K::CannotEscape, 2, " ^"),
        ("é \\\\\\x", K::CannotEscape, 6, "     ^"),
        ("a\\", K::EndOfLineCannotBeEscaped, 2, " ^"),
        ("😀\\", K::EndOfLineCannotBeEscaped, 2, " ^"),
    ]
}

#[test]
fn each_error_has_its_kind_column_and_pointer() {
    for (source, kind, column, pointer) in cases() {
        let error = parse_error(source);
        assert_eq!(
            (&error.kind, error.column, error.pointer().as_str()),
            (&kind, column, pointer),
            "{source:?}"
        );
        assert_eq!(error.expression, source);
    }
}

#[test]
fn each_problem_sentence() {
    let cases: &[(&str, &str)] = &[
        ("()", "An optional must contain some text"),
        ("(a{int})", "An optional may not contain a parameter type"),
        ("((a))", "An optional may not contain an other optional"),
        ("(a/b)", "An alternation can not be used inside an optional"),
        ("/a", "Alternative may not be empty"),
        (
            "a/(b)",
            "An alternative may not exclusively contain optionals",
        ),
        (
            "{a(b}",
            "Parameter names may not contain '{', '}', '(', ')', '\\' or '/'",
        ),
        ("{a", "The '{' does not have a matching '}'"),
        ("(a", "The '(' does not have a matching ')'"),
        (
            "\\a",
            "Only the characters '{', '}', '(', ')', '\\', '/' and whitespace can be escaped",
        ),
        ("a\\", "The end of line can not be escaped"),
    ];
    for (source, problem) in cases {
        assert_eq!(parse_error(source).message(), *problem, "{source:?}");
    }
}

#[test]
fn display_is_the_multi_line_layout() {
    let cases: &[(&str, &str)] = &[
        (
            "I have () cukes",
            "This Cucumber Expression has a problem at column 8:\n\nI have () cukes\n       ^^\nAn optional must contain some text.\nTo match a literal '(', write '\\('.",
        ),
        (
            "a (b{int})",
            "This Cucumber Expression has a problem at column 5:\n\na (b{int})\n    ^---^\nAn optional may not contain a parameter type.\nTo match a literal '{', write '\\{'; otherwise move the parameter out of the optional.",
        ),
        (
            "((a))",
            "This Cucumber Expression has a problem at column 2:\n\n((a))\n ^-^\nAn optional may not contain an other optional.\nTo match a literal '(', write '\\('.",
        ),
        (
            "(a/b)",
            "This Cucumber Expression has a problem at column 3:\n\n(a/b)\n  ^\nAn alternation can not be used inside an optional.\nTo match a literal '/', write '\\/'.",
        ),
        (
            "a//b",
            "This Cucumber Expression has a problem at column 3:\n\na//b\n  ^\nAlternative may not be empty.\nTo match a literal '/', write '\\/'.",
        ),
        (
            "a/(b)",
            "This Cucumber Expression has a problem at column 3:\n\na/(b)\n  ^-^\nAn alternative may not exclusively contain optionals.\nTo match a literal '(', write '\\('.",
        ),
        (
            "{a(b}",
            "This Cucumber Expression has a problem at column 3:\n\n{a(b}\n  ^\nParameter names may not contain '{', '}', '(', ')', '\\' or '/'.\nA parameter is written {name}; escape the braces to match them literally.",
        ),
        (
            "x {int",
            "This Cucumber Expression has a problem at column 3:\n\nx {int\n  ^\nThe '{' does not have a matching '}'.\nClose the parameter with '}', or write '\\{' to match a literal '{'.",
        ),
        (
            "x (a",
            "This Cucumber Expression has a problem at column 3:\n\nx (a\n  ^\nThe '(' does not have a matching ')'.\nClose the optional text with ')', or write '\\(' to match a literal '('.",
        ),
        (
            "a \\b",
            "This Cucumber Expression has a problem at column 4:\n\na \\b\n   ^\nOnly the characters '{', '}', '(', ')', '\\', '/' and whitespace can be escaped.\nTo match a literal '\\', write '\\\\'.",
        ),
        (
            "a \\",
            "This Cucumber Expression has a problem at column 3:\n\na \\\n  ^\nThe end of line can not be escaped.\nTo match a literal '\\' at the end, write '\\\\'.",
        ),
    ];
    for (source, expected) in cases {
        assert_eq!(parse_error(source).to_string(), *expected, "{source:?}");
    }
}

#[test]
fn undefined_parameter_type_is_a_compile_error() {
    let types = ParameterTypes::new();
    let error = match CompiledExpression::from_source("I have {cukes} now", &types) {
        Ok(_) => panic!("should not compile"),
        Err(e) => e,
    };
    assert_eq!(
        error.to_string(),
        "This Cucumber Expression has a problem at column 8:\n\nI have {cukes} now\n       ^-----^\nUndefined parameter type 'cukes'.\nDeclare a parameter type named 'cukes' or use a built-in one."
    );
    assert_eq!(
        error.kind,
        crate::ExpressionErrorKind::UndefinedParameterType {
            name: "cukes".to_string()
        }
    );
}

#[test]
fn parse_alone_accepts_unknown_types() {
    assert!(crate::Expression::parse("I have {cukes}").is_ok());
}

#[test]
fn errors_come_in_reference_order() {
    let types = ParameterTypes::new();
    let first = |source: &str| match CompiledExpression::from_source(source, &types) {
        Ok(_) => panic!("{source:?} should not compile"),
        Err(e) => (e.kind, e.column),
    };
    // Syntax errors come before any lookup.
    assert_eq!(first("{nope} (a"), (K::UnclosedOptional, 8));
    // Structure and lookups share one left-to-right walk.
    assert_eq!(
        first("{nope} ()"),
        (
            K::UndefinedParameterType {
                name: "nope".to_string()
            },
            1
        )
    );
    assert_eq!(first("() {nope}"), (K::OptionalMayNotBeEmpty, 1));
    // Without types, the structural error is the one reported.
    assert_eq!(parse_error("{nope} ()").kind, K::OptionalMayNotBeEmpty);
    // Parameters in an optional are checked before nested optionals.
    assert_eq!(first("((a){int})"), (K::ParameterIsNotAllowedInOptional, 5));
    // Every alternative is checked before any is rewritten.
    assert_eq!(first("a/x(b{int})/"), (K::AlternativeMayNotBeEmpty, 13));
}

#[test]
fn compile_of_a_parsed_expression_checks_types() {
    let types = ParameterTypes::new();
    let parsed = match crate::Expression::parse("I fly to {airport}") {
        Ok(e) => e,
        Err(e) => panic!("{e}"),
    };
    match CompiledExpression::compile(&parsed, &types) {
        Ok(_) => panic!("airport is not defined"),
        Err(e) => assert_eq!(
            (e.kind, e.column, e.end_column),
            (
                K::UndefinedParameterType {
                    name: "airport".to_string()
                },
                10,
                18
            )
        ),
    }
}

#[test]
fn deeply_nested_optionals_do_not_overflow() {
    let source = format!("{}a{}", "(".repeat(5000), ")".repeat(5000));
    assert_eq!(parse_error(&source).kind, K::OptionalIsNotAllowedInOptional);
}

#[test]
fn issue37_a_mistyped_built_in_gets_one_error_naming_the_likely_one() {
    let types = ParameterTypes::new();
    let error = match CompiledExpression::from_source("I have {integer} cukes", &types) {
        Ok(_) => panic!("should not compile"),
        Err(e) => e,
    };
    assert_eq!(
        error.to_string(),
        "This Cucumber Expression has a problem at column 8:\n\nI have {integer} cukes\n       ^-------^\nUndefined parameter type 'integer'.\nDid you mean the built-in '{int}'? Otherwise declare a parameter type named 'integer'."
    );
}
