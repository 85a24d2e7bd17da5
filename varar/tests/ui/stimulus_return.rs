use varar::stimulus;

#[derive(Default)]
struct Counter {
    count: i64,
}

#[stimulus("I increment")]
fn increment(counter: &mut Counter) -> i64 {
    counter.count += 1;
    counter.count
}

#[stimulus("I reset")]
fn reset(_counter: Counter) {}

fn main() {}
