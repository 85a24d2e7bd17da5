use varar::{Table, stimulus};

#[stimulus("the following {int} users")]
fn users(_table: Table, _count: i64) {}

fn main() {}
