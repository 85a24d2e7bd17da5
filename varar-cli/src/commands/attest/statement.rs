//! The statement of a run (see the module docs of [`crate::attest`]).

use serde::Serialize;
use varar_core::record::{Outcome, RunRecord};

/// The in-toto Statement type.
pub const STATEMENT_TYPE: &str = "https://in-toto.io/Statement/v1";

/// The in-toto test-result predicate type.
pub const PREDICATE_TYPE: &str = "https://in-toto.io/attestation/test-result/v0.1";

/// The lock's file name.
pub const LOCK_PATH: &str = "varar.lock.json";

/// An in-toto Statement v1 of a test result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Statement {
    /// [`STATEMENT_TYPE`].
    #[serde(rename = "_type")]
    pub statement_type: String,
    /// The files verified.
    pub subject: Vec<ResourceDescriptor>,
    /// [`PREDICATE_TYPE`].
    #[serde(rename = "predicateType")]
    pub predicate_type: String,
    /// The result.
    pub predicate: TestResult,
}

/// A file named by its project-relative path and its digest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ResourceDescriptor {
    /// Its path relative to the project root, `/`-separated.
    pub name: String,
    /// Its digest.
    pub digest: Digest,
}

/// A digest set of one algorithm.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Digest {
    /// Lowercase hexadecimal SHA-256.
    pub sha256: String,
}

/// The test-result predicate.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TestResult {
    /// `PASSED`, `WARNED` or `FAILED`.
    pub result: ResultKind,
    /// The config and the lock.
    pub configuration: Vec<ResourceDescriptor>,
    /// Items whose only or last attempt passed, none failing before.
    pub passed_tests: Vec<String>,
    /// Items that failed (or never ended) and then passed on a retry.
    pub warned_tests: Vec<String>,
    /// Items whose last attempt failed.
    pub failed_tests: Vec<String>,
}

/// The predicate's `result`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum ResultKind {
    /// Every item passed at its first attempt.
    Passed,
    /// Every item passed, some after a retry.
    Warned,
    /// Some item failed.
    Failed,
}

impl ResultKind {
    /// The result as the predicate writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            ResultKind::Passed => "PASSED",
            ResultKind::Warned => "WARNED",
            ResultKind::Failed => "FAILED",
        }
    }
}

/// A file and its digest, for the configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileSha {
    /// Its project-relative path.
    pub path: String,
    /// Its SHA-256.
    pub sha256: String,
}

/// The statement of `run` (complete and fresh: the caller checked),
/// with the configuration files `configuration` (the config, the lock).
pub fn statement(run: &RunRecord, configuration: &[FileSha]) -> Statement {
    let mut passed = Vec::new();
    let mut warned = Vec::new();
    let mut failed = Vec::new();
    for item in &run.items {
        let name = item.name.clone();
        match item.outcome() {
            Some(Outcome::Passed) if item.recovered() => warned.push(name),
            Some(Outcome::Passed) => passed.push(name),
            Some(Outcome::Failed) => failed.push(name),
            Some(Outcome::Ignored) | None => {}
        }
    }
    for list in [&mut passed, &mut warned, &mut failed] {
        list.sort();
        list.dedup();
    }
    let result = if !failed.is_empty() {
        ResultKind::Failed
    } else if !warned.is_empty() {
        ResultKind::Warned
    } else {
        ResultKind::Passed
    };
    let mut subject: Vec<ResourceDescriptor> = run
        .documents()
        .into_iter()
        .map(|d| descriptor(&d.path, &d.sha256))
        .collect();
    subject.sort_by(|a, b| {
        a.name
            .cmp(&b.name)
            .then(a.digest.sha256.cmp(&b.digest.sha256))
    });
    Statement {
        statement_type: STATEMENT_TYPE.to_owned(),
        subject,
        predicate_type: PREDICATE_TYPE.to_owned(),
        predicate: TestResult {
            result,
            configuration: configuration
                .iter()
                .map(|f| descriptor(&f.path, &f.sha256))
                .collect(),
            passed_tests: passed,
            warned_tests: warned,
            failed_tests: failed,
        },
    }
}

fn descriptor(name: &str, sha256: &str) -> ResourceDescriptor {
    ResourceDescriptor {
        name: name.to_owned(),
        digest: Digest {
            sha256: sha256.to_owned(),
        },
    }
}

impl Statement {
    /// The statement's bytes: pretty JSON, fields in declaration order,
    /// LF, a trailing newline.
    pub fn to_text(&self) -> String {
        // Strings and lists only: serialising cannot fail.
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        text
    }
}
