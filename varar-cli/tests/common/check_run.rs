//! `cargo varar check` through the real binary, as the check tests run it.
#![allow(dead_code)] // each test file uses a different part of this module

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

/// `cargo varar check <args>` in `root`.
pub fn check(root: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cargo-varar"))
        .args(["varar", "check"])
        .args(args)
        .current_dir(root)
        .output()
        .unwrap_or_else(|e| panic!("cannot run cargo-varar: {e}"))
}

/// Bytes a process wrote, as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `check --format json`, validated against the committed schema, its
/// `exitCode` the process's.
pub fn check_json(root: &Path) -> Value {
    let out = check(root, &["--format", "json"]);
    let value: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", text(&out.stdout)));
    let schema_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/check.schema.json");
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(&schema_path).unwrap_or_else(|e| panic!("{e}")),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let validator = jsonschema::validator_for(&schema).unwrap_or_else(|e| panic!("{e}"));
    let errors: Vec<String> = validator
        .iter_errors(&value)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}\n{value:#}");
    assert_eq!(value["exitCode"].as_i64(), out.status.code().map(i64::from));
    value
}
