//! Reading only some oaths' entries of a lock (spec 40 §4.4), for a run of
//! one item: the other entries are skipped by the JSON reader without being
//! built, which is most of the cost of reading a large lock. The selected
//! entries are checked exactly as [`parse_lock`] checks them; the others
//! only for JSON syntax (a run of one item never writes the lock, and the
//! listing that precedes it in `cargo nextest` reads the whole file).

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::Value;

use super::{Lock, LockError, ParsedLock, parse_entry, parse_lock, quoted, unsupported_version};

/// Parse lock bytes keeping only the oaths for which `wanted` holds. Any
/// problem outside the skipped entries is reported exactly as by
/// [`parse_lock`] (which then reads the whole file to say what it is).
pub fn parse_lock_for(
    bytes: &[u8],
    wanted: &dyn Fn(&str) -> bool,
) -> Result<ParsedLock, LockError> {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return parse_lock(bytes);
    };
    if !text.trim_start().starts_with('{') {
        return parse_lock(bytes);
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let top = match (Top { wanted })
        .deserialize(&mut de)
        .and_then(|t| de.end().map(|()| t))
    {
        Ok(top) => top,
        // Bad JSON, or an `oaths` that is not an object: the full reader
        // names the problem.
        Err(_) => return parse_lock(bytes),
    };
    if let Some(version) = unsupported_version(top.version.as_ref()) {
        return Ok(ParsedLock::UnsupportedVersion { version });
    }
    let Some(oaths) = top.oaths else {
        return parse_lock(bytes);
    };
    let mut lock = Lock::default();
    for (path, entry) in oaths {
        let at = format!("oaths[{}]", quoted(&path));
        lock.oaths.insert(path, parse_entry(&at, &entry)?);
    }
    Ok(ParsedLock::Valid(lock))
}

/// The top-level object: `version` kept, `oaths` filtered, the rest skipped.
struct Top<'a> {
    wanted: &'a dyn Fn(&str) -> bool,
}

/// What [`Top`] keeps. Later duplicates of a key win, as in `Value`.
struct TopValue {
    version: Option<Value>,
    oaths: Option<BTreeMap<String, Value>>,
}

impl<'de> DeserializeSeed<'de> for Top<'_> {
    type Value = TopValue;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<TopValue, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Top<'_> {
    type Value = TopValue;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a lock object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<TopValue, A::Error> {
        let mut top = TopValue {
            version: None,
            oaths: None,
        };
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "version" => top.version = Some(map.next_value()?),
                "oaths" => {
                    top.oaths = Some(map.next_value_seed(Oaths {
                        wanted: self.wanted,
                    })?)
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(top)
    }
}

/// The `oaths` object, keeping only the wanted entries.
struct Oaths<'a> {
    wanted: &'a dyn Fn(&str) -> bool,
}

impl<'de> DeserializeSeed<'de> for Oaths<'_> {
    type Value = BTreeMap<String, Value>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Oaths<'_> {
    type Value = BTreeMap<String, Value>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object of oath entries")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut kept = BTreeMap::new();
        while let Some(key) = map.next_key::<String>()? {
            if (self.wanted)(&key) {
                kept.insert(key, map.next_value()?);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(kept)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::lock::{LockEntry, LockExample, serialize_lock};

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
        let example =
            ("[a-z \"\\\\é]{0,8}", -2i64..40).prop_map(|(name, line)| LockExample { name, line });
        let entry = ("fnv1a:[0-9a-f]{8}", prop::collection::vec(example, 0..4)).prop_map(
            |(source_hash, examples)| LockEntry {
                source_hash,
                examples,
            },
        );
        prop::collection::btree_map("[ab][a-z/]{0,6}\\.md", entry, 0..6)
            .prop_map(|oaths| Lock { oaths })
    }

    proptest! {
        #[test]
        fn valid_locks_read_as_their_wanted_entries(lock in lock()) {
            let bytes = serialize_lock(&lock).into_bytes();
            prop_assert_eq!(partial(&bytes), filtered(&bytes));
        }
    }
}
