//! A structural scan of JSON text: where an object's members start and end,
//! without building or decoding what lies between. What lets a process that
//! needs one entry of a large object (a `cargo nextest` process reading the
//! lock for its one oath) hand only that entry to the strict reader: in an
//! unoptimised build serde_json's skipping of the other entries costs about
//! a hundred instructions a byte, this scan a few (strings are crossed with
//! the standard library's byte search).
//!
//! The scan is a prefilter, not a validator: it checks that brackets
//! balance, that strings close and that only JSON's characters stand
//! outside strings, and answers `None` at the first doubt, so that the
//! caller reads the text strictly and names the problem.

use std::ops::Range;

/// One member of an object: its key as written between the quotes (still
/// escaped) and the byte range of its value.
pub(super) struct Member<'t> {
    pub raw_key: &'t str,
    pub value: Range<usize>,
}

/// The members of the object that `text` holds from byte `start` on (after
/// any whitespace), and the byte after its closing brace.
pub(super) fn object_members(text: &str, start: usize) -> Option<(Vec<Member<'_>>, usize)> {
    let bytes = text.as_bytes();
    let mut at = skip_ws(bytes, start);
    if bytes.get(at) != Some(&b'{') {
        return None;
    }
    at = skip_ws(bytes, at + 1);
    let mut members = Vec::new();
    if bytes.get(at) == Some(&b'}') {
        return Some((members, at + 1));
    }
    loop {
        if bytes.get(at) != Some(&b'"') {
            return None;
        }
        let key_end = string_end(text, at)?;
        let raw_key = &text[at + 1..key_end - 1];
        at = skip_ws(bytes, key_end);
        if bytes.get(at) != Some(&b':') {
            return None;
        }
        let value_start = skip_ws(bytes, at + 1);
        let value_end = value_end(text, value_start)?;
        members.push(Member {
            raw_key,
            value: value_start..value_end,
        });
        at = skip_ws(bytes, value_end);
        match bytes.get(at) {
            Some(b',') => at = skip_ws(bytes, at + 1),
            Some(b'}') => return Some((members, at + 1)),
            _ => return None,
        }
    }
}

/// [`object_members`] of an object laid out as the project's writer lays
/// it out ([`super::Pretty`]: one member a line at one indentation, nested
/// lines deeper, and no string holding a raw newline), found from the
/// lines' indentation alone: the cheap way through a large lock (the
/// standard library's line search is fast even unoptimised; a byte loop
/// is not). The members' values are not looked into: the caller reads the
/// ones it keeps strictly. `None` for any other layout.
pub(super) fn pretty_members<'t>(
    text: &'t str,
    start: usize,
    descend: Option<&str>,
) -> Option<Pretty<'t>> {
    let bytes = text.as_bytes();
    let open = skip_ws(bytes, start);
    if bytes.get(open..open + 2) != Some(b"{\n") {
        return None;
    }
    let first = open + 2;
    let indent = leading_spaces(&bytes[first..]);
    if !(2..SPACES.len()).contains(&indent) {
        return None;
    }
    let outer = indent - 2;
    let mut out = Pretty {
        members: Vec::new(),
        end: 0,
        inner: None,
    };
    let mut line_start = first;
    while line_start < bytes.len() {
        let line_end = text[line_start..]
            .find('\n')
            .map_or(bytes.len(), |n| line_start + n);
        let len = line_end - line_start;
        // The byte at the members' indentation tells a line's kind; the
        // full indentation is compared on member lines only (the lines
        // inside skipped values are only looked at, never read).
        let at = line_start + indent;
        let deep = len > indent && bytes[line_start] == b' ' && bytes[at - 1] == b' ';
        let mut next = line_end + 1;
        if deep && bytes[at] == b' ' {
            // A line inside a member's value.
        } else if deep && bytes[at] == b'"' {
            if bytes[line_start..at] != SPACES[..indent] {
                return None;
            }
            close_last(&mut out.members, line_before(bytes, line_start));
            let key_end = string_end(text, at)?;
            if bytes.get(key_end..key_end + 2) != Some(b": ") {
                return None;
            }
            let raw_key = &text[at + 1..key_end - 1];
            let value = key_end + 2;
            if descend == Some(raw_key) && out.inner.is_none() {
                // The member looked into: its own members, and the scan
                // goes on after it.
                let inner = pretty_members(text, value, None)?;
                let after = &bytes[inner.end..];
                let rest = usize::from(after.first() == Some(&b','));
                if after.get(rest) != Some(&b'\n') && inner.end + rest != bytes.len() {
                    return None;
                }
                next = inner.end + rest + 1;
                out.inner = Some(inner.members);
            }
            out.members.push(Member {
                raw_key,
                value: value..line_end,
            });
        } else if deep && (bytes[at] == b'}' || bytes[at] == b']') {
            // The line that closes a member's value: `}`, `},`, `]`, `],`.
            if !(len == indent + 1 || (len == indent + 2 && bytes[at + 1] == b',')) {
                return None;
            }
        } else if len > outer
            && bytes[line_start + outer] == b'}'
            && bytes[line_start..line_start + outer] == SPACES[..outer]
        {
            close_last(&mut out.members, line_before(bytes, line_start));
            out.end = line_start + outer + 1;
            return Some(out);
        } else {
            return None;
        }
        if out.members.is_empty() {
            return None;
        }
        line_start = next;
    }
    None
}

/// Where the line before the one starting at `line_start` ends, before its
/// `,` if any: the end of a member's value.
fn line_before(bytes: &[u8], line_start: usize) -> usize {
    let end = line_start - 1;
    if end > 0 && bytes[end - 1] == b',' {
        end - 1
    } else {
        end
    }
}

/// What [`pretty_members`] found: the object's members, the byte after
/// it, and the members of the member it was asked to look into.
pub(super) struct Pretty<'t> {
    pub members: Vec<Member<'t>>,
    pub end: usize,
    pub inner: Option<Vec<Member<'t>>>,
}

const SPACES: &[u8] = b"                ";

fn leading_spaces(bytes: &[u8]) -> usize {
    let mut n = 0;
    while n < bytes.len() && bytes[n] == b' ' {
        n += 1;
    }
    n
}

fn close_last(members: &mut [Member<'_>], end: usize) {
    if let Some(last) = members.last_mut() {
        last.value.end = end;
    }
}

/// Whether only whitespace follows byte `at`.
pub(super) fn only_ws_after(text: &str, at: usize) -> bool {
    skip_ws(text.as_bytes(), at) == text.len()
}

// The loops below index bytes one at a time with no iterator adapters and
// no calls: in an unoptimised build that is what keeps them at a few
// instructions a byte.

fn skip_ws(bytes: &[u8], mut at: usize) -> usize {
    while at < bytes.len() && matches!(bytes[at], b' ' | b'\n' | b'\r' | b'\t') {
        at += 1;
    }
    at
}

/// The byte after the string that opens at `open` (a `"`).
fn string_end(text: &str, open: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut at = open + 1;
    while at < bytes.len() {
        let b = bytes[at];
        if b == b'"' {
            return Some(at + 1);
        }
        at += if b == b'\\' { 2 } else { 1 };
    }
    None
}

/// The byte after the value that starts at `start`.
fn value_end(text: &str, start: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    match bytes.get(start)? {
        b'"' => string_end(text, start),
        b'{' | b'[' => nested_end(text, start),
        _ => {
            let mut at = start;
            while at < bytes.len() && is_scalar_byte(bytes[at]) {
                at += 1;
            }
            (at > start).then_some(at)
        }
    }
}

/// The byte after the object or array that opens at `open`.
fn nested_end(text: &str, open: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut closers = vec![closer(bytes[open])];
    let mut at = open + 1;
    while at < bytes.len() {
        let b = bytes[at];
        if b == b'"' {
            at = string_end(text, at)?;
            continue;
        }
        if b == b'{' || b == b'[' {
            closers.push(closer(b));
        } else if b == b'}' || b == b']' {
            if closers.pop() != Some(b) {
                return None;
            }
            if closers.is_empty() {
                return Some(at + 1);
            }
        } else if !(b == b' ' || b == b'\n' || b == b',' || b == b':' || is_scalar_byte(b))
            && b != b'\r'
            && b != b'\t'
        {
            return None;
        }
        at += 1;
    }
    None
}

fn closer(open: u8) -> u8 {
    if open == b'{' { b'}' } else { b']' }
}

/// A byte of a number, `true`, `false` or `null`.
fn is_scalar_byte(b: u8) -> bool {
    b.is_ascii_digit()
        || matches!(
            b,
            b'-' | b'+'
                | b'.'
                | b'e'
                | b'E'
                | b'a'
                | b'f'
                | b'l'
                | b'n'
                | b'r'
                | b's'
                | b't'
                | b'u'
        )
}
