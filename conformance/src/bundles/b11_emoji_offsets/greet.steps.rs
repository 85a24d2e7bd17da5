//! Bundle 11: a two-slot sensor (a string and a trailing table).

use varar::{Table, sensor};

#[sensor("I greet {string}")]
fn greet(name: String, table: &Table) -> (String, Vec<Vec<String>>) {
    // The header row is handed over but never returned (spec 30 §30.3.2).
    (name, table.data_rows().to_vec())
}
