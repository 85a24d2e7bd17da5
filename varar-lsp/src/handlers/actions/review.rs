//! The two quick fixes of `cargo varar review` (issue 37, point 4), on the
//! failure itself (pure): on a failed compared value of the latest run,
//! write the observed value over the expected text; on a drift, accept the
//! paragraph as prose by dropping its example from `varar.lock.json`, every
//! other byte of the lock kept. The edits are the engine's
//! ([`varar_core::review`]), as the command's.

use serde_json::{Value, json};
use varar_core::review::{LockDrop, drop_from_lock};

use crate::analysis::Analysis;

/// What an `example-failed` diagnostic of a value that can be written
/// carries in its `data`: the expected text and the observed value.
pub fn observed_data(expected: &str, observed: &str) -> Value {
    json!({ "review": "value", "expected": expected, "observed": observed })
}

/// "Write the observed value": the title and the new text of the
/// diagnostic's range, when its `data` is [`observed_data`] and the text
/// there (`now`) is still the expected one.
pub fn write_observed(data: Option<&Value>, now: &str) -> Option<(String, String)> {
    let data = data?;
    if data.get("review")?.as_str()? != "value" || data.get("expected")?.as_str()? != now {
        return None;
    }
    let observed = data.get("observed")?.as_str()?;
    Some((
        format!("Write the observed value `{observed}` (cargo varar review)"),
        observed.to_owned(),
    ))
}

/// "Accept as prose": for the drift under `offset`, the title and the
/// lock's new text (`lock`: its bytes on disk), that drift's example
/// dropped from its oath's entry; none when no drift is there or the lock
/// cannot be edited that way (not as its writer writes it, or no longer
/// listing the example).
pub fn accept_drift(analysis: &Analysis, offset: u32, lock: &[u8]) -> Option<(String, String)> {
    let drift = analysis
        .drifts
        .iter()
        .find(|d| d.span.start_offset <= offset && offset <= d.span.end_offset)?;
    let drop = LockDrop {
        oath_path: analysis.oath_path.clone(),
        name: drift.name.clone(),
        line: i64::from(drift.line),
        exact: false,
    };
    let (text, found) = drop_from_lock(lock, &[drop]).ok()?;
    found.first().copied().filter(|f| *f)?;
    Some((
        "Accept as prose: drop it from varar.lock.json (cargo varar review)".to_owned(),
        text,
    ))
}
