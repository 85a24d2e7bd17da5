//! The one strict reader of the project's JSON files: `varar.config.json`
//! (spec 40 §1), `varar.lock.json` (§4.4) and the run results (30 §30.8).
//!
//! Bytes become a [`Node`] tree whose objects keep every member as written,
//! duplicates included, so each format can apply its own rule: the results
//! refuse a repeated key ([`first_duplicate`]), the config and the lock take
//! the last one, as `JSON.parse` does ([`Object::get`]). Every problem is a
//! [`ReadError`] that names its place in the document
//! (`examples[2].failure.cells[0].from`), never a half-read value.

use std::fmt;

pub use super::node::{Node, TOP, member_at};
use super::{quick, scan};
use serde::de::{
    self, Deserialize, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor,
};

/// Why JSON bytes were refused. `at` names the place in the document.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    /// The bytes are not UTF-8.
    #[error("not valid UTF-8: {source}")]
    NotUtf8 {
        /// Where decoding failed.
        #[source]
        source: std::str::Utf8Error,
    },
    /// The text is not JSON (merge-conflict markers, truncation, a BOM …);
    /// serde_json's message carries the line and column.
    #[error("invalid JSON: {source}")]
    Json {
        /// The parser's error.
        #[source]
        source: serde_json::Error,
    },
    /// An object holds the same key twice (for formats that refuse it).
    #[error("{at} has the key \"{key}\" twice")]
    DuplicateKey {
        /// The object.
        at: String,
        /// The repeated key, decoded (`"\u0076ersion"` is `version`).
        key: String,
    },
    /// Valid JSON of the wrong shape.
    #[error("{at} {expected}")]
    Shape {
        /// Where in the document, e.g. `oaths["a.md"].examples[2].line`.
        at: String,
        /// What was expected there, e.g. `must be an integer`.
        expected: &'static str,
    },
}

impl ReadError {
    /// A shape error at `at`.
    pub fn shape(at: impl Into<String>, expected: &'static str) -> ReadError {
        ReadError::Shape {
            at: at.into(),
            expected,
        }
    }
}

/// Decode `bytes` as UTF-8 and parse them into a [`Node`].
///
/// ```
/// use varar_core::json::{Node, parse};
/// let node = parse(br#"{"a": 1, "a": 2}"#).unwrap();
/// assert_eq!(node.as_object("x").unwrap().get("a"), Some(&Node::Number(2.into())));
/// assert!(parse(b"{\"a\": ").is_err());
/// ```
pub fn parse(bytes: &[u8]) -> Result<Node, ReadError> {
    parse_text(utf8(bytes)?)
}

/// Parse text into a [`Node`].
pub fn parse_text(text: &str) -> Result<Node, ReadError> {
    node_of(text).map_err(|source| ReadError::Json { source })
}

/// Parse text into a [`Node`], or say why serde_json cannot.
pub(crate) fn node_of(text: &str) -> Result<Node, serde_json::Error> {
    // The byte loop reads the usual text; serde_json the rest, and names
    // every problem.
    match quick::parse(text) {
        Some(node) => Ok(node),
        None => serde_json::from_str(text),
    }
}

/// Decode `bytes` as UTF-8, or say where they are not.
pub fn utf8(bytes: &[u8]) -> Result<&str, ReadError> {
    std::str::from_utf8(bytes).map_err(|source| ReadError::NotUtf8 { source })
}

/// The first object, in document order, that repeats a key, as a
/// [`ReadError::DuplicateKey`]; `at` names `node` ([`TOP`] for a document).
pub fn first_duplicate(node: &Node, at: &str) -> Result<(), ReadError> {
    match node {
        Node::Object(members) => {
            for (i, (key, value)) in members.iter().enumerate() {
                if members[..i].iter().any(|(k, _)| k == key) {
                    return Err(ReadError::DuplicateKey {
                        at: at.to_owned(),
                        key: key.clone(),
                    });
                }
                first_duplicate(value, &member_at(at, key))?;
            }
            Ok(())
        }
        Node::Array(items) => items
            .iter()
            .enumerate()
            .try_for_each(|(i, item)| first_duplicate(item, &format!("{at}[{i}]"))),
        _ => Ok(()),
    }
}

/// The members of one object.
#[derive(Clone, Copy, Debug)]
pub struct Object<'a> {
    members: &'a [(String, Node)],
    at: &'a str,
}

impl<'a> Object<'a> {
    /// The value of `key`: its last occurrence, as `JSON.parse` keeps it.
    pub fn get(&self, key: &str) -> Option<&'a Node> {
        self.members
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }

    /// The value of `key`, or a shape error naming it as missing.
    pub fn required(&self, key: &str) -> Result<&'a Node, ReadError> {
        self.get(key)
            .ok_or_else(|| ReadError::shape(member_at(self.at, key), "is missing"))
    }

    /// Every member in document order, duplicates included.
    pub fn members(&self) -> &'a [(String, Node)] {
        self.members
    }

    /// The distinct keys in order of first occurrence, each with its last
    /// value: the object `JSON.parse` builds.
    pub fn last_wins(&self) -> Vec<(&'a str, &'a Node)> {
        let mut out: Vec<(&str, &Node)> = Vec::with_capacity(self.members.len());
        for (key, value) in self.members {
            match out.iter_mut().find(|(k, _)| *k == key.as_str()) {
                Some(slot) => slot.1 = value,
                None => out.push((key, value)),
            }
        }
        out
    }

    /// Where this object is.
    pub fn at(&self) -> &'a str {
        self.at
    }
}

impl Node {
    /// This node as an object named `at`, or a shape error.
    pub fn as_object<'a>(&'a self, at: &'a str) -> Result<Object<'a>, ReadError> {
        match self {
            Node::Object(members) => Ok(Object { members, at }),
            _ => Err(ReadError::shape(at, "must be an object")),
        }
    }

    /// This node as an array, or a shape error at `at`.
    pub fn as_array(&self, at: &str) -> Result<&[Node], ReadError> {
        match self {
            Node::Array(items) => Ok(items),
            _ => Err(ReadError::shape(at, "must be an array")),
        }
    }

    /// This node as a string, or a shape error at `at`.
    pub fn as_str(&self, at: &str) -> Result<&str, ReadError> {
        match self {
            Node::String(s) => Ok(s),
            _ => Err(ReadError::shape(at, "must be a string")),
        }
    }

    /// This node as an integer in the `Number.isInteger` sense (`5.0`
    /// counts, as JavaScript writers produce it) that fits an `i64`.
    pub fn as_integer(&self) -> Option<i64> {
        match self {
            Node::Number(n) => integer(n),
            _ => None,
        }
    }

    /// This node as an integer from 0 to 2^32 − 1 (a line or an offset),
    /// or a shape error at `at`.
    pub fn as_u32(&self, at: &str) -> Result<u32, ReadError> {
        match self {
            Node::Number(_) => self
                .as_integer()
                .and_then(|i| u32::try_from(i).ok())
                .ok_or_else(|| ReadError::shape(at, "must be an integer from 0 to 4294967295")),
            _ => Err(ReadError::shape(at, "must be a number")),
        }
    }

    /// The node as JSON text (for messages that quote a value).
    pub fn to_json_text(&self) -> String {
        match self {
            Node::Null => "null".into(),
            Node::Bool(b) => b.to_string(),
            Node::Number(n) => n.to_string(),
            Node::String(s) => {
                let mut out = String::new();
                super::write_string(&mut out, s);
                out
            }
            Node::Array(items) => {
                let parts: Vec<String> = items.iter().map(Node::to_json_text).collect();
                format!("[{}]", parts.join(","))
            }
            Node::Object(members) => {
                let parts: Vec<String> = members
                    .iter()
                    .map(|(k, v)| {
                        let mut key = String::new();
                        super::write_string(&mut key, k);
                        format!("{key}:{}", v.to_json_text())
                    })
                    .collect();
                format!("{{{}}}", parts.join(","))
            }
        }
    }
}

/// A JSON number that is an integer in the `Number.isInteger` sense and
/// fits an `i64`.
pub fn integer(n: &serde_json::Number) -> Option<i64> {
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

/// Parse a document whose top level is an object, keeping of the object
/// member `keyed` only the entries whose key `keep` accepts: the others are
/// checked for JSON syntax and skipped without being built (a large lock
/// read for one oath). `None` when the text is not such an object; the
/// caller then reads it whole to say what is wrong.
pub fn parse_keeping(text: &str, keyed: &str, keep: &dyn Fn(&str) -> bool) -> Option<Node> {
    scanned_keeping(text, keyed, keep).or_else(|| deserialized_keeping(text, keyed, keep))
}

/// Parse only the members of the top-level object of `text` whose key
/// `keep` accepts; the others are scanned for JSON syntax and skipped
/// without being built (the header of a large run record). `None` when the
/// text is not such an object, or at the first doubt: the caller then reads
/// it whole to say what is wrong.
pub fn parse_members(text: &str, keep: &dyn Fn(&str) -> bool) -> Option<Node> {
    let (top, end) = scan::object_members(text, 0)?;
    if !scan::only_ws_after(text, end) {
        return None;
    }
    let mut members = Vec::new();
    for member in top {
        let key = decoded_key(member.raw_key)?;
        if keep(&key) {
            members.push((key, parse_text(&text[member.value]).ok()?));
        }
    }
    Some(Node::Object(members))
}

/// [`parse_keeping`] by a structural scan: every member but the skipped
/// entries is read strictly, the skipped ones are only scanned (brackets,
/// strings, JSON's characters). `None` at the first doubt, and the
/// deserialiser decides.
fn scanned_keeping(text: &str, keyed: &str, keep: &dyn Fn(&str) -> bool) -> Option<Node> {
    let pretty = (!keyed.contains(['"', '\\']))
        .then(|| scan::pretty_members(text, 0, Some(keyed)))
        .flatten();
    let (top, end, mut inner) = match pretty {
        Some(p) => (p.members, p.end, p.inner),
        None => {
            let (members, end) = scan::object_members(text, 0)?;
            (members, end, None)
        }
    };
    if !scan::only_ws_after(text, end) {
        return None;
    }
    let mut members = Vec::with_capacity(top.len());
    for member in top {
        let key = decoded_key(member.raw_key)?;
        let value = if key == keyed {
            let entries = match inner.take() {
                Some(entries) => entries,
                None => scan::object_members(text, member.value.start)?.0,
            };
            let mut kept = Vec::new();
            for entry in entries {
                let key = decoded_key(entry.raw_key)?;
                if keep(&key) {
                    kept.push((key, parse_text(&text[entry.value]).ok()?));
                }
            }
            Node::Object(kept)
        } else {
            parse_text(&text[member.value]).ok()?
        };
        members.push((key, value));
    }
    Some(Node::Object(members))
}

/// A key as written between its quotes, decoded.
fn decoded_key(raw: &str) -> Option<String> {
    if raw.contains('\\') {
        serde_json::from_str(&format!("\"{raw}\"")).ok()
    } else {
        Some(raw.to_owned())
    }
}

/// [`parse_keeping`] by serde_json: the skipped entries checked for JSON
/// syntax.
fn deserialized_keeping(text: &str, keyed: &str, keep: &dyn Fn(&str) -> bool) -> Option<Node> {
    let mut de = serde_json::Deserializer::from_str(text);
    let seed = Filtered {
        keyed: Some(keyed),
        keep,
    };
    let node = seed.deserialize(&mut de).ok()?;
    de.end().ok()?;
    Some(node)
}

/// An object read by [`parse_keeping`]: at the top (`keyed` set) every
/// member is kept and the member `keyed` is filtered; inside it (`keyed`
/// unset) only the entries `keep` accepts are built.
struct Filtered<'a> {
    keyed: Option<&'a str>,
    keep: &'a dyn Fn(&str) -> bool,
}

impl<'de> DeserializeSeed<'de> for Filtered<'_> {
    type Value = Node;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Node, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Filtered<'_> {
    type Value = Node;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let mut members = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            match self.keyed {
                Some(keyed) if key == keyed => {
                    let inner = Filtered {
                        keyed: None,
                        keep: self.keep,
                    };
                    members.push((key, map.next_value_seed(inner)?));
                }
                Some(_) => members.push((key, map.next_value::<Node>()?)),
                None if (self.keep)(&key) => members.push((key, map.next_value::<Node>()?)),
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(Node::Object(members))
    }
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
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Node, E> {
        Ok(Node::Bool(v))
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
mod tests {
    use super::*;

    fn node(text: &str) -> Node {
        parse(text.as_bytes()).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn objects_keep_every_member_and_get_takes_the_last() {
        let n = node(r#"{"a": 1, "b": [true, null], "a": "x"}"#);
        let obj = n.as_object(TOP).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(obj.members().len(), 3);
        assert_eq!(obj.get("a"), Some(&Node::String("x".into())));
        let keys: Vec<&str> = obj.last_wins().iter().map(|(k, _)| *k).collect();
        assert_eq!(keys, ["a", "b"]);
        assert!(matches!(obj.required("c"), Err(ReadError::Shape { at, .. }) if at == "c"));
    }

    #[test]
    fn duplicates_are_found_with_their_place_by_decoded_name() {
        let n = node(r#"{"x": [{"k": 1}, {"k": 1, "\u006b": 2}]}"#);
        let err = first_duplicate(&n, TOP).err().map(|e| e.to_string());
        assert_eq!(err.as_deref(), Some("x[1] has the key \"k\" twice"));
        assert!(first_duplicate(&node(r#"{"a": {"a": 1}}"#), TOP).is_ok());
    }

    #[test]
    fn integers_in_the_javascript_sense() {
        assert_eq!(node("5.0").as_integer(), Some(5));
        assert_eq!(node("5.5").as_integer(), None);
        assert_eq!(node("-7").as_integer(), Some(-7));
        assert_eq!(node("1e300").as_integer(), None);
        assert!(node("-1").as_u32("x").is_err());
        assert_eq!(node("4294967295").as_u32("x").ok(), Some(u32::MAX));
    }

    #[test]
    fn errors_name_utf8_and_syntax() {
        assert!(matches!(parse(b"\xff"), Err(ReadError::NotUtf8 { .. })));
        let json = parse(b"{\n  \"a\": ")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            json.starts_with("invalid JSON: ") && json.contains("line 2"),
            "{json}"
        );
    }

    #[test]
    fn a_filtered_read_skips_unwanted_entries_unbuilt() {
        let text = r#"{"v": 2, "oaths": {"a": {"x": 1}, "b": [1, 2]}, "w": 1}"#;
        let node = parse_keeping(text, "oaths", &|k| k == "a").unwrap_or(Node::Null);
        assert_eq!(
            node,
            self::node(r#"{"v": 2, "oaths": {"a": {"x": 1}}, "w": 1}"#)
        );
        assert_eq!(parse_keeping("[1]", "oaths", &|_| true), None);
        assert_eq!(parse_keeping(r#"{"oaths": 3}"#, "oaths", &|_| true), None);
        assert_eq!(
            parse_keeping(r#"{"oaths": {"a": }}"#, "oaths", &|_| false),
            None
        );
    }

    #[test]
    fn the_scan_keeps_what_the_deserialiser_keeps() {
        let texts = [
            r#"{"v": 2, "oaths": {"a": {"x": 1}, "b": [1, 2]}, "w": 1}"#,
            "{\n  \"version\": 2,\n  \"oaths\": {\n    \"b\": {\"n\": \"q \\\" } ] {\"},\n    \"a\": {\"n\": \"x\\\\\", \"l\": [1.5e3, -2, true, null, false]}\n  }\n}\n",
            r#"{"oaths": {"\u0061": {"k": "é"}, "a": 1, "c": {"d": {"e": [[], {}]}}}}"#,
            r#"{"oaths": {}, "oaths": {"a": "twice"}}"#,
            r#"{}"#,
            "{\n  \"version\": 2,\n  \"oaths\": {\n    \"a\": {\n      \"k\": [\n        1\n      ]\n    },\n    \"b\": 3,\n    \"c\": {\n      \"s\": \"}\\\"\\n\"\n    }\n  }\n}\n",
            "{\n  \"oaths\": {\n    \"b\": [\n      true\n    ],\n    \"a\": \"x\"\n  },\n  \"v\": {}\n}",
        ];
        for text in &texts[5..] {
            let top = scan::pretty_members(text, 0, Some("oaths"));
            let counts = top.map(|p| (p.members.len(), p.inner.map(|i| i.len())));
            assert!(
                matches!(counts, Some((2, Some(2..)))),
                "the writer's layout: {text}"
            );
        }
        for text in texts {
            let keep = |k: &str| k == "a";
            let scanned = scanned_keeping(text, "oaths", &keep);
            assert!(scanned.is_some(), "{text}");
            assert_eq!(
                scanned,
                deserialized_keeping(text, "oaths", &keep),
                "{text}"
            );
        }
    }

    #[test]
    fn the_scan_leaves_doubtful_text_to_the_deserialiser() {
        for text in [
            "<<<<<<< HEAD\n{}",
            r#"{"oaths": {"b": {"x": <<<}, "a": 1}}"#,
            r#"{"oaths": {"b": {"x": [1}, "a": 1}}"#,
            r#"{"oaths": {"b": "open, "a": 1}}"#,
            r#"{"oaths": {"a": 1}} trailing"#,
            r#"{"oaths": {"a": 1,}}"#,
            "{\n  \"oaths\": {\n    \"a\": 1,\n  garbage\n  }\n}",
        ] {
            assert_eq!(
                scanned_keeping(text, "oaths", &|k| k == "a"),
                None,
                "{text}"
            );
        }
    }

    #[test]
    fn json_text_of_a_node() {
        let n = node(r#"{"a": [1, "x\n", null, true]}"#);
        assert_eq!(n.to_json_text(), r#"{"a":[1,"x\n",null,true]}"#);
    }
}
