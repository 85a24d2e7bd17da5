//! Cucumber Expressions (spec 20 §20.2–20.4): grammar, compile errors,
//! regex generation, built-in and custom parameter types, and scanning a
//! sentence for hits.
//!
//! STUB: the interface below is the contract other modules code against; the
//! expression work replaces the bodies.

use std::fmt;

/// A parsed (not yet compiled) Cucumber Expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expression {
    source: String,
    names: Vec<String>,
}

impl Expression {
    /// Parse an expression; a malformed one is an [`ExpressionError`].
    pub fn parse(source: &str) -> Result<Expression, ExpressionError> {
        let mut names = Vec::new();
        let mut rest = source;
        while let Some(i) = rest.find('{') {
            let after = &rest[i + 1..];
            let Some(j) = after.find('}') else { break };
            names.push(after[..j].to_string());
            rest = &after[j + 1..];
        }
        Ok(Expression {
            source: source.to_string(),
            names,
        })
    }

    /// The expression as written.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Parameter type names in source order (`{}` gives `""`).
    pub fn parameter_names(&self) -> Vec<&str> {
        self.names.iter().map(String::as_str).collect()
    }
}

/// A malformed expression, with the 1-based code-point column of the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExpressionError {
    /// The expression as written.
    pub expression: String,
    /// 1-based code-point column of the offending node.
    pub column: usize,
    /// The problem sentence.
    pub problem: String,
}

impl fmt::Display for ExpressionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "This Cucumber Expression has a problem at column {}:\n\n{}\n{}",
            self.column, self.expression, self.problem
        )
    }
}

impl std::error::Error for ExpressionError {}
