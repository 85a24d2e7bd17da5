//! The quick path of the strict reader: JSON text built into a [`Node`] by
//! a plain byte loop. In an unoptimised build (a user's `cargo test`)
//! serde_json's generic deserialiser costs some six hundred instructions a
//! byte of a lock or a results file; this loop a few tens.
//!
//! It decides only what it decides exactly as serde_json does: plain and
//! simply escaped strings, non-negative integers that fit a `u64`, the
//! literals, objects and arrays nested less deeply than serde_json's limit.
//! Anything else (a number of another form is handed to serde_json itself),
//! and every error, answers `None`: the caller then parses the text with
//! serde_json, which reads it or names the problem.

use std::borrow::Cow;
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::ops::Range;

use super::node::{Node, TOP, member_at};

/// Nesting deeper than this is left to serde_json (whose limit is 128).
const MAX_DEPTH: usize = 100;

/// `text` as a [`Node`], or `None` when serde_json must decide.
pub(super) fn parse(text: &str) -> Option<Node> {
    read(text, None)
}

/// A key written again in the same object, as the byte loop met it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Repeat {
    /// The object's place ([`TOP`], `docs`, `x[2]`).
    pub at: String,
    /// The key, decoded.
    pub key: String,
    /// The bytes of this occurrence, quotes included.
    pub bytes: Range<usize>,
    /// The bytes of the first occurrence in that object.
    pub first: Range<usize>,
}

/// [`parse`], and every key an object of `text` holds more than once (each
/// occurrence after the first, in document order).
pub(super) fn parse_noting_repeats(text: &str) -> Option<(Node, Vec<Repeat>)> {
    let mut track = Track::default();
    let node = read(text, Some(&mut track))?;
    Some((node, track.repeats))
}

fn read(text: &str, track: Option<&mut Track>) -> Option<Node> {
    let mut reader = Reader {
        bytes: text.as_bytes(),
        text,
        at: 0,
        depth: 0,
        track,
    };
    let node = reader.value()?;
    reader.skip_ws();
    (reader.at == reader.bytes.len()).then_some(node)
}

/// What [`parse_noting_repeats`] keeps while it reads.
#[derive(Default)]
struct Track {
    /// The path to the value being read: keys and array indexes.
    path: Vec<Step>,
    repeats: Vec<Repeat>,
}

enum Step {
    Key(String),
    Index(usize),
}

impl Track {
    /// The place of the value the path leads to, named as the reader's
    /// errors name places.
    fn place(&self) -> String {
        let mut at = TOP.to_owned();
        for step in &self.path {
            at = match step {
                Step::Key(key) => member_at(&at, key),
                Step::Index(i) => format!("{at}[{i}]"),
            };
        }
        at
    }
}

/// The byte loop. With no [`Track`], it is also the cursor of a reader
/// that builds its own types as it goes instead of a [`Node`] tree (the
/// lock, `lock/quick.rs`): [`Cursor`].
pub(crate) struct Reader<'t, 'k> {
    text: &'t str,
    bytes: &'t [u8],
    at: usize,
    depth: usize,
    track: Option<&'k mut Track>,
}

/// The byte loop's primitives for a reader that builds its own types.
/// Each answers `None` where the tree reader declines or fails, so that a
/// caller that declines on every `None` never reads a text otherwise than
/// [`parse`] and serde_json after it would.
pub(crate) type Cursor<'t> = Reader<'t, 'static>;

impl<'t> Cursor<'t> {
    /// A cursor at the start of `text`.
    pub(crate) fn new(text: &'t str) -> Cursor<'t> {
        Reader {
            bytes: text.as_bytes(),
            text,
            at: 0,
            depth: 0,
            track: None,
        }
    }

    /// Past `byte`, the next byte after whitespace; `None` if it is another.
    pub(crate) fn eat(&mut self, byte: u8) -> Option<()> {
        (self.peek()? == byte).then(|| self.at += 1)
    }

    /// The next value, which must be a string, decoded.
    pub(crate) fn string_value(&mut self) -> Option<String> {
        if self.peek()? != b'"' {
            return None;
        }
        self.string()
    }

    /// The next member's key, decoded (borrowed from the text when it
    /// holds no escape), and the colon after it.
    pub(crate) fn key(&mut self) -> Option<Cow<'t, str>> {
        if self.peek()? != b'"' {
            return None;
        }
        let key = self.string_in_place()?;
        self.eat(b':')?;
        Some(key)
    }

    /// The next value, which must be an object: each member's key given to
    /// `member`, which reads the member's value.
    pub(crate) fn members(
        &mut self,
        mut member: impl FnMut(&mut Self, Cow<'t, str>) -> Option<()>,
    ) -> Option<()> {
        self.eat(b'{')?;
        self.separated(b'}', |c| {
            let key = c.key()?;
            member(c, key)
        })
    }

    /// The next value, which must be an array, each element read by
    /// `element`.
    pub(crate) fn elements(&mut self, element: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        self.eat(b'[')?;
        self.separated(b']', element)
    }

    /// The next value, which must be a number written as a plain
    /// non-negative integer that fits a `u64` (`0`, `12`; not `012`, `-1`,
    /// `1.0`, `1e2`).
    pub(crate) fn unsigned(&mut self) -> Option<u64> {
        if !self.peek()?.is_ascii_digit() {
            return None;
        }
        match self.number()? {
            Node::Number(n) => n.as_u64(),
            _ => None,
        }
    }

    /// Whether only whitespace is left.
    pub(crate) fn at_end(&mut self) -> bool {
        self.skip_ws();
        self.at == self.bytes.len()
    }
}

impl<'t> Reader<'t, '_> {
    fn skip_ws(&mut self) {
        while self.at < self.bytes.len()
            && matches!(self.bytes[self.at], b' ' | b'\n' | b'\r' | b'\t')
        {
            self.at += 1;
        }
    }

    /// The next byte after whitespace, not consumed.
    fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.bytes.get(self.at).copied()
    }

    fn value(&mut self) -> Option<Node> {
        match self.peek()? {
            b'{' => self.nested(Reader::object),
            b'[' => self.nested(Reader::array),
            b'"' => self.string().map(Node::String),
            b't' => self.literal("true", Node::Bool(true)),
            b'f' => self.literal("false", Node::Bool(false)),
            b'n' => self.literal("null", Node::Null),
            b'-' | b'0'..=b'9' => self.number(),
            _ => None,
        }
    }

    fn nested(&mut self, read: fn(&mut Self) -> Option<Node>) -> Option<Node> {
        if self.depth >= MAX_DEPTH {
            return None;
        }
        self.depth += 1;
        self.at += 1;
        let node = read(self);
        self.depth -= 1;
        node
    }

    fn literal(&mut self, word: &str, node: Node) -> Option<Node> {
        let end = self.at + word.len();
        (self.bytes.get(self.at..end) == Some(word.as_bytes())).then(|| {
            self.at = end;
            node
        })
    }

    /// After `{`.
    fn object(&mut self) -> Option<Node> {
        let mut members = Vec::new();
        // Where each key was first written, when repeats are noted.
        let mut seen: HashMap<String, Range<usize>> = HashMap::new();
        self.separated(b'}', |r| {
            if r.peek()? != b'"' {
                return None;
            }
            let start = r.at;
            let key = r.string()?;
            let written = start..r.at;
            if r.peek()? != b':' {
                return None;
            }
            r.at += 1;
            let Some(track) = r.track.as_deref_mut() else {
                members.push((key, r.value()?));
                return Some(());
            };
            match seen.entry(key.clone()) {
                Entry::Occupied(first) => track.repeats.push(Repeat {
                    at: track.place(),
                    key: key.clone(),
                    bytes: written,
                    first: first.get().clone(),
                }),
                Entry::Vacant(slot) => {
                    slot.insert(written);
                }
            }
            track.path.push(Step::Key(key));
            let value = r.value();
            let Some(Step::Key(key)) = r.track.as_deref_mut().and_then(|t| t.path.pop()) else {
                return None;
            };
            members.push((key, value?));
            Some(())
        })?;
        Some(Node::Object(members))
    }

    /// After `[`.
    fn array(&mut self) -> Option<Node> {
        let mut items = Vec::new();
        self.separated(b']', |r| {
            let index = items.len();
            if let Some(track) = r.track.as_deref_mut() {
                track.path.push(Step::Index(index));
            }
            let item = r.value();
            if let Some(track) = r.track.as_deref_mut() {
                track.path.pop();
            }
            items.push(item?);
            Some(())
        })?;
        Some(Node::Array(items))
    }

    /// After an opening bracket: what `element` reads, separated by commas,
    /// up to and past `close` (no trailing comma, as JSON has none).
    pub(crate) fn separated(
        &mut self,
        close: u8,
        mut element: impl FnMut(&mut Self) -> Option<()>,
    ) -> Option<()> {
        if self.peek()? == close {
            self.at += 1;
            return Some(());
        }
        loop {
            element(self)?;
            match self.peek()? {
                b',' => self.at += 1,
                c if c == close => {
                    self.at += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    /// At `"`: the decoded string, the reader after its closing quote.
    fn string(&mut self) -> Option<String> {
        self.string_in_place().map(Cow::into_owned)
    }

    /// [`Reader::string`], borrowed from the text when it holds no escape.
    fn string_in_place(&mut self) -> Option<Cow<'t, str>> {
        self.at += 1;
        let start = self.at;
        let text = self.text;
        // The plain case: no escape before the closing quote.
        while self.at < self.bytes.len() {
            match self.bytes[self.at] {
                b'"' => {
                    let s = &text[start..self.at];
                    self.at += 1;
                    return Some(Cow::Borrowed(s));
                }
                b'\\' => break,
                0x00..=0x1f => return None,
                _ => self.at += 1,
            }
        }
        let mut out = String::from(&self.text[start..self.at]);
        let mut run = self.at;
        while self.at < self.bytes.len() {
            match self.bytes[self.at] {
                b'"' => {
                    out.push_str(&self.text[run..self.at]);
                    self.at += 1;
                    return Some(Cow::Owned(out));
                }
                b'\\' => {
                    out.push_str(&self.text[run..self.at]);
                    out.push(self.escape()?);
                    run = self.at;
                }
                0x00..=0x1f => return None,
                _ => self.at += 1,
            }
        }
        None
    }

    /// At `\`: the escaped character, the reader after it. A `\u` escape
    /// of a surrogate is left to serde_json (pairs, and its errors).
    fn escape(&mut self) -> Option<char> {
        let c = match *self.bytes.get(self.at + 1)? {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let hex = self.text.get(self.at + 2..self.at + 6)?;
                if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                    return None;
                }
                let code = u32::from_str_radix(hex, 16).ok()?;
                self.at += 6;
                // `from_u32` refuses exactly the surrogates.
                return char::from_u32(code);
            }
            _ => return None,
        };
        self.at += 2;
        Some(c)
    }

    /// A number: a non-negative integer that fits a `u64` is read here,
    /// any other form by serde_json itself (so `-0`, `1.0` and `1e400`
    /// read exactly as serde_json reads them).
    fn number(&mut self) -> Option<Node> {
        let start = self.at;
        while self.at < self.bytes.len()
            && matches!(
                self.bytes[self.at],
                b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'
            )
        {
            self.at += 1;
        }
        let token = &self.text[start..self.at];
        let plain = token.bytes().all(|b| b.is_ascii_digit())
            && (token.len() == 1 || !token.starts_with('0'))
            && token.len() <= 19;
        if plain {
            return token.parse::<u64>().ok().map(|n| Node::Number(n.into()));
        }
        serde_json::from_str::<serde_json::Number>(token)
            .ok()
            .map(Node::Number)
    }
}

/// `text` damaged for the readers' property tests: `with` put in at byte
/// `at` (moved back to a character boundary), over the character there
/// when `replace` is set.
#[cfg(test)]
pub(crate) fn damaged(text: &str, at: usize, with: &str, replace: bool) -> String {
    let mut cut = at.min(text.len());
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let rest = if replace {
        text[cut..].chars().skip(1).collect::<String>()
    } else {
        text[cut..].to_owned()
    };
    format!("{}{with}{rest}", &text[..cut])
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// What serde_json's own path makes of `text`.
    fn serde(text: &str) -> Option<Node> {
        serde_json::from_str::<Node>(text).ok()
    }

    /// The contract: the quick path never disagrees with serde_json; it
    /// only declines.
    fn agrees(text: &str) -> Result<(), TestCaseError> {
        let noting = parse_noting_repeats(text).map(|(node, _)| node);
        if let Some(quick) = parse(text) {
            prop_assert_eq!(
                noting,
                Some(quick.clone()),
                "noting repeats reads the same: {}",
                text
            );
            prop_assert_eq!(Some(quick), serde(text), "{}", text);
        } else {
            prop_assert_eq!(noting, None, "{}", text);
        }
        Ok(())
    }

    #[test]
    fn it_reads_what_serde_json_reads_and_declines_the_rest() {
        let read = [
            r#"{"a": [1, 0, true, false, null, "x"], "a": {}}"#,
            r#"  "caf\u00e9 \"q\" \\ \/ \b\f\n\r\t"  "#,
            "18446744073709551615",
            "-0",
            "-12",
            "1.0",
            "1e5",
            "[[], {}, [{}]]",
        ];
        for text in read {
            assert!(parse(text).is_some(), "{text}");
            assert_eq!(parse(text), serde(text), "{text}");
        }
        let declined = [
            r#""\ud83d\ude00""#,
            r#""\ud800""#,
            "18446744073709551616",
            "1e400",
            "01",
            "[1,]",
            r#"{"a":1,}"#,
            "\"tab\tin\"",
            r#"{"a" 1}"#,
            "true x",
            "",
            "nul",
            r#""\x""#,
            r#""\u12""#,
            "\u{feff}{}",
        ];
        for text in declined {
            // Declined, or read exactly as serde_json reads it.
            if let Some(node) = parse(text) {
                assert_eq!(Some(node), serde(text), "{text}");
            }
        }
        assert_eq!(
            parse(r#""\ud83d\ude00""#),
            None,
            "surrogates go to serde_json"
        );
        assert_eq!(
            parse("18446744073709551616"),
            serde("18446744073709551616"),
            "a u64 overflow is serde_json's float"
        );
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert_eq!(
            parse(&deep),
            None,
            "deeper than the limit: serde_json decides"
        );
        let ok = format!("{}{}", "[".repeat(50), "]".repeat(50));
        assert_eq!(parse(&ok), serde(&ok));
    }

    fn value() -> impl Strategy<Value = serde_json::Value> {
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(serde_json::Value::Bool),
            any::<u64>().prop_map(|n| n.into()),
            any::<i64>().prop_map(|n| n.into()),
            (-1e6f64..1e6).prop_map(|f| f.into()),
            any::<String>().prop_map(serde_json::Value::String),
        ];
        leaf.prop_recursive(4, 32, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::Array),
                prop::collection::vec((any::<String>(), inner), 0..6)
                    .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn serialised_values_read_as_serde_json_reads_them(v in value()) {
            for text in [
                serde_json::to_string(&v).unwrap_or_default(),
                serde_json::to_string_pretty(&v).unwrap_or_default(),
            ] {
                agrees(&text)?;
            }
        }

        #[test]
        fn damaged_text_is_declined_or_read_as_serde_json_reads_it(
            v in value(),
            at in any::<prop::sample::Index>(),
            with in prop::sample::select(vec![
                "", "\"", "\\", ",", ":", "{", "}", "[", "]", "0", "-", "e", ".", " ", "\t",
                "\u{1}", "\\u", "n", "é",
            ]),
            replace in any::<bool>(),
        ) {
            let text = serde_json::to_string(&v).unwrap_or_default();
            agrees(&damaged(&text, at.index(text.len() + 1), with, replace))?;
        }
    }
}
