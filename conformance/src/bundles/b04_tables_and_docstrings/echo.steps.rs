//! Bundle 04: a one-slot sensor echoing its doc string.

use varar::{DocString, sensor};

#[sensor("I echo the following:")]
fn echo(doc: DocString) -> String {
    doc.content
}
