use varar::sensor;

#[sensor("the square of {int} is {int}")]
fn square(n: i64, _square: i64) -> (i64, i64, i64) {
    (n, n * n, 0)
}

fn main() {}
