//! Bundle 06: a doc-string sensor that answers something else.

use varar::{DocString, sensor};

#[sensor("I echo the following:")]
fn echo(_doc: &DocString) -> &'static str {
    "goodbye"
}
