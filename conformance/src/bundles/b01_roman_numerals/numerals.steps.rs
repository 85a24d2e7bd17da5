//! Bundle 01: a stimulus stores a roman numeral, a sensor reads it back.

use varar::{sensor, stimulus};

/// `{result: roman(n)}`.
#[derive(Default)]
pub struct Numerals {
    result: String,
}

/// Standard subtractive roman numerals.
fn roman(mut n: i64) -> String {
    const TABLE: [(i64, &str); 13] = [
        (1000, "M"),
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ];
    let mut out = String::new();
    for (value, digits) in TABLE {
        while n >= value {
            out.push_str(digits);
            n -= value;
        }
    }
    out
}

#[stimulus("I convert {int} to roman numerals")]
fn convert(_: Numerals, n: i64) -> Numerals {
    Numerals { result: roman(n) }
}

#[sensor("The result is {word}.")]
fn result(state: &Numerals) -> String {
    state.result.clone()
}

#[cfg(test)]
mod tests {
    #[test]
    fn roman_numerals() {
        for (n, want) in [
            (1, "I"),
            (4, "IV"),
            (9, "IX"),
            (40, "XL"),
            (1994, "MCMXCIV"),
        ] {
            assert_eq!(super::roman(n), want);
        }
    }
}
