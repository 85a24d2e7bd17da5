//! Reading lock text (spec 40 §4.4) with the one strict reader: a valid
//! version-2 lock, a lock of another version (the harness stops unless
//! `VARAR_UPDATE` consents), or a [`LockError`] naming the place. A key
//! written twice keeps its last value, as `JSON.parse` does; unknown members
//! are ignored.

use crate::json::{self, Node, ReadError, TOP};

use super::model::{LOCK_VERSION, Lock, LockEntry, LockExample};

/// Why lock text could not be read (§4.4); the runner's store adds the
/// path. Invalid UTF-8, text that is not JSON (merge-conflict markers,
/// truncation, a BOM …), or JSON of the wrong shape.
pub type LockError = ReadError;

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
fn unsupported_version(version: Option<&Node>) -> Option<String> {
    match version {
        Some(Node::Number(n)) if n.as_f64() == Some(f64::from(LOCK_VERSION)) => None,
        Some(other) => Some(other.to_json_text()),
        None => Some("(missing)".to_string()),
    }
}

/// Parse lock file bytes (§4.4).
pub fn parse_lock(bytes: &[u8]) -> Result<ParsedLock, LockError> {
    // The usual lock is read straight into its model; anything else, and
    // every error, by the tree reader.
    if let Some(lock) = std::str::from_utf8(bytes).ok().and_then(super::quick::lock) {
        return Ok(ParsedLock::Valid(lock));
    }
    parse_lock_strictly(bytes)
}

/// [`parse_lock`] by the tree reader alone: what names every problem.
pub(super) fn parse_lock_strictly(bytes: &[u8]) -> Result<ParsedLock, LockError> {
    let node = json::parse(bytes)?;
    lock_of(&node)
}

/// Parse lock bytes keeping only the oaths for which `wanted` holds, for a
/// run of one item: the other entries are checked for JSON syntax only and
/// skipped without being built, which is most of the cost of reading a
/// large lock (a run of one item never writes the lock, and the listing
/// that precedes it in `cargo nextest` reads the whole file). Any problem
/// outside the skipped entries is reported exactly as by [`parse_lock`].
pub fn parse_lock_for(
    bytes: &[u8],
    wanted: &dyn Fn(&str) -> bool,
) -> Result<ParsedLock, LockError> {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return parse_lock(bytes);
    };
    match json::read::parse_keeping(text, "oaths", wanted) {
        Some(node) => lock_of(&node),
        // Bad JSON, or an `oaths` that is not an object: the full reader
        // names the problem.
        None => parse_lock(bytes),
    }
}

fn lock_of(node: &Node) -> Result<ParsedLock, LockError> {
    let top = node.as_object(TOP)?;
    if let Some(version) = unsupported_version(top.get("version")) {
        return Ok(ParsedLock::UnsupportedVersion { version });
    }
    let oaths = match top.get("oaths") {
        Some(oaths @ Node::Object(_)) => oaths.as_object("\"oaths\"")?,
        _ => return Err(ReadError::shape("\"oaths\"", "must be an object")),
    };
    let mut lock = Lock::default();
    for (path, entry) in oaths.last_wins() {
        let at = format!("oaths[{}]", quoted(path));
        lock.oaths.insert(path.to_owned(), parse_entry(&at, entry)?);
    }
    Ok(ParsedLock::Valid(lock))
}

fn quoted(s: &str) -> String {
    let mut out = String::new();
    json::write_string(&mut out, s);
    out
}

fn parse_entry(at: &str, entry: &Node) -> Result<LockEntry, LockError> {
    let entry = entry.as_object(at)?;
    let hash_at = format!("{at}.sourceHash");
    let Some(Node::String(source_hash)) = entry.get("sourceHash") else {
        return Err(ReadError::shape(hash_at, "must be a string"));
    };
    let examples_at = format!("{at}.examples");
    let Some(Node::Array(items)) = entry.get("examples") else {
        return Err(ReadError::shape(examples_at, "must be an array"));
    };
    let mut examples = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let at = format!("{at}.examples[{i}]");
        let item = item.as_object(&at)?;
        let Some(Node::String(name)) = item.get("name") else {
            return Err(ReadError::shape(format!("{at}.name"), "must be a string"));
        };
        let Some(line) = item.get("line").and_then(Node::as_integer) else {
            return Err(ReadError::shape(format!("{at}.line"), "must be an integer"));
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

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::lock::serialize_lock;

    fn keep_a(path: &str) -> bool {
        path.starts_with('a')
    }

    /// What the full reader gives, restricted to the wanted oaths.
    fn filtered(bytes: &[u8]) -> Result<ParsedLock, String> {
        match parse_lock(bytes) {
            Ok(ParsedLock::Valid(mut lock)) => {
                lock.oaths.retain(|p, _| keep_a(p));
                Ok(ParsedLock::Valid(lock))
            }
            Ok(other) => Ok(other),
            Err(e) => Err(e.to_string()),
        }
    }

    fn partial(bytes: &[u8]) -> Result<ParsedLock, String> {
        parse_lock_for(bytes, &keep_a).map_err(|e| e.to_string())
    }

    #[test]
    fn everything_but_the_skipped_entries_is_checked_as_in_a_full_read() {
        let cases: &[&str] = &[
            r#"{"version": 2, "oaths": {}}"#,
            r#"{"oaths": {"a.md": {"sourceHash": "h", "examples": []}}, "version": 2}"#,
            r#"{"version": 3, "oaths": {"a.md": 1}}"#,
            r#"{"version": "2", "oaths": {}}"#,
            r#"{"version": 2}"#,
            r#"{"version": 2, "oaths": []}"#,
            r#"{"version": 2, "oaths": {"a.md": {"sourceHash": 1, "examples": []}}}"#,
            r#"{"version": 2, "oaths": {"a.md": {"sourceHash": "h", "examples": [{"name": "x", "line": 1.5}]}}}"#,
            r#"{"version": 2, "oaths": {"a.md": 1, "a.md": {"sourceHash": "h", "examples": []}}}"#,
            r#"[1, 2]"#,
            r#"{"version": 2, "oaths": {}} trailing"#,
            "<<<<<<< HEAD\n{}",
            r#"{"version": 2, "oaths": {"b.md": "#,
        ];
        for case in cases {
            assert_eq!(
                partial(case.as_bytes()),
                filtered(case.as_bytes()),
                "{case}"
            );
        }
        assert_eq!(partial(b"\xff"), filtered(b"\xff"));
    }

    #[test]
    fn a_broken_entry_that_is_not_wanted_is_skipped() {
        let text = r#"{"version": 2, "oaths": {"b.md": {"sourceHash": 1}, "a.md": {"sourceHash": "h", "examples": []}}}"#;
        assert!(parse_lock(text.as_bytes()).is_err());
        let Ok(ParsedLock::Valid(lock)) = parse_lock_for(text.as_bytes(), &keep_a) else {
            panic!("the wanted entry is valid");
        };
        assert_eq!(lock.oaths.keys().collect::<Vec<_>>(), ["a.md"]);
    }

    fn lock() -> impl Strategy<Value = Lock> {
        crate::lock::tests::any_lock("[a-z \"\\\\é]{0,8}", -2..40)
    }

    proptest! {
        #[test]
        fn valid_locks_read_as_their_wanted_entries(lock in lock()) {
            let bytes = serialize_lock(&lock).into_bytes();
            prop_assert_eq!(partial(&bytes), filtered(&bytes));
        }
    }
}
