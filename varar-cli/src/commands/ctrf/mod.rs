//! `cargo varar ctrf`: the run as CTRF JSON (Common Test Report Format,
//! the report test dashboards ingest; issue 38), checked in the tests
//! against the schema the `ctrf` npm package publishes (pure; the shell is
//! [`shell`]).
//!
//! - The cases are JUnit's ([`crate::commands::junit::cases`]): one test per
//!   example of every oath with results, one per drift, diagnostic and
//!   read-error item whose last attempt failed; a run the gate cannot judge
//!   is refused with the gate's records, as `junit` refuses it.
//! - `runId` is the run record's run id: the shards of one nextest run (or
//!   given one `VARAR_RUN_ID`), merged with `cargo varar merge`, are one
//!   run, so one report with one `runId` lists every shard's examples.
//! - A test's `name` is its full item name (as `cargo test --list` prints
//!   it, without the `[varar] ` kind), its `status` the result's, its
//!   `duration` its last attempt's; `flaky` when it passed after an
//!   attempt that did not, `retries` and one `retryAttempts` entry per
//!   earlier attempt (status, duration, message); `filePath` and `line`
//!   its oath (inside the repository, as `annotate` and `sarif` write
//!   paths: [`file_path`]) and first line; `suite` its oath; `tags` the
//!   example's (`<!-- @slow -->`, the `tag` properties of `junit`'s case);
//!   a failure's `message` its first line and `trace` the failure as
//!   `junit` renders it.
//! - `summary.start`/`stop` are the run's start and end (milliseconds
//!   since the epoch); without a run record (results of another port),
//!   nothing says when it ran: both are 0 and `runId` is absent, with
//!   `junit`'s warning.
//! - `reportId` is a UUID (version 8) made from the SHA-256 of the rest of
//!   the report: two reports differ in it exactly when they differ.
//! - Unlike the other commands' JSON, the document has no `version` and no
//!   schema in `varar-cli/schema/`: the format is CTRF's, `specVersion`
//!   says which, and its schema (which refuses keys it does not name) is
//!   vendored for the tests in `varar-cli/tests/ctrf/`.

use serde::Serialize;
use varar_core::hash::sha256_hex;
use varar_core::record::{Attempt, Outcome};
use varar_core::verdict::evidence::ProjectEvidence;
use varar_core::verdict::findings::repository_path;
use varar_core::verdict::records::ErrorRecord;

use crate::commands::junit::cases::{Case, Cases, project_cases};

/// The CTRF version written (the `ctrf` package's current spec version).
pub const SPEC_VERSION: &str = "0.0.0";

/// A report and what is worth saying about it.
#[derive(Debug)]
pub struct CtrfReport {
    /// The document.
    pub report: Ctrf,
    /// Things worth saying that do not stop the conversion.
    pub warnings: Vec<String>,
}

/// A CTRF document.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Ctrf {
    report_format: &'static str,
    spec_version: &'static str,
    /// See the module docs.
    pub report_id: String,
    /// The run record's run id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run_id: Option<String>,
    timestamp: String,
    generated_by: String,
    /// The results.
    pub results: Results,
}

/// `results`.
#[derive(Debug, Serialize)]
pub struct Results {
    tool: Tool,
    /// The counts.
    pub summary: Summary,
    /// One per case.
    pub tests: Vec<Test>,
}

#[derive(Debug, Serialize)]
struct Tool {
    name: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    version: Option<String>,
}

/// `results.summary`.
#[derive(Debug, Default, Serialize)]
pub struct Summary {
    /// Every test.
    pub tests: usize,
    /// Passed (flaky ones included).
    pub passed: usize,
    /// Failed.
    pub failed: usize,
    skipped: usize,
    pending: usize,
    other: usize,
    /// Passed after an earlier attempt did not.
    pub flaky: usize,
    suites: usize,
    /// The run's start, milliseconds since the epoch.
    pub start: i64,
    /// The run's end.
    pub stop: i64,
    duration: i64,
}

/// One test.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Test {
    /// The full item name.
    pub name: String,
    /// How it ended.
    pub status: Status,
    duration: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    trace: Option<String>,
    /// Its first line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// Its oath.
    pub file_path: String,
    suite: Vec<String>,
    #[serde(rename = "type")]
    kind: &'static str,
    /// Its tags (`<!-- @slow -->`, [`varar_core::tags`]), as the JUnit
    /// report's `tag` properties: the case's.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// Whether it passed after an earlier attempt did not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flaky: Option<bool>,
    /// How many attempts followed the first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retries: Option<usize>,
    /// The attempts before the last, in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub retry_attempts: Vec<RetryAttempt>,
}

/// An attempt before the last.
#[derive(Debug, Serialize)]
pub struct RetryAttempt {
    /// Its number (1: the first).
    pub attempt: u32,
    /// How it ended.
    pub status: Status,
    #[serde(skip_serializing_if = "Option::is_none")]
    duration: Option<u64>,
    /// Why it failed, as recorded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// A CTRF status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Passed.
    Passed,
    /// Failed.
    Failed,
    /// libtest ignored it.
    Skipped,
    /// It did not end.
    Other,
}

/// What the report cannot read from the evidence.
#[derive(Clone, Copy, Debug)]
pub struct Generated<'a> {
    /// When the report is made, milliseconds since the epoch.
    pub at_ms: u64,
    /// The generator, `generatedBy`.
    pub by: &'a str,
    /// The project's directory in its repository, put before each
    /// oathPath in `filePath` (as `annotate` and `sarif` write paths).
    pub prefix: &'a str,
}

/// The project's CTRF report, or the records of why it cannot be made.
pub fn build(
    project: &ProjectEvidence,
    generated: Generated<'_>,
) -> Result<CtrfReport, Vec<ErrorRecord>> {
    let cases = project_cases(project)?;
    let report = document(&cases, generated);
    Ok(CtrfReport {
        report,
        warnings: cases.warnings,
    })
}

/// The repository-relative path of an oath as reports write it: the one
/// place `filePath` is made, with the rule `annotate` and `sarif` use.
pub fn file_path(prefix: &str, oath_path: &str) -> String {
    repository_path(prefix, oath_path)
}

fn document(cases: &Cases<'_>, generated: Generated<'_>) -> Ctrf {
    let mut summary = Summary {
        suites: cases.suites.len(),
        ..Summary::default()
    };
    let mut tests = Vec::new();
    for suite in &cases.suites {
        for case in &suite.cases {
            let test = test(generated.prefix, suite.oath_path, case);
            summary.tests += 1;
            match test.status {
                Status::Passed => summary.passed += 1,
                Status::Failed => summary.failed += 1,
                Status::Skipped => summary.skipped += 1,
                Status::Other => summary.other += 1,
            }
            summary.flaky += usize::from(test.flaky == Some(true));
            tests.push(test);
        }
    }
    if let Some(run) = cases.run {
        summary.start = millis(run.started_at());
        summary.stop = run.ended_at().map_or(summary.start, millis);
        summary.duration = (summary.stop - summary.start).max(0);
    }
    let mut ctrf = Ctrf {
        report_format: "CTRF",
        spec_version: SPEC_VERSION,
        report_id: String::new(),
        run_id: cases.run.map(|r| r.run_id.clone()),
        timestamp: varar_core::time::rfc3339_millis(generated.at_ms),
        generated_by: generated.by.to_owned(),
        results: Results {
            tool: Tool {
                name: "varar",
                version: cases
                    .run
                    .and_then(|r| r.processes.first())
                    .map(|p| p.varar.clone()),
            },
            summary,
            tests,
        },
    };
    ctrf.report_id = uuid_of(&serde_json::to_vec(&ctrf).unwrap_or_default());
    ctrf
}

fn test(prefix: &str, oath_path: &str, case: &Case<'_>) -> Test {
    let earlier = case.earlier_attempts();
    Test {
        name: case
            .item
            .map_or_else(|| case.name.clone(), |i| i.name.clone()),
        status: if case.failure.is_some() {
            Status::Failed
        } else {
            Status::Passed
        },
        duration: case
            .item
            .and_then(|i| i.last())
            .and_then(|a| ms(a.duration_ms))
            .unwrap_or(0),
        message: case.failure.as_ref().map(|f| f.message.clone()),
        trace: case.failure.as_ref().map(|f| f.text.clone()),
        line: case.line,
        file_path: file_path(prefix, oath_path),
        suite: vec![oath_path.to_owned()],
        kind: case.kind.as_str(),
        tags: case.tags.clone(),
        flaky: case.item.map(|i| i.recovered()),
        retries: case.item.map(|_| earlier.len()),
        retry_attempts: earlier.iter().map(retry_attempt).collect(),
    }
}

fn retry_attempt(a: &Attempt) -> RetryAttempt {
    RetryAttempt {
        attempt: a.attempt,
        status: match a.outcome {
            Some(Outcome::Passed) => Status::Passed,
            Some(Outcome::Failed) => Status::Failed,
            Some(Outcome::Ignored) => Status::Skipped,
            None => Status::Other,
        },
        duration: ms(a.duration_ms),
        message: a.message.clone(),
    }
}

/// A recorded duration in whole milliseconds, rounded.
fn ms(duration_ms: Option<f64>) -> Option<u64> {
    // Saturating: a negative or absurd recorded duration cannot wrap.
    duration_ms.map(|d| d.max(0.0).round() as u64)
}

/// An instant of a run record (RFC 3339, checked when the record was
/// read) in milliseconds since the epoch; 0 when it does not parse.
fn millis(instant: &str) -> i64 {
    chrono::DateTime::parse_from_rfc3339(instant).map_or(0, |t| t.timestamp_millis())
}

/// A UUID (RFC 9562 version 8: custom data) of the SHA-256 of `bytes`.
fn uuid_of(bytes: &[u8]) -> String {
    let hex = sha256_hex(bytes);
    let mut h: Vec<char> = hex.chars().take(32).collect();
    h[12] = '8';
    // The variant's two high bits are `10`: 8, 9, a or b.
    let variant = h[16].to_digit(16).unwrap_or(0) & 0x3 | 0x8;
    h[16] = char::from_digit(variant, 16).unwrap_or('8');
    let h: String = h.into_iter().collect();
    format!(
        "{}-{}-{}-{}-{}",
        &h[0..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..32]
    )
}

pub mod args;
pub mod shell;

#[cfg(test)]
mod tests;
