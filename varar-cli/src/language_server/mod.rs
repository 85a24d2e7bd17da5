//! `cargo varar lsp`: a language server for oaths, over stdio.
//!
//! It knows the Rust steps without compiling them: it reads the package's
//! Rust sources with `syn` ([`syntax`], [`step_index`], [`rust_sources`]) and plans
//! every open oath with the same engine code as `cargo test`
//! ([`analysis::plan_documents`]), so the editor and the harness cannot
//! disagree. On top of each plan:
//!
//! - [`tokens`]: semantic tokens for step sentences, their parameters and
//!   reference links (the legend is documented there, for theme authors);
//! - [`diagnostics`]: ambiguous steps, `error` fences without a step, drift
//!   against the committed `varar.lock.json`, and the failures of the last
//!   run while its `.varar/` result is fresh;
//! - [`navigation`]: go to definition (sentence → step function, custom
//!   parameter → its parse function), hover, find references (step
//!   function → every sentence it matches);
//! - [`actions`]: "create the step" for a sentence no step matches, a
//!   stimulus and a sensor, the likelier first ([`guess`]);
//! - [`completion`]: step expressions as snippets while writing a sentence;
//! - [`lenses`]: `▶ Run` above every example and `▶ Run oath` / `Report`
//!   above the title, run by the server itself (`workspace/executeCommand`,
//!   [`run_output`]: the `cargo test` command line and its output read);
//!   `N uses in M oaths` above every step function ([`usages`]), and a
//!   hint on a step no oath uses;
//! - [`rename`]: a step's expression renamed from a sentence or from its
//!   attribute, every sentence rewritten with its values, or refused with
//!   the reason ([`characters`]: what a reader cannot see is never
//!   written, and is escaped in what the server says).
//!
//! The shell is [`server`] (the protocol loop, file watching),
//! `server_state` (what the loop keeps, the way out to the editor),
//! `handlers` (requests), `sync` (planning and publishing), `waiting`
//! (requests waiting for the plans they read), `execute` (the lenses' commands, the runs' progress and end),
//! `background` (usages, renames and the report off the loop, reporting
//! `events`), `run_cargo` (the `cargo test` process), [`project_state`]
//! (a project's files) and [`rust_sources`] (where its steps are, which
//! target runs its oaths); everything else is pure: text in, values out.
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
//! package next to the config (see [`rust_sources`]). Rust files and oaths
//! are re-read when they change on disk (`workspace/didChangeWatchedFiles`
//! for `**/*.rs` and `**/*.md`, registered when the editor supports it;
//! otherwise on every open and save) or are saved, one file at a time,
//! never per keystroke.
//!
//! # Reuse by link (spec 70)
//!
//! An oath is planned among every oath of its package ([`oaths`]: the
//! files, with the editor's text for the open ones) by the engine's
//! `planned::plan_with_drift`, as the harness plans it
//! ([`analysis::plan_documents`]). Only the documents a plan can depend on
//! (those its links reach, those that link to it) are put in the engine's
//! workspace, and a plan is redone only when one of them, or the steps,
//! changed ([`oaths::Deps`]). `sync` (part of the shell) re-plans the open
//! oaths after every change, gives each what the plans of the oaths that
//! splice its sections find in it (their sentences, their diagnostics), and
//! publishes diagnostics on the document that holds them, once. Spliced
//! steps never produce a token or a diagnostic in the referring oath: their
//! spans are in another document. Links get [`tokens::REFERENCE`],
//! definition ([`navigation::reference_definition`]) and hover
//! ([`navigation::link_hover`]).

pub mod actions;
pub mod analysis;
mod background;
pub mod capabilities;
pub mod characters;
pub mod completion;
pub mod diagnostics;
mod events;
mod execute;
pub mod guess;
mod handlers;
pub mod lenses;
pub mod navigation;
pub mod oaths;
pub mod position;
pub mod project_state;
pub mod rename;
mod run_cargo;
pub mod run_output;
pub mod rust_sources;
pub mod server;
mod server_state;
pub mod step_index;
mod sync;
pub mod syntax;
#[cfg(test)]
pub(crate) mod tests;
pub mod tokens;
pub mod transport;
pub mod usages;
mod waiting;

pub use server_state::ServerError;
