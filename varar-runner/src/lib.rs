//! **The engine and `cargo test` harness of Varar for Rust.**
//!
//! Users depend on the `varar` facade crate; this crate holds the pipeline
//! (parse → plan → execute → results) as pure functions over immutable data,
//! and behind the default `harness` feature the thin shell that reads the
//! config, discovers oaths, keeps `varar.lock.json` and `.varar/` results and
//! binds everything to libtest-mimic.
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

pub mod compare;
#[cfg(feature = "harness")]
pub mod config;
pub mod data;
#[cfg(feature = "harness")]
pub mod discovery;
pub mod doc;
pub mod drift;
pub mod execute;
pub mod expression;
pub mod failure;
mod fast_hash;
#[cfg(feature = "harness")]
pub mod harness;
pub mod hash;
pub mod json_text;
pub mod lifecycle;
pub mod lock;
pub mod parse;
pub mod plan;
pub mod registry;
#[cfg(feature = "harness")]
pub mod render;
pub mod results;
pub mod sentences;
pub mod source;
pub mod step;
#[cfg(feature = "harness")]
pub mod store;
pub mod text;
pub mod trace;
pub mod values;
