pub struct Shop;

#[varar::resource]
fn with_parameters(port: u16) -> Shop {
    let _ = port;
    Shop
}

#[varar::resource]
async fn returns_nothing() {}

#[varar::resource(shared)]
fn with_arguments() -> Shop {
    Shop
}

#[varar::resource]
fn generic<T: Default>() -> Shop {
    Shop
}

fn main() {}
