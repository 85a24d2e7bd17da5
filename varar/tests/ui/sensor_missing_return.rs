use varar::sensor;

#[sensor("the count is {int}")]
fn count(_n: i64) {}

fn main() {}
