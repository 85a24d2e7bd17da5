//! Bundle 07: a header-bound row sensor that ignores its row.

use varar::{Row, sensor};

#[sensor("I report the score and grade")]
fn report(_row: &Row) -> Row {
    Row::default().with("score", "99").with("grade", "A")
}
