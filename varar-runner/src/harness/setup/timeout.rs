//! The per-example time limit (spec 60.7): `VARAR_TIMEOUT` or
//! `Runner::timeout`, parsed once before anything runs.

use std::time::Duration;

use varar_core::env::VARAR_TIMEOUT;

/// A per-example limit and how it is written in messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limit {
    /// The duration.
    pub duration: Duration,
    /// As the user wrote it (`500ms`), or a canonical form for a
    /// `Duration` given in code.
    pub written: String,
}

impl Limit {
    /// A limit given in code, written the way `VARAR_TIMEOUT` would be.
    pub fn from_duration(duration: Duration) -> Limit {
        let ms = duration.as_millis();
        let written = if duration.is_zero() {
            "0s".to_string()
        } else if Duration::from_millis(ms as u64) != duration {
            format!("{duration:?}")
        } else if ms.is_multiple_of(60_000) {
            format!("{}m", ms / 60_000)
        } else if ms.is_multiple_of(1000) {
            format!("{}s", ms / 1000)
        } else {
            format!("{ms}ms")
        };
        Limit { duration, written }
    }
}

/// Why a `VARAR_TIMEOUT` value is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TimeoutError {
    /// Not `<number><unit>`.
    #[error(
        "{VARAR_TIMEOUT}={value:?} is not a duration: write a number and a unit, e.g. 500ms, 30s or 2m (leave it unset for no limit)"
    )]
    Malformed {
        /// The value as set.
        value: String,
    },
    /// Zero would fail every example.
    #[error(
        "{VARAR_TIMEOUT}={value:?} is zero: give a limit above zero, or leave it unset for no limit"
    )]
    Zero {
        /// The value as set.
        value: String,
    },
    /// `Runner::timeout(Duration::ZERO)`.
    #[error("Runner::timeout: the limit must be above zero")]
    ZeroInCode,
}

/// Parse a `VARAR_TIMEOUT` value: `None` when unset or empty.
pub fn parse_limit(value: Option<&str>) -> Result<Option<Limit>, TimeoutError> {
    let Some(raw) = value else {
        return Ok(None);
    };
    let text = raw.trim();
    if text.is_empty() {
        return Ok(None);
    }
    let malformed = || TimeoutError::Malformed {
        value: raw.to_string(),
    };
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .ok_or_else(malformed)?;
    let (number, unit) = text.split_at(split);
    let scale = match unit {
        "ms" => 0.001,
        "s" => 1.0,
        "m" => 60.0,
        _ => return Err(malformed()),
    };
    let valid_number = !number.is_empty()
        && !number.starts_with('.')
        && !number.ends_with('.')
        && number.matches('.').count() <= 1;
    let n: f64 = match number.parse() {
        Ok(n) if valid_number => n,
        _ => return Err(malformed()),
    };
    let duration = Duration::try_from_secs_f64(n * scale).map_err(|_| malformed())?;
    if duration.is_zero() {
        return Err(TimeoutError::Zero {
            value: raw.to_string(),
        });
    }
    Ok(Some(Limit {
        duration,
        written: text.to_string(),
    }))
}

/// The limit of a run: `Runner::timeout` wins over `VARAR_TIMEOUT`.
pub(crate) fn resolve_limit(
    code: Option<Duration>,
    env: Result<String, std::env::VarError>,
) -> Result<Option<Limit>, TimeoutError> {
    match (code, env) {
        (Some(d), _) if d.is_zero() => Err(TimeoutError::ZeroInCode),
        (Some(d), _) => Ok(Some(Limit::from_duration(d))),
        (None, Ok(value)) => parse_limit(Some(&value)),
        (None, Err(std::env::VarError::NotPresent)) => Ok(None),
        (None, Err(std::env::VarError::NotUnicode(v))) => Err(TimeoutError::Malformed {
            value: v.to_string_lossy().into_owned(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_set_in_code_wins_over_the_variable() {
        let code = Some(Duration::from_millis(250));
        let limit = resolve_limit(code, Ok("nonsense".to_string())).unwrap();
        assert_eq!(limit.map(|l| l.written), Some("250ms".to_string()));
        let from_env = resolve_limit(None, Ok("2m".to_string())).unwrap();
        assert_eq!(from_env.map(|l| l.duration), Some(Duration::from_secs(120)));
        assert_eq!(
            resolve_limit(None, Err(std::env::VarError::NotPresent)),
            Ok(None)
        );
        assert!(resolve_limit(None, Ok("2 m".to_string())).is_err());
        assert_eq!(
            resolve_limit(Some(Duration::ZERO), Err(std::env::VarError::NotPresent)),
            Err(TimeoutError::ZeroInCode)
        );
    }

    fn ok(v: &str) -> (Duration, String) {
        let l = parse_limit(Some(v)).unwrap().unwrap();
        (l.duration, l.written)
    }

    #[test]
    fn durations_in_three_units() {
        assert_eq!(ok("500ms"), (Duration::from_millis(500), "500ms".into()));
        assert_eq!(ok("30s"), (Duration::from_secs(30), "30s".into()));
        assert_eq!(ok("2m"), (Duration::from_secs(120), "2m".into()));
        assert_eq!(ok(" 1.5s "), (Duration::from_millis(1500), "1.5s".into()));
        assert_eq!(parse_limit(None), Ok(None));
        assert_eq!(parse_limit(Some("")), Ok(None));
    }

    #[test]
    fn anything_else_is_refused_with_the_value() {
        for bad in [
            "30", "s", "5 s", "5sec", "1h", "-1s", "1.2.3s", ".5s", "5.s", "ms5",
        ] {
            let e = parse_limit(Some(bad)).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!(
                    "VARAR_TIMEOUT={bad:?} is not a duration: write a number and a unit, e.g. 500ms, 30s or 2m (leave it unset for no limit)"
                ),
                "{bad}"
            );
        }
        assert_eq!(
            parse_limit(Some("0s")).unwrap_err().to_string(),
            "VARAR_TIMEOUT=\"0s\" is zero: give a limit above zero, or leave it unset for no limit"
        );
    }

    #[test]
    fn limits_from_code_are_written_like_the_variable() {
        let w = |d| Limit::from_duration(d).written;
        assert_eq!(w(Duration::from_millis(500)), "500ms");
        assert_eq!(w(Duration::from_secs(30)), "30s");
        assert_eq!(w(Duration::from_secs(120)), "2m");
        assert_eq!(w(Duration::from_secs(90)), "90s");
        assert_eq!(w(Duration::from_micros(1500)), "1.5ms");
    }
}
