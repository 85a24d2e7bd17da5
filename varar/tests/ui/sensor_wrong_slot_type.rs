use varar::sensor;

#[derive(Default)]
struct Account {
    balance: i64,
}

#[sensor("the balance is {int}")]
fn balance(account: &Account) -> String {
    account.balance.to_string()
}

fn main() {}
