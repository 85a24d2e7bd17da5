use varar::stimulus;

#[derive(Default)]
struct Account;

#[stimulus("I move {int} from {word} to {word}")]
fn transfer(_account: &mut Account, _amount: i64, _from: String) {}

fn main() {}
