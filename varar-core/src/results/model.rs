//! The payload of `.varar/<oathPath>.json` (spec 30 §30.8.2, 70 §70.4.1)
//! and its one writer.

#[cfg(feature = "serde")]
use serde::Serialize;

use crate::json::Pretty;
use crate::json::write::key;

/// The payload of one oath's run-result file.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
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
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub documents: Vec<DocumentHash>,
    /// The executed examples, in the order given (see [`oath_results`](super::oath_results)).
    pub examples: Vec<ExampleResult>,
}

/// A document other than the oath that some of its steps come from, and
/// the hash of its text as run (spec 70 §70.4.5).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct DocumentHash {
    /// The document's oathPath.
    pub path: String,
    /// `fnv1a:xxxxxxxx` of its text.
    pub source_hash: String,
}

/// One executed example.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct ExampleResult {
    /// The planned example's name.
    pub name: String,
    /// Passed or failed, after expected-failure inversion.
    pub status: Status,
    /// 1-based start lines of the steps' match spans, deduplicated.
    pub lines: Vec<u32>,
    /// Present only when the example failed.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub failure: Option<ResultFailure>,
}

/// An example's status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Status {
    /// The example passed (a satisfied expected failure included).
    Passed,
    /// The example failed.
    Failed,
}

/// Why and where an example failed.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct ResultFailure {
    /// The anchor's start line, else the example's first line, else 0.
    pub line: u32,
    /// The §30.4 message (for `thrown`, the error or panic message).
    pub message: String,
    /// For humans only; nobody parses it.
    pub stack: String,
    /// Every failing cell of a cell mismatch; absent otherwise.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub cells: Vec<CellFailure>,
    /// Where the failure points; absent when no step was involved.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub anchor: Option<Anchor>,
    /// Version 2: the oathPath of the document `line`, `anchor` and `cells`
    /// point into, when it is not the running oath (spec 70 §70.4.4).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub doc_path: Option<String>,
}

/// One failing cell: its source range and the rendered actual value.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct CellFailure {
    /// UTF-16 start offset of the expected text.
    pub from: u32,
    /// UTF-16 end offset (exclusive).
    pub to: u32,
    /// The actual value as rendered in the message.
    pub actual: String,
}

/// A source range in UTF-16 offsets, end exclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
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
        let mut w = Pretty::new();
        w.object(None);
        w.uint(key!("version"), self.version);
        w.string(key!("oathPath"), &self.oath_path);
        w.string(key!("sourceHash"), &self.source_hash);
        if !self.documents.is_empty() {
            w.array(key!("documents"));
            for d in &self.documents {
                w.object(None);
                w.string(key!("path"), &d.path);
                w.string(key!("sourceHash"), &d.source_hash);
                w.end_object();
            }
            w.end_array();
        }
        w.array(key!("examples"));
        w.elements(&self.examples, |w, example| example.write(w));
        w.end_array();
        w.end_object();
        Ok(w.finish())
    }
}

impl ExampleResult {
    fn write(&self, w: &mut Pretty) {
        w.object(None);
        w.string(key!("name"), &self.name);
        w.string(
            key!("status"),
            match self.status {
                Status::Passed => "passed",
                Status::Failed => "failed",
            },
        );
        w.array(key!("lines"));
        for line in &self.lines {
            w.uint(None, *line);
        }
        w.end_array();
        if let Some(failure) = &self.failure {
            failure.write(w);
        }
        w.end_object();
    }
}

impl ResultFailure {
    fn write(&self, w: &mut Pretty) {
        w.object(key!("failure"));
        w.uint(key!("line"), self.line);
        w.string(key!("message"), &self.message);
        w.string(key!("stack"), &self.stack);
        if !self.cells.is_empty() {
            w.array(key!("cells"));
            for cell in &self.cells {
                w.object(None);
                w.uint(key!("from"), cell.from);
                w.uint(key!("to"), cell.to);
                w.string(key!("actual"), &cell.actual);
                w.end_object();
            }
            w.end_array();
        }
        if let Some(anchor) = &self.anchor {
            w.object(key!("anchor"));
            w.uint(key!("from"), anchor.from);
            w.uint(key!("to"), anchor.to);
            w.end_object();
        }
        if let Some(doc_path) = &self.doc_path {
            w.string(key!("docPath"), doc_path);
        }
        w.end_object();
    }
}
