//! `cargo varar sarif`: the findings of the latest run
//! ([`varar_core::verdict::findings`], issue 38 point 2) as a SARIF 2.1.0
//! log, for code scanning (pure; the shell is [`shell`]).
//!
//! - One run; `tool.driver` is `varar` with this build's version and one
//!   rule per kind of finding (its stable id, a short description and
//!   its default level), whether or not the run found any.
//! - One result per finding: `ruleId` and `ruleIndex`, `level`, the
//!   message, one physical location (the document's path in the
//!   repository as a URI reference against `%SRCROOT%`, the repository
//!   root, and its region: `startLine`, and `startColumn`, `endLine`,
//!   `endColumn` when the result is of the text as it is now) and the
//!   finding's fingerprint under `partialFingerprints["varar/v1"]`.
//! - Columns count UTF-16 code units, SARIF's default `columnKind`
//!   (`utf16CodeUnits`, said explicitly), the end column just past the
//!   span.
//! - The tests validate the output against the official SARIF 2.1.0
//!   schema (`varar-cli/tests/sarif/`).

use serde_json::{Map, Value, json};
use varar_core::verdict::findings::{Finding, Kind, repository_path};

pub mod args;
pub mod shell;

/// The schema a log names.
pub const SCHEMA_URI: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";
/// The key of the findings' fingerprints in `partialFingerprints`.
pub const FINGERPRINT_KEY: &str = "varar/v1";
/// The base every artifact's URI is relative to: the repository root.
pub const SRCROOT: &str = "%SRCROOT%";

/// The SARIF log of `findings`; `prefix` is the project's directory in
/// the repository, `version` the tool's.
pub fn log(findings: &[Finding], prefix: &str, version: &str) -> Value {
    let rules: Vec<Value> = Kind::ALL
        .iter()
        .map(|kind| {
            json!({
                "id": kind.rule_id(),
                "shortDescription": {"text": kind.description()},
                "defaultConfiguration": {"level": kind.level().as_str()},
            })
        })
        .collect();
    let results: Vec<Value> = findings.iter().map(|f| result(f, prefix)).collect();
    json!({
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "varar",
                "version": version,
                "rules": rules,
            }},
            "originalUriBaseIds": {
                SRCROOT: {"description": {"text": "The root of the repository the project is in."}},
            },
            "columnKind": "utf16CodeUnits",
            "results": results,
        }],
    })
}

/// One finding as a SARIF result.
fn result(f: &Finding, prefix: &str) -> Value {
    let mut location = Map::new();
    location.insert(
        "artifactLocation".into(),
        json!({
            "uri": uri_reference(&repository_path(prefix, &f.oath_path)),
            "uriBaseId": SRCROOT,
        }),
    );
    if let Some(r) = f.region {
        let mut region = Map::new();
        region.insert("startLine".into(), r.start_line.into());
        if let Some(c) = r.span {
            region.insert("startColumn".into(), c.start_column.into());
            region.insert("endLine".into(), c.end_line.into());
            region.insert("endColumn".into(), c.end_column.into());
        }
        location.insert("region".into(), Value::Object(region));
    }
    let rule_index = Kind::ALL.iter().position(|k| *k == f.kind).unwrap_or(0);
    json!({
        "ruleId": f.kind.rule_id(),
        "ruleIndex": rule_index,
        "level": f.level.as_str(),
        "message": {"text": message(f)},
        "locations": [{"physicalLocation": location}],
        "partialFingerprints": {FINGERPRINT_KEY: f.fingerprint},
        "properties": {"item": f.item, "title": f.title},
    })
}

/// The result's message: the finding's, else its title (SARIF wants
/// text).
fn message(f: &Finding) -> &str {
    if f.message.trim().is_empty() {
        &f.title
    } else {
        &f.message
    }
}

/// A `/`-separated relative path as a URI reference (RFC 3986): every
/// byte but the unreserved characters and `/` percent-encoded, so that a
/// space, `%`, `#` or `?` in an oath's name stays part of its path.
pub fn uri_reference(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests;
