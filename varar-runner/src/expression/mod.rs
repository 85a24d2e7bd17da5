//! Cucumber Expressions (spec 20 §20.2–§20.4 and §20.6 steps 1–2): grammar,
//! compile errors, regex generation, built-in and custom parameter types, and
//! scanning a sentence for hits.
//!
//! [`Expression::parse`] needs no parameter types, so the proc-macro crate
//! checks expressions at build time with it; [`CompiledExpression::compile`]
//! adds the types and the regex. This module uses only `std`, `regex` and
//! `regex-syntax`.

mod ast;
mod error;
mod params;
mod regex;
mod tokens;

#[cfg(test)]
mod tests;

pub use error::{ExpressionError, ExpressionErrorKind};
pub use params::{
    ANONYMOUS_PATTERN, EMPH_PATTERN, FLOAT_PATTERN, INT_PATTERN, ParameterType, ParameterTypeError,
    ParameterTypes, STRING_PATTERN, Transform, WORD_PATTERN, outermost_group_count,
};
pub use regex::{CompiledExpression, Hit, ParamHit};

use ast::Node;

/// A parsed (not yet compiled) Cucumber Expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expression {
    source: String,
    nodes: Vec<Node>,
}

impl Expression {
    /// Parse an expression and check every rule of §20.2.4 except the
    /// parameter type lookup, which needs the types ([`CompiledExpression`]).
    pub fn parse(source: &str) -> Result<Expression, ExpressionError> {
        let tokens = tokens::tokenize(source)?;
        let nodes = ast::parse(source, &tokens)?;
        // The structural rules live in the rewrite walk; run it with every
        // parameter accepted and drop the regex.
        ast::rewrite(source, &nodes, &mut |_, _, _| Ok(String::new()))?;
        Ok(Expression {
            source: source.to_string(),
            nodes,
        })
    }

    /// The expression as written.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Parameter type names in source order (§20.2.5; `{}` gives `""`,
    /// escaped braces are text).
    pub fn parameter_names(&self) -> Vec<&str> {
        ast::parameter_names(&self.nodes)
    }

    pub(crate) fn nodes(&self) -> &[Node] {
        &self.nodes
    }
}
