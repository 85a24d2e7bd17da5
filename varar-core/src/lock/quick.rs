//! The quick path of reading a lock (spec 40 §4.4): its text read straight
//! into a [`Lock`], with no [`Node`](crate::json::Node) tree between. A
//! second run reads a lock of thousands of examples on its critical path;
//! building the tree and then the model from it took 5.7 ms of a
//! documentation-shaped 200×25 lock in an unoptimised build, this path
//! 3.5 ms.
//!
//! It reads only what it reads exactly as the strict reader does: a
//! version-2 lock of the members the spec names, each value of its type.
//! Anything else (another version, a member it does not know, a line
//! written as `5.0`, a string escape the byte loop leaves to serde_json,
//! any error) declines, and the strict reader (`read.rs`) reads the text
//! again and says what it is. A key written twice keeps its last value, as
//! there.

use std::collections::BTreeMap;

use crate::json::Cursor;

use super::model::{LOCK_VERSION, Lock, LockEntry, LockExample};

/// `text` as a valid version-2 lock, or `None`: the strict reader decides.
pub(super) fn lock(text: &str) -> Option<Lock> {
    let mut c = Cursor::new(text);
    let (mut version, mut oaths) = (None, None);
    c.members(|c, key| {
        match &*key {
            "version" => version = Some(c.unsigned()?),
            "oaths" => oaths = Some(entries(c)?),
            _ => return None,
        }
        Some(())
    })?;
    let valid = c.at_end() && version == Some(u64::from(LOCK_VERSION));
    valid.then(|| oaths.map(|oaths| Lock { oaths }))?
}

/// The value of `oaths`: oathPath → entry.
fn entries(c: &mut Cursor<'_>) -> Option<BTreeMap<String, LockEntry>> {
    let mut oaths = BTreeMap::new();
    c.members(|c, path| {
        oaths.insert(path.into_owned(), entry(c)?);
        Some(())
    })?;
    Some(oaths)
}

/// One oath's entry: its `sourceHash` and its examples.
fn entry(c: &mut Cursor<'_>) -> Option<LockEntry> {
    let (mut source_hash, mut examples) = (None, None);
    c.members(|c, key| {
        match &*key {
            "sourceHash" => source_hash = Some(c.string_value()?),
            "examples" => examples = Some(example_list(c)?),
            _ => return None,
        }
        Some(())
    })?;
    Some(LockEntry {
        source_hash: source_hash?,
        examples: examples?,
    })
}

fn example_list(c: &mut Cursor<'_>) -> Option<Vec<LockExample>> {
    let mut examples = Vec::new();
    c.elements(|c| {
        examples.push(example(c)?);
        Some(())
    })?;
    // Held for the whole run: no room grown past the examples.
    examples.shrink_to_fit();
    Some(examples)
}

/// One example: its name and line.
fn example(c: &mut Cursor<'_>) -> Option<LockExample> {
    let (mut name, mut line) = (None, None);
    c.members(|c, key| {
        match &*key {
            "name" => name = Some(c.string_value()?),
            "line" => line = Some(i64::try_from(c.unsigned()?).ok()?),
            _ => return None,
        }
        Some(())
    })?;
    Some(LockExample {
        name: name?,
        line: line?,
    })
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::lock::read::parse_lock_strictly;
    use crate::lock::{ParsedLock, serialize_lock};

    /// The contract: the quick path reads a text as the strict reader does,
    /// or declines it.
    fn agrees(text: &str) -> Result<(), TestCaseError> {
        if let Some(quick) = lock(text) {
            let strict = parse_lock_strictly(text.as_bytes()).map_err(|e| e.to_string());
            prop_assert_eq!(strict, Ok(ParsedLock::Valid(quick)), "{}", text);
        }
        Ok(())
    }

    fn example(name: &str, line: i64) -> LockExample {
        LockExample {
            name: name.to_owned(),
            line,
        }
    }

    #[test]
    fn a_lock_as_written_is_read_into_its_model() {
        let mut oaths = BTreeMap::new();
        oaths.insert(
            "varar/a b.md".to_owned(),
            LockEntry {
                source_hash: "fnv1a:0badf00d".to_owned(),
                examples: vec![example("I add \"2\" \\ café\t", 3), example("", 0)],
            },
        );
        oaths.insert("varar/empty.md".to_owned(), LockEntry::default());
        let written = Lock { oaths };
        let read = lock(&serialize_lock(&written));
        assert_eq!(read.as_ref(), Some(&written));
        for entry in read.iter().flat_map(|l| l.oaths.values()) {
            // Held for the whole run: no room past the examples.
            assert_eq!(entry.examples.capacity(), entry.examples.len());
        }
        assert_eq!(
            lock("{\"version\": 2, \"oaths\": {}}\n"),
            Some(Lock::default())
        );
    }

    #[test]
    fn what_the_strict_reader_reads_otherwise_is_declined_or_read_alike() {
        let read: &[(&str, Lock)] = &[
            (
                r#" {"oaths": {"a.md": {"examples": [{"line": 2, "name": "x"}], "sourceHash": "h"}}, "version": 2} "#,
                Lock {
                    oaths: [(
                        "a.md".to_owned(),
                        LockEntry {
                            source_hash: "h".to_owned(),
                            examples: vec![example("x", 2)],
                        },
                    )]
                    .into(),
                },
            ),
            (
                r#"{"version": 3, "oaths": {"a.md": {"sourceHash": "old", "examples": []}, "a.md": {"sourceHash": "h", "examples": [], "sourceHash": "h2"}}, "version": 2}"#,
                Lock {
                    oaths: [(
                        "a.md".to_owned(),
                        LockEntry {
                            source_hash: "h2".to_owned(),
                            examples: vec![],
                        },
                    )]
                    .into(),
                },
            ),
            (
                r#"{"version": 2, "oaths": {"\u0061.md": {"sourceHash": "h", "examples": [{"name": "caf\u00e9", "line": 0}]}}}"#,
                Lock {
                    oaths: [(
                        "a.md".to_owned(),
                        LockEntry {
                            source_hash: "h".to_owned(),
                            examples: vec![example("café", 0)],
                        },
                    )]
                    .into(),
                },
            ),
        ];
        for (text, expected) in read {
            assert_eq!(lock(text).as_ref(), Some(expected), "{text}");
            agrees(text).unwrap_or_else(|e| panic!("{e}"));
        }
        let declined = [
            r#"{"version": 3, "oaths": {}}"#,
            r#"{"version": "2", "oaths": {}}"#,
            r#"{"version": 2.0, "oaths": {}}"#,
            r#"{"version": 2, "version": 3, "oaths": {}}"#,
            r#"{"version": 2}"#,
            r#"{"oaths": {}}"#,
            r#"{"version": 2, "oaths": {}, "note": "hi"}"#,
            r#"{"version": 2, "oaths": {"a.md": {"sourceHash": "h", "examples": [], "by": 1}}}"#,
            r#"{"version": 2, "oaths": {"a.md": {"sourceHash": "h", "examples": [{"name": "x", "line": 1, "id": 1}]}}}"#,
            r#"{"version": 2, "oaths": {"a.md": {"sourceHash": "h", "examples": [{"name": "x", "line": -1}]}}}"#,
            r#"{"version": 2, "oaths": {"a.md": {"sourceHash": "h", "examples": [{"name": "x", "line": 1.0}]}}}"#,
            r#"{"version": 2, "oaths": {"a.md": {"sourceHash": "h", "examples": [{"name": "x", "line": 9223372036854775808}]}}}"#,
            r#"{"version": 2, "oaths": {"a.md": {"sourceHash": "h", "examples": [{"name": "\ud83d\ude00", "line": 1}]}}}"#,
            r#"{"version": 2, "oaths": {"a.md": {"sourceHash": "h"}}}"#,
            r#"{"version": 2, "oaths": {"a.md": {"sourceHash": 1, "examples": []}}}"#,
            r#"{"version": 2, "oaths": {"a.md": 1, "a.md": {"sourceHash": "h", "examples": []}}}"#,
            r#"{"version": 2, "oaths": []}"#,
            r#"{"version": 2, "oaths": {}} x"#,
            "\u{feff}{\"version\": 2, \"oaths\": {}}",
            "<<<<<<< HEAD\n{}",
            r#"{"version": 2, "oaths": {"a.md": "#,
            "{\"version\": 2, \"oaths\": {\"a\tb.md\": {\"sourceHash\": \"h\", \"examples\": []}}}",
        ];
        for text in declined {
            assert_eq!(lock(text), None, "{text}");
        }
    }

    fn any_lock() -> impl Strategy<Value = Lock> {
        crate::lock::tests::any_lock("[a-z \"\\\\é\t\u{1}]{0,8}", 0..40)
    }

    proptest! {
        #[test]
        fn every_written_lock_is_read_quickly_and_as_written(written in any_lock()) {
            let text = serialize_lock(&written);
            prop_assert_eq!(lock(&text), Some(written));
            agrees(&text)?;
        }

        #[test]
        fn a_damaged_lock_is_declined_or_read_as_the_strict_reader_reads_it(
            written in any_lock(),
            at in any::<prop::sample::Index>(),
            with in prop::sample::select(vec![
                "", "\"", "\\", ",", ":", "{", "}", "[", "]", "0", "-", "1.5", "e", " ", "\t",
                "\u{1}", "\\u", "n", "é", "\"version\": 3,", "\"x\": 1,",
            ]),
            replace in any::<bool>(),
        ) {
            let text = serialize_lock(&written);
            agrees(&crate::json::damaged(&text, at.index(text.len() + 1), with, replace))?;
        }
    }
}
