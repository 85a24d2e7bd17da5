//! The run-result payload `.varar/<oathPath>.json` (spec 30 §30.8): the
//! typed model, the builders from planned examples and their runs, the one
//! merge of a run into the stored file (spec 40 §6, issue 10), the one
//! writer ([`OathResults::to_text`]) and, in `read`, the one strict reader
//! (versions 1 and 2, spec 70 §70.4). Optional members are absent, never
//! `null`. Pure: the store reads and writes the bytes.

mod read;

pub use read::{ResultsError, parse_run_result};

use serde::Serialize;

use crate::execute::ExampleRun;
use crate::failure::Failure;
use crate::plan::PlannedExample;

/// The payload of one oath's run-result file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
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
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub documents: Vec<DocumentHash>,
    /// The executed examples, in the order given (see [`oath_results`]).
    pub examples: Vec<ExampleResult>,
}

/// A document other than the oath that some of its steps come from, and
/// the hash of its text as run (spec 70 §70.4.5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DocumentHash {
    /// The document's oathPath.
    pub path: String,
    /// `fnv1a:xxxxxxxx` of its text.
    pub source_hash: String,
}

/// One executed example.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExampleResult {
    /// The planned example's name.
    pub name: String,
    /// Passed or failed, after expected-failure inversion.
    pub status: Status,
    /// 1-based start lines of the steps' match spans, deduplicated.
    pub lines: Vec<u32>,
    /// Present only when the example failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure: Option<ResultFailure>,
}

/// An example's status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The example passed (a satisfied expected failure included).
    Passed,
    /// The example failed.
    Failed,
}

/// Why and where an example failed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResultFailure {
    /// The anchor's start line, else the example's first line, else 0.
    pub line: u32,
    /// The §30.4 message (for `thrown`, the error or panic message).
    pub message: String,
    /// For humans only; nobody parses it.
    pub stack: String,
    /// Every failing cell of a cell mismatch; absent otherwise.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cells: Vec<CellFailure>,
    /// Where the failure points; absent when no step was involved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub anchor: Option<Anchor>,
    /// Version 2: the oathPath of the document `line`, `anchor` and `cells`
    /// point into, when it is not the running oath (spec 70 §70.4.4).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc_path: Option<String>,
}

/// One failing cell: its source range and the rendered actual value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CellFailure {
    /// UTF-16 start offset of the expected text.
    pub from: u32,
    /// UTF-16 end offset (exclusive).
    pub to: u32,
    /// The actual value as rendered in the message.
    pub actual: String,
}

/// A source range in UTF-16 offsets, end exclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Anchor {
    /// Start offset.
    pub from: u32,
    /// End offset (exclusive).
    pub to: u32,
}

impl OathResults {
    /// The file's bytes, exactly as every writer of `.varar/` files (the
    /// harness, `cargo varar merge`) writes them: pretty JSON in the
    /// declaration order of the model's members, 2-space indent,
    /// `JSON.stringify` escaping, LF and a trailing newline (spec 30
    /// §30.8.1).
    pub fn to_text(&self) -> Result<String, serde_json::Error> {
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
    let lines = example_lines(example);
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

/// `lines` of an example: the start line of each step's match span,
/// deduplicated, first occurrence kept (spec 30 §30.8.3).
fn example_lines(example: &PlannedExample) -> Vec<u32> {
    let mut lines: Vec<u32> = Vec::with_capacity(example.steps.len());
    for step in &example.steps {
        let line = step.match_span.start_line;
        if !lines.contains(&line) {
            lines.push(line);
        }
    }
    lines
}

fn result_failure(
    example: &PlannedExample,
    f: &Failure,
    first_line: u32,
    oath_path: &str,
) -> ResultFailure {
    let anchor = f.anchor();
    let line = anchor.map(|a| a.start_line).unwrap_or(first_line);
    let message = f.to_string();
    let mut stack = format!("{message}\n");
    let step = f.step().and_then(|i| example.steps.get(i));
    if let (Some(step), Some(anchor)) = (step, anchor) {
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
        message,
        stack,
        cells: f
            .cells()
            .iter()
            .map(|c| CellFailure {
                from: c.span.start_offset,
                to: c.span.end_offset,
                actual: c.actual.clone(),
            })
            .collect(),
        anchor: anchor.map(|a| Anchor {
            from: a.start_offset,
            to: a.end_offset,
        }),
        doc_path: None,
    }
}

/// Which example a stored result records: its name and `lines`, as the
/// plan gives them. Two runs of the same source and steps give every
/// example the same key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExampleKey {
    /// The planned example's name.
    pub name: String,
    /// Its `lines`.
    pub lines: Vec<u32>,
}

impl ExampleKey {
    /// The key of a planned example.
    pub fn of(example: &PlannedExample) -> ExampleKey {
        ExampleKey {
            name: example.name.clone(),
            lines: example_lines(example),
        }
    }

    fn matches(&self, result: &ExampleResult) -> bool {
        self.name == result.name && self.lines == result.lines
    }
}

/// The file of an oath after a run (spec 40 §6 with issue 10): exactly the
/// examples of the current plan (`planned`, in plan order), each as this
/// run recorded it in `fresh`, else as `stored` recorded it when `stored` is
/// of the same source (same version, `sourceHash` and `documents`), else
/// absent. So an example that no longer exists, or that ran now, never
/// keeps an old entry: after a step is renamed, or a paragraph became
/// ambiguous, nothing says it passed.
pub fn merge_results(
    stored: Option<&OathResults>,
    fresh: &OathResults,
    planned: &[ExampleKey],
) -> OathResults {
    let same_source = |old: &&OathResults| {
        old.version == fresh.version
            && old.source_hash == fresh.source_hash
            && old.documents == fresh.documents
    };
    let old = stored.filter(same_source);
    let examples = planned
        .iter()
        .filter_map(|key| {
            let ran = fresh.examples.iter().find(|e| key.matches(e));
            ran.or_else(|| old.and_then(|o| o.examples.iter().find(|e| key.matches(e))))
                .cloned()
        })
        .collect();
    OathResults {
        version: fresh.version,
        oath_path: fresh.oath_path.clone(),
        source_hash: fresh.source_hash.clone(),
        documents: fresh.documents.clone(),
        examples,
    }
    .sorted()
}

impl OathResults {
    /// `examples` stably sorted by their first line (spec 30 §30.8.3).
    fn sorted(mut self) -> OathResults {
        self.examples
            .sort_by_key(|e| e.lines.first().copied().unwrap_or(0));
        self
    }
}

/// The payload of one oath: `examples` stably sorted by their first line,
/// so ties keep the given (plan) order. The collector sorts; the writer
/// never reorders.
pub fn oath_results(
    oath_path: &str,
    source_hash: &str,
    examples: Vec<ExampleResult>,
) -> OathResults {
    OathResults {
        version: 1,
        oath_path: oath_path.to_string(),
        source_hash: source_hash.to_string(),
        documents: Vec::new(),
        examples,
    }
    .sorted()
}

#[cfg(test)]
mod tests;
