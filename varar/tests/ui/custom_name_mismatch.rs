use varar::stimulus;

#[derive(Debug, PartialEq)]
pub struct Money(String);

#[varar::parameter(name = "money", regex = r"£\d+")]
fn money(text: &str) -> Money {
    Money(text.to_string())
}

#[stimulus("I pay {amount}")]
fn pay(_amount: Money) {}

fn main() {}
