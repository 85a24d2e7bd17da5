use varar::{sensor, stimulus};

#[stimulus("I have {integer} cukes")]
fn have(_n: i64) {}

#[sensor("the name is {str}")]
fn name() -> String {
    String::new()
}

fn main() {}
