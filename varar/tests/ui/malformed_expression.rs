use varar::stimulus;

#[stimulus("I have {int cukes")]
fn have(_count: i64) {}

fn main() {}
