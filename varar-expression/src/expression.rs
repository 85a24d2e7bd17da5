//! A parsed (not yet compiled) Cucumber Expression (spec 20 §20.2.1–20.2.2,
//! §20.2.5).

use crate::ast::{self, Node};
use crate::error::ExpressionError;
use crate::tokens;

/// A parsed (not yet compiled) Cucumber Expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expression {
    source: String,
    nodes: Vec<Node>,
}

impl Expression {
    /// Parse an expression and check every rule of §20.2.4 except the
    /// parameter type lookup, which needs the types (`CompiledExpression`, with the `matching` feature).
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
