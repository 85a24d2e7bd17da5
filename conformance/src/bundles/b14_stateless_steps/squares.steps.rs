//! Bundle 14: steps without state.

use varar::{sensor, stimulus};

#[stimulus("I warm up my mental math")]
fn warm_up() {}

#[sensor("The square of {int} is {int}.")]
fn square(n: i64, _square: i64) -> (i64, i64) {
    (n, n * n)
}
