use std::cell::Cell;

/// A resource is lent to examples running in parallel: it must be Sync.
#[varar::resource]
fn counter() -> Cell<i64> {
    Cell::new(0)
}

/// A factory's state moves to the example's thread: it must be Send.
#[varar::state]
async fn session() -> std::rc::Rc<String> {
    std::rc::Rc::new(String::new())
}

/// A step's state too.
#[varar::stimulus("I count")]
fn count(counter: &mut std::rc::Rc<i64>) {
    let _ = counter;
}

fn main() {}
