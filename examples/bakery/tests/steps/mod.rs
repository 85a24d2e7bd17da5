//! The step definitions of the bakery's oaths.
//!
//! Each file is one step file: its steps share one state value per example
//! (`Till` in `basket.rs`, `Shelf` in `shelf.rs`), which starts from
//! `Default` for every example and which the other file never sees.

mod basket;
mod shelf;

use bakery::{Money, MoneyError};

/// `{money}` in the oaths: an amount written `£2.50`, read into the
/// bakery's own `Money`. The type may come from any crate; with `format`,
/// its `Display` (`£2.50`) also shows the actual amount of a mismatch.
/// Receives the regex's two capture groups: pounds and pence.
#[varar::parameter(name = "money", regex = r"£(\d+)\.(\d{2})", format)]
fn money(pounds: &str, pence: &str) -> Result<Money, MoneyError> {
    Money::from_pounds_and_pence(pounds, pence)
}
