//! Bundle 02: every example starts from a fresh `{count: 0}`.

use varar::{sensor, stimulus};

/// `{count: 0}`.
#[derive(Default)]
pub struct Counter {
    count: i64,
}

#[stimulus("I increment")]
fn increment(counter: Counter) -> Counter {
    Counter {
        count: counter.count + 1,
    }
}

#[sensor("The count is {int}")]
fn count(counter: &Counter) -> i64 {
    counter.count
}
