//! Bundle 17: a step that passes inside an `error` fence.

use varar::stimulus;

#[stimulus("I do nothing at all")]
fn nothing() {}
