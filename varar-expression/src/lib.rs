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
//! `cucumber-expressions` serves `cucumber`). It depends on `std`,
//! `regex-syntax` and, with the default feature `matching` (compiling and
//! scanning: [`CompiledExpression`]), `regex`. The macros use it without
//! that feature, so a user's build compiles the regex engine once, for the
//! target, and not again for the host.
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
#[cfg(feature = "matching")]
mod compile;
mod error;
mod expression;
#[cfg(feature = "matching")]
mod fast;
mod params;
mod render;
mod suggest;
mod tokens;
mod value;

#[cfg(test)]
mod tests;

#[cfg(feature = "matching")]
pub use compile::{CompiledExpression, Hit, ParamHit};
pub use error::{ExpressionError, ExpressionErrorKind};
pub use expression::Expression;
pub use params::{
    BuiltIn, ParameterType, ParameterTypeError, ParameterTypes, Transform, built_in,
    outermost_group_count,
};
pub use suggest::{edit_distance, likely_built_in};
pub use value::ArgValue;
