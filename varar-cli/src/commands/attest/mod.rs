//! `cargo varar attest` and `verify` (issue 20): the latest complete,
//! fresh run as an in-toto Statement v1 with the test-result predicate
//! (v0.1), and the check of such a statement against the working tree.
//! Pure: the shell reads the run, the files and their digests.
//!
//! - **Subjects**: every document the run read (oaths and the documents
//!   they link to), named by their project-relative path, with their
//!   SHA-256, in path order.
//! - **Predicate**: `result` is `FAILED` when an item's last attempt
//!   failed, else `WARNED` when an item recovered on a retry, else
//!   `PASSED`; `configuration` holds `varar.config.json` and
//!   `varar.lock.json` (when they exist) with their SHA-256;
//!   `passedTests`, `warnedTests` and `failedTests` the item names, sorted.
//! - The text is byte-stable: the same run gives the same bytes (fields in
//!   a fixed order, lists sorted, two-space indent, trailing newline).
//!
//! Signing is left to existing tools: the statement is what `cosign
//! attest-blob` or any DSSE signer wraps.

pub mod args;
pub mod shell;
mod statement;
mod verify;

pub use statement::{
    Digest, FileSha, LOCK_PATH, PREDICATE_TYPE, ResourceDescriptor, ResultKind, STATEMENT_TYPE,
    Statement, TestResult, statement,
};
pub use verify::{
    CheckStatus, CheckedFile, Claimed, Role, VerifyReport, VerifyStatus, parse_statement,
    render_text, verify,
};

#[cfg(test)]
mod tests;
