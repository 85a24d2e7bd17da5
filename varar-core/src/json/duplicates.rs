//! Keys written twice in one object, as data (issue 34). The config and
//! the lock keep the last value, as `JSON.parse` does; the config also says
//! which key was written again and where, so that a user who wrote `docs`
//! twice learns why the first one is ignored. The reader finds them while
//! it reads (the byte loop of `quick.rs` notes each repeat with its bytes);
//! only for text the byte loop leaves to serde_json (a `\u` escape of a
//! surrogate, nesting deeper than the loop reads) are they found in the
//! tree instead, without a place.

use std::collections::HashSet;

use super::node::{Node, TOP, member_at};
use super::quick::{self, Repeat};

/// Where a key is written: its line, and the columns of its opening quote
/// and just past its closing quote (1-based, in UTF-16 code units as every
/// column of Varar's model; a key never spans lines).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyPlace {
    /// 1-based line.
    pub line: u32,
    /// 1-based column of the opening quote.
    pub column: u32,
    /// 1-based column just past the closing quote.
    pub end_column: u32,
}

/// A key an object holds again: one per occurrence after the first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DuplicateKey {
    /// The object, named as the reader's errors name places ([`TOP`],
    /// `docs`, `x[2]`).
    pub at: String,
    /// The key, decoded.
    pub key: String,
    /// Where this occurrence is written (`None`: serde_json read the text).
    pub place: Option<KeyPlace>,
    /// Where the first occurrence in the same object is written.
    pub first: Option<KeyPlace>,
}

impl DuplicateKey {
    /// The key's own place: `docs.include`, or `docs` at the top level.
    pub fn path(&self) -> String {
        member_at(&self.at, &self.key)
    }
}

/// Parse `text` into a [`Node`] (as the strict reader does: every member
/// kept, duplicates included), with every key an object holds more than
/// once, in document order.
///
/// ```
/// use varar_core::json::{KeyPlace, parse_noting_duplicates};
/// let (_, dups) = parse_noting_duplicates("{\"docs\": {},\n \"docs\": 1}").unwrap();
/// assert_eq!(dups[0].path(), "docs");
/// let at = |line, column| Some(KeyPlace { line, column, end_column: column + 6 });
/// assert_eq!((dups[0].first, dups[0].place), (at(1, 2), at(2, 2)));
/// ```
pub fn parse_noting_duplicates(text: &str) -> Result<(Node, Vec<DuplicateKey>), serde_json::Error> {
    if let Some((node, repeats)) = quick::parse_noting_repeats(text) {
        let dups = placed(text, repeats);
        return Ok((node, dups));
    }
    let node: Node = serde_json::from_str(text)?;
    let mut dups = Vec::new();
    unplaced(&node, TOP, &mut dups);
    Ok((node, dups))
}

/// The repeats with their lines and columns, found in one pass over the
/// text whatever their number.
fn placed(text: &str, repeats: Vec<Repeat>) -> Vec<DuplicateKey> {
    let mut offsets: Vec<usize> = repeats
        .iter()
        .flat_map(|r| [r.bytes.start, r.bytes.end, r.first.start, r.first.end])
        .collect();
    offsets.sort_unstable();
    offsets.dedup();
    let mut positions = Vec::with_capacity(offsets.len());
    let (mut line, mut column, mut from) = (1u32, 1u32, 0usize);
    for &offset in &offsets {
        for c in text[from..offset].chars() {
            if c == '\n' {
                line = line.saturating_add(1);
                column = 1;
            } else {
                column = column.saturating_add(u32::try_from(c.len_utf16()).unwrap_or(2));
            }
        }
        from = offset;
        positions.push((line, column));
    }
    let at = |offset: usize| {
        offsets
            .binary_search(&offset)
            .ok()
            .map_or((0, 0), |i| positions[i])
    };
    let place = |bytes: &std::ops::Range<usize>| {
        let (line, column) = at(bytes.start);
        let (_, end_column) = at(bytes.end);
        Some(KeyPlace {
            line,
            column,
            end_column,
        })
    };
    repeats
        .into_iter()
        .map(|r| DuplicateKey {
            place: place(&r.bytes),
            first: place(&r.first),
            at: r.at,
            key: r.key,
        })
        .collect()
}

/// The repeated keys of the tree under `node` (at `at`), without places.
fn unplaced(node: &Node, at: &str, out: &mut Vec<DuplicateKey>) {
    match node {
        Node::Object(members) => {
            let mut seen = HashSet::with_capacity(members.len());
            for (key, value) in members {
                if !seen.insert(key.as_str()) {
                    out.push(DuplicateKey {
                        at: at.to_owned(),
                        key: key.clone(),
                        place: None,
                        first: None,
                    });
                }
                unplaced(value, &member_at(at, key), out);
            }
        }
        Node::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                unplaced(item, &format!("{at}[{i}]"), out);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dups(text: &str) -> Vec<DuplicateKey> {
        parse_noting_duplicates(text)
            .unwrap_or_else(|e| panic!("{e}"))
            .1
    }

    fn place(line: u32, column: u32, len: u32) -> Option<KeyPlace> {
        Some(KeyPlace {
            line,
            column,
            end_column: column + len,
        })
    }

    #[test]
    fn issue34_every_repeat_is_named_with_its_place_and_the_first() {
        let text = "{\n  \"docs\": {\"include\": [\"a\"], \"include\": []},\n  \"x\": [{\"k\": 1, \"k\": 2, \"k\": 3}],\n  \"docs\": null\n}\n";
        let found = dups(text);
        let named: Vec<(String, Option<KeyPlace>, Option<KeyPlace>)> =
            found.iter().map(|d| (d.path(), d.place, d.first)).collect();
        assert_eq!(
            named,
            [
                ("docs.include".to_owned(), place(2, 30, 9), place(2, 12, 9)),
                ("x[0].k".to_owned(), place(3, 18, 3), place(3, 10, 3)),
                ("x[0].k".to_owned(), place(3, 26, 3), place(3, 10, 3)),
                ("docs".to_owned(), place(4, 3, 6), place(2, 3, 6)),
            ]
        );
        assert_eq!(found[1].at, "x[0]");
        assert_eq!(found[3].at, TOP);
    }

    #[test]
    fn columns_count_utf16_units_and_keys_are_compared_decoded() {
        // `\u0061` is `a`; `é` is one unit, `😀` two.
        let found = dups("{\"é😀\": 1, \"a\": 2, \"\\u0061\": 3}");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].key, "a");
        assert_eq!(found[0].first, place(1, 12, 3));
        assert_eq!(found[0].place, place(1, 20, 8));
    }

    #[test]
    fn no_repeat_no_duplicate_and_the_tree_is_the_strict_reader_s() {
        let text = r#"{"a": {"a": 1}, "b": [{"a": 1}, {"a": 2}]}"#;
        let (node, found) = parse_noting_duplicates(text).unwrap_or_else(|e| panic!("{e}"));
        assert!(found.is_empty());
        assert_eq!(Some(node), crate::json::parse_text(text).ok());
        assert!(parse_noting_duplicates("{\"a\": ").is_err());
    }

    #[test]
    fn text_left_to_serde_json_still_names_its_repeats_without_a_place() {
        let text = r#"{"s": "\ud83d\ude00", "s": 1}"#;
        assert_eq!(
            dups(text),
            [DuplicateKey {
                at: TOP.to_owned(),
                key: "s".to_owned(),
                place: None,
                first: None,
            }]
        );
    }
}
