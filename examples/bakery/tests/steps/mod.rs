//! The step definitions of the bakery's oaths.
//!
//! Each file is one step file: its steps share one state value per example
//! (`Till` in `basket.rs`, `Shelf` in `shelf.rs`), which starts from
//! `Default` for every example and which the other file never sees.

mod basket;
mod shelf;

use std::fmt;

use bakery::{Money, MoneyError};

/// `{money}` in the oaths: an amount written `£2.50`.
///
/// A parameter type gets trait impls from `#[varar::parameter]`, so it must
/// be defined in this crate; it wraps the bakery's own `Money`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Amount(pub Money);

/// The document notation (`£2.50`). Because the parameter is declared with
/// `format`, a mismatch shows the actual amount this way too.
impl fmt::Display for Amount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// Receives the regex's two capture groups: pounds and pence.
#[varar::parameter(name = "money", regex = r"£(\d+)\.(\d{2})", format)]
fn money(pounds: &str, pence: &str) -> Result<Amount, MoneyError> {
    Money::from_pounds_and_pence(pounds, pence).map(Amount)
}
