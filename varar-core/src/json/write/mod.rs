//! Byte-stable JSON text (spec 40 §1.4, §4.3, §6): the string escaping of
//! `JSON.stringify` and a two-space pretty printer whose object key order is
//! chosen by the caller. The lock, the canonical config projection and the
//! run-result files all go through here, so their bytes never depend on how
//! `serde_json::Map` happens to be ordered in this build.

use std::cmp::Ordering;
use std::fmt::Write as _;

use serde_json::Value;

mod numbers;

pub(crate) use numbers::{push_int, push_uint};

/// The name of an object's member as [`Pretty`] writes it before the
/// value, `"name": `, quoted when the program is built (by this crate's
/// `key!`). Writing the quotes and the colon at every member took three
/// appends, each a call in an unoptimised build, the profile users' tests
/// run in; a run record writes eight members for each of its items.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key(&'static str);

/// `Some(`[`Key`]`)` of the member `$name`, which must be ASCII letters
/// and digits (they need no escape): checked when the program is built.
macro_rules! key {
    ($name:literal) => {{
        const KEY: $crate::json::write::Key =
            $crate::json::write::Key::quoted($name, concat!("\"", $name, "\": "));
        Some(KEY)
    }};
}
pub(crate) use key;

impl Key {
    /// The key of the member `name`, whose text, `"name": `, is `text`
    /// (what `key!` gives). In a constant, as `key!` makes it, a name that
    /// is not ASCII letters and digits does not build.
    pub(crate) const fn quoted(name: &str, text: &'static str) -> Key {
        let bytes = name.as_bytes();
        assert!(!bytes.is_empty(), "a member's name");
        let mut i = 0;
        while i < bytes.len() {
            assert!(
                bytes[i].is_ascii_alphanumeric(),
                "a member's name is ASCII letters and digits"
            );
            i += 1;
        }
        Key(text)
    }

    /// Its text: the name, quoted, and the colon and space after it.
    pub fn text(self) -> &'static str {
        self.0
    }
}

/// Append `s` as a JSON string literal, escaped exactly as `JSON.stringify`
/// does (spec 40 §4.3): `"` `\` and U+0000–U+001F only, the usual short forms,
/// `\u00xx` in lowercase hex for the rest; everything else raw UTF-8.
pub fn write_string(out: &mut String, s: &str) {
    out.push('"');
    // Runs of bytes that need no escape are copied whole: only ASCII
    // bytes are ever escaped, so every run ends on a character boundary.
    let bytes = s.as_bytes();
    let mut run = 0;
    while let Some(at) = first_escape(&bytes[run..]).map(|k| run + k) {
        out.push_str(&s[run..at]);
        match bytes[at] {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            0x08 => out.push_str("\\b"),
            b'\t' => out.push_str("\\t"),
            b'\n' => out.push_str("\\n"),
            0x0c => out.push_str("\\f"),
            b'\r' => out.push_str("\\r"),
            b => {
                // Writing into a String cannot fail.
                let _ = write!(out, "\\u{:04x}", b);
            }
        }
        run = at + 1;
    }
    out.push_str(&s[run..]);
    out.push('"');
}

/// Where the first byte of `bytes` that needs an escape is. Optimised,
/// eight bytes are looked at a time (names and paths, the bulk of every
/// file, rarely hold one); the lowest byte the word test flags is exact.
/// Unoptimised (debug assertions on, as in the dev profile), a plain
/// index loop is quicker: the word's chunking and conversions are calls
/// there.
fn first_escape(bytes: &[u8]) -> Option<usize> {
    if cfg!(debug_assertions) {
        first_escape_bytewise(bytes)
    } else {
        first_escape_wordwise(bytes)
    }
}

/// [`first_escape`] a byte at a time.
fn first_escape_bytewise(bytes: &[u8]) -> Option<usize> {
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b <= b'\\' && (b < 0x20 || b == b'"' || b == b'\\') {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// [`first_escape`] eight bytes at a time.
fn first_escape_wordwise(bytes: &[u8]) -> Option<usize> {
    let mut words = bytes.chunks_exact(8);
    let mut base = 0;
    for word in &mut words {
        let Ok(word) = <[u8; 8]>::try_from(word) else {
            break;
        };
        let flags = escape_flags(u64::from_le_bytes(word));
        if flags != 0 {
            return Some(base + (flags.trailing_zeros() / 8) as usize);
        }
        base += 8;
    }
    words
        .remainder()
        .iter()
        .position(|&b| b < 0x20 || b == b'"' || b == b'\\')
        .map(|k| base + k)
}

/// The high bit of each of the eight bytes of `word` that is below 0x20,
/// `"` or `\` (the word-at-a-time tests "has a byte less than n" and "has
/// a zero byte"): exact for the lowest such byte, and zero when there is
/// none; a higher byte may be flagged wrongly after a true one.
fn escape_flags(word: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let zero_in = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
    let below_space = word.wrapping_sub(ONES * 0x20) & !word & HIGH;
    below_space
        | zero_in(word ^ (ONES * u64::from(b'"')))
        | zero_in(word ^ (ONES * u64::from(b'\\')))
}

/// A writer of pretty JSON as `serde_json::to_string_pretty` (and
/// `JSON.stringify(value, null, 2)`) lays it out, member by member in the
/// order the caller writes them: what the model writers use instead of
/// serde's generic serialiser, which is slow in an unoptimised build.
///
/// It builds a `String` ([`Pretty::new`], [`Pretty::finish`]), or streams
/// into a writer in chunks ([`Pretty::streaming`], [`Pretty::finish_into`])
/// so that a document of thousands of members is never held whole.
pub struct Pretty<'s> {
    out: String,
    /// For each open object or array: whether it has a member yet.
    open: Vec<bool>,
    /// Where full chunks go when streaming, and the first error it gave.
    sink: Option<(&'s mut dyn std::io::Write, Option<std::io::Error>)>,
}

/// How much a streaming writer buffers before it writes to its sink.
const CHUNK: usize = 32 * 1024;

impl Default for Pretty<'_> {
    fn default() -> Self {
        Pretty::new()
    }
}

impl<'s> Pretty<'s> {
    /// An empty document.
    pub fn new() -> Pretty<'s> {
        Pretty {
            out: String::new(),
            open: Vec::new(),
            sink: None,
        }
    }

    /// An empty document written to `sink` as it grows.
    pub fn streaming(sink: &'s mut dyn std::io::Write) -> Pretty<'s> {
        Pretty {
            out: String::with_capacity(CHUNK + CHUNK / 4),
            open: Vec::new(),
            sink: Some((sink, None)),
        }
    }

    /// The text, with one trailing LF (what was not streamed).
    pub fn finish(mut self) -> String {
        self.out.push('\n');
        self.out
    }

    /// Write the rest, with one trailing LF, to the streaming sink; the
    /// first error the sink gave, if any.
    pub fn finish_into(mut self) -> std::io::Result<()> {
        self.out.push('\n');
        self.drain();
        match self.sink {
            Some((_, Some(error))) => Err(error),
            _ => Ok(()),
        }
    }

    /// Hand the buffer to the sink, if streaming (after an error the rest
    /// is dropped: the caller gets the error from [`Pretty::finish_into`]).
    fn drain(&mut self) {
        if let Some((sink, error)) = &mut self.sink {
            if error.is_none()
                && let Err(e) = sink.write_all(self.out.as_bytes())
            {
                *error = Some(e);
            }
            self.out.clear();
        }
    }

    /// Add `text` after what is written: streaming, handed to the sink as
    /// it is once the buffer is (copied into the buffer, a half batch of
    /// a run record grew it, for the document's whole write, to several
    /// times its chunk: issue 39).
    fn append(&mut self, text: &str) {
        let Some((sink, error)) = &mut self.sink else {
            self.out.push_str(text);
            return;
        };
        for part in [self.out.as_bytes(), text.as_bytes()] {
            if error.is_none()
                && let Err(e) = sink.write_all(part)
            {
                *error = Some(e);
            }
        }
        self.out.clear();
    }

    /// Start the next member of the innermost object (`key` set) or
    /// array (`key` unset), or the document's value.
    fn next(&mut self, key: Option<Key>) {
        if self.out.len() >= CHUNK && self.sink.is_some() {
            self.drain();
        }
        let depth = self.open.len();
        if let Some(first) = self.open.last_mut() {
            // The comma (none before the first member), the line feed and
            // the indentation: one append where the indentation is not
            // deep.
            const SEPARATOR: &str =
                ",\n                                                                ";
            let from = usize::from(*first);
            *first = false;
            match SEPARATOR.get(from..2 + depth * 2) {
                Some(separator) => self.out.push_str(separator),
                None => {
                    if from == 0 {
                        self.out.push(',');
                    }
                    new_line(&mut self.out, depth);
                }
            }
        }
        if let Some(key) = key {
            self.out.push_str(key.0);
        }
    }

    /// Open an object (as member `key` of the object around it, or as
    /// an element when `key` is unset).
    pub fn object(&mut self, key: Option<Key>) {
        self.next(key);
        self.out.push('{');
        self.open.push(true);
    }

    /// Open an array.
    pub fn array(&mut self, key: Option<Key>) {
        self.next(key);
        self.out.push('[');
        self.open.push(true);
    }

    /// Close the innermost object.
    pub fn end_object(&mut self) {
        self.close('}');
    }

    /// Close the innermost array.
    pub fn end_array(&mut self) {
        self.close(']');
    }

    fn close(&mut self, bracket: char) {
        if self.open.pop() == Some(false) {
            new_line(&mut self.out, self.open.len());
        }
        self.out.push(bracket);
    }

    /// A string member or element.
    pub fn string(&mut self, key: Option<Key>, value: &str) {
        self.next(key);
        write_string(&mut self.out, value);
    }

    /// A member or element written as is: a number, `true`, `false`.
    pub fn raw(&mut self, key: Option<Key>, value: impl std::fmt::Display) {
        self.next(key);
        // Writing into a String cannot fail.
        let _ = write!(self.out, "{value}");
    }

    /// An unsigned integer (a line, an attempt, a count), without the
    /// formatting machinery `raw` goes through: the record of a run writes
    /// two for each of its thousands of items.
    pub fn uint(&mut self, key: Option<Key>, value: impl Into<u64>) {
        self.next(key);
        push_uint(&mut self.out, value.into());
    }

    /// A boolean.
    pub fn bool(&mut self, key: Option<Key>, value: bool) {
        self.next(key);
        self.out.push_str(if value { "true" } else { "false" });
    }

    /// A floating-point number as serde_json writes it (shortest form that
    /// reads back, `1.0` rather than `1`, `null` when not finite).
    pub fn float(&mut self, key: Option<Key>, value: f64) {
        self.next(key);
        if value.is_finite() {
            numbers::push_float(&mut self.out, value);
        } else {
            self.out.push_str("null");
        }
    }

    /// Each of `items` as an element of the innermost open array, written
    /// by `write`, in order. A long list is written on two threads, batch
    /// by batch: this thread writes the first half of a batch (streaming it
    /// as usual) while another writes the second half apart, appended
    /// after; the text is the same as one thread's. The record of a run of
    /// 180 000 items spent half a second of a run writing them, twice.
    ///
    /// A batch is 256 items: the half held apart is then about a chunk of
    /// a run record, 32 KB (batches of 1 024 held 256 KB apart at a run's
    /// peak, and batches of 4 096 made a run of 5 000 examples 0.7 MiB
    /// larger, for no less time). One thread writes every batch's second
    /// half ([`crate::threads::in_batches_beside`]).
    pub fn elements<T: Sync>(&mut self, items: &[T], write: impl Fn(&mut Pretty<'_>, &T) + Sync) {
        self.elements_indexed(items.len(), |w, i| write(w, &items[i]));
    }

    /// [`Pretty::elements`] of the elements `0..count`, each written by
    /// `write` from its index (a list that is not held as one).
    pub fn elements_indexed(
        &mut self,
        count: usize,
        write: impl Fn(&mut Pretty<'_>, usize) + Sync,
    ) {
        const TWO_THREADS_FROM: usize = 4096;
        const BATCH: usize = 256;
        let two = count >= TWO_THREADS_FROM
            && std::thread::available_parallelism().is_ok_and(|n| n.get() > 1);
        self.elements_in(count, &write, if two { BATCH } else { 0 });
    }

    /// [`Pretty::elements_indexed`], in batches of `batch` (`0`: on this
    /// thread).
    fn elements_in(
        &mut self,
        count: usize,
        write: &(dyn Fn(&mut Pretty<'_>, usize) + Sync),
        batch: usize,
    ) {
        if batch < 2 {
            for i in 0..count {
                write(self, i);
            }
            return;
        }
        // The part written apart continues the array after the part
        // written here (never empty), so its first element follows a comma.
        let mut open = self.open.clone();
        if let Some(first) = open.last_mut() {
            *first = false;
        }
        let open = &open;
        let apart = |range: std::ops::Range<usize>| {
            let mut w = Pretty {
                out: String::with_capacity(CHUNK + CHUNK / 2),
                open: open.clone(),
                sink: None,
            };
            for i in range {
                write(&mut w, i);
            }
            w.out
        };
        crate::threads::in_batches_beside(
            self,
            (count, batch),
            &|w, range| {
                for i in range {
                    write(w, i);
                }
            },
            &apart,
            &|w, after| {
                if let Some(first) = w.open.last_mut() {
                    *first = false;
                }
                w.append(&after);
            },
        );
    }

    /// An array of strings.
    pub fn strings<'a>(&mut self, key: Option<Key>, values: impl IntoIterator<Item = &'a str>) {
        self.array(key);
        for value in values {
            self.string(None, value);
        }
        self.end_array();
    }
}

/// Compare two strings by UTF-16 code units, the order `Array.prototype.sort`
/// gives object keys in the reference (spec 40 §1.4, §4.3).
pub fn cmp_utf16(a: &str, b: &str) -> Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

/// Pretty-print `value` as `JSON.stringify(value, null, 2)` would, with the
/// members of every object ordered by `key_order`, plus one trailing LF.
pub fn to_pretty_string(value: &Value, key_order: &dyn Fn(&str, &str) -> Ordering) -> String {
    let mut out = String::new();
    write_value(&mut out, value, 0, key_order);
    out.push('\n');
    out
}

/// A line feed and the indentation of `depth`, written at once where the
/// indentation is not deep (every member of a document starts with them).
fn new_line(out: &mut String, depth: usize) {
    const LINE: &str = "\n                                                                ";
    match LINE.get(..1 + depth * 2) {
        Some(line) => out.push_str(line),
        None => {
            out.push('\n');
            indent(out, depth);
        }
    }
}

fn indent(out: &mut String, depth: usize) {
    const SPACES: &str = "                                ";
    let mut left = depth * 2;
    while left > 0 {
        let n = left.min(SPACES.len());
        out.push_str(&SPACES[..n]);
        left -= n;
    }
}

fn write_value(
    out: &mut String,
    value: &Value,
    depth: usize,
    key_order: &dyn Fn(&str, &str) -> Ordering,
) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => {
            let _ = write!(out, "{n}");
        }
        Value::String(s) => write_string(out, s),
        Value::Array(items) => {
            if items.is_empty() {
                out.push_str("[]");
                return;
            }
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push('\n');
                indent(out, depth + 1);
                write_value(out, item, depth + 1, key_order);
            }
            out.push('\n');
            indent(out, depth);
            out.push(']');
        }
        Value::Object(map) => {
            if map.is_empty() {
                out.push_str("{}");
                return;
            }
            let mut members: Vec<(&String, &Value)> = map.iter().collect();
            members.sort_by(|a, b| key_order(a.0, b.0));
            out.push('{');
            for (i, (k, v)) in members.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push('\n');
                indent(out, depth + 1);
                write_string(out, k);
                out.push_str(": ");
                write_value(out, v, depth + 1, key_order);
            }
            out.push('\n');
            indent(out, depth);
            out.push('}');
        }
    }
}

#[cfg(test)]
mod tests;
