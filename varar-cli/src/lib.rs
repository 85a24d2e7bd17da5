//! **`cargo varar`: the command line of Varar for Rust.**
//!
//! `cargo install --path varar-cli` installs the `cargo-varar` binary, which
//! cargo runs for `cargo varar <command>`. Every command reads the project
//! (its `varar.config.json`, the oaths it selects, `.varar/` run results);
//! none runs tests, which stay `cargo test`.
//!
//! ```text
//! cargo varar report [--root DIR] [--out DIR] [--open]
//! ```
//!
//! `report` writes a static HTML site (by default `target/varar/report/`
//! under the project root) with one page per oath: the Markdown rendered,
//! every example marked passed or failed, and each failure highlighted at
//! the exact text it names, with expected and actual next to it. It prints
//! the path of `index.html`.
//!
//! # The project root
//!
//! `--root DIR`, or else the nearest directory at or above the current one
//! that holds `varar.config.json` (see [`root`]).
//!
//! # Exit codes
//!
//! - `0`: the report was written (also when examples failed: the report
//!   describes, it does not judge);
//! - `2`: an input could not be used (a result file that is not valid JSON
//!   or has an unknown version, an unreadable oath): it is named on stderr
//!   and marked unreadable in the site, and the rest is written; or nothing
//!   could be written (no config, an invalid config, an output directory
//!   that is not a previous report), or the arguments are wrong.
//!
//! # Layout
//!
//! [`cli`] declares the arguments (clap), [`commands`] holds one module per
//! command (the shell: reading and writing files), [`report`] renders the
//! site as a pure function and [`site`] writes it atomically.
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

pub mod cli;
pub mod commands;
pub mod report;
pub mod root;
pub mod site;
