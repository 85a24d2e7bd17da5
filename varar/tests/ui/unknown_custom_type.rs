use varar::stimulus;

#[stimulus("I fly to {airport}")]
fn fly(_to: String) {}

fn main() {}
