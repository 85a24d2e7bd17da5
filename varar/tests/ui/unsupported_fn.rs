use varar::stimulus;

#[stimulus("I pick {int}")]
fn pick<T: Default>(_n: i64) {}

#[stimulus("I wait for {int}")]
async fn wait<T: Default>(_n: i64) {}

fn main() {}
