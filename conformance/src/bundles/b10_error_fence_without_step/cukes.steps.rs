//! Bundle 10: a registered step that never matches.

use varar::stimulus;

#[stimulus("I have {int} cukes")]
fn have_cukes(_count: i64) {}
