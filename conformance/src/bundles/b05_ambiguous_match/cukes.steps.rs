//! Bundle 05: two stimuli matching the same sentence.

use varar::stimulus;

#[stimulus("I have {int} cukes")]
fn have_cukes(_count: i64) {}

#[stimulus("I have 5 cukes")]
fn have_five_cukes() {}
