//! The drift baseline `varar.lock.json`, version 2 (spec 40 §4): its model,
//! strict reading (§4.4), byte-exact writing (§4.3) and the per-run
//! reconciliation (§4.5) as a pure function. The file itself is read and
//! written by the store; nothing here touches the file system.

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;

use serde_json::Value;

use crate::json_text::{cmp_utf16, write_string};

/// File name of the baseline, in the project root.
pub const LOCK_FILE_NAME: &str = "varar.lock.json";

/// The only lock version this project reads and writes.
pub const LOCK_VERSION: u32 = 2;

/// A parsed lock: the baseline of every oath, keyed by oathPath.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lock {
    /// oathPath → entry. Written sorted by UTF-16 code units, whatever the
    /// map's own order.
    pub oaths: BTreeMap<String, LockEntry>,
}

/// What the baseline remembers of one oath (spec 40 §4.2).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LockEntry {
    /// `fnv1a:xxxxxxxx` of the oath text of the recording run.
    pub source_hash: String,
    /// The live candidates, in document order.
    pub examples: Vec<LockExample>,
}

/// One recorded example: a live candidate's name and primary-block line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LockExample {
    /// The example name (spec 40 §0).
    pub name: String,
    /// 1-based line of the candidate's primary block. Signed because any JSON
    /// integer is a valid stored line (§4.4); fresh entries are never negative.
    pub line: i64,
}

/// The outcome of reading lock text that is not an error.
#[derive(Clone, Debug, PartialEq)]
pub enum ParsedLock {
    /// A valid version-2 lock.
    Valid(Lock),
    /// `version` is not the number 2 (another number, a string, anything,
    /// or missing): a lock of another format, whatever the type of its
    /// version. The harness stops unless `VARAR_UPDATE` consents to
    /// re-recording it (issue 10, departing from spec 40 §4.4's warning).
    UnsupportedVersion {
        /// The version as written (JSON text), or `(missing)`.
        version: String,
    },
}

/// `None` when `version` is the number 2; else how it is written.
fn unsupported_version(version: Option<&Value>) -> Option<String> {
    match version {
        Some(Value::Number(n)) if n.as_f64() == Some(f64::from(LOCK_VERSION)) => None,
        Some(other) => Some(other.to_string()),
        None => Some("(missing)".to_string()),
    }
}

/// Why lock text could not be read (§4.4). The store adds the path.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LockError {
    /// The bytes are not UTF-8.
    #[error("not valid UTF-8: {source}")]
    NotUtf8 {
        /// Where decoding failed.
        #[source]
        source: std::str::Utf8Error,
    },
    /// The text is not JSON (merge-conflict markers, truncation, a BOM …).
    /// serde_json's message carries the line and column.
    #[error("invalid JSON: {source}")]
    Json {
        /// The parser's error, with line and column.
        #[source]
        source: serde_json::Error,
    },
    /// Valid JSON of the wrong shape.
    #[error("{at} {expected}")]
    Malformed {
        /// Where in the document, e.g. `oaths["a.md"].examples[2].line`.
        at: String,
        /// What was expected there, e.g. `must be an integer`.
        expected: &'static str,
    },
}

/// Parse lock file bytes (§4.4). Unknown members are ignored.
pub fn parse_lock(bytes: &[u8]) -> Result<ParsedLock, LockError> {
    let text = std::str::from_utf8(bytes).map_err(|source| LockError::NotUtf8 { source })?;
    let value: Value = serde_json::from_str(text).map_err(|source| LockError::Json { source })?;
    let malformed = |at: &str, expected| LockError::Malformed {
        at: at.to_owned(),
        expected,
    };
    let Value::Object(top) = &value else {
        return Err(malformed("the top level", "must be an object"));
    };
    if let Some(version) = unsupported_version(top.get("version")) {
        return Ok(ParsedLock::UnsupportedVersion { version });
    }
    let Some(Value::Object(oaths)) = top.get("oaths") else {
        return Err(malformed("\"oaths\"", "must be an object"));
    };
    let mut lock = Lock::default();
    for (path, entry) in oaths {
        let at = format!("oaths[{}]", quoted(path));
        lock.oaths.insert(path.clone(), parse_entry(&at, entry)?);
    }
    Ok(ParsedLock::Valid(lock))
}

fn quoted(s: &str) -> String {
    let mut out = String::new();
    write_string(&mut out, s);
    out
}

fn parse_entry(at: &str, entry: &Value) -> Result<LockEntry, LockError> {
    let malformed = |at: String, expected| LockError::Malformed { at, expected };
    let Value::Object(entry) = entry else {
        return Err(malformed(at.to_owned(), "must be an object"));
    };
    let Some(Value::String(source_hash)) = entry.get("sourceHash") else {
        return Err(malformed(format!("{at}.sourceHash"), "must be a string"));
    };
    let Some(Value::Array(items)) = entry.get("examples") else {
        return Err(malformed(format!("{at}.examples"), "must be an array"));
    };
    let mut examples = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let at = format!("{at}.examples[{i}]");
        let Value::Object(item) = item else {
            return Err(malformed(at, "must be an object"));
        };
        let Some(Value::String(name)) = item.get("name") else {
            return Err(malformed(format!("{at}.name"), "must be a string"));
        };
        let line = match item.get("line") {
            Some(Value::Number(n)) => integer(n),
            _ => None,
        };
        let Some(line) = line else {
            return Err(malformed(format!("{at}.line"), "must be an integer"));
        };
        examples.push(LockExample {
            name: name.clone(),
            line,
        });
    }
    Ok(LockEntry {
        source_hash: source_hash.clone(),
        examples,
    })
}

/// A JSON number that is an integer in the `Number.isInteger` sense (`5.0`
/// counts) and fits an `i64`.
fn integer(n: &serde_json::Number) -> Option<i64> {
    if let Some(i) = n.as_i64() {
        return Some(i);
    }
    let f = n.as_f64()?;
    // The bounds keep the cast exact; 2^63 itself is out of range.
    if f.fract() == 0.0 && (-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&f) {
        Some(f as i64)
    } else {
        None
    }
}

/// Serialise exactly as `JSON.stringify({version: 2, oaths}, null, 2) + "\n"`
/// (§4.3): fixed member order, oath paths sorted by UTF-16 code units.
pub fn serialize_lock(lock: &Lock) -> String {
    let mut out = String::from("{\n  \"version\": 2,\n  \"oaths\": ");
    if lock.oaths.is_empty() {
        out.push_str("{}\n}\n");
        return out;
    }
    let mut paths: Vec<&String> = lock.oaths.keys().collect();
    paths.sort_by(|a, b| cmp_utf16(a, b));
    out.push('{');
    for (i, path) in paths.into_iter().enumerate() {
        let Some(entry) = lock.oaths.get(path) else {
            continue;
        };
        out.push_str(if i == 0 { "\n    " } else { ",\n    " });
        write_string(&mut out, path);
        out.push_str(": {\n      \"sourceHash\": ");
        write_string(&mut out, &entry.source_hash);
        out.push_str(",\n      \"examples\": ");
        if entry.examples.is_empty() {
            out.push_str("[]");
        } else {
            out.push('[');
            for (j, ex) in entry.examples.iter().enumerate() {
                out.push_str(if j == 0 { "\n" } else { ",\n" });
                out.push_str("        {\n          \"name\": ");
                write_string(&mut out, &ex.name);
                // Writing into a String cannot fail.
                let _ = write!(out, ",\n          \"line\": {}\n        }}", ex.line);
            }
            out.push_str("\n      ]");
        }
        out.push_str("\n    }");
    }
    out.push_str("\n  }\n}\n");
    out
}

/// The baseline as found on disk at the start of a run.
#[derive(Clone, Debug, PartialEq)]
pub enum Baseline {
    /// No lock file: first run.
    Absent,
    /// A valid lock and the exact bytes it was read from.
    Present {
        /// The parsed lock.
        lock: Lock,
        /// The file's bytes, to skip writing identical content.
        bytes: Vec<u8>,
    },
    /// A lock of another version: fatal, or re-recorded under
    /// `VARAR_UPDATE` (issue 10).
    Unsupported {
        /// The version as written.
        version: String,
    },
}

impl Baseline {
    /// The recorded entry of an oath, if there is a usable baseline.
    pub fn entry(&self, oath_path: &str) -> Option<&LockEntry> {
        match self {
            Baseline::Present { lock, .. } => lock.oaths.get(oath_path),
            _ => None,
        }
    }
}

/// What this run found for one discovered oath.
#[derive(Clone, Debug, PartialEq)]
pub struct OathRecord {
    /// The oath's path.
    pub oath_path: String,
    /// The fresh entry (§4.2); `None` when the oath could not be read, which
    /// leaves its baseline exactly as it was (§2.4).
    pub entry: Option<LockEntry>,
    /// Whether drift was detected against the baseline (§5).
    pub drifted: bool,
}

/// The result of reconciling a run with its baseline (§4.5).
#[derive(Clone, Debug, PartialEq)]
pub struct Reconciled {
    /// The next lock.
    pub lock: Lock,
    /// Its bytes (§4.3).
    pub text: String,
    /// Whether the file must be written.
    pub write: bool,
    /// Paths removed because the globs no longer match them (update mode).
    pub pruned: Vec<String>,
    /// Paths kept although the globs no longer match them (normal mode).
    pub stale: Vec<String>,
}

/// Reconcile (§4.5): refresh every oath without drift (all of them under
/// `update`), freeze drifted ones, prune or report entries the full
/// discovery (`discovered`, never a filtered subset) no longer contains, and
/// decide whether to write.
pub fn reconcile(
    baseline: &Baseline,
    records: &[OathRecord],
    discovered: &[String],
    update: bool,
) -> Reconciled {
    let mut next = match baseline {
        Baseline::Present { lock, .. } => lock.oaths.clone(),
        _ => BTreeMap::new(),
    };
    for record in records {
        let Some(entry) = &record.entry else {
            continue;
        };
        if update || !record.drifted {
            next.insert(record.oath_path.clone(), entry.clone());
        }
    }
    let discovered: HashSet<&str> = discovered.iter().map(String::as_str).collect();
    let mut unmatched: Vec<String> = next
        .keys()
        .filter(|k| !discovered.contains(k.as_str()))
        .cloned()
        .collect();
    unmatched.sort_by(|a, b| cmp_utf16(a, b));
    let (pruned, stale) = if update {
        for path in &unmatched {
            next.remove(path);
        }
        (unmatched, Vec::new())
    } else {
        (Vec::new(), unmatched)
    };
    let lock = Lock { oaths: next };
    let text = serialize_lock(&lock);
    let write = match baseline {
        Baseline::Present { bytes, .. } => bytes.as_slice() != text.as_bytes(),
        Baseline::Absent => !discovered.is_empty(),
        // Only under update does a run get this far with such a lock:
        // the user consented to replacing it.
        Baseline::Unsupported { .. } => update,
    };
    Reconciled {
        lock,
        text,
        write,
        pruned,
        stale,
    }
}

/// The baseline's oath paths that the full discovery (`discovered`) no
/// longer contains, in UTF-16 order: what [`reconcile`] reports as stale,
/// without building the next lock (§4.5 step 2).
pub fn stale_paths(baseline: &Baseline, discovered: &[String]) -> Vec<String> {
    let Baseline::Present { lock, .. } = baseline else {
        return Vec::new();
    };
    let discovered: HashSet<&str> = discovered.iter().map(String::as_str).collect();
    let mut stale: Vec<String> = lock
        .oaths
        .keys()
        .filter(|k| !discovered.contains(k.as_str()))
        .cloned()
        .collect();
    stale.sort_by(|a, b| cmp_utf16(a, b));
    stale
}

/// Notice for an entry pruned under update mode (§4.5 step 2).
pub fn pruned_notice(oath_path: &str) -> String {
    format!("varar: pruned {oath_path} from {LOCK_FILE_NAME} (no longer matched by docs globs)")
}

/// Notice for an entry kept although the globs no longer match it (§4.5).
pub fn stale_notice(oath_path: &str) -> String {
    format!(
        "varar: {LOCK_FILE_NAME} still lists {oath_path}, which the docs globs no longer match \
         — re-run with VARAR_UPDATE=1 to prune it"
    )
}

/// Why a run stops at a lock of another version (issue 10; spec 40 §4.4
/// warned instead); `path` is how the harness names the file.
pub fn unsupported_version_error(path: &str, version: &str) -> String {
    format!(
        "{path}: unsupported lock version {version}: this varar reads and writes version \
         {LOCK_VERSION}, so drift cannot be checked against it; re-record it with \
         VARAR_UPDATE=1 cargo test and commit it (or delete it)"
    )
}

mod partial;
#[cfg(test)]
mod tests;

pub use partial::parse_lock_for;
