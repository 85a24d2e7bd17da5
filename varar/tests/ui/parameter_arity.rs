#[derive(Debug, PartialEq)]
pub struct Money(i64);

#[varar::parameter(name = "money", regex = r"£(\d+)\.(\d{2})")]
fn money(pounds: &str) -> Money {
    Money(pounds.parse().unwrap_or(0))
}

#[varar::parameter(name = "bad", regex = r"(\d+")]
fn bad(_text: &str) -> Money {
    Money(0)
}

fn main() {}
