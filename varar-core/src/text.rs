//! JavaScript whitespace (spec 10 §2.2), shared by parsing, sentence splitting,
//! planning and naming.
//!
//! The reference trims with JavaScript's `\s`, which differs from Rust's
//! `char::is_whitespace`: it includes U+FEFF and leaves out U+0085. Every
//! trim the spec talks about (heading text, cells, sentences, the blank-line
//! test, example names) uses this set, so it lives in one place.

/// Whether `c` is in the JavaScript `\s` set: U+0009–U+000D, U+0020, U+00A0,
/// U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF.
pub fn is_js_whitespace(c: char) -> bool {
    matches!(
        c,
        '\u{9}'..='\u{d}'
            | ' '
            | '\u{a0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200a}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202f}'
            | '\u{205f}'
            | '\u{3000}'
            | '\u{feff}'
    )
}

/// Whether `s` is all ASCII, as `str::is_ascii` says, at the speed of an
/// optimised build in every build: `str::is_ascii` is compiled into the
/// caller, so unoptimised it costs a few nanoseconds a byte (a tenth of a
/// debug run over a 10 MB oath, which asks it of the text several times),
/// while counting chars runs the standard library's own optimised code.
/// Every char of a UTF-8 text is one byte exactly when all are ASCII.
pub fn is_ascii(s: &str) -> bool {
    s.chars().count() == s.len()
}

/// `s` without JavaScript whitespace at either end.
pub fn js_trim(s: &str) -> &str {
    s.trim_matches(is_js_whitespace)
}

/// `s` without JavaScript whitespace at the end.
pub fn js_trim_end(s: &str) -> &str {
    s.trim_end_matches(is_js_whitespace)
}

/// Every run of JavaScript whitespace replaced by one space, then trimmed
/// (how example names and headings are shown, spec 30 §30.8.3).
pub fn collapse_whitespace(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    push_collapsed(&mut out, s);
    out
}

/// [`collapse_whitespace`] of `s` appended to `out`: a test item's name is
/// built in one string, without one of its own for each part.
pub(crate) fn push_collapsed(out: &mut String, s: &str) {
    if is_ascii(s) {
        // JavaScript's ASCII whitespace is U+0009–U+000D and the space. A
        // byte loop finds the runs to replace and copies what lies between
        // whole: an already collapsed name is one copy, which keeps an
        // unoptimised build quick (a push per word was most of its cost).
        let bytes = s.as_bytes();
        let ws = |b: u8| matches!(b, b'\t'..=b'\r' | b' ');
        let mut start = 0;
        while start < bytes.len() && ws(bytes[start]) {
            start += 1;
        }
        let mut end = bytes.len();
        while end > start && ws(bytes[end - 1]) {
            end -= 1;
        }
        let mut copied = start;
        let mut i = start;
        while i < end {
            // Past a space every byte is visible: no call for it (the
            // closure is one per byte in an unoptimised build).
            if bytes[i] > b' ' || !ws(bytes[i]) {
                i += 1;
                continue;
            }
            // A run of whitespace inside the text (it ends before `end`).
            let mut j = i + 1;
            while ws(bytes[j]) {
                j += 1;
            }
            if j > i + 1 || bytes[i] != b' ' {
                out.push_str(&s[copied..i]);
                out.push(' ');
                copied = j;
            }
            i = j;
        }
        out.push_str(&s[copied..end]);
        return;
    }
    collapse_general(s, out);
}

/// The example name of a block's text (spec 20 §20.8, spec 40 §0): the
/// one rule planning and the baseline share. Whitespace runs (JavaScript's
/// set) become one space, the result is trimmed, and one trailing `.`, `!`
/// or `?` is removed (a `:` stays).
pub fn example_name(text: &str) -> String {
    let mut name = collapse_whitespace(text);
    if name.ends_with(['.', '!', '?']) {
        name.pop();
    }
    name
}

/// [`collapse_whitespace`] for any text, appending to `out`.
fn collapse_general(s: &str, out: &mut String) {
    let mut first = true;
    for word in s.split(is_js_whitespace).filter(|w| !w.is_empty()) {
        if !first {
            out.push(' ');
        }
        first = false;
        out.push_str(word);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn is_ascii_agrees_with_std() {
        for s in [
            "",
            "a",
            "Ada deposits 5.\n",
            "\u{7f}",
            "é",
            "a😀b",
            "\u{80}",
        ] {
            assert_eq!(is_ascii(s), s.is_ascii(), "{s:?}");
        }
    }

    #[test]
    fn js_set_includes_bom_and_excludes_nel() {
        for c in [
            '\t', '\n', '\u{b}', '\u{c}', '\r', ' ', '\u{a0}', '\u{1680}', '\u{2000}', '\u{200a}',
            '\u{2028}', '\u{2029}', '\u{202f}', '\u{205f}', '\u{3000}', '\u{feff}',
        ] {
            assert!(is_js_whitespace(c), "{:?} is JS whitespace", c);
        }
        for c in ['\u{85}', '\u{200b}', 'a', '\u{1f600}', '\u{301}'] {
            assert!(!is_js_whitespace(c), "{:?} is not JS whitespace", c);
        }
    }

    #[test]
    fn trims_differ_from_rust_trim() {
        assert_eq!(js_trim("\u{feff} a \r"), "a");
        assert_eq!(js_trim("\u{85}a\u{85}"), "\u{85}a\u{85}");
        assert_eq!(js_trim_end("  a \u{3000}"), "  a");
    }

    #[test]
    fn collapse_joins_words_with_one_space() {
        assert_eq!(collapse_whitespace("  a\n\tb \u{a0} c "), "a b c");
        assert_eq!(collapse_whitespace(" \r\n"), "");
        assert_eq!(collapse_whitespace("a\u{b}\u{c}b  c\r"), "a b c");
    }

    #[test]
    fn collapsed_text_is_appended_after_what_is_there() {
        // The ASCII path and the general one (a no-break space).
        for (text, collapsed) in [(" a \n b ", "a b"), ("\u{a0}é  \u{a0}b ", "é b")] {
            let mut out = String::from("x::");
            push_collapsed(&mut out, text);
            assert_eq!(out, format!("x::{collapsed}"), "{text:?}");
        }
    }

    proptest::proptest! {
        /// The ASCII byte loop gives what the general path gives.
        #[test]
        fn the_ascii_path_equals_the_general_one(s in "[ -~\t\n\u{b}\u{c}\r]{0,20}") {
            let mut general = String::new();
            collapse_general(&s, &mut general);
            proptest::prop_assert_eq!(collapse_whitespace(&s), general);
        }
    }
}
