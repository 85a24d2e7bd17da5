//! **The language server of Varar for Rust** (`cargo varar lsp`): oaths
//! in the editor, over stdio.
//!
//! It knows the Rust steps without compiling them: it reads the package's
//! Rust sources with `syn` ([`analysis::syntax`], [`analysis::step_index`], [`analysis::rust_sources`]) and plans
//! every open oath with the same engine code as `cargo test`
//! ([`analysis::plan_documents`]), so the editor and the harness cannot
//! disagree. On top of each plan:
//!
//! - [`handlers::tokens`]: semantic tokens for step sentences, their parameters and
//!   reference links (the legend is documented there, for theme authors);
//! - [`handlers::diagnostics`]: ambiguous steps, `error` fences without a step, drift
//!   against the committed `varar.lock.json`, and the failures of the last
//!   run while its `.varar/` result is fresh;
//! - [`handlers::navigation`]: go to definition (sentence → step function, custom
//!   parameter → its parse function), hover, find references (step
//!   function → every sentence it matches);
//! - [`handlers::actions`]: "create the step" for a sentence no step matches, a
//!   stimulus and a sensor, the likelier first ([`analysis::guess`]);
//! - [`handlers::completion`]: step expressions as snippets while writing a sentence;
//! - [`handlers::lenses`]: `▶ Run` above every example and `▶ Run oath` / `Report`
//!   above the title, run by the server itself (`workspace/executeCommand`,
//!   [`server::run_output`]: the `cargo test` command line and its output read);
//!   `N uses in M oaths` above every step function ([`analysis::usages`]), and a
//!   hint on a step no oath uses;
//! - [`handlers::rename`]: a step's expression renamed from a sentence or from its
//!   attribute, every sentence rewritten with its values, or refused with
//!   the reason ([`analysis::characters`]: what a reader cannot see is never
//!   written, and is escaped in what the server says).
//!
//! # Layers
//!
//! Four layers, each naming only the ones below it (the architecture test
//! checks it: no module cycle, and no protocol type in the analysis):
//!
//! - [`transport`]: the stdio connection (shell), joined to the main loop
//!   by [`run`];
//! - [`server`]: the main loop (shell): the protocol loop and file
//!   watching, what the loop keeps (`server_state`), requests (`requests`),
//!   planning and publishing (`sync`), requests waiting for the plans they
//!   read (`waiting`), the lenses' commands, the runs' progress and end
//!   (`execute`), usages, renames and the report off the loop
//!   (`background`, reporting `events`), the `cargo test` process
//!   (`run_cargo`) and its output read ([`server::run_output`], pure), a
//!   project's files ([`server::project_state`]);
//! - [`handlers`]: what each request answers (pure), from a plan to
//!   protocol values;
//! - [`analysis`]: protocol-free (pure, but [`analysis::rust_sources`]:
//!   where its steps are, which target runs its oaths), which `cargo varar
//!   check` calls too.
//!
//! # Never blocking
//!
//! The loop waits on the editor's messages and on the background's events
//! at once. The plans of changed open oaths (`sync`), a test run, a round
//! of usages (every oath of the project planned, only the stale ones
//! again), a rename (every oath planned with and without it) and the
//! report run on threads of their own, each with a copy of what it reads;
//! the requests they answer are answered when they end, and every other
//! document is answered meanwhile. A request about an oath whose plan is
//! being made waits for it (`waiting`) and can be cancelled
//! (`$/cancelRequest` answers it `RequestCancelled`, -32800); a plan made
//! from a text the editor changed meanwhile is dropped, never published.
//!
//! # Next to rust-analyzer
//!
//! Attached to Rust files, the server answers only code lenses (a step's
//! uses), references (from a step function), renaming inside a step
//! attribute's expression string, and publishes diagnostics (files that do
//! not parse, refused definitions, unused steps); hover, definition,
//! completion, code actions, semantic tokens (declared for Markdown only)
//! and prepareRename anywhere else are `null`, so rust-analyzer keeps them.
//!
//! # Which files
//!
//! A Markdown file is an oath when the `varar.config.json` at or above it
//! selects it (`docs.include`/`docs.exclude`); other Markdown gets nothing,
//! so a README keeps its plain Markdown highlighting. Steps come from the
//! package next to the config (see [`analysis::rust_sources`]). Rust files and oaths
//! are re-read when they change on disk (`workspace/didChangeWatchedFiles`
//! for `**/*.rs` and `**/*.md`, registered when the editor supports it;
//! otherwise on every open and save) or are saved, one file at a time,
//! never per keystroke.
//!
//! # Reuse by link (spec 70)
//!
//! An oath is planned among every oath of its package ([`analysis::oaths`]: the
//! files, with the editor's text for the open ones) by the engine's
//! `planned::plan_with_drift`, as the harness plans it
//! ([`analysis::plan_documents`]). Only the documents a plan can depend on
//! (those its links reach, those that link to it) are put in the engine's
//! workspace, and a plan is redone only when one of them, or the steps,
//! changed ([`analysis::oaths::Deps`]). `sync` (part of the shell) re-plans the open
//! oaths after every change, gives each what the plans of the oaths that
//! splice its sections find in it (their sentences, their diagnostics), and
//! publishes diagnostics on the document that holds them, once. Spliced
//! steps never produce a token or a diagnostic in the referring oath: their
//! spans are in another document. Links get [`handlers::tokens::REFERENCE`],
//! definition ([`handlers::navigation::reference_definition`]) and hover
//! ([`handlers::navigation::link_hover`]).

#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![cfg_attr(
    not(test),
    warn(
        clippy::print_stdout,
        clippy::print_stderr,
        clippy::unwrap_used,
        clippy::expect_used
    )
)]

pub mod analysis;
pub mod handlers;
mod serve;
pub mod server;
#[cfg(test)]
pub(crate) mod tests;
pub mod transport;

pub use serve::{RunError, run};
pub use server::ServerError;
