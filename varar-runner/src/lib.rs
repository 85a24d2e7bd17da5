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

pub mod data;
pub mod doc;
pub mod expression;
pub mod plan;
pub mod source;
pub mod step;
