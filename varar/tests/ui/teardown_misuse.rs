pub struct Customer;

#[varar::teardown]
fn nothing_to_tear_down() {}

#[varar::teardown]
async fn by_reference(customer: &Customer) {
    let _ = customer;
}

#[varar::teardown]
fn two(a: Customer, b: Customer) {
    let _ = (a, b);
}

#[varar::teardown]
fn returns_a_value(customer: Customer) -> Result<u32, String> {
    let _ = customer;
    Ok(1)
}

fn main() {}
