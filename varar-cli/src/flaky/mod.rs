//! `cargo varar flaky`: which items both passed and failed over the kept
//! runs of the current sources (issue 20; seed 003's same-revision
//! repetitions). Pure.
//!
//! - **Comparable runs**: complete runs (every process ended, every
//!   planned item ran, every record of theirs could be read: issue 34)
//!   whose documents and config have the digests they recorded
//!   ([`same_sources`]); the lock is what runs write, not an
//!   input, so it is not compared. `--runs N` keeps the newest N of them.
//! - **Counts** per item, over the comparable runs that have it: runs,
//!   attempts, passes, failures (an attempt that never ended counts as
//!   one), and the runs in which it recovered. They are descriptive: no
//!   probability, no quarantine.
//! - **Flaky**: an item with a passed and a failed attempt, in one run (a
//!   retry recovered it) or across runs.
//! - **Exit**: 2 when the evidence could not be read, else 3 when fewer
//!   than two comparable runs exist (missing evidence wins over the
//!   mixture), else 1 when some item is flaky, else 0.

mod compare;
mod text;

pub use compare::{
    ComparedRun, FlakyItem, FlakyOptions, FlakyReport, FlakyStatus, ItemOutcome, LeftOut,
    RunOutcome, VERSION, compare, strips,
};
pub use text::render_text;

#[cfg(test)]
mod tests;
