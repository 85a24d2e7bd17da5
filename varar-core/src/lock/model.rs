//! What the lock holds (spec 40 §4.1–4.2).

use std::collections::BTreeMap;

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
