//! `cargo varar check`: what `cargo test` would fail before any step runs,
//! and what looks wrong, found by the language server's analysis
//! ([`varar_lsp::analysis`], pure).
//!
//! The input is what the command read ([`CheckInput`]): the oaths the
//! config selects, the steps discovered from the Rust sources as the
//! language server discovers them
//! ([`StepIndex`](varar_lsp::analysis::step_index::StepIndex): `syn`, no
//! compiling), and
//! the committed lock. Every oath is planned among the others with the
//! engine's `plan_with_drift`, as the harness does
//! ([`plan_documents`](varar_lsp::analysis::plan_documents));
//! the problems are:
//!
//! - errors, which `cargo test` fails: each drift and plan diagnostic
//!   (ambiguous steps, reference problems, `error` fences without a step),
//!   with the name of the test item the harness gives it (the engine's
//!   `names::items`, in the harness's order);
//!   and each step definition the registry refuses (a duplicate, a bad
//!   expression, an unknown parameter type), which stops the build or the
//!   run;
//! - warnings, which it does not: a sentence no step matches that looks
//!   like a step (it has a value to capture: the heuristic of "create the
//!   step", [`varar_lsp::analysis::guess`]), outside the paragraphs an
//!   error already names, or that a step dropped by a header-bound
//!   paragraph matches; a step no oath uses; a key `varar.config.json`
//!   writes twice (the last value is used); an example the lock lists that
//!   no paragraph re-identifies any more (issue 37: the engine's
//!   `compare_baseline`, the pass `cargo test` names them from), at the
//!   line the lock recorded; and the oath's notices, each with its fix
//!   (issue 37, the engine's `PlannedOath::notices`): what planning drops
//!   by spec 20 §20.7, and the examples that check nothing.
//!
//! Exit 0 without errors (warnings are shown), 1 with some, 2 when an input
//! could not be used ([`ErrorRecord`](varar_core::verdict::records::ErrorRecord)s, as the gate's); 2 wins. The JSON
//! form is described by [`SCHEMA`].

pub mod args;
mod find;
mod model;
pub mod shell;
mod text;

pub use find::{CheckInput, check};
pub use model::{CheckReport, CheckStatus, Problem, ProblemCode, SCHEMA, Severity, VERSION};
pub use text::render_text;

#[cfg(test)]
mod tests;
