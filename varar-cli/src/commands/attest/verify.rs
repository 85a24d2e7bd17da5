//! `cargo varar verify`: an attestation's claims ([`parse_statement`]),
//! checked against the files as they are now ([`verify`]). Exit 0 when
//! every subject and configuration file has the digest claimed, 1 when one
//! changed (`digest_mismatch`) or is missing (`missing_subject`), 2 when
//! the file is not an in-toto Statement of the test-result predicate
//! (`invalid_attestation`) or a file cannot be read (`input_error`).

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;
use varar_core::oath_path::is_oath_path;
use varar_core::untrusted::terminal_line;

use super::statement::{PREDICATE_TYPE, STATEMENT_TYPE};
use varar_core::verdict::records::{Code, ErrorRecord};
use varar_core::verdict::run_evidence::FileNow;

/// The version of `verify --format json`.
pub const VERSION: u32 = 1;

/// What an attestation claims.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claimed {
    /// The predicate's `result`.
    pub result: String,
    /// Every file it names, subjects first, in its order.
    pub files: Vec<(Role, String, String)>,
}

/// Where an attestation names a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// A subject: an oath or a linked document.
    Subject,
    /// The predicate's configuration: the config or the lock.
    Configuration,
}

/// Read an attestation's claims; `Err` says why it is not one.
pub fn parse_statement(bytes: &[u8]) -> Result<Claimed, String> {
    let value: Value =
        serde_json::from_slice(bytes).map_err(|e| format!("it is not JSON ({e})"))?;
    let field = |v: &Value, key: &str| v.get(key).cloned().unwrap_or(Value::Null);
    if !value.is_object() {
        return Err("it is not a JSON object".to_owned());
    }
    let kind = field(&value, "_type");
    if kind.as_str() != Some(STATEMENT_TYPE) {
        return Err(format!("its `_type` is {kind}, not \"{STATEMENT_TYPE}\""));
    }
    let predicate_type = field(&value, "predicateType");
    if predicate_type.as_str() != Some(PREDICATE_TYPE) {
        return Err(format!(
            "its `predicateType` is {predicate_type}, not \"{PREDICATE_TYPE}\""
        ));
    }
    let mut files = descriptors(&field(&value, "subject"), "subject", Role::Subject)?;
    if files.is_empty() {
        return Err("its `subject` is empty".to_owned());
    }
    let predicate = field(&value, "predicate");
    let result = field(&predicate, "result");
    let result = match result.as_str() {
        Some(r @ ("PASSED" | "WARNED" | "FAILED")) => r.to_owned(),
        _ => {
            return Err(format!(
                "its `predicate.result` is {result}, not \"PASSED\", \"WARNED\" or \"FAILED\""
            ));
        }
    };
    files.extend(descriptors(
        &field(&predicate, "configuration"),
        "predicate.configuration",
        Role::Configuration,
    )?);
    Ok(Claimed { result, files })
}

/// The resource descriptors of the array `list` (at `at`).
fn descriptors(list: &Value, at: &str, role: Role) -> Result<Vec<(Role, String, String)>, String> {
    let Some(list) = list.as_array() else {
        return Err(format!("its `{at}` is not an array"));
    };
    list.iter()
        .enumerate()
        .map(|(i, d)| {
            let name = d.get("name").and_then(Value::as_str).unwrap_or("");
            if !is_oath_path(name) {
                return Err(format!(
                    "its `{at}[{i}].name` is not a path inside the project"
                ));
            }
            let sha = d
                .get("digest")
                .and_then(|g| g.get("sha256"))
                .and_then(Value::as_str)
                .unwrap_or("");
            let hex =
                sha.len() == 64 && sha.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
            if !hex {
                return Err(format!(
                    "its `{at}[{i}].digest.sha256` is not 64 lowercase hexadecimal digits"
                ));
            }
            Ok((role, name.to_owned(), sha.to_owned()))
        })
        .collect()
}

/// What `verify` prints.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VerifyReport {
    /// The report's version (`VERSION`, 1).
    pub version: u32,
    /// The verdict.
    pub status: VerifyStatus,
    /// 0, 1 or 2.
    pub exit_code: u8,
    /// The attestation, as shown to people.
    pub file: String,
    /// The result it claims, when it could be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// Every file it names.
    pub checked: Vec<CheckedFile>,
    /// Every mismatch (exit 1) and problem (exit 2).
    pub errors: Vec<ErrorRecord>,
}

/// The verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum VerifyStatus {
    /// Exit 0.
    Verified,
    /// Exit 1.
    Mismatch,
    /// Exit 2.
    Error,
}

/// One file named by the attestation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CheckedFile {
    /// Its path.
    pub name: String,
    /// Subject or configuration.
    pub role: Role,
    /// The digest claimed.
    pub expected: String,
    /// The digest now, when it exists and could be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actual: Option<String>,
    /// What the check found.
    pub status: CheckStatus,
}

/// What the check of one file found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CheckStatus {
    /// The digest matches.
    Match,
    /// It differs.
    Mismatch,
    /// The file does not exist.
    Missing,
    /// The file could not be read.
    Unreadable,
}

/// Check `claimed` (read from `file`, or why it could not be) against the
/// files `now`, by name.
pub fn verify(
    file: &str,
    claimed: Result<Claimed, ErrorRecord>,
    now: &BTreeMap<String, FileNow>,
) -> VerifyReport {
    let mut report = VerifyReport {
        version: VERSION,
        status: VerifyStatus::Verified,
        exit_code: 0,
        file: file.to_owned(),
        result: None,
        checked: Vec::new(),
        errors: Vec::new(),
    };
    let claimed = match claimed {
        Ok(c) => c,
        Err(e) => {
            report.errors.push(e);
            return finish(report);
        }
    };
    report.result = Some(claimed.result);
    for (role, name, expected) in claimed.files {
        let (status, actual) = match now.get(&name) {
            Some(FileNow::Sha256(sha)) if *sha == expected => (CheckStatus::Match, Some(sha)),
            Some(FileNow::Sha256(sha)) => {
                report.errors.push(
                    ErrorRecord::new(
                        Code::DigestMismatch,
                        format!(
                            "`{name}` changed since it was attested: `{file}` says sha256 \
                             {expected}, the file is now {sha}"
                        ),
                    )
                    .with_path(name.clone()),
                );
                (CheckStatus::Mismatch, Some(sha))
            }
            Some(FileNow::Unreadable(e)) => {
                report.errors.push(e.clone());
                (CheckStatus::Unreadable, None)
            }
            Some(FileNow::Missing) | None => {
                report.errors.push(
                    ErrorRecord::new(
                        Code::MissingSubject,
                        format!("`{name}`, which `{file}` attests, does not exist"),
                    )
                    .with_path(name.clone()),
                );
                (CheckStatus::Missing, None)
            }
        };
        report.checked.push(CheckedFile {
            name,
            role,
            expected,
            actual: actual.cloned(),
            status,
        });
    }
    finish(report)
}

fn finish(mut report: VerifyReport) -> VerifyReport {
    let unusable = report
        .errors
        .iter()
        .any(|e| !matches!(e.code, Code::DigestMismatch | Code::MissingSubject));
    (report.status, report.exit_code) = if unusable {
        (VerifyStatus::Error, 2)
    } else if report.errors.is_empty() {
        (VerifyStatus::Verified, 0)
    } else {
        (VerifyStatus::Mismatch, 1)
    };
    report
}

/// The report for people; the file and the result it attests (read from
/// the attestation) escaped for the terminal (issue 34).
pub fn render_text(report: &VerifyReport) -> String {
    let mut out = String::new();
    for e in &report.errors {
        out.push_str(&format!("{e}\n"));
    }
    if report.status == VerifyStatus::Verified {
        out.push_str(&format!(
            "verified `{}`: every file it names ({}) has the digest it attests; its result: {}\n",
            terminal_line(&report.file),
            report.checked.len(),
            terminal_line(report.result.as_deref().unwrap_or(""))
        ));
    }
    out
}
