//! Comparing an artifact with its golden by parsed content (STYLE §2.5): key
//! order and escaping belong to the writer, so only values are compared. On a
//! mismatch the actual artifact is written beside a mirror of the golden under
//! the target directory (never over the vendored golden).

use std::fmt::Write as _;
use std::path::PathBuf;

use libtest_mimic::{Failed, Trial};
use serde_json::{Value, json};

use crate::Bundle;

/// The first difference between two JSON values.
#[derive(Debug, PartialEq)]
pub struct Mismatch {
    /// JSON pointer of the differing value (`""` for the root).
    pub pointer: String,
    /// The golden's value there (`None`: missing).
    pub expected: Option<Value>,
    /// The actual value there (`None`: missing).
    pub actual: Option<Value>,
}

/// The first difference, depth first in key and index order.
pub fn first_difference(expected: &Value, actual: &Value) -> Option<Mismatch> {
    diff(expected, actual, String::new())
}

fn diff(expected: &Value, actual: &Value, pointer: String) -> Option<Mismatch> {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => {
            let mut keys: Vec<&String> = e.keys().chain(a.keys()).collect();
            keys.sort();
            keys.dedup();
            keys.into_iter().find_map(|k| {
                let at = format!("{pointer}/{}", escape(k));
                match (e.get(k), a.get(k)) {
                    (Some(ev), Some(av)) => diff(ev, av, at),
                    (ev, av) => Some(Mismatch {
                        pointer: at,
                        expected: ev.cloned(),
                        actual: av.cloned(),
                    }),
                }
            })
        }
        (Value::Array(e), Value::Array(a)) => (0..e.len().max(a.len())).find_map(|i| {
            let at = format!("{pointer}/{i}");
            match (e.get(i), a.get(i)) {
                (Some(ev), Some(av)) => diff(ev, av, at),
                (ev, av) => Some(Mismatch {
                    pointer: at,
                    expected: ev.cloned(),
                    actual: av.cloned(),
                }),
            }
        }),
        // Numbers compare by value, so `1` and `1.0` are the same.
        (Value::Number(e), Value::Number(a)) if e.as_f64() == a.as_f64() => None,
        (e, a) if e == a => None,
        (e, a) => Some(Mismatch {
            pointer,
            expected: Some(e.clone()),
            actual: Some(a.clone()),
        }),
    }
}

/// JSON-pointer escaping of one key (RFC 6901).
fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

fn show(v: &Option<Value>) -> String {
    match v {
        Some(v) => serde_json::to_string(v).unwrap_or_else(|_| format!("{v:?}")),
        None => "(missing)".to_owned(),
    }
}

/// Compare `actual` with `bundle`'s golden of `kind`; on a mismatch write
/// `<kind>.json.new` under the target directory and fail with where the
/// values differ.
pub fn check(bundle: &Bundle, kind: &str, actual: &Value) -> Result<(), Failed> {
    let path = bundle.golden(kind);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read golden `{}`: {e}", path.display()))?;
    let expected: Value = serde_json::from_str(&text)
        .map_err(|e| format!("golden `{}` is not JSON: {e}", path.display()))?;
    let Some(m) = first_difference(&expected, actual) else {
        return Ok(());
    };
    let mut message = format!(
        "{kind} artifact of `{}` differs from its golden at `{}`\n  expected: {}\n    actual: {}",
        bundle.name,
        if m.pointer.is_empty() {
            "/"
        } else {
            &m.pointer
        },
        show(&m.expected),
        show(&m.actual),
    );
    match write_new(bundle, kind, actual) {
        Ok(new) => {
            let _ = write!(
                message,
                "\n  the whole actual artifact is in `{}` (the corpus is vendored: fix the code, not the golden)",
                new.display()
            );
        }
        Err(e) => {
            let _ = write!(message, "\n  (could not write the actual artifact: {e})");
        }
    }
    Err(message.into())
}

fn write_new(bundle: &Bundle, kind: &str, actual: &Value) -> std::io::Result<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("conformance")
        .join(&bundle.name)
        .join("golden");
    std::fs::create_dir_all(&dir)?;
    let path = dir.join(format!("{kind}.json.new"));
    let mut text = serde_json::to_string_pretty(actual).map_err(std::io::Error::other)?;
    text.push('\n');
    std::fs::write(&path, text)?;
    Ok(path)
}

/// Trials checking the comparison itself (a `harness = false` binary runs no
/// `#[test]` functions, so these are trials too).
pub fn self_tests() -> Vec<Trial> {
    vec![
        Trial::test("golden::equal_values_have_no_difference", || {
            let a = json!({"b": [1, {"c": "x"}], "a": null});
            let b = json!({"a": null, "b": [1.0, {"c": "x"}]});
            expect_eq(first_difference(&a, &b), None)
        }),
        Trial::test("golden::first_difference_has_a_pointer", || {
            let e = json!({"examples": [{"span": {"endCol": 21}}], "path": "example.md"});
            let a = json!({"examples": [{"span": {"endCol": 20}}], "path": "example.md"});
            expect_eq(
                first_difference(&e, &a),
                Some(Mismatch {
                    pointer: "/examples/0/span/endCol".into(),
                    expected: Some(json!(21)),
                    actual: Some(json!(20)),
                }),
            )?;
            expect_eq(
                first_difference(&json!({"a/b": [1]}), &json!({"a/b": []})),
                Some(Mismatch {
                    pointer: "/a~1b/0".into(),
                    expected: Some(json!(1)),
                    actual: None,
                }),
            )?;
            expect_eq(
                first_difference(&json!({}), &json!({"x": 1})),
                Some(Mismatch {
                    pointer: "/x".into(),
                    expected: None,
                    actual: Some(json!(1)),
                }),
            )
        }),
    ]
}

fn expect_eq(got: Option<Mismatch>, want: Option<Mismatch>) -> Result<(), Failed> {
    if got == want {
        Ok(())
    } else {
        Err(format!("expected {want:?}, got {got:?}").into())
    }
}
