pub struct Shop;
pub struct Customer;

#[varar::state]
fn by_mut(shop: &mut Shop) -> Customer {
    let _ = shop;
    Customer
}

#[varar::state]
fn by_value(shop: Shop, id: u32) -> Customer {
    let _ = (shop, id);
    Customer
}

#[varar::state]
async fn returns_nothing(shop: &Shop) {
    let _ = shop;
}

fn main() {}
