//! The strict reader of run records: a file is read whole or refused with
//! the place and the reason. A key written twice is refused; unknown members
//! are ignored (additive fields may land without a version bump); a record
//! of another version is [`RecordError::UnsupportedVersion`], which a
//! consumer treats as absent (the stability policy of seed 000). An item's
//! `message` longer than [`crate::untrusted::TEXT_LIMIT`] is read cut, with
//! its note (issue 34).

use super::model::{
    DocumentDigest, FileDigest, Item, Manifest, NextestRun, Options, Outcome, ProcessRecord,
    RECORD_FORMAT, RECORD_VERSION, RemovedExample, RerunOf,
};
use crate::json::{self, Node, Object, ReadError, TOP};
use crate::names::ItemKind;

/// Why record bytes were refused.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RecordError {
    /// Not UTF-8, not JSON, a key twice or a wrong shape.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// Not a run record (`format` is not `varar-run-record`).
    #[error("not a run record (format {found})")]
    NotARecord {
        /// The `format` as written, or `(missing)`.
        found: String,
    },
    /// A record of a version this reader does not know: to be treated as
    /// absent, not as an error.
    #[error("a run record of version {version}, which this reader does not know")]
    UnsupportedVersion {
        /// The version as written.
        version: String,
    },
}

impl RecordError {
    /// Whether the file is a well-formed record of an unknown version.
    pub fn is_unknown_version(&self) -> bool {
        matches!(self, RecordError::UnsupportedVersion { .. })
    }
}

/// What a record says of its process before its items: enough to decide
/// whether its run may be removed, read without building the rest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordHeader {
    /// The run the process belongs to.
    pub run_id: String,
    /// The process.
    pub process_id: String,
    /// Whether the process reached its end.
    pub complete: bool,
    /// When the process started (RFC 3339).
    pub started_at: String,
    /// The project it ran ([`ProcessRecord::project`](super::ProcessRecord::project)).
    pub project: Option<String>,
}

impl RecordHeader {
    /// The header of `record`, as a reader of its file would read it.
    pub fn of(record: &ProcessRecord) -> RecordHeader {
        RecordHeader {
            run_id: record.run_id.clone(),
            process_id: record.process_id.clone(),
            complete: record.complete,
            started_at: record.started_at.clone(),
            project: record.project.clone(),
        }
    }
}

/// The members a [`RecordHeader`] is read from.
const HEADER_KEYS: [&str; 7] = [
    "format",
    "version",
    "runId",
    "processId",
    "complete",
    "startedAt",
    "project",
];

/// Read a record's [`RecordHeader`]: its other members (the items, the
/// manifest) are checked for JSON syntax only. A text the quick scan
/// doubts is read whole, so a broken record is refused as
/// [`parse_process_record`] refuses it.
pub fn parse_record_header(bytes: &[u8]) -> Result<RecordHeader, RecordError> {
    let text = json::read::utf8(bytes)?;
    let Some(tree) = json::read::parse_members(text, &|k| HEADER_KEYS.contains(&k)) else {
        return Ok(RecordHeader::of(&parse_process_record(bytes)?));
    };
    json::first_duplicate(&tree, TOP)?;
    let top = tree.as_object(TOP)?;
    check_kind(&top)?;
    Ok(RecordHeader {
        run_id: string(&top, "runId")?,
        process_id: string(&top, "processId")?,
        complete: boolean(&top, "complete")?,
        started_at: string(&top, "startedAt")?,
        project: optional(&top, "project", |n, at| Ok(n.as_str(at)?.to_owned()))?,
    })
}

/// Parse a record strictly.
pub fn parse_process_record(bytes: &[u8]) -> Result<ProcessRecord, RecordError> {
    let tree = json::parse(bytes)?;
    json::first_duplicate(&tree, TOP)?;
    let top = tree.as_object(TOP)?;
    check_kind(&top)?;
    Ok(ProcessRecord {
        version: RECORD_VERSION,
        format: RECORD_FORMAT.to_owned(),
        varar: string(&top, "varar")?,
        run_id: string(&top, "runId")?,
        process_id: string(&top, "processId")?,
        complete: boolean(&top, "complete")?,
        project: optional(&top, "project", |n, at| Ok(n.as_str(at)?.to_owned()))?,
        started_at: string(&top, "startedAt")?,
        ended_at: optional(&top, "endedAt", |n, at| Ok(n.as_str(at)?.to_owned()))?,
        arguments: strings(&top, "arguments")?,
        options: options(&top.required("options")?.as_object("options")?)?,
        nextest: optional(&top, "nextest", |n, at| nextest(&n.as_object(at)?))?,
        rerun: optional(&top, "rerun", |n, at| rerun(&n.as_object(at)?))?,
        manifest: manifest(&top.required("manifest")?.as_object("manifest")?)?,
        items: top
            .required("items")?
            .as_array("items")?
            .iter()
            .enumerate()
            .map(|(i, n)| item(n, &format!("items[{i}]")))
            .collect::<Result<_, _>>()?,
        unselected: match top.get("unselected") {
            None => Vec::new(),
            Some(_) => strings(&top, "unselected")?,
        },
        unwritten: match top.get("unwritten") {
            None => Vec::new(),
            Some(_) => strings(&top, "unwritten")?,
        },
        removed: match top.get("removed") {
            None => Vec::new(),
            Some(n) => n
                .as_array(&at(&top, "removed"))?
                .iter()
                .enumerate()
                .map(|(i, n)| removed(n, &format!("{}[{i}]", at(&top, "removed"))))
                .collect::<Result<_, _>>()?,
        },
    })
}

/// One removed example (issue 37). Its name is cut as a message is: a
/// crafted record may hold megabytes.
fn removed(node: &Node, place: &str) -> Result<RemovedExample, ReadError> {
    let obj = node.as_object(place)?;
    let line_at = at(&obj, "line");
    let line = match obj.required("line")? {
        Node::Number(n) => json::integer(n),
        _ => None,
    }
    .ok_or_else(|| ReadError::shape(line_at, "must be an integer"))?;
    Ok(RemovedExample {
        oath_path: string(&obj, "oathPath")?,
        name: crate::untrusted::cut(&string(&obj, "name")?).into_owned(),
        line,
    })
}

/// Refuse what is not a record of this version.
fn check_kind(top: &Object<'_>) -> Result<(), RecordError> {
    match top.get("format") {
        Some(Node::String(f)) if f == RECORD_FORMAT => {}
        other => {
            return Err(RecordError::NotARecord {
                found: other.map_or_else(|| "(missing)".to_owned(), Node::to_json_text),
            });
        }
    }
    match top.required("version")? {
        Node::Number(n) if json::integer(n) == Some(i64::from(RECORD_VERSION)) => {}
        other => {
            return Err(RecordError::UnsupportedVersion {
                version: other.to_json_text(),
            });
        }
    }
    Ok(())
}

fn at(obj: &Object<'_>, key: &str) -> String {
    json::read::member_at(obj.at(), key)
}

fn string(obj: &Object<'_>, key: &str) -> Result<String, ReadError> {
    Ok(obj.required(key)?.as_str(&at(obj, key))?.to_owned())
}

fn boolean(obj: &Object<'_>, key: &str) -> Result<bool, ReadError> {
    match obj.required(key)? {
        Node::Bool(b) => Ok(*b),
        _ => Err(ReadError::shape(at(obj, key), "must be true or false")),
    }
}

fn strings(obj: &Object<'_>, key: &str) -> Result<Vec<String>, ReadError> {
    let place = at(obj, key);
    obj.required(key)?
        .as_array(&place)?
        .iter()
        .enumerate()
        .map(|(i, n)| Ok(n.as_str(&format!("{place}[{i}]"))?.to_owned()))
        .collect()
}

fn optional<T>(
    obj: &Object<'_>,
    key: &str,
    read: impl Fn(&Node, &str) -> Result<T, ReadError>,
) -> Result<Option<T>, ReadError> {
    obj.get(key).map(|n| read(n, &at(obj, key))).transpose()
}

fn unsigned(obj: &Object<'_>, key: &str) -> Result<u32, ReadError> {
    obj.required(key)?.as_u32(&at(obj, key))
}

fn options(obj: &Object<'_>) -> Result<Options, ReadError> {
    Ok(Options {
        update: boolean(obj, "update")?,
        timeout: optional(obj, "timeout", |n, at| Ok(n.as_str(at)?.to_owned()))?,
        threads: optional(obj, "threads", |n, at| Ok(n.as_u32(at)? as usize))?,
        runtime: string(obj, "runtime")?,
    })
}

fn nextest(obj: &Object<'_>) -> Result<NextestRun, ReadError> {
    Ok(NextestRun {
        run_id: string(obj, "runId")?,
        attempt: optional(obj, "attempt", Node::as_u32)?,
        total_attempts: optional(obj, "totalAttempts", Node::as_u32)?,
        test_name: optional(obj, "testName", |n, at| Ok(n.as_str(at)?.to_owned()))?,
    })
}

fn rerun(obj: &Object<'_>) -> Result<RerunOf, ReadError> {
    Ok(RerunOf {
        mode: string(obj, "mode")?,
        group: string(obj, "group")?,
    })
}

fn file(obj: &Object<'_>) -> Result<FileDigest, ReadError> {
    Ok(FileDigest {
        path: string(obj, "path")?,
        sha256: digest(obj, "sha256")?,
    })
}

fn digest(obj: &Object<'_>, key: &str) -> Result<String, ReadError> {
    let value = string(obj, key)?;
    let hex = value.len() == 64
        && value
            .bytes()
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    if hex {
        Ok(value)
    } else {
        Err(ReadError::shape(
            at(obj, key),
            "must be 64 lowercase hexadecimal digits",
        ))
    }
}

fn manifest(obj: &Object<'_>) -> Result<Manifest, ReadError> {
    let file_at = |key: &str| optional(obj, key, |n, at| file(&n.as_object(at)?));
    let docs_at = at(obj, "documents");
    Ok(Manifest {
        config: file_at("config")?,
        lock_before: file_at("lockBefore")?,
        lock_after: file_at("lockAfter")?,
        documents: obj
            .required("documents")?
            .as_array(&docs_at)?
            .iter()
            .enumerate()
            .map(|(i, n)| {
                let place = format!("{docs_at}[{i}]");
                let d = n.as_object(&place)?;
                Ok(DocumentDigest {
                    path: string(&d, "path")?,
                    sha256: digest(&d, "sha256")?,
                    source_hash: string(&d, "sourceHash")?,
                })
            })
            .collect::<Result<_, ReadError>>()?,
        test_binary: file_at("testBinary")?,
        reproducible: boolean(obj, "reproducible")?,
        limitations: strings(obj, "limitations")?,
    })
}

fn item(node: &Node, place: &str) -> Result<Item, ReadError> {
    let obj = node.as_object(place)?;
    let kind_at = at(&obj, "kind");
    let kind = ItemKind::from_str(obj.required("kind")?.as_str(&kind_at)?).ok_or_else(|| {
        ReadError::shape(kind_at, "must be example, drift, diagnostic or read-error")
    })?;
    let outcome = optional(&obj, "outcome", |n, at| match n.as_str(at)? {
        "passed" => Ok(Outcome::Passed),
        "failed" => Ok(Outcome::Failed),
        "ignored" => Ok(Outcome::Ignored),
        _ => Err(ReadError::shape(at, "must be passed, failed or ignored")),
    })?;
    let duration_ms = optional(&obj, "durationMs", |n, at| match n {
        Node::Number(x) => x
            .as_f64()
            .filter(|d| *d >= 0.0)
            .ok_or_else(|| ReadError::shape(at, "must be a number of milliseconds")),
        _ => Err(ReadError::shape(at, "must be a number")),
    })?;
    let attempt = unsigned(&obj, "attempt")?;
    if attempt == 0 {
        return Err(ReadError::shape(at(&obj, "attempt"), "must be 1 or more"));
    }
    Ok(Item {
        name: string(&obj, "name")?.into(),
        kind,
        oath_path: string(&obj, "oathPath")?.into(),
        line: unsigned(&obj, "line")?,
        attempt,
        outcome,
        duration_ms,
        // Cut as the harness cuts it: a crafted or older record may hold
        // megabytes (issue 34).
        message: optional(&obj, "message", |n, at| {
            Ok(crate::untrusted::cut(n.as_str(at)?).into_owned())
        })?,
    })
}
