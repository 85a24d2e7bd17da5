//! The files a run leaves, as the end-to-end tests read them: the lock and
//! the run results, parsed strictly.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// `varar.lock.json`, with its members in the order the spec writes them.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
pub struct Lock {
    pub version: u64,
    pub oaths: BTreeMap<String, LockEntry>,
}

/// One oath's baseline.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
pub struct LockEntry {
    #[serde(rename = "sourceHash")]
    pub source_hash: String,
    pub examples: Vec<LockExample>,
}

/// One recorded example.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
pub struct LockExample {
    pub name: String,
    pub line: u64,
}

impl Lock {
    /// The canonical bytes (spec 40 §4.3): two-space pretty JSON plus LF.
    /// Oath keys sort by bytes, which equals UTF-16 order for these paths.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut text = serde_json::to_string_pretty(self)
            .unwrap_or_else(|e| panic!("cannot serialise the lock: {e}"));
        text.push('\n');
        text.into_bytes()
    }
}

/// `.varar/<oathPath>.json`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunResult {
    pub version: u64,
    #[serde(rename = "oathPath")]
    pub oath_path: String,
    #[serde(rename = "sourceHash")]
    pub source_hash: String,
    /// The other oaths its linked steps come from (version 2).
    #[serde(default)]
    pub documents: Vec<RunDocument>,
    pub examples: Vec<RunExample>,
}

/// A document a run result names, with its hash.
#[derive(Clone, Debug, Deserialize)]
pub struct RunDocument {
    pub path: String,
    #[serde(rename = "sourceHash")]
    pub source_hash: String,
}

/// One example of a run result.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunExample {
    pub name: String,
    pub status: String,
    pub lines: Vec<u64>,
    pub failure: Option<serde_json::Value>,
}
