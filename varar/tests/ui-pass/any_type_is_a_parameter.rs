//! Issue 10: a custom parameter type may be any type, one from another
//! crate included (here `std::time::Duration`): registration implements no
//! foreign trait on it.
use std::time::Duration;

use varar::{sensor, stimulus};

#[varar::parameter(name = "duration", regex = r"(\d+) ?s")]
fn duration(seconds: &str) -> Result<Duration, std::num::ParseIntError> {
    Ok(Duration::from_secs(seconds.parse()?))
}

#[derive(Default)]
pub struct Oven {
    baked: Duration,
}

#[stimulus("I bake for {duration}")]
fn bake(oven: &mut Oven, time: Duration) {
    oven.baked += time;
}

#[sensor("the bread baked for {duration}")]
fn baked(oven: &Oven) -> Duration {
    oven.baked
}

#[sensor("the last two batches took {duration} and {duration}")]
fn batches() -> (Duration, Option<Duration>) {
    (Duration::from_secs(1), None)
}

fn main() {}
