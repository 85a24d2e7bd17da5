//! Text the project does not control, made safe to keep and to show
//! (STYLE §2.9, issue 34): a step's panic payload, error or mismatch, a
//! name, a path, or anything read back from a result file or run record,
//! which a crafted or older file may fill with anything.
//!
//! - [`cut`] bounds it: one limit, [`TEXT_LIMIT`], for every message,
//!   stack, actual value and backtrace the harness keeps and every
//!   consumer shows or stores again. Over-long text keeps its head and
//!   says how much was cut (`… [20905984 bytes cut]`).
//! - [`terminal_text`] and [`terminal_line`] escape it for a terminal:
//!   control characters and the bidirectional overrides and isolates are
//!   written as `\u{001B}`, so a message cannot move the cursor, ring,
//!   clear the screen, forge a line or reorder what is shown.
//! - [`hidden`] names the characters a reader cannot see (controls,
//!   bidirectional controls, invisible characters), which a rename refuses
//!   to write into an oath and the language server's messages escape.
//!
//! Both are pure and deterministic, and idempotent: text cut or escaped
//! once comes out of a second pass unchanged, so the harness and every
//! consumer may apply them without piling notes or escapes on each other.

mod cut;
mod hidden;
mod terminal;
#[cfg(test)]
mod tests;

pub use cut::{TEXT_LIMIT, cut, cut_string, cut_to, was_cut};
pub use hidden::{Hidden, code_point, hidden};
pub use terminal::{is_bidi_control, push_escaped, terminal_line, terminal_text};
