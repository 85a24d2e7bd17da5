//! The strict reader of run-result files (spec 30 §30.8, 70 §70.4 and
//! §70.6.7): the one place that turns the bytes of `.varar/<oathPath>.json`
//! back into [`OathResults`], for `cargo varar` and every later consumer.
//!
//! Strict means a file is either read whole or refused with a reason, never
//! half-read:
//! - versions 1 and 2 only; any other `version` is refused, not guessed at;
//! - a key written twice in one object is refused (serde_json would keep
//!   the last silently), comparing decoded names, so `"version"` and
//!   `"\u0076ersion"` are the same key;
//! - every member has its documented type; optional members are absent,
//!   never `null`; a `passed` example has no `failure` and a `failed` one
//!   has one; offsets are non-negative integers with `from <= to`;
//! - `documents` and `failure.docPath` exist only in version 2 (§70.6.7):
//!   a version-1 file carrying them is refused, because a version-1 reader
//!   would place their offsets in the wrong document.
//!
//! Unknown members are ignored, as the stability policy of the format asks
//! (additive optional fields may land without a version bump). A
//! `message`, `stack` or cell's `actual` longer than
//! [`crate::untrusted::TEXT_LIMIT`] is read cut, with its note (issue 34):
//! no consumer shows or stores again megabytes a file should not hold.
//!
//! Pure: bytes in, value or [`ResultsError`] out. The file is read by
//! [`crate::store::read_run_result`].

use crate::json::{self, Node, Object, ReadError, TOP};

use super::model::{
    Anchor, CellFailure, DocumentHash, ExampleResult, OathResults, ResultFailure, Status,
};

/// The result versions this reader accepts.
pub const SUPPORTED_VERSIONS: [u32; 2] = [1, 2];

/// Why run-result bytes were refused. `at` names the place in the
/// document, e.g. `examples[2].failure.cells[0].from`.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ResultsError {
    /// Not UTF-8, not JSON, a key written twice or a wrong shape.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// `version` is a number this reader does not know. The stability
    /// policy asks a consumer to treat such a file as absent (written by a
    /// newer format), not as an error: see [`ResultsError::is_unknown_version`].
    #[error("unsupported version {version} (this reader knows versions 1 and 2)")]
    UnsupportedVersion {
        /// The version as written.
        version: String,
    },
    /// A version-2 member in a version-1 file (spec 70 §70.6.7).
    #[error("{at} exists only in version 2, but the file says version 1")]
    Version2Member {
        /// The member.
        at: String,
    },
}

impl ResultsError {
    /// Whether the file is of a version this reader does not know: a
    /// whole number above the versions it reads, written by a newer format.
    /// Seed 000's stability policy asks every consumer to treat such a file
    /// as absent. Any other version (`0`, `-1`, `2.5`) is malformed.
    pub fn is_unknown_version(&self) -> bool {
        self.unknown_version().is_some()
    }

    /// The version of a file [`ResultsError::is_unknown_version`] holds.
    pub fn unknown_version(&self) -> Option<u64> {
        match self {
            // Integral numbers count whole, as the reader's own `3.0` does.
            ResultsError::UnsupportedVersion { version } => version
                .parse::<f64>()
                .ok()
                .filter(|v| v.fract() == 0.0 && *v < 9.0e15)
                .map(|v| v as u64)
                .filter(|v| SUPPORTED_VERSIONS.iter().all(|s| u64::from(*s) < *v)),
            _ => None,
        }
    }
}

/// Parse run-result bytes strictly (see the module docs).
///
/// ```
/// use varar_core::results::parse_run_result;
/// let text = br#"{"version": 1, "oathPath": "a.md", "sourceHash": "fnv1a:00000000", "examples": []}"#;
/// assert_eq!(parse_run_result(text).map(|r| r.oath_path).ok().as_deref(), Some("a.md"));
/// let twice = br#"{"version": 1, "version": 1, "oathPath": "a.md", "sourceHash": "", "examples": []}"#;
/// assert!(parse_run_result(twice).is_err());
/// ```
pub fn parse_run_result(bytes: &[u8]) -> Result<OathResults, ResultsError> {
    // What the quick path reads, it reads as below; the rest is decided
    // below (`quick.rs`).
    match quick_path(bytes) {
        Some(results) => Ok(results),
        None => strict(bytes),
    }
}

/// What the quick path reads of `bytes`: a file of a version this reader
/// knows, read as [`strict`] reads it.
fn quick_path(bytes: &[u8]) -> Option<OathResults> {
    let results = quick::results(std::str::from_utf8(bytes).ok()?)?;
    SUPPORTED_VERSIONS
        .contains(&results.version)
        .then_some(results)
}

/// [`parse_run_result`] through the tree: every file, and every reason to
/// refuse one.
fn strict(bytes: &[u8]) -> Result<OathResults, ResultsError> {
    let tree = json::parse(bytes)?;
    json::first_duplicate(&tree, TOP)?;
    let top = tree.as_object(TOP)?;
    let version = match top.get("version") {
        None => return Err(shape("version", "is missing")),
        Some(Node::Number(n)) => match json::integer(n) {
            Some(v) if SUPPORTED_VERSIONS.iter().any(|s| i64::from(*s) == v) => v as u32,
            _ => {
                return Err(ResultsError::UnsupportedVersion {
                    version: n.to_string(),
                });
            }
        },
        Some(_) => return Err(shape("version", "must be a number")),
    };
    let oath_path = string(top.required("oathPath")?, "oathPath")?;
    let source_hash = string(top.required("sourceHash")?, "sourceHash")?;
    let documents = match top.get("documents") {
        None => Vec::new(),
        Some(_) if version == 1 => {
            return Err(ResultsError::Version2Member {
                at: "documents".into(),
            });
        }
        Some(node) => array(node, "documents")?
            .iter()
            .enumerate()
            .map(|(i, d)| document(d, &format!("documents[{i}]")))
            .collect::<Result<_, _>>()?,
    };
    let examples = array(top.required("examples")?, "examples")?
        .iter()
        .enumerate()
        .map(|(i, e)| example(e, &format!("examples[{i}]"), version))
        .collect::<Result<_, _>>()?;
    Ok(OathResults {
        version,
        oath_path,
        source_hash,
        documents,
        examples,
    })
}

fn document(node: &Node, at: &str) -> Result<DocumentHash, ResultsError> {
    let obj = object(node, at)?;
    Ok(DocumentHash {
        path: string(obj.required("path")?, &format!("{at}.path"))?,
        source_hash: string(obj.required("sourceHash")?, &format!("{at}.sourceHash"))?,
    })
}

fn example(node: &Node, at: &str, version: u32) -> Result<ExampleResult, ResultsError> {
    let obj = object(node, at)?;
    let name = string(obj.required("name")?, &format!("{at}.name"))?;
    let status_at = format!("{at}.status");
    let status = match obj.required("status")? {
        Node::String(s) if s == "passed" => Status::Passed,
        Node::String(s) if s == "failed" => Status::Failed,
        _ => return Err(shape(&status_at, "must be \"passed\" or \"failed\"")),
    };
    let lines_at = format!("{at}.lines");
    let lines = array(obj.required("lines")?, &lines_at)?
        .iter()
        .enumerate()
        .map(|(i, l)| unsigned(l, &format!("{lines_at}[{i}]")))
        .collect::<Result<_, _>>()?;
    let failure_at = format!("{at}.failure");
    let failure = match (status, obj.get("failure")) {
        (Status::Passed, None) => None,
        (Status::Passed, Some(_)) => {
            return Err(shape(
                &failure_at,
                "must be absent when the status is passed",
            ));
        }
        (Status::Failed, None) => {
            return Err(shape(&failure_at, "is missing (the status is failed)"));
        }
        (Status::Failed, Some(f)) => Some(failure(f, &failure_at, version)?),
    };
    Ok(ExampleResult {
        name,
        status,
        lines,
        failure,
    })
}

fn failure(node: &Node, at: &str, version: u32) -> Result<ResultFailure, ResultsError> {
    let obj = object(node, at)?;
    let member = |key: &str| format!("{at}.{key}");
    let line = unsigned(obj.required("line")?, &member("line"))?;
    let message = text(obj.required("message")?, &member("message"))?;
    let stack = text(obj.required("stack")?, &member("stack"))?;
    let cells = match obj.get("cells") {
        None => Vec::new(),
        Some(node) => array(node, &member("cells"))?
            .iter()
            .enumerate()
            .map(|(i, c)| cell(c, &format!("{at}.cells[{i}]")))
            .collect::<Result<_, _>>()?,
    };
    let anchor = match obj.get("anchor") {
        None => None,
        Some(node) => {
            let anchor_at = member("anchor");
            let a = object(node, &anchor_at)?;
            let (from, to) = range(&a, &anchor_at)?;
            Some(Anchor { from, to })
        }
    };
    let doc_path = match obj.get("docPath") {
        None => None,
        Some(_) if version == 1 => {
            return Err(ResultsError::Version2Member {
                at: member("docPath"),
            });
        }
        Some(node) => Some(string(node, &member("docPath"))?),
    };
    Ok(ResultFailure {
        line,
        message,
        stack,
        cells,
        anchor,
        doc_path,
    })
}

fn cell(node: &Node, at: &str) -> Result<CellFailure, ResultsError> {
    let obj = object(node, at)?;
    let (from, to) = range(&obj, at)?;
    let actual_at = format!("{at}.actual");
    let actual = text(obj.required("actual")?, &actual_at)?;
    Ok(CellFailure { from, to, actual })
}

/// `from` and `to` of a cell or anchor: offsets with `from <= to`.
fn range(obj: &Object<'_>, at: &str) -> Result<(u32, u32), ResultsError> {
    let from_at = format!("{at}.from");
    let to_at = format!("{at}.to");
    let from = unsigned(obj.required("from")?, &from_at)?;
    let to = unsigned(obj.required("to")?, &to_at)?;
    if from > to {
        return Err(shape(&to_at, "must not be smaller than from"));
    }
    Ok((from, to))
}

fn shape(at: &str, expected: &'static str) -> ResultsError {
    ReadError::shape(at, expected).into()
}

fn object<'a>(node: &'a Node, at: &'a str) -> Result<Object<'a>, ResultsError> {
    Ok(node.as_object(at)?)
}

fn array<'a>(node: &'a Node, at: &str) -> Result<&'a [Node], ResultsError> {
    Ok(node.as_array(at)?)
}

fn string(node: &Node, at: &str) -> Result<String, ResultsError> {
    Ok(node.as_str(at)?.to_owned())
}

/// A message, stack or actual value: a string, cut at
/// [`crate::untrusted::TEXT_LIMIT`] (a crafted or older file may hold
/// megabytes; every consumer reads it through here, issue 34).
fn text(node: &Node, at: &str) -> Result<String, ResultsError> {
    Ok(crate::untrusted::cut(node.as_str(at)?).into_owned())
}

/// A line or offset: an integer (in the `Number.isInteger` sense, so `5.0`
/// counts, as JavaScript writers may produce it) from 0 to 2^32 − 1.
fn unsigned(node: &Node, at: &str) -> Result<u32, ResultsError> {
    Ok(node.as_u32(at)?)
}

mod quick;
#[cfg(test)]
mod tests;
