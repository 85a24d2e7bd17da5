//! One module per command (shell: each reads the project or the results
//! trees and writes its output); the pure work is in [`varar_report`],
//! [`varar_core::verdict::gate`], [`crate::junit_xml`], [`crate::tree_merge`] and
//! [`crate::tree_diff`].
//!
//! Each command takes its validated value ([`crate::cli::Invocation`]) and
//! returns its [`Output`] or its one error type, which knows its exit
//! code; [`run`] runs the invocation, and `main` prints what it returns
//! (the only place that prints).

pub mod attest;
pub mod check;
pub mod diff;
mod dispatch;
pub mod flaky;
pub mod gate;
pub mod history;
pub mod junit;
pub mod lsp;
pub mod merge;
mod output;
pub mod report;
pub mod verify;

pub use dispatch::{CommandError, run};
pub use output::{Output, json};
