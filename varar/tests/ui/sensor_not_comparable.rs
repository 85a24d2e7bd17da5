use varar::{Row, sensor};

#[sensor("I report the elapsed time")]
fn elapsed(_row: &Row) -> std::time::Duration {
    std::time::Duration::from_secs(1)
}

fn main() {}
