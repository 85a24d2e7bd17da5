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
/// deduplicated, first occurrence kept (spec 30 §30.8.3), over the steps
/// written in the oath itself: a step spliced in from another document
/// adds nothing (spec 70 §70.4.3, §70.6.3).
fn example_lines(example: &PlannedExample) -> Vec<u32> {
    let mut lines: Vec<u32> = Vec::with_capacity(example.steps.len());
    for step in example.steps.iter().filter(|s| s.doc_path.is_none()) {
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
    // `line`, `anchor`, `cells` and the frame are in the failing step's own
    // document, which `docPath` names when it is not the oath (spec 70
    // §70.4.4, §70.6.4).
    let doc_path = step.and_then(|s| s.doc_path.clone());
    let frame_path = doc_path.as_deref().unwrap_or(oath_path);
    if let (Some(step), Some(anchor)) = (step, anchor) {
        let label = if step.text.chars().count() > LABEL_CHARS {
            let cut: String = step.text.chars().take(LABEL_CHARS).collect();
            format!("{cut}…")
        } else {
            step.text.clone()
        };
        stack.push_str(&format!(
            "    at {label} ({frame_path}:{}:{})",
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
        doc_path,
    }
}

/// Which example a stored result records: its name and `lines`, as the
/// plan gives them, and where it sorts. Two runs of the same sources and
/// steps give every example the same key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExampleKey {
    /// The planned example's name.
    pub name: String,
    /// Its `lines`.
    pub lines: Vec<u32>,
    /// The start line of the example's span in the oath: where an example
    /// whose `lines` is empty (every step spliced from another document)
    /// sorts, i.e. where its link stands (spec 70 §70.6.3).
    pub line: u32,
}

impl ExampleKey {
    /// The key of a planned example.
    pub fn of(example: &PlannedExample) -> ExampleKey {
        ExampleKey {
            name: example.name.clone(),
            lines: example_lines(example),
            line: example.span.start_line,
        }
    }

    /// The line the example sorts by: `lines[0]`, else its span's start.
    pub fn sort_line(&self) -> u32 {
        self.lines.first().copied().unwrap_or(self.line)
    }

    fn matches(&self, result: &ExampleResult) -> bool {
        self.name == result.name && self.lines == result.lines
    }
}

/// The results version a file must carry (spec 70 §70.6.7): 2 when it
/// names another document (`documents`, or a failure's `docPath`), else 1,
/// so files of oaths without links stay exactly what they were.
pub fn results_version(documents: &[DocumentHash], examples: &[ExampleResult]) -> u32 {
    let doc_path = examples
        .iter()
        .any(|e| e.failure.as_ref().is_some_and(|f| f.doc_path.is_some()));
    if documents.is_empty() && !doc_path {
        1
    } else {
        2
    }
}

/// The file of an oath after a run (spec 40 §6 with issue 10): exactly the
/// examples of the current plan (`planned`, in plan order), each as this
/// run recorded it in `fresh`, else as `stored` recorded it when `stored` is
/// of the same sources (same version, `sourceHash` and `documents`: a file
/// of another version is never merged, spec 70 §70.4.5), else absent. So an
/// example that no longer exists, or that ran now, never keeps an old
/// entry: after a step is renamed, or a paragraph became ambiguous, nothing
/// says it passed.
///
/// `ran` holds the plan indices of the examples that ran now (`fresh`
/// holds their results). Examples with the same name and `lines` (two links
/// to one section, each alone under its heading, have the same name and
/// empty `lines`) are told apart by their order: among the examples that
/// ran, and in the stored file.
pub fn merge_results(
    stored: Option<&OathResults>,
    fresh: &OathResults,
    planned: &[ExampleKey],
    ran: &[usize],
) -> OathResults {
    let same_source = |old: &&OathResults| {
        old.version == fresh.version
            && old.source_hash == fresh.source_hash
            && old.documents == fresh.documents
    };
    let old = stored.filter(same_source);
    let nth = |examples: &[ExampleResult], key: &ExampleKey, n: usize| {
        examples.iter().filter(|e| key.matches(e)).nth(n).cloned()
    };
    let mut now = vec![false; planned.len()];
    for &i in ran {
        if let Some(slot) = now.get_mut(i) {
            *slot = true;
        }
    }
    // Per (name, lines): how many planned examples came before, and how
    // many of those ran.
    let mut seen: std::collections::HashMap<(&str, &[u32]), (usize, usize)> =
        std::collections::HashMap::new();
    let mut examples: Vec<(u32, ExampleResult)> = Vec::with_capacity(planned.len());
    for (i, key) in planned.iter().enumerate() {
        let counts = seen
            .entry((key.name.as_str(), key.lines.as_slice()))
            .or_default();
        let result = if now[i] {
            counts.1 += 1;
            nth(&fresh.examples, key, counts.1 - 1)
        } else {
            old.and_then(|o| nth(&o.examples, key, counts.0))
        };
        counts.0 += 1;
        examples.extend(result.map(|r| (key.sort_line(), r)));
    }
    examples.sort_by_key(|(line, _)| *line);
    let examples: Vec<ExampleResult> = examples.into_iter().map(|(_, r)| r).collect();
    OathResults {
        version: results_version(&fresh.documents, &examples),
        oath_path: fresh.oath_path.clone(),
        source_hash: fresh.source_hash.clone(),
        documents: fresh.documents.clone(),
        examples,
    }
}

impl OathResults {
    /// `examples` stably sorted by their first line (spec 30 §30.8.3).
    fn sorted(mut self) -> OathResults {
        self.examples
            .sort_by_key(|e| e.lines.first().copied().unwrap_or(0));
        self
    }
}

/// The payload of one oath without links: `examples` stably sorted by
/// their first line, so ties keep the given (plan) order. The collector
/// sorts; the writer never reorders.
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

/// The payload of one oath as a run collected it: `ran` holds the results
/// with their plan index (into `planned`), in any order; they are sorted
/// by [`ExampleKey::sort_line`], ties in plan order (spec 30 §30.8.3,
/// spec 70 §70.6.3), and the version follows [`results_version`].
pub fn collected_results(
    oath_path: &str,
    source_hash: &str,
    documents: Vec<DocumentHash>,
    mut ran: Vec<(usize, ExampleResult)>,
    planned: &[ExampleKey],
) -> OathResults {
    let sort_line = |i: usize| planned.get(i).map_or(0, ExampleKey::sort_line);
    ran.sort_by_key(|(i, _)| (sort_line(*i), *i));
    let examples: Vec<ExampleResult> = ran.into_iter().map(|(_, r)| r).collect();
    OathResults {
        version: results_version(&documents, &examples),
        oath_path: oath_path.to_string(),
        source_hash: source_hash.to_string(),
        documents,
        examples,
    }
}

#[cfg(test)]
mod tests;
