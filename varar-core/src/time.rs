//! Instants as the project's files write them: RFC 3339, UTC, with
//! milliseconds (`2026-12-01T07:27:12.345Z`). The clock is the shell's; this
//! only formats a count of milliseconds since the Unix epoch.

/// `unix_millis` (milliseconds since 1970-01-01T00:00:00Z) as RFC 3339 UTC.
///
/// ```
/// assert_eq!(varar_core::time::rfc3339_millis(0), "1970-01-01T00:00:00.000Z");
/// assert_eq!(varar_core::time::rfc3339_millis(1_795_937_232_345), "2026-11-29T07:27:12.345Z");
/// ```
pub fn rfc3339_millis(unix_millis: u64) -> String {
    let secs = unix_millis / 1000;
    let millis = unix_millis % 1000;
    let days = secs / 86_400;
    let rest = secs % 86_400;
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{millis:03}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// The proleptic Gregorian date of `days` since 1970-01-01 (Howard
/// Hinnant's `civil_from_days`, for days ≥ 0).
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_around_leap_days_and_centuries() {
        let cases = [
            (951_782_400_000, "2000-02-29T00:00:00.000Z"),
            (951_868_799_999, "2000-02-29T23:59:59.999Z"),
            (4_107_542_400_000, "2100-03-01T00:00:00.000Z"),
            (1_709_164_800_000, "2024-02-29T00:00:00.000Z"),
            (86_399_999, "1970-01-01T23:59:59.999Z"),
        ];
        for (ms, want) in cases {
            assert_eq!(rfc3339_millis(ms), want, "{ms}");
        }
    }
}
