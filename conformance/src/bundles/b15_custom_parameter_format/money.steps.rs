//! Bundle 15: a custom `{money}` type whose format is its document notation.

use varar::{parameter, sensor};

/// An amount of money in GBP.
#[derive(Debug, PartialEq)]
pub struct Money {
    currency: &'static str,
    amount: f64,
}

impl std::fmt::Display for Money {
    /// `£` plus the amount with exactly two decimals.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "£{:.2}", self.amount)
    }
}

#[parameter(name = "money", regex = r"£\d+\.\d{2}", format)]
fn money(text: &str) -> Result<Money, std::num::ParseFloatError> {
    let amount = text.trim_start_matches('£').parse()?;
    Ok(Money {
        currency: "GBP",
        amount,
    })
}

#[sensor("The late fee is {money}")]
fn late_fee() -> Money {
    Money {
        currency: "GBP",
        amount: 2.60,
    }
}
