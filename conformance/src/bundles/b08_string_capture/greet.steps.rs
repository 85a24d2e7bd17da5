//! Bundle 08: a `{string}` capture.

use varar::stimulus;

#[stimulus("I greet {string}")]
fn greet(_name: &str) {}
