use varar::stimulus;

#[stimulus("I deposit {int}")]
fn deposit(_amount: String) {}

#[stimulus("I weigh {float} kilos")]
fn weigh(_kilos: i32) {}

fn main() {}
