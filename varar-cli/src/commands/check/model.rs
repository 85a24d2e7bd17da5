//! What `cargo varar check` reports (pure): the report, its problems and
//! their codes, as printed by `--format json` ([`SCHEMA`]).

use serde::Serialize;
use varar_core::plan::{DiagnosticCode, NoticeKind};

use varar_core::verdict::records::ErrorRecord;

/// The JSON Schema of the `--format json` output (draft 2020-12), also
/// committed as `varar-cli/schema/check.schema.json`.
pub const SCHEMA: &str = include_str!("../../../schema/check.schema.json");

/// The version of the JSON output.
pub const VERSION: u32 = 1;

/// The result, as printed by `--format json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CheckReport {
    /// [`VERSION`].
    pub version: u32,
    /// The verdict.
    pub status: CheckStatus,
    /// 0, 1 or 2.
    pub exit_code: u8,
    /// How many oaths were planned.
    pub oaths: usize,
    /// How many steps the registry holds.
    pub steps: usize,
    /// Every problem found, by path, line and column.
    pub problems: Vec<Problem>,
    /// Every input that could not be used.
    pub errors: Vec<ErrorRecord>,
}

/// The verdict in one word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CheckStatus {
    /// Exit 0: no error (there may be warnings).
    Clean,
    /// Exit 1: something `cargo test` would fail.
    Problems,
    /// Exit 2: an input could not be used.
    Error,
}

/// How bad a problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// `cargo test` fails it.
    Error,
    /// Worth a look; `cargo test` passes.
    Warning,
}

/// What a problem is (snake_case in JSON).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ProblemCode {
    /// A paragraph the lock records as an example matches no step now.
    Drift,
    /// Two or more steps match the same text.
    AmbiguousMatch,
    /// An `error` fence on a paragraph without a step.
    ErrorFenceWithoutStep,
    /// A link to an oath the project does not have.
    ReferenceNotFound,
    /// A link to a section without steps.
    ReferenceEmpty,
    /// A link whose anchor names several headings.
    AmbiguousAnchor,
    /// Links that reach themselves.
    ReferenceCycle,
    /// A step definition the registry refuses.
    InvalidStep,
    /// A sentence no step matches that looks like a step.
    UnmatchedStep,
    /// A step no oath uses.
    UnusedStep,
    /// A plan diagnostic of a kind this version does not name.
    PlanDiagnostic,
    /// `varar.config.json` writes a key twice: the last value is used.
    DuplicateKey,
    /// An example the lock lists that no paragraph re-identifies any more
    /// (deleted, or reworded past recognition): nothing checks it now.
    RemovedExample,
    /// A step of a header-bound paragraph that never runs (issue 37).
    DroppedSteps,
    /// The `error` fence of a header-bound paragraph, ignored (issue 37).
    IgnoredErrorFence,
    /// A header-bound table without data rows: its paragraph runs nothing
    /// (issue 37).
    HeaderBoundWithoutRows,
    /// A table handed to another step than the sentence introducing it
    /// (issue 37).
    TableAttachedElsewhere,
    /// An example with no sensor, no `error` fence and no row to compare
    /// (issue 37).
    ChecksNothing,
    /// A notice of a kind this version does not name.
    PlanNotice,
}

impl ProblemCode {
    /// The code as written in JSON and text.
    pub fn as_str(self) -> &'static str {
        match self {
            ProblemCode::Drift => "drift",
            ProblemCode::AmbiguousMatch => "ambiguous_match",
            ProblemCode::ErrorFenceWithoutStep => "error_fence_without_step",
            ProblemCode::ReferenceNotFound => "reference_not_found",
            ProblemCode::ReferenceEmpty => "reference_empty",
            ProblemCode::AmbiguousAnchor => "ambiguous_anchor",
            ProblemCode::ReferenceCycle => "reference_cycle",
            ProblemCode::InvalidStep => "invalid_step",
            ProblemCode::UnmatchedStep => "unmatched_step",
            ProblemCode::UnusedStep => "unused_step",
            ProblemCode::PlanDiagnostic => "plan_diagnostic",
            ProblemCode::DuplicateKey => "duplicate_key",
            ProblemCode::RemovedExample => "removed_example",
            ProblemCode::DroppedSteps => "dropped_steps",
            ProblemCode::IgnoredErrorFence => "ignored_error_fence",
            ProblemCode::HeaderBoundWithoutRows => "header_bound_without_rows",
            ProblemCode::TableAttachedElsewhere => "table_attached_elsewhere",
            ProblemCode::ChecksNothing => "checks_nothing",
            ProblemCode::PlanNotice => "plan_notice",
        }
    }

    /// The warning a plan notice is (issue 37).
    pub fn of_notice(kind: NoticeKind) -> ProblemCode {
        match kind {
            NoticeKind::DroppedSteps => ProblemCode::DroppedSteps,
            NoticeKind::IgnoredErrorFence => ProblemCode::IgnoredErrorFence,
            NoticeKind::HeaderBoundWithoutRows => ProblemCode::HeaderBoundWithoutRows,
            NoticeKind::TableAttachedElsewhere => ProblemCode::TableAttachedElsewhere,
            NoticeKind::ChecksNothing => ProblemCode::ChecksNothing,
            // A kind added to the engine later is still a warning.
            _ => ProblemCode::PlanNotice,
        }
    }

    /// The problem a plan diagnostic is.
    pub fn of(code: DiagnosticCode) -> ProblemCode {
        match code {
            DiagnosticCode::AmbiguousMatch => ProblemCode::AmbiguousMatch,
            DiagnosticCode::ErrorFenceWithoutStep => ProblemCode::ErrorFenceWithoutStep,
            DiagnosticCode::ReferenceNotFound => ProblemCode::ReferenceNotFound,
            DiagnosticCode::ReferenceEmpty => ProblemCode::ReferenceEmpty,
            DiagnosticCode::AmbiguousAnchor => ProblemCode::AmbiguousAnchor,
            DiagnosticCode::ReferenceCycle => ProblemCode::ReferenceCycle,
            // A code added to the engine later is still an error.
            _ => ProblemCode::PlanDiagnostic,
        }
    }
}

/// One problem, in the shape of the gate's error records plus where it is
/// and what `cargo test` calls it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Problem {
    /// What it is.
    pub code: ProblemCode,
    /// Error or warning.
    pub severity: Severity,
    /// The first line of the message.
    pub message: String,
    /// The rest of the message (the steps of an ambiguity, hints), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// The file, relative to the project root (an oath's is its oathPath).
    pub path: String,
    /// The oath, for a problem in one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub oath_path: Option<String>,
    /// Drift or a removed example: the example's name as the lock records
    /// it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub example: Option<String>,
    /// 1-based line.
    pub line: u32,
    /// 1-based column (UTF-16 code units, as the editor counts).
    pub column: u32,
    /// The test item `cargo test` fails for it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub item: Option<String>,
    /// The step's expression (an unused step), or the one "create the
    /// step" would write (a sentence that looks like a step).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expression: Option<String>,
    /// How to change the text (a plan notice, issue 37).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
}

impl CheckReport {
    /// The report of a check that could not read its project at all.
    pub fn unusable(errors: Vec<ErrorRecord>) -> CheckReport {
        finish(0, 0, Vec::new(), errors)
    }
}

/// The report of these problems and input errors, judged.
pub(super) fn finish(
    oaths: usize,
    steps: usize,
    problems: Vec<Problem>,
    errors: Vec<ErrorRecord>,
) -> CheckReport {
    let (status, exit_code) = if !errors.is_empty() {
        (CheckStatus::Error, 2)
    } else if problems.iter().any(|p| p.severity == Severity::Error) {
        (CheckStatus::Problems, 1)
    } else {
        (CheckStatus::Clean, 0)
    };
    CheckReport {
        version: VERSION,
        status,
        exit_code,
        oaths,
        steps,
        problems,
        errors,
    }
}
