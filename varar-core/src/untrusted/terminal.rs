//! Escaping text for a terminal (STYLE §2.9 "escape what reaches a
//! terminal"), with the notation JUnit XML already uses: `\u{001B}`.
//!
//! Escaped: the C0 controls (U+0000–U+001F) but the line break and the tab
//! where they belong, DEL and the C1 controls (U+007F–U+009F), and the
//! bidirectional overrides, embeddings, isolates and marks (U+202A–U+202E,
//! U+2066–U+2069, the "Trojan Source" characters rustc lints against, and
//! U+200E, U+200F, U+061C).
//! The notation is a Rust escape, visible and unambiguous about which
//! character it was, and the same one `cargo varar junit` writes into XML,
//! so a message reads alike in every output. Colour that Varar itself
//! paints is added after the escaping and is never touched by it.

use std::borrow::Cow;

use super::hidden::{Hidden, hidden};

/// Whether `c` is a bidirectional embedding, override, isolate or mark
/// (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C): it reorders
/// the text around it ([`Hidden::Bidi`]).
pub fn is_bidi_control(c: char) -> bool {
    hidden(c) == Some(Hidden::Bidi)
}

/// Whether a terminal would act on `c` rather than show it.
fn is_unsafe(c: char) -> bool {
    c.is_control() || is_bidi_control(c)
}

/// `text` for a terminal, its lines kept: every control character but the
/// line break (`\n`) and the tab, and every bidirectional control, written
/// as `\u{XXXX}`. For a message shown over several lines.
pub fn terminal_text(text: &str) -> Cow<'_, str> {
    escape(text, |c| c == '\n' || c == '\t')
}

/// `text` for a terminal, on one line: as [`terminal_text`], the line
/// break escaped too. For a name, a path, a run id or a message's line,
/// which must not start a line of their own (a forged `gate: passed`).
pub fn terminal_line(text: &str) -> Cow<'_, str> {
    escape(text, |c| c == '\t')
}

/// Append the escape of `c`: `\u{` and its code point in upper-case hex,
/// at least four digits, then `}`.
pub fn push_escaped(out: &mut String, c: char) {
    use std::fmt::Write as _;
    // Writing to a String cannot fail.
    let _ = write!(out, "\\u{{{:04X}}}", u32::from(c));
}

fn escape(text: &str, kept: impl Fn(char) -> bool) -> Cow<'_, str> {
    let shown = |c: char| !is_unsafe(c) || kept(c);
    let Some(first) = text.find(|c: char| !shown(c)) else {
        return Cow::Borrowed(text);
    };
    let mut out = String::with_capacity(text.len() + 16);
    out.push_str(&text[..first]);
    for c in text[first..].chars() {
        if shown(c) {
            out.push(c);
        } else {
            push_escaped(&mut out, c);
        }
    }
    Cow::Owned(out)
}
