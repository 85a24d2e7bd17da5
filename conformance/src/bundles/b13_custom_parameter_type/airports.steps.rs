//! Bundle 13: a custom `{airport}` type whose parse lowercases the code.

use varar::{parameter, sensor, stimulus};

/// An airport code, lowercased by its parse.
#[derive(Debug, PartialEq)]
pub struct Airport(String);

#[parameter(name = "airport", regex = "[A-Z]{3}")]
fn airport(code: &str) -> Airport {
    Airport(code.to_lowercase())
}

/// `{dest}`.
#[derive(Default)]
pub struct Trip {
    dest: String,
}

#[stimulus("I fly to {airport}")]
fn fly(_: Trip, to: Airport) -> Trip {
    Trip { dest: to.0 }
}

#[sensor("The destination code is {word}.")]
fn destination(trip: &Trip) -> String {
    trip.dest.clone()
}
