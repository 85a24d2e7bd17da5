//! Bundle 03: a stimulus that fails inside an `error` fence.

use varar::stimulus;

#[stimulus("I divide {int} by {int}")]
fn divide(dividend: i64, divisor: i64) -> Result<(), String> {
    if divisor == 0 {
        return Err("division by zero".to_string());
    }
    let _quotient = dividend / divisor;
    Ok(())
}
