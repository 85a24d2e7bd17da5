//! **The pure engine of Varar: Markdown in, plans, drift, results and
//! rendered failures out.**
//!
//! Everything here takes text and returns values. Nothing reads a file, the
//! environment or the clock, and nothing calls a step function: the shell
//! that does (`varar-runner`'s `cargo test` harness) and the tools that
//! only read (`cargo varar`: report, gate, JUnit, merge, diff and the
//! language server) share this crate, so a rule lives in one place and every
//! consumer reads a run the same way.
//!
//! ```
//! use varar_core::registry::{Registry, Role, StepSpec, Trailing};
//! use varar_core::{parse::parse, plan::plan, source::Source};
//!
//! let registry = Registry::build(
//!     Vec::new(),
//!     vec![
//!         StepSpec::new("I add {int}", Role::Stimulus, "steps.rs", 3, Trailing::None),
//!         StepSpec::new("the count is {int}", Role::Sensor, "steps.rs", 8, Trailing::None),
//!     ],
//! )
//! .unwrap();
//! let text = "# Counter\n\nI add 2. Then the count is 2.\n";
//! let source = Source::new(text);
//! let plan = plan(&parse("varar/counter.md", &source), &source, &registry);
//! assert_eq!(plan.examples.len(), 1);
//! assert_eq!(plan.examples[0].name, "I add 2. Then the count is 2");
//! assert_eq!(&*plan.examples[0].steps[1].matched_expression, "the count is {int}");
//! ```
//!
//! # The pipeline
//!
//! One module per stage, named as the specification names it:
//!
//! | stage | module | spec |
//! |---|---|---|
//! | source text, UTF-16 spans, line/column | [`source`] | 10 §1 |
//! | Markdown → document model | [`parse`], [`doc`] | 10 |
//! | sentences of a block | [`sentences`] | 10 §8 |
//! | reference blocks, slugs, link paths | [`reference`](mod@reference) | 70 §70.1 |
//! | the documents an oath may link to | [`workspace`] | 70 §70.2 |
//! | step expressions and parameter types | [`registry`] | 20 §20.1–20.4 |
//! | document × registry → examples | [`plan`] | 20 §20.5–20.11, 70 §70.3 |
//! | an executed example | [`outcome`], [`failure`] | 30 §30.1–30.6 |
//! | the conformance trace | `trace` (feature `serde`) | 30 §30.7 |
//! | run results `.varar/<oathPath>.json` | [`results`] | 30 §30.8, 70 §70.4 |
//! | `sourceHash` | [`hash`] | 40 §3 |
//! | the baseline `varar.lock.json` | [`lock`] | 40 §4 |
//! | drift | [`drift`] | 40 §5, 70 §70.5 |
//! | an oath planned among the others, with its drift | [`planned`] | 70 §70.3, 40 §5, 70 §70.5 |
//! | test item names, in listing order | [`names`] | 40 §7.2–7.4, 70 §70.6.6 |
//! | what an oathPath is | [`oath_path`] | 40 §0, §2.1 |
//! | the record of a run | [`record`] | issue 19 |
//! | the run history and its limits | [`history`] | issue 20 |
//! | failure text for people | [`render`] | 40 §7.6, 50 §50.4 |
//! | the names of a project's files | [`layout`] | 40 §6, issue 19 |
//! | tags from `<!-- @slow -->` comments, tag expressions (this port's extension) | [`tags`] | issue 38 |
//! | the run verdict: evidence, standing, what is current, the gate, the located findings CI shows (feature `verdict`) | `verdict` | 30 §30.8, 40 §3, issues 19, 20, 34, 38 |
//! | the review of the latest run: its changes and the edits accepting them (feature `verdict`) | `review` | 40 §4–§5, issue 37 |
//!
//! [`env`](mod@env) names every environment variable Varar reads or sets (the
//! shells read them); [`json`] holds the one strict JSON reader of the project's files and
//! the writer of their strings; [`data`] the table, doc string and row
//! values a step function receives; [`text`] the whitespace rules of the
//! reference's regex engine; [`untrusted`] the one cut and the one
//! terminal escape of text the project does not control (messages, names,
//! paths), which the harness and every consumer apply.
//!
//! # Stability
//!
//! The files this crate reads and writes are a cross-port contract (the
//! run results, the lock) and do not change with this crate's version. The
//! Rust API follows semver from 1.0; until then a minor version may change
//! it. Enums that will grow are `#[non_exhaustive]`.
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

pub mod config;
pub mod data;
pub mod doc;
pub mod drift;
pub mod env;
pub mod failure;
mod fast_hash;
pub mod hash;
pub mod history;
pub mod json;
pub mod layout;
pub mod lock;
pub mod names;
pub mod oath_path;
pub mod outcome;
pub mod owned;
pub mod parse;
pub mod plan;
pub mod planned;
pub mod record;
pub mod reference;
pub mod registry;
pub mod render;
pub mod results;
#[cfg(feature = "verdict")]
pub mod review;
pub mod sentences;
pub mod source;
pub mod stored;
pub mod tags;
pub mod text;
pub mod threads;
pub mod time;
#[cfg(feature = "serde")]
pub mod trace;
pub mod untrusted;
#[cfg(feature = "verdict")]
pub mod verdict;
pub mod workspace;

/// The Cucumber Expression language (spec 20 §20.2–20.4), re-exported from
/// `varar-expression`, which the step macros share.
pub use varar_expression as expression;
