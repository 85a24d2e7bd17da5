//! `cargo varar lsp`: a language server for oaths, over stdio.
//!
//! It knows the Rust steps without compiling them: it reads the package's
//! Rust sources with `syn` ([`syntax`], [`index`], [`discovery`]) and plans
//! every open oath with the same engine code as `cargo test`
//! ([`analysis::plan_document`]), so the editor and the harness cannot
//! disagree. On top of each plan:
//!
//! - [`tokens`]: semantic tokens for step sentences and their parameters
//!   (the legend is documented there, for theme authors);
//! - [`diagnostics`]: ambiguous steps, `error` fences without a step, drift
//!   against the committed `varar.lock.json`, and the failures of the last
//!   run while its `.varar/` result is fresh;
//! - [`navigation`]: go to definition (sentence → step function, custom
//!   parameter → its parse function), hover, find references (step
//!   function → every sentence it matches);
//! - [`actions`]: "create the step" for a sentence no step matches;
//! - [`completion`]: step expressions as snippets while writing a sentence.
//!
//! The shell is [`server`] (the protocol loop, document sync, file
//! watching), `handlers` (requests), [`workspace`] (a project's files)
//! and [`capabilities`]; everything else is pure: text in, values out.
//!
//! # Which files
//!
//! A Markdown file is an oath when the `varar.config.json` at or above it
//! selects it (`docs.include`/`docs.exclude`); other Markdown gets nothing,
//! so a README keeps its plain Markdown highlighting. Steps come from the
//! package next to the config (see [`discovery`]). Rust files are re-read
//! when they change on disk (`workspace/didChangeWatchedFiles`, registered
//! when the editor supports it; otherwise on every open and save) or are
//! saved, one file at a time, never per keystroke.
//!
//! # Reuse by link (spec 70)
//!
//! Hooks left for issue 11: [`analysis::Workspace`] and
//! [`analysis::plan_document`] (workspace-aware planning),
//! [`tokens::reference_link_tokens`] and [`tokens::REFERENCE`],
//! [`navigation::reference_definition`], and the note in [`diagnostics`]
//! on publishing diagnostics whose span lies in another document.

pub mod actions;
pub mod analysis;
pub mod capabilities;
pub mod completion;
pub mod diagnostics;
pub mod discovery;
mod handlers;
pub mod index;
pub mod navigation;
pub mod position;
pub mod server;
pub mod syntax;
#[cfg(test)]
mod testing;
pub mod tokens;
pub mod workspace;
