//! The run-result payload `.varar/<oathPath>.json` (spec 30 §30.8): the
//! serde model, the builders from planned examples and their runs, and the
//! writer. Optional members are absent, never `null`. [`read`] is the one
//! strict reader of these files (versions 1 and 2, spec 70 §70.4).

pub mod read;

use serde::{Deserialize, Serialize};

use crate::execute::ExampleRun;
use crate::failure::Failure;
use crate::plan::PlannedExample;

/// The payload of one oath's run-result file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OathResults {
    /// `1`, or `2` when the file carries `documents` or a `failure.docPath`
    /// (spec 70 §70.6.7).
    pub version: u32,
    /// The oath's path relative to the workspace root, `/`-separated.
    pub oath_path: String,
    /// `fnv1a:xxxxxxxx` of the oath source as run.
    pub source_hash: String,
    /// Version 2: the other documents whose steps this oath's examples use,
    /// with their hashes (spec 70 §70.4.5); absent when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub documents: Vec<DocumentHash>,
    /// The executed examples, in the order given (see [`oath_results`]).
    pub examples: Vec<ExampleResult>,
}

/// A document other than the oath that some of its steps come from, and
/// the hash of its text as run (spec 70 §70.4.5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DocumentHash {
    /// The document's oathPath.
    pub path: String,
    /// `fnv1a:xxxxxxxx` of its text.
    pub source_hash: String,
}

/// One executed example.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExampleResult {
    /// The planned example's name.
    pub name: String,
    /// Passed or failed, after expected-failure inversion.
    pub status: Status,
    /// 1-based start lines of the steps' match spans, deduplicated.
    pub lines: Vec<u32>,
    /// Present only when the example failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<ResultFailure>,
}

/// An example's status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The example passed (a satisfied expected failure included).
    Passed,
    /// The example failed.
    Failed,
}

/// Why and where an example failed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResultFailure {
    /// The anchor's start line, else the example's first line, else 0.
    pub line: u32,
    /// The §30.4 message (for `thrown`, the error or panic message).
    pub message: String,
    /// For humans only; nobody parses it.
    pub stack: String,
    /// Every failing cell of a cell mismatch; absent otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cells: Vec<CellFailure>,
    /// Where the failure points; absent when no step was involved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub anchor: Option<Anchor>,
    /// Version 2: the oathPath of the document `line`, `anchor` and `cells`
    /// point into, when it is not the running oath (spec 70 §70.4.4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc_path: Option<String>,
}

/// One failing cell: its source range and the rendered actual value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CellFailure {
    /// UTF-16 start offset of the expected text.
    pub from: u32,
    /// UTF-16 end offset (exclusive).
    pub to: u32,
    /// The actual value as rendered in the message.
    pub actual: String,
}

/// A source range in UTF-16 offsets, end exclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Anchor {
    /// Start offset.
    pub from: u32,
    /// End offset (exclusive).
    pub to: u32,
}

impl OathResults {
    /// The file content: pretty JSON in declaration key order, 2-space
    /// indent, LF and a trailing newline (spec 30 §30.8.1).
    pub fn to_json_string(&self) -> Result<String, serde_json::Error> {
        let mut text = serde_json::to_string_pretty(self)?;
        text.push('\n');
        Ok(text)
    }
}

/// Longest step text shown in a stack line before it is cut.
const LABEL_CHARS: usize = 60;

/// The result of one executed example (spec 30 §30.8.3).
pub fn example_result(
    example: &PlannedExample,
    run: &ExampleRun,
    oath_path: &str,
) -> ExampleResult {
    let mut lines: Vec<u32> = Vec::with_capacity(example.steps.len());
    for step in &example.steps {
        let line = step.match_span.start_line;
        if !lines.contains(&line) {
            lines.push(line);
        }
    }
    let failure = run
        .failure
        .as_ref()
        .map(|f| result_failure(example, f, lines.first().copied().unwrap_or(0), oath_path));
    ExampleResult {
        name: example.name.clone(),
        status: if failure.is_some() {
            Status::Failed
        } else {
            Status::Passed
        },
        lines,
        failure,
    }
}

fn result_failure(
    example: &PlannedExample,
    f: &Failure,
    first_line: u32,
    oath_path: &str,
) -> ResultFailure {
    let line = f.anchor.map(|a| a.start_line).unwrap_or(first_line);
    let mut stack = format!("{}\n", f.message);
    let step = f.step.and_then(|i| example.steps.get(i));
    if let (Some(step), Some(anchor)) = (step, f.anchor) {
        let label = if step.text.chars().count() > LABEL_CHARS {
            let cut: String = step.text.chars().take(LABEL_CHARS).collect();
            format!("{cut}…")
        } else {
            step.text.clone()
        };
        stack.push_str(&format!(
            "    at {label} ({oath_path}:{}:{})",
            anchor.start_line, anchor.start_col
        ));
    }
    ResultFailure {
        line,
        message: f.message.clone(),
        stack,
        cells: f
            .cells
            .iter()
            .map(|c| CellFailure {
                from: c.span.start_offset,
                to: c.span.end_offset,
                actual: c.actual.clone(),
            })
            .collect(),
        anchor: f.anchor.map(|a| Anchor {
            from: a.start_offset,
            to: a.end_offset,
        }),
        doc_path: None,
    }
}

/// The payload of one oath: `examples` stably sorted by their first line,
/// so ties keep the given (plan) order. The collector sorts; the writer
/// never reorders.
pub fn oath_results(
    oath_path: &str,
    source_hash: &str,
    mut examples: Vec<ExampleResult>,
) -> OathResults {
    examples.sort_by_key(|e| e.lines.first().copied().unwrap_or(0));
    OathResults {
        version: 1,
        oath_path: oath_path.to_string(),
        source_hash: source_hash.to_string(),
        documents: Vec::new(),
        examples,
    }
}

#[cfg(test)]
mod tests;
