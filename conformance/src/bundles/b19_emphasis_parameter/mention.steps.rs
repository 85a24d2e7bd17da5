//! Bundle 19: an `{emph}` capture.

use varar::stimulus;

#[stimulus("I mention {emph}")]
fn mention(_name: &str) {}
