//! **Cucumber Expressions for Varar** (spec 20 §20.2–§20.4 and §20.6 steps
//! 1–2): grammar, compile errors, regex generation, built-in and custom
//! parameter types, and scanning a sentence for hits.
//!
//! ```
//! use varar_expression::{ArgValue, CompiledExpression, Expression, ParameterTypes};
//!
//! // Structure only, no types: what the step macros check at build time.
//! let parsed = Expression::parse("I deposit {int}").map_err(|e| e.to_string())?;
//! assert_eq!(parsed.parameter_names(), ["int"]);
//!
//! // With the types: a regex, and the hits of a sentence.
//! let compiled = CompiledExpression::compile(&parsed, &ParameterTypes::new())
//!     .map_err(|e| e.to_string())?;
//! let hits = compiled.scan("Then I deposit 42");
//! let value = hits[0].params.as_ref().map(|p| p[0].value.clone());
//! assert_eq!(value, Some(ArgValue::Int("42".to_string())));
//!
//! // A compile error names the problem at its column.
//! let error = CompiledExpression::from_source("I pay {nope}", &ParameterTypes::new())
//!     .err()
//!     .map(|e| e.to_string())
//!     .unwrap_or_default();
//! assert!(error.contains("Undefined parameter type 'nope'"));
//! # Ok::<(), String>(())
//! ```
//!
//! The engine (`varar-runner`) plans oaths with it, and the proc-macro
//! crate (`varar-macros`) checks step expressions and custom parameter
//! types with it when a crate is compiled: a small crate of its own, so the
//! macros do not pull the engine into the build (STYLE §2.1, as
//! `cucumber-expressions` serves `cucumber`). It depends on `std`, `regex`
//! and `regex-syntax` only.
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![cfg_attr(
    not(test),
    warn(
        clippy::print_stdout,
        clippy::print_stderr,
        clippy::unwrap_used,
        clippy::expect_used
    )
)]

mod ast;
mod compile;
mod error;
mod params;
mod tokens;
mod value;

#[cfg(test)]
mod tests;

pub use compile::{CompiledExpression, Hit, ParamHit};
pub use error::{ExpressionError, ExpressionErrorKind};
pub use params::{
    BuiltIn, ParameterType, ParameterTypeError, ParameterTypes, Transform, built_in,
    outermost_group_count,
};
pub use value::ArgValue;

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
