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
//! (additive optional fields may land without a version bump).
//!
//! Pure: bytes in, value or [`ResultsError`] out. The file is read by
//! [`crate::store::read_run_result`].

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

use super::{Anchor, CellFailure, DocumentHash, ExampleResult, OathResults, ResultFailure, Status};

/// The result versions this reader accepts.
pub const SUPPORTED_VERSIONS: [u32; 2] = [1, 2];

/// Why run-result bytes were refused. `at` names the place in the
/// document, e.g. `examples[2].failure.cells[0].from`.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ResultsError {
    /// The bytes are not UTF-8.
    #[error("not valid UTF-8: {source}")]
    NotUtf8 {
        /// Where decoding failed.
        #[source]
        source: std::str::Utf8Error,
    },
    /// The text is not JSON; serde_json's message carries line and column.
    #[error("invalid JSON: {source}")]
    Json {
        /// The parser's error.
        #[source]
        source: serde_json::Error,
    },
    /// An object holds the same key twice.
    #[error("{at} has the key \"{key}\" twice")]
    DuplicateKey {
        /// The object.
        at: String,
        /// The repeated key (decoded).
        key: String,
    },
    /// `version` is a number this reader does not know.
    #[error("unsupported version {version} (this reader knows versions 1 and 2)")]
    UnsupportedVersion {
        /// The version as written.
        version: String,
    },
    /// Valid JSON of the wrong shape.
    #[error("{at} {expected}")]
    Shape {
        /// Where in the document.
        at: String,
        /// What was expected there, e.g. `must be a string`.
        expected: &'static str,
    },
    /// A version-2 member in a version-1 file (spec 70 §70.6.7).
    #[error("{at} exists only in version 2, but the file says version 1")]
    Version2Member {
        /// The member.
        at: String,
    },
}

/// Parse run-result bytes strictly (see the module docs).
///
/// ```
/// use varar_runner::internal::results::parse_run_result;
/// let text = br#"{"version": 1, "oathPath": "a.md", "sourceHash": "fnv1a:00000000", "examples": []}"#;
/// assert_eq!(parse_run_result(text).map(|r| r.oath_path).ok().as_deref(), Some("a.md"));
/// let twice = br#"{"version": 1, "version": 1, "oathPath": "a.md", "sourceHash": "", "examples": []}"#;
/// assert!(parse_run_result(twice).is_err());
/// ```
pub fn parse_run_result(bytes: &[u8]) -> Result<OathResults, ResultsError> {
    let text = std::str::from_utf8(bytes).map_err(|source| ResultsError::NotUtf8 { source })?;
    let tree: Node = serde_json::from_str(text).map_err(|source| ResultsError::Json { source })?;
    check_duplicates(&tree, "the top level")?;
    let top = object(&tree, "the top level")?;
    let version = match top.get("version") {
        None => return Err(shape("version", "is missing")),
        Some(Node::Number(n)) => match integer(n) {
            Some(v) if SUPPORTED_VERSIONS.iter().any(|s| i64::from(*s) == v) => v as u32,
            _ => {
                return Err(ResultsError::UnsupportedVersion {
                    version: n.to_string(),
                });
            }
        },
        Some(_) => return Err(shape("version", "must be a number")),
    };
    let oath_path = string(top.required("oathPath", "oathPath")?, "oathPath")?;
    let source_hash = string(top.required("sourceHash", "sourceHash")?, "sourceHash")?;
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
    let examples = array(top.required("examples", "examples")?, "examples")?
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
        path: string(
            obj.required("path", &format!("{at}.path"))?,
            &format!("{at}.path"),
        )?,
        source_hash: string(
            obj.required("sourceHash", &format!("{at}.sourceHash"))?,
            &format!("{at}.sourceHash"),
        )?,
    })
}

fn example(node: &Node, at: &str, version: u32) -> Result<ExampleResult, ResultsError> {
    let obj = object(node, at)?;
    let name = string(
        obj.required("name", &format!("{at}.name"))?,
        &format!("{at}.name"),
    )?;
    let status_at = format!("{at}.status");
    let status = match obj.required("status", &status_at)? {
        Node::String(s) if s == "passed" => Status::Passed,
        Node::String(s) if s == "failed" => Status::Failed,
        _ => return Err(shape(&status_at, "must be \"passed\" or \"failed\"")),
    };
    let lines_at = format!("{at}.lines");
    let lines = array(obj.required("lines", &lines_at)?, &lines_at)?
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
    let line = unsigned(obj.required("line", &member("line"))?, &member("line"))?;
    let message = string(
        obj.required("message", &member("message"))?,
        &member("message"),
    )?;
    let stack = string(obj.required("stack", &member("stack"))?, &member("stack"))?;
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
            let a = object(node, &member("anchor"))?;
            let (from, to) = range(&a, &member("anchor"))?;
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
    let actual = string(obj.required("actual", &actual_at)?, &actual_at)?;
    Ok(CellFailure { from, to, actual })
}

/// `from` and `to` of a cell or anchor: offsets with `from <= to`.
fn range(obj: &Members<'_>, at: &str) -> Result<(u32, u32), ResultsError> {
    let from_at = format!("{at}.from");
    let to_at = format!("{at}.to");
    let from = unsigned(obj.required("from", &from_at)?, &from_at)?;
    let to = unsigned(obj.required("to", &to_at)?, &to_at)?;
    if from > to {
        return Err(shape(&to_at, "must not be smaller than from"));
    }
    Ok((from, to))
}

fn shape(at: &str, expected: &'static str) -> ResultsError {
    ResultsError::Shape {
        at: at.to_owned(),
        expected,
    }
}

/// The members of one object, duplicates already refused.
struct Members<'a>(&'a [(String, Node)]);

impl<'a> Members<'a> {
    fn get(&self, key: &str) -> Option<&'a Node> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    fn required(&self, key: &str, at: &str) -> Result<&'a Node, ResultsError> {
        self.get(key).ok_or_else(|| shape(at, "is missing"))
    }
}

fn object<'a>(node: &'a Node, at: &str) -> Result<Members<'a>, ResultsError> {
    match node {
        Node::Object(members) => Ok(Members(members)),
        _ => Err(shape(at, "must be an object")),
    }
}

fn array<'a>(node: &'a Node, at: &str) -> Result<&'a [Node], ResultsError> {
    match node {
        Node::Array(items) => Ok(items),
        _ => Err(shape(at, "must be an array")),
    }
}

fn string(node: &Node, at: &str) -> Result<String, ResultsError> {
    match node {
        Node::String(s) => Ok(s.clone()),
        _ => Err(shape(at, "must be a string")),
    }
}

/// A line or offset: an integer (in the `Number.isInteger` sense, so `5.0`
/// counts, as JavaScript writers may produce it) from 0 to 2^32 − 1.
fn unsigned(node: &Node, at: &str) -> Result<u32, ResultsError> {
    match node {
        Node::Number(n) => integer(n)
            .and_then(|i| u32::try_from(i).ok())
            .ok_or_else(|| shape(at, "must be an integer from 0 to 4294967295")),
        _ => Err(shape(at, "must be a number")),
    }
}

fn integer(n: &serde_json::Number) -> Option<i64> {
    if let Some(i) = n.as_i64() {
        return Some(i);
    }
    let f = n.as_f64()?;
    // Lines and offsets are far below 2^53, where f64 is exact.
    (f.fract() == 0.0 && f.abs() < 9.0e15).then_some(f as i64)
}

/// Refuse the first object, in document order, that repeats a key.
fn check_duplicates(node: &Node, at: &str) -> Result<(), ResultsError> {
    match node {
        Node::Object(members) => {
            for (i, (key, value)) in members.iter().enumerate() {
                if members[..i].iter().any(|(k, _)| k == key) {
                    return Err(ResultsError::DuplicateKey {
                        at: at.to_owned(),
                        key: key.clone(),
                    });
                }
                let child = if at == "the top level" {
                    key.clone()
                } else {
                    format!("{at}.{key}")
                };
                check_duplicates(value, &child)?;
            }
            Ok(())
        }
        Node::Array(items) => items
            .iter()
            .enumerate()
            .try_for_each(|(i, item)| check_duplicates(item, &format!("{at}[{i}]"))),
        _ => Ok(()),
    }
}

/// A JSON value whose objects keep every member as written, duplicates
/// included, so they can be refused.
#[derive(Debug)]
enum Node {
    Null,
    Bool,
    Number(serde_json::Number),
    String(String),
    Array(Vec<Node>),
    Object(Vec<(String, Node)>),
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(NodeVisitor)
    }
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E: de::Error>(self) -> Result<Node, E> {
        Ok(Node::Null)
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Node, E> {
        Ok(Node::Bool)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Node, E> {
        Ok(Node::Number(v.into()))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Node, E> {
        Ok(Node::Number(v.into()))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Node, E> {
        // serde_json never produces a non-finite f64, so this is Some.
        Ok(serde_json::Number::from_f64(v).map_or(Node::Null, Node::Number))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Node, E> {
        Ok(Node::String(v.to_owned()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Node, E> {
        Ok(Node::String(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Node::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let mut members = Vec::new();
        while let Some((key, value)) = map.next_entry::<String, Node>()? {
            members.push((key, value));
        }
        Ok(Node::Object(members))
    }
}

#[cfg(test)]
mod tests;
