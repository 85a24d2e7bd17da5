//! Bundle 18: one state carried across three merged paragraphs.

use varar::{Table, sensor, stimulus};

/// `{users: [], assets: []}`.
#[derive(Default)]
pub struct Basket {
    users: Vec<String>,
    assets: Vec<String>,
}

/// The first cell of every data row (the header row comes first).
fn first_column(table: &Table) -> Vec<String> {
    table
        .data_rows()
        .iter()
        .map(|row| row.first().cloned().unwrap_or_default())
        .collect()
}

#[stimulus("the following users have been imported")]
fn users(basket: &mut Basket, table: &Table) {
    basket.users = first_column(table);
}

#[stimulus("the following assets have been imported")]
fn assets(basket: &mut Basket, table: &Table) {
    basket.assets = first_column(table);
}

#[sensor("the basket contains {int} user(s) and {int} asset(s)")]
fn contains(basket: &Basket) -> (usize, usize) {
    (basket.users.len(), basket.assets.len())
}
