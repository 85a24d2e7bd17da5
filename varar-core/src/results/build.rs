//! Building an oath's results from its planned examples and their runs
//! (spec 30 §30.8.3, 70 §70.4): names, lines, failures, the version, and the
//! document-order sort.

use super::model::{
    Anchor, CellFailure, DocumentHash, ExampleResult, OathResults, ResultFailure, Status,
};
use crate::failure::Failure;
use crate::outcome::ExampleRun;
use crate::plan::PlannedExample;
use crate::untrusted::{TEXT_LIMIT, cut, cut_to};

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
pub(crate) fn example_lines(example: &PlannedExample) -> Vec<u32> {
    let mut lines: Vec<u32> = Vec::with_capacity(example.steps.len());
    // Linear in the steps, however many an example has; a few (most
    // examples) are compared with those kept, without a hash set (dear
    // to make in an unoptimised build, once an example).
    const FEW: usize = 16;
    let mut seen = (example.steps.len() > FEW).then(std::collections::HashSet::new);
    for step in &example.steps {
        if step.doc_path.is_some() {
            continue;
        }
        let line = step.match_span.start_line;
        let new = match &mut seen {
            Some(seen) => seen.insert(line),
            None => !lines.contains(&line),
        };
        if new {
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
    let message = f.bounded_message();
    let step = f.step().and_then(|i| example.steps.get(i));
    // `line`, `anchor`, `cells` and the frame are in the failing step's own
    // document, which `docPath` names when it is not the oath (spec 70
    // §70.4.4, §70.6.4).
    let doc_path = step.and_then(|s| s.doc_path.clone());
    let frame_path = doc_path.as_deref().unwrap_or(oath_path);
    let mut frame = String::new();
    if let (Some(step), Some(anchor)) = (step, anchor) {
        let label = if step.text.chars().count() > LABEL_CHARS {
            let cut: String = step.text.chars().take(LABEL_CHARS).collect();
            format!("{cut}…")
        } else {
            step.text.to_string()
        };
        frame = format!(
            "    at {label} ({frame_path}:{}:{})",
            anchor.start_line, anchor.start_col
        );
    }
    // The stack is the message and its frame within the one limit, so a
    // reader's cut never takes the frame off (issue 34).
    let room = TEXT_LIMIT.saturating_sub(frame.len() + 1);
    let stack = format!("{}\n{frame}", cut_to(&message, room));
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
                actual: cut(&c.actual).into_owned(),
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
    /// The key of a planned example (of a packed one:
    /// [`crate::stored::PackedExamples::key`]).
    pub fn of(example: &PlannedExample) -> ExampleKey {
        ExampleKey {
            name: example.name.clone(),
            lines: example_lines(example),
            line: example.span.start_line,
        }
    }

    /// The line the example sorts by: `lines[0]`, else its span's start.
    pub fn sort_line(&self) -> u32 {
        sort_line(&self.lines, || self.line)
    }

    pub(super) fn matches(&self, result: &ExampleResult) -> bool {
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

/// Where an example sorts among its oath's results (spec 30 §30.8.3): the
/// first line a step of it starts on in the oath (`step_lines`), or, when
/// every step was spliced from another document, its own first line.
pub fn sort_line(step_lines: &[u32], start_line: impl FnOnce() -> u32) -> u32 {
    step_lines.first().copied().unwrap_or_else(start_line)
}

/// The payload of one oath as a run collected it: `ran` holds the results
/// with their plan index, in any order; they are sorted by `sort_line` of
/// that index (the example's [`ExampleKey::sort_line`]), ties in plan order
/// (spec 30 §30.8.3, spec 70 §70.6.3), and the version follows
/// [`results_version`].
pub fn collected_results(
    oath_path: &str,
    source_hash: &str,
    documents: Vec<DocumentHash>,
    mut ran: Vec<(usize, ExampleResult)>,
    sort_line: impl Fn(usize) -> u32,
) -> OathResults {
    // Each key once: an example with no step line in the oath reads it
    // from its packed head.
    ran.sort_by_cached_key(|(i, _)| (sort_line(*i), *i));
    let examples: Vec<ExampleResult> = ran.into_iter().map(|(_, r)| r).collect();
    OathResults {
        version: results_version(&documents, &examples),
        oath_path: oath_path.to_string(),
        source_hash: source_hash.to_string(),
        documents,
        examples,
    }
}
