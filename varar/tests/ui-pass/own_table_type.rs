//! Issue 10: a type of the user's own called `Table` is never mistaken for
//! varar's: as a custom parameter, as the state, or written with a path
//! where only the type could tell.
use varar::{sensor, stimulus};

#[derive(Debug, Default, PartialEq)]
pub struct Table {
    seats: u32,
}

#[varar::parameter(name = "table", regex = r"table (\d+)")]
fn table(seats: &str) -> Result<Table, std::num::ParseIntError> {
    Ok(Table { seats: seats.parse()? })
}

#[derive(Default)]
pub struct Restaurant {
    booked: u32,
}

#[stimulus("I book {table}")]
fn book(restaurant: &mut Restaurant, table: Table) {
    restaurant.booked += table.seats;
}

#[stimulus("I seat {int} guests")]
fn seat(table: &mut Table, guests: u32) {
    table.seats = guests;
}

#[sensor("the table is laid")]
fn laid(table: &crate::Table) {
    assert!(table.seats > 0);
}

fn main() {}
