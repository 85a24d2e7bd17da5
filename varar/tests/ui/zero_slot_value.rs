use varar::sensor;

#[sensor("the lights are on")]
fn lights() -> bool {
    true
}

fn main() {}
