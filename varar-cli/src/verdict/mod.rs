//! `cargo varar gate`: may this change merge? (pure)
//!
//! For every oath the config selects, a result file must exist, be fresh
//! ([`crate::evidence`]) and record only passed examples. The verdict is
//! one [`GateReport`]: exit 0 when all is fresh and passed, 1 when some
//! example failed, 2 when any evidence is unusable (`missing_result`,
//! `stale_result`, `invalid_result`, `invalid_config`, `input_error`,
//! `no_oaths`). 2 wins over 1: a gate never passes or fails on evidence it
//! could not read. Its JSON form is described by [`SCHEMA`].

use serde::Serialize;

use crate::evidence::{EvidenceState, OathEvidence};
use crate::records::{Code, ErrorRecord, exit_code};

/// The JSON Schema of the `--format json` output (draft 2020-12), also
/// committed as `varar-cli/schema/gate.schema.json`.
pub const SCHEMA: &str = include_str!("../../schema/gate.schema.json");

/// The version of the JSON output.
pub const VERSION: u32 = 1;

/// The verdict, as printed by `--format json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GateReport {
    /// [`VERSION`].
    pub version: u32,
    /// The verdict.
    pub status: GateStatus,
    /// The exit code: 0, 1 or 2.
    pub exit_code: u8,
    /// Every selected oath, in discovery order.
    pub oaths: Vec<OathGate>,
    /// Every failed example of a fresh result.
    pub failures: Vec<FailureRecord>,
    /// Every problem with the evidence.
    pub errors: Vec<ErrorRecord>,
}

/// The verdict in one word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GateStatus {
    /// Exit 0.
    Passed,
    /// Exit 1.
    Failed,
    /// Exit 2.
    Error,
}

/// One oath's evidence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OathGate {
    /// Its oathPath.
    pub path: String,
    /// What its evidence says.
    pub status: OathStatus,
    /// Passed examples in its result file (0 without one).
    pub passed: usize,
    /// Failed examples in its result file (0 without one).
    pub failed: usize,
    /// The hash of the oath's text now (absent when it could not be read).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_hash: Option<String>,
    /// Whether its result is of its text as it is now.
    pub fresh: bool,
}

/// What one oath's evidence says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OathStatus {
    /// Fresh, every example passed.
    Passed,
    /// Fresh, some example failed.
    Failed,
    /// No result file.
    Missing,
    /// No result file, and none is expected: every paragraph of the oath
    /// lies in a section other oaths link to, which runs there (spec 70).
    Linked,
    /// A result of another version of the oath.
    Stale,
    /// The result file could not be read or was refused.
    Invalid,
    /// The oath (or a document its result names) could not be read.
    Unreadable,
}

/// One failed example.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FailureRecord {
    /// The oath.
    pub oath_path: String,
    /// The line of the failure (in `docPath` when present).
    pub line: u32,
    /// The example's name.
    pub example: String,
    /// The failure message.
    pub message: String,
    /// Version 2: the document `line` is in, when not the oath.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc_path: Option<String>,
}

impl GateReport {
    /// The report of a gate that could not even find its oaths.
    pub fn unusable(error: ErrorRecord) -> GateReport {
        finish(Vec::new(), Vec::new(), vec![error])
    }
}

/// Judge every oath's evidence.
pub fn evaluate(oaths: &[OathEvidence]) -> GateReport {
    evaluate_with(oaths, &std::collections::BTreeSet::new())
}

/// [`evaluate`], where the oaths of `linked_only` need no result: they run
/// only inside the oaths that link to them (spec 70 §70.4.5), so a missing
/// result is their status `linked`, not an error.
pub fn evaluate_with(
    oaths: &[OathEvidence],
    linked_only: &std::collections::BTreeSet<String>,
) -> GateReport {
    let mut verdicts = Vec::with_capacity(oaths.len());
    let mut failures = Vec::new();
    let mut errors = Vec::new();
    for o in oaths {
        let linked = linked_only.contains(&o.oath_path);
        verdicts.push(judge(o, linked, &mut failures, &mut errors));
    }
    finish(verdicts, failures, errors)
}

/// The verdict on one oath; its failures and problems are added to the
/// report's. `linked`: it needs no result of its own.
fn judge(
    o: &OathEvidence,
    linked: bool,
    failures: &mut Vec<FailureRecord>,
    errors: &mut Vec<ErrorRecord>,
) -> OathGate {
    let mut gate = OathGate {
        path: o.oath_path.clone(),
        status: OathStatus::Missing,
        passed: 0,
        failed: 0,
        source_hash: o.current_hash(),
        fresh: false,
    };
    let counted = |gate: &mut OathGate, r: &varar_core::results::OathResults| {
        gate.failed = r.examples.iter().filter(|e| e.failure.is_some()).count();
        gate.passed = r.examples.len() - gate.failed;
    };
    match o.state() {
        EvidenceState::Fresh(r) => {
            counted(&mut gate, r);
            gate.fresh = true;
            gate.status = if gate.failed > 0 {
                OathStatus::Failed
            } else {
                OathStatus::Passed
            };
            failures.extend(failure_records(o, r));
        }
        EvidenceState::Stale(r, why) => {
            counted(&mut gate, r);
            gate.status = OathStatus::Stale;
            errors.push(stale_result(o, &why));
        }
        EvidenceState::Missing if linked => gate.status = OathStatus::Linked,
        EvidenceState::Missing => errors.push(missing_result(o)),
        EvidenceState::Unusable(found) => {
            gate.status = if o.results.is_err() {
                OathStatus::Invalid
            } else {
                OathStatus::Unreadable
            };
            errors.extend(found);
        }
    }
    gate
}

/// The failures of a fresh result.
fn failure_records<'a>(
    o: &'a OathEvidence,
    r: &'a varar_core::results::OathResults,
) -> impl Iterator<Item = FailureRecord> + 'a {
    r.examples.iter().filter_map(|e| {
        let f = e.failure.as_ref()?;
        Some(FailureRecord {
            oath_path: o.oath_path.clone(),
            line: f.line,
            example: e.name.clone(),
            message: f.message.clone(),
            doc_path: f.doc_path.clone(),
        })
    })
}

fn stale_result(o: &OathEvidence, why: &str) -> ErrorRecord {
    ErrorRecord::new(
        Code::StaleResult,
        format!("`{}` is stale: {why}; run the tests again", o.result_path),
    )
    .with_path(o.result_path.clone())
    .with_oath(o.oath_path.clone())
}

fn missing_result(o: &OathEvidence) -> ErrorRecord {
    ErrorRecord::new(
        Code::MissingResult,
        format!(
            "`{}` has no result (`{}` does not exist): it did not run",
            o.oath_path, o.result_path
        ),
    )
    .with_path(o.result_path.clone())
    .with_oath(o.oath_path.clone())
}

fn finish(
    oaths: Vec<OathGate>,
    failures: Vec<FailureRecord>,
    errors: Vec<ErrorRecord>,
) -> GateReport {
    let exit = exit_code(&errors, u8::from(!failures.is_empty()));
    GateReport {
        version: VERSION,
        status: match exit {
            0 => GateStatus::Passed,
            1 => GateStatus::Failed,
            _ => GateStatus::Error,
        },
        exit_code: exit,
        oaths,
        failures,
        errors,
    }
}

/// The verdict for people: each failure as `path:line: example` with its
/// message indented, each problem as `error[code]: message`, then one
/// summary line.
pub fn render_text(report: &GateReport) -> String {
    let mut out = String::new();
    for f in &report.failures {
        let at = f.doc_path.as_deref().unwrap_or(&f.oath_path);
        out.push_str(&format!("FAILED {at}:{}: {}\n", f.line, f.example));
        if f.doc_path.is_some() {
            out.push_str(&format!("    (an example of {})\n", f.oath_path));
        }
        for line in f.message.lines() {
            out.push_str(&format!("    {line}\n"));
        }
    }
    for e in &report.errors {
        out.push_str(&format!("{e}\n"));
    }
    let examples: usize = report.oaths.iter().map(|o| o.passed + o.failed).sum();
    let oaths = plural(report.oaths.len(), "oath");
    out.push_str(&match report.status {
        GateStatus::Passed => {
            format!(
                "gate: passed: {} in {oaths}, all fresh and passed\n",
                plural(examples, "example")
            )
        }
        GateStatus::Failed => format!(
            "gate: failed: {} of {} failed in {oaths}\n",
            report.failures.len(),
            plural(examples, "example")
        ),
        GateStatus::Error => format!(
            "gate: error: {} with the evidence of {oaths}; nothing was judged\n",
            plural(report.errors.len(), "problem")
        ),
    });
    out
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}
