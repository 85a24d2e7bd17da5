//! The plan model (spec 20 §20.7–20.11): runnable examples built from a
//! document and a registry. Plain owned data, `Send`, so each example can be
//! handed to its own test thread.

use std::sync::Arc;

use crate::data::Row;
use crate::doc::Table;
use crate::source::Span;
use varar_expression::ArgValue;

/// Everything planning found in one oath.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Plan {
    /// Runnable examples in document order (header-bound rows in row order).
    pub examples: Vec<PlannedExample>,
    /// Problems: the oath's own in document order (spec 20 §20.9), then
    /// those met while resolving its reference blocks (spec 70 §70.3.4).
    pub diagnostics: Vec<Diagnostic>,
    /// The quirks of spec 20 §20.7 met in the oath's own candidates, in
    /// document order (issue 37): not diagnostics, not in `plan.json`.
    pub notices: Vec<Notice>,
}

/// A planning problem; every one of them is an error.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    /// What went wrong.
    pub code: DiagnosticCode,
    /// Where, in the source of the document named by `doc_path`.
    pub span: Span,
    /// The human message (not serialised in `plan.json`).
    pub message: String,
    /// The oathPath of the document the span lies in, when it is not the oath
    /// being planned (a referenced section, a nested link: spec 70 §70.3.4).
    pub doc_path: Option<String>,
}

impl Diagnostic {
    /// Sort diagnostics of one document in document order (span, then code
    /// and message), so that every run, whatever it planned, names them the
    /// same: the harness's items and `cargo varar check` share this order.
    pub fn sort_in_document_order<D: std::borrow::Borrow<Diagnostic>>(diagnostics: &mut [D]) {
        diagnostics.sort_by(|a, b| {
            let (a, b) = (a.borrow(), b.borrow());
            (
                a.span.start_offset,
                a.span.end_offset,
                a.code.as_str(),
                &a.message,
            )
                .cmp(&(
                    b.span.start_offset,
                    b.span.end_offset,
                    b.code.as_str(),
                    &b.message,
                ))
        });
    }
}

/// The diagnostic codes planning can emit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DiagnosticCode {
    /// Two or more steps match exactly the same range of a sentence.
    AmbiguousMatch,
    /// An `error` fence on a paragraph with no runnable step.
    ErrorFenceWithoutStep,
    /// A reference block points at an oath the workspace does not hold.
    ReferenceNotFound,
    /// A reference block's section contributes no step.
    ReferenceEmpty,
    /// A reference block's anchor names two or more headings.
    AmbiguousAnchor,
    /// A reference block reaches a section that is already being resolved.
    ReferenceCycle,
}

impl DiagnosticCode {
    /// The code as serialised.
    pub fn as_str(self) -> &'static str {
        match self {
            DiagnosticCode::AmbiguousMatch => "ambiguous-match",
            DiagnosticCode::ErrorFenceWithoutStep => "error-fence-without-step",
            DiagnosticCode::ReferenceNotFound => "reference-not-found",
            DiagnosticCode::ReferenceEmpty => "reference-empty",
            DiagnosticCode::AmbiguousAnchor => "ambiguous-anchor",
            DiagnosticCode::ReferenceCycle => "reference-cycle",
        }
    }
}

/// Something planning does that the text does not show, or an example
/// that checks nothing: shown beside the plan, never failing a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// What it is.
    pub kind: NoticeKind,
    /// Where, in the oath's source (UTF-16, as every span).
    pub span: Span,
    /// What is not checked, one line.
    pub message: String,
    /// How to change the text so that it is.
    pub fix: String,
}

/// The kinds of [`Notice`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum NoticeKind {
    /// A step of a header-bound paragraph that never runs.
    DroppedSteps,
    /// The `error` fence of a header-bound paragraph, ignored.
    IgnoredErrorFence,
    /// A header-bound table without data rows: its paragraph runs nothing.
    HeaderBoundWithoutRows,
    /// A table handed to another step than the sentence introducing it.
    TableAttachedElsewhere,
    /// An example with no sensor, no `error` fence and no row to compare.
    ChecksNothing,
}

impl NoticeKind {
    /// The kind as tools name it (kebab-case, as plan diagnostics).
    pub fn as_str(self) -> &'static str {
        match self {
            NoticeKind::DroppedSteps => "dropped-steps",
            NoticeKind::IgnoredErrorFence => "ignored-error-fence",
            NoticeKind::HeaderBoundWithoutRows => "header-bound-without-rows",
            NoticeKind::TableAttachedElsewhere => "table-attached-elsewhere",
            NoticeKind::ChecksNothing => "checks-nothing",
        }
    }

    /// Whether it is a quirk of planning (spec 20 §20.7), which `cargo
    /// test` notes too, rather than an example that checks nothing, which
    /// only the check and the editor show (issue 37).
    pub fn is_quirk(self) -> bool {
        self != NoticeKind::ChecksNothing
    }
}

/// Whether an example is expected to pass or to fail (`error` fence).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expectation {
    /// No `error` fence.
    Pass,
    /// An `error` fence; the trimmed body if it is not empty.
    Fail {
        /// A substring the failure message must contain.
        message: Option<String>,
    },
}

/// One runnable example.
#[derive(Clone, Debug, PartialEq)]
pub struct PlannedExample {
    /// The example name (spec 20 §20.8; rows: cells joined with ` / `).
    pub name: String,
    /// Heading texts above it; row examples add the bound step's text.
    pub scope_stack: Arc<[String]>,
    /// From the first unit's start to the last merged unit's end (rows: the row).
    pub span: Span,
    /// Pass, or expected to fail.
    pub expected: Expectation,
    /// Steps in document order.
    pub steps: Vec<PlannedStep>,
    /// Set for header-bound row examples.
    pub row: Option<RowBinding>,
    /// The sentences of its paragraphs that matched no step, in document
    /// order: shown when the example fails, since a renamed step turns its
    /// sentence into prose silently (issue 10).
    pub unmatched: Vec<Span>,
}

/// The row of a header-bound row example and its checks.
#[derive(Clone, Debug, PartialEq)]
pub struct RowBinding {
    /// One check per header column, in header order: the row handed to
    /// the step is made of them ([`RowBinding::row`]).
    pub checks: Vec<RowCheck>,
}

impl RowBinding {
    /// Header cell → row cell, handed to the step after its captures; for
    /// a header written twice, the later column's cell (as
    /// [`Row::insert`] does). Made when the example runs, once for its
    /// steps: a run of thousands of row examples holds each cell once, in
    /// its check.
    pub fn row(&self) -> Row {
        self.checks
            .iter()
            .map(|c| (&*c.column, c.value.as_str()))
            .collect()
    }

    /// The cell of a column, as `self.row().get(column)` gives it.
    pub fn get(&self, column: &str) -> Option<&str> {
        self.checks
            .iter()
            .rev()
            .find(|c| &*c.column == column)
            .map(|c| c.value.as_str())
    }
}

/// One column of a header-bound row to compare with the step's return.
#[derive(Clone, Debug, PartialEq)]
pub struct RowCheck {
    /// The header cell text, shared by the checks of every row.
    pub column: Arc<str>,
    /// The row's cell (`""` when the row is short).
    pub value: String,
    /// The cell's span (the row span when the cell is missing).
    pub span: Span,
}

/// One matched step of an example.
#[derive(Clone, Debug, PartialEq)]
pub struct PlannedStep {
    /// The matched block text (shared: a plan's steps are cloned into
    /// the editor's analyses and kept by the memo of what each block
    /// matched, issue 39).
    pub text: Arc<str>,
    /// The match lifted to the source (rows: the row span).
    pub match_span: Span,
    /// Whole notation of each parameter (quotes and markers included).
    pub param_spans: Vec<Span>,
    /// What editors highlight per parameter (inside quotes and markers).
    pub inner_spans: Vec<Span>,
    /// Index of the step definition in the registry.
    pub step: usize,
    /// The step definition's expression (shared with the registry).
    pub matched_expression: Arc<str>,
    /// One per parameter: raw source text, type name and transformed value.
    pub args: Vec<PlannedArg>,
    /// The attached table, if any (boxed: most steps have none, and a
    /// plan holds every step of a run).
    pub data_table: Option<Box<Table>>,
    /// The attached doc string, if any (boxed, like the table).
    pub doc_string: Option<Box<PlannedDocString>>,
    /// The oathPath of the document the step is written in, when it is not
    /// the oath being planned: the step was spliced in by a reference block
    /// (spec 70 §70.3.1, §70.6.2), and its spans, `text` and `args` belong
    /// to that document.
    pub doc_path: Option<String>,
}

/// One captured parameter of a planned step.
#[derive(Clone, Debug, PartialEq)]
pub struct PlannedArg {
    /// The source text under the param span (shared, like the value: an
    /// argument is cloned wherever a step is, and a clone of it
    /// allocates nothing).
    pub raw: Arc<str>,
    /// The parameter type name (`""` for `{}`), shared with the
    /// registry.
    pub parameter_type: Arc<str>,
    /// The transformed value.
    pub value: Arc<ArgValue>,
}

/// A doc string attached to a step.
#[derive(Clone, Debug, PartialEq)]
pub struct PlannedDocString {
    /// The fence body.
    pub content: String,
    /// The fence info string.
    pub content_type: String,
    /// The fence's body span.
    pub span: Span,
    /// The line of the opening fence.
    pub fence_line: u32,
    /// Whether the fence has a closing line (an unclosed one runs to the
    /// end of the file).
    pub closed: bool,
}
