use varar::stimulus;

#[stimulus("I wait")]
async fn wait() {}

#[stimulus("I pick {int}")]
fn pick<T: Default>(_n: i64) {}

fn main() {}
