//! The attempts of a case as cargo-nextest's JUnit writes them (pure;
//! `--profile nextest`, issue 38), read from nextest's own reporter
//! (`nextest-runner`'s `reporter/aggregator/junit.rs`):
//!
//! - a case that passed after failing: a pass with one `flakyFailure` per
//!   earlier attempt; a case that failed on every attempt: its failure with
//!   one `rerunFailure` per earlier attempt (nextest writes the first
//!   attempt as the failure and the retries as reruns; the result file
//!   holds the last attempt's failure, so here the earlier attempts are the
//!   reruns: as many elements either way);
//! - each with nextest's attributes: `timestamp` (the start of the process
//!   that ran the attempt: under nextest, one process per attempt), `time`
//!   and `type`, and its output in `system-out`: what the run record kept
//!   of it, the recorded failure (nextest puts the test's whole output
//!   there; a varar failure is not a panic, so nextest sets no `message`,
//!   and neither does this);
//! - the case itself gets `timestamp` and `time` of its last attempt, a
//!   failed one its failure as `system-out` too, and a failed example's
//!   `failure` nextest's `type`.

use std::time::Duration;

use chrono::{DateTime, FixedOffset};
use quick_junit::{NonSuccessKind, TestCase, TestCaseStatus, TestRerun};
use varar_core::record::{Attempt, Outcome};

use varar_core::names::ItemKind;

use super::cases::Case;
use super::xml_chars::xml_text;

/// Add the earlier attempts of `case` to its `status`; a failed
/// example's `type` is nextest's (a drift's, a diagnostic's, a read
/// error's stays its kind).
pub(super) fn add_reruns(status: &mut TestCaseStatus, case: &Case<'_>) {
    if case.failure.is_some() && case.kind == ItemKind::Example {
        status.set_type(FAILED);
    }
    for attempt in case.earlier_attempts() {
        if attempt.outcome == Some(Outcome::Passed) {
            // Not a failure of either kind: nothing nextest would write.
            continue;
        }
        let mut rerun = TestRerun::new(NonSuccessKind::Failure);
        if let Some(at) = timestamp(attempt) {
            rerun.set_timestamp(at);
        }
        rerun.set_time(time(attempt.duration_ms));
        rerun.set_type(match attempt.outcome {
            None => "test did not end",
            Some(_) => FAILED,
        });
        rerun.set_system_out(xml_text(attempt.message.as_deref().unwrap_or("")).into_owned());
        rerun.set_system_err("");
        // A pass writes its reruns as `flakyFailure`, a failure as
        // `rerunFailure` (quick-junit's default kind, nextest's too).
        status.add_rerun(rerun);
    }
}

/// The `timestamp` and `time` of `case`'s last attempt, when the run
/// recorded it; a failed case's output (nextest keeps a failure's output,
/// not a pass's): its failure.
pub(super) fn time_case(test_case: &mut TestCase, case: &Case<'_>) {
    if let Some(failure) = &case.failure {
        test_case.set_system_out(xml_text(&failure.text).into_owned());
        test_case.set_system_err("");
    }
    let Some(last) = case.item.and_then(|i| i.last()) else {
        return;
    };
    if let Some(at) = timestamp(last) {
        test_case.set_timestamp(at);
    }
    test_case.set_time(time(last.duration_ms));
}

/// The `type` of a failed attempt: nextest's words for a test that exits
/// with a failure (it adds the exit code, which a run record does not keep).
const FAILED: &str = "test failure";

/// When the attempt's process started; `None` when the record's instant
/// does not parse (a record is checked when read: it does).
fn timestamp(attempt: &Attempt) -> Option<DateTime<FixedOffset>> {
    DateTime::parse_from_rfc3339(&attempt.started_at).ok()
}

/// A recorded duration (milliseconds; none when it did not end: zero).
fn time(duration_ms: Option<f64>) -> Duration {
    Duration::from_secs_f64(duration_ms.unwrap_or(0.0).max(0.0) / 1000.0)
}
