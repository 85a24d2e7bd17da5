use varar::{sensor, stimulus};

#[derive(Default)]
pub struct Basket {
    items: Vec<String>,
}

// The checks of a `fn` step apply unchanged to an `async fn` step.

#[stimulus("I add {int} items")]
async fn add(basket: &mut Basket, n: i64) -> usize {
    basket.items.truncate(n as usize);
    basket.items.len()
}

#[sensor("the first two items are {word} and {word}")]
async fn first_two(basket: &Basket) -> String {
    basket.items.join(",")
}

#[sensor("the basket holds {int} items")]
async fn holds(basket: &Basket) -> String {
    basket.items.len().to_string()
}

fn main() {}
