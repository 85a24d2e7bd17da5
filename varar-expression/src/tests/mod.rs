//! Tests of the expression module: grammar and regex generation, compile
//! errors, parameter types, and scanning.

mod errors;
mod fast;
mod grammar;
mod scan;
mod types;

use super::{CompiledExpression, Expression, ExpressionError, ParameterTypes};

/// Compile with the built-in types, or fail the test with the error.
fn compiled(source: &str) -> CompiledExpression {
    compiled_with(source, &ParameterTypes::new())
}

fn compiled_with(source: &str, types: &ParameterTypes) -> CompiledExpression {
    match CompiledExpression::from_source(source, types) {
        Ok(c) => c,
        Err(e) => panic!("{source:?} should compile:\n{e}"),
    }
}

/// The generated anchored regex of an expression.
fn regex_of(source: &str) -> String {
    compiled(source).regex_source().to_string()
}

/// Whether the anchored regex accepts exactly `input`.
fn accepts(compiled: &CompiledExpression, input: &str) -> bool {
    match regex::Regex::new(compiled.regex_source()) {
        Ok(re) => re.is_match(input),
        Err(e) => panic!("{e}"),
    }
}

/// The error of an expression that must not parse (structure included).
fn parse_error(source: &str) -> ExpressionError {
    match Expression::parse(source) {
        Ok(_) => panic!("{source:?} should not parse"),
        Err(e) => e,
    }
}
