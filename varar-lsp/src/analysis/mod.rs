//! The protocol-free analysis (pure, but [`rust_sources`]): what the
//! language server's handlers and `cargo varar check` both read, so the
//! editor and `check` cannot disagree. It names no type of the protocol
//! (the architecture test checks it): [`syntax`] and [`step_index`] read
//! the Rust steps without compiling them, [`rust_sources`] finds them,
//! [`oaths`] holds a project's oaths, [`usages`] counts the uses of each
//! step, [`guess`] proposes a missing step, [`characters`] escapes text
//! shown to the reader, [`memo`] keeps what matching each block gave
//! across the server's plans.
//!
//! One oath as the editor sees it (pure): its text planned by the engine
//! among the other oaths of its project, with what the editor features need
//! derived from the plan once.
//!
//! [`plan_documents`] is the **only** place the server plans an oath and
//! detects its drift, through the engine's one function for both, the
//! harness's too (`varar_core::planned::plan_with_drift`: an oath of a
//! workspace, spec 70), so the server and `cargo test` cannot disagree.
//!
//! A plan's steps are not all written in the oath planned: a reference
//! block splices in the steps of a section of another document. The
//! analysis keeps the two apart: [`Analysis::steps`] are the oath's own
//! (their spans are in its text, so tokens, hover and definition use
//! them), [`Analysis::spliced`] are the others, with their document. What
//! the plans of *other* oaths find in this document's text (the steps of
//! its sections they splice, the diagnostics they raise there) arrives
//! later, in [`Analysis::reuses`], from [`reuses`].

pub mod characters;
mod contribution;
pub mod guess;
pub mod memo;
mod model;
pub mod oaths;
mod planning;
pub mod rust_sources;
pub mod step_index;
pub mod syntax;
pub mod usages;
mod uses;

pub use contribution::{Contribution, SplicedStep, contribution};
pub use model::{Analysis, LinkUse, ParamUse, PlanContext, Reuses, SentenceInfo, Spliced, StepUse};
pub use planning::{plan_document, plan_document_with, plan_documents, plan_documents_with};
pub use uses::reuses;

#[cfg(test)]
mod tests;
