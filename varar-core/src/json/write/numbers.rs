//! Numbers as the project's files write them, in as few calls as an
//! unoptimised build allows: users' tests run in the dev profile, where
//! every step of a generic formatter is a call of its own (`itoa` took
//! three times as long as the digit loop below there, and the shortest
//! float form four times as long as a duration's thousandths; a run
//! record writes two integers and a duration for each of its thousands of
//! items, twice).

/// Append `value` in decimal.
pub(crate) fn push_uint(out: &mut String, value: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut left = value;
    loop {
        at -= 1;
        digits[at] = b'0' + (left % 10) as u8;
        left /= 10;
        if left == 0 {
            break;
        }
    }
    // Only ASCII digits were written: never the fallback.
    out.push_str(std::str::from_utf8(&digits[at..]).unwrap_or("0"));
}

/// Append `value` in decimal, with its sign when negative.
pub(crate) fn push_int(out: &mut String, value: i64) {
    if value < 0 {
        out.push('-');
    }
    push_uint(out, value.unsigned_abs());
}

/// Append `value` as serde_json writes a finite number: the shortest form
/// that reads back as `value`, `1.0` rather than `1`.
pub(crate) fn push_float(out: &mut String, value: f64) {
    match whole_thousandths(value) {
        Some(thousandths) => push_thousandths(out, thousandths),
        None => out.push_str(zmij::Buffer::new().format_finite(value)),
    }
}

/// `n` when `value` is `n / 1000` (as `n as f64 / 1000.0` gives it) for a
/// whole `n`, and below 10^12: a duration in milliseconds kept to the
/// microsecond, which is how the harness measures them.
///
/// Why `n / 1000` written out is then the shortest form that reads back:
/// it reads back, since `value` is the double nearest to it. Any other
/// decimal of as many digits or fewer differs from it by a thousandth at
/// least, while a double below 10^12 (< 2^40) is within 2^-13 of every
/// number that reads back as it. So it is the only shortest form, which
/// serde_json writes without an exponent from 10^-5 to 10^16.
fn whole_thousandths(value: f64) -> Option<u64> {
    if !(0.0..1e12).contains(&value) || value.is_sign_negative() {
        return None;
    }
    let n = (value * 1000.0).round();
    // `n` is whole and below 2^53, so the cast is exact.
    (n / 1000.0 == value).then_some(n as u64)
}

/// Append `n / 1000`: the whole part, a point, the thousandths without
/// their trailing zeros (`.0` when there are none).
fn push_thousandths(out: &mut String, n: u64) {
    push_uint(out, n / 1000);
    let mut fraction = n % 1000;
    if fraction == 0 {
        out.push_str(".0");
        return;
    }
    let mut digits = *b".000";
    let mut at = 3;
    while at > 0 {
        digits[at] = b'0' + (fraction % 10) as u8;
        fraction /= 10;
        at -= 1;
    }
    let mut end = digits.len();
    while digits[end - 1] == b'0' {
        end -= 1;
    }
    // A point and ASCII digits: never the fallback.
    out.push_str(std::str::from_utf8(&digits[..end]).unwrap_or(".0"));
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn uint(value: u64) -> String {
        let mut out = String::new();
        push_uint(&mut out, value);
        out
    }

    fn float(value: f64) -> String {
        let mut out = String::new();
        push_float(&mut out, value);
        out
    }

    fn serde_json(value: f64) -> String {
        serde_json::to_string(&value).unwrap()
    }

    #[test]
    fn integers_are_written_in_decimal() {
        for value in [0, 1, 9, 10, 99, 100, 4_294_967_295, u64::MAX] {
            assert_eq!(uint(value), value.to_string());
        }
    }

    #[test]
    fn signed_integers_are_written_in_decimal() {
        for value in [0, 1, -1, 42, -42, i64::MAX, i64::MIN] {
            let mut out = String::new();
            push_int(&mut out, value);
            assert_eq!(out, value.to_string());
        }
    }

    #[test]
    fn durations_are_written_as_serde_json_writes_them() {
        for value in [
            0.0,
            0.001,
            0.01,
            0.1,
            0.5,
            1.0,
            1.25,
            10.0,
            12.345,
            999.999,
            1000.0,
            1e11,
            999_999_999_999.999,
        ] {
            assert_eq!(float(value), serde_json(value), "{value}");
        }
        assert_eq!(float(0.5), "0.5");
        assert_eq!(float(7.0), "7.0");
    }

    #[test]
    fn other_numbers_go_to_the_shortest_form_formatter() {
        // Not whole thousandths, negative, past the bound, a tie between
        // two shortest forms (which formatters may break differently).
        for value in [
            -0.0,
            -1.5,
            0.0001,
            0.12345,
            1.0 / 3.0,
            1e12,
            1e15 + 0.5,
            1e20,
            5_000.000_122_070_312_5,
            f64::MIN_POSITIVE,
        ] {
            assert_eq!(float(value), serde_json(value), "{value}");
            assert_eq!(whole_thousandths(value), None, "{value}");
        }
    }

    proptest! {
        #[test]
        fn any_whole_thousandths_are_written_as_serde_json_writes_them(n in 0u64..1_000_000_000_000_000) {
            let value = n as f64 / 1000.0;
            prop_assert_eq!(whole_thousandths(value), (value < 1e12).then_some(n));
            prop_assert_eq!(float(value), serde_json(value));
        }

        #[test]
        fn any_finite_number_is_written_as_serde_json_writes_it(bits in any::<u64>()) {
            let value = f64::from_bits(bits);
            prop_assume!(value.is_finite());
            prop_assert_eq!(float(value), serde_json(value));
        }

        #[test]
        fn any_integer_is_written_in_decimal(value in any::<u64>()) {
            prop_assert_eq!(uint(value), value.to_string());
        }
    }
}
