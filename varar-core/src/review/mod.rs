//! Reviewing the latest run, one change at a time (issue 37, point 4): what
//! `cargo varar review` lists and the edits it makes, as pure functions.
//!
//! The changes come from the latest run's evidence ([`review`]): its record's
//! failed drift items (a lock example whose paragraph no longer matches a
//! step), its failed examples whose result file holds failing cells (a table
//! cell or an inline parameter compared with what the step returned), and
//! the examples it found removed (`RunRecord::removed`). Each has a stable
//! id: the libtest item name (for a removed example, which has no item,
//! `<oathPath>::varar:removed:<line>`), and a kind.
//!
//! Accepting one is one edit: a drift or a removal drops that one
//! example from its oath's lock entry, every other byte of the lock kept
//! ([`drop_from_lock`]); a value writes the observed value over exactly the
//! expected text's span in the Markdown ([`write_values`]). Nothing is
//! accepted from an oath whose text is not the one the run read (its
//! SHA-256, as the run recorded it): the spans and the judgement would be of
//! another text.

mod build;
mod edit;
mod model;
#[cfg(test)]
mod tests;

pub use build::{OathInput, review, writable_value};
pub use edit::{LockDrop, ReviewError, drop_from_lock, write_values};
pub use model::{Acceptance, Change, ChangeKind, Refusal, Review, ValueCell, removed_id};
