//! Sentence splitting of a block's text (spec 10 §8), used by planning.
//!
//! A sentence ends at LF, `!`, `?` or `.` outside a no-split zone (a
//! backtick-delimited code span or a `"`-quoted string). Three guards keep a
//! `.` inside a sentence: between two digits (`£2.55`), after an abbreviation
//! (`e.g.`), and before a lowercase ASCII letter (`file.txt`). Offsets are in
//! UTF-16 units into the block text, so they lift through the block's segment
//! map to source offsets.

use crate::text::is_js_whitespace;

/// One sentence of a block text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sentence {
    /// The trimmed sentence, terminator included.
    pub text: String,
    /// UTF-16 offset of the first unit in the block text.
    pub start: u32,
    /// UTF-16 offset just past the last unit in the block text.
    pub end: u32,
}

/// Abbreviations whose final `.` does not end a sentence (case-sensitive, no
/// word-boundary check, as in the reference).
const ABBREVIATIONS: [&str; 5] = ["e.g.", "i.e.", "etc.", "cf.", "vs."];

/// Split `text` into sentences (spec 10 §8).
///
/// ```
/// use varar_core::sentences::split_sentences;
/// let s = split_sentences("I pay £2.55. Done!");
/// assert_eq!(s[0].text, "I pay £2.55.");
/// assert_eq!((s[1].start, s[1].end), (13, 18));
/// ```
pub fn split_sentences(text: &str) -> Vec<Sentence> {
    // ASCII text (the common case) is its own index: a char is a byte and
    // a UTF-16 unit. Indexing it into vectors first, a byte at a time, was
    // a tenth of planning a 10 MB prose oath in an unoptimised build.
    if crate::text::is_ascii(text) {
        split_with(text, &Ascii(text.as_bytes()))
    } else {
        split_with(text, &Indexed::new(text))
    }
}

/// The chars of a text by index (`0..len()`): each char, its byte offset
/// and its UTF-16 offset, and those of the end at `len()`, in O(1).
trait Chars {
    fn len(&self) -> usize;
    fn char(&self, i: usize) -> char;
    fn byte(&self, i: usize) -> usize;
    fn unit(&self, i: usize) -> u32;
}

/// An ASCII text: char `i` is byte `i` and UTF-16 unit `i`.
struct Ascii<'a>(&'a [u8]);

impl Chars for Ascii<'_> {
    fn len(&self) -> usize {
        self.0.len()
    }

    fn char(&self, i: usize) -> char {
        char::from(self.0[i])
    }

    fn byte(&self, i: usize) -> usize {
        i
    }

    fn unit(&self, i: usize) -> u32 {
        i as u32
    }
}

/// Any text: every char with its byte offset, and the UTF-16 offset of
/// every char and of the end, computed once.
struct Indexed {
    chars: Vec<(usize, char)>,
    units: Vec<u32>,
    end: usize,
}

impl Indexed {
    fn new(text: &str) -> Indexed {
        let chars: Vec<(usize, char)> = text.char_indices().collect();
        let mut units = Vec::with_capacity(chars.len() + 1);
        let mut at = 0u32;
        for &(_, c) in &chars {
            units.push(at);
            at += c.len_utf16() as u32;
        }
        units.push(at);
        Indexed {
            chars,
            units,
            end: text.len(),
        }
    }
}

impl Chars for Indexed {
    fn len(&self) -> usize {
        self.chars.len()
    }

    fn char(&self, i: usize) -> char {
        self.chars[i].1
    }

    fn byte(&self, i: usize) -> usize {
        self.chars.get(i).map_or(self.end, |&(b, _)| b)
    }

    fn unit(&self, i: usize) -> u32 {
        self.units[i]
    }
}

/// [`split_sentences`] over `chars`, the index of `text`.
fn split_with(text: &str, chars: &impl Chars) -> Vec<Sentence> {
    let zones = no_split_zones(chars);
    let n = chars.len();
    let mut out = Vec::new();
    let mut seg_start = 0usize; // char index
    let mut k = 0usize;
    while k < n {
        // Only these can end a sentence: the rest is skipped unexamined.
        if matches!(chars.char(k), '\n' | '!' | '?' | '.')
            && !zones[k]
            && is_terminator(text, chars, k)
        {
            emit(text, chars, seg_start, k + 1, &mut out);
            let mut next = k + 1;
            while next < n && matches!(chars.char(next), ' ' | '\n') {
                next += 1;
            }
            seg_start = next;
            k = next;
            continue;
        }
        k += 1;
    }
    emit(text, chars, seg_start, n, &mut out);
    out
}

/// Trim the segment of chars `from..to` and push it unless empty (§8 rule 4).
fn emit(text: &str, chars: &impl Chars, from: usize, to: usize, out: &mut Vec<Sentence>) {
    let Some(first) = (from..to).find(|&i| !is_js_whitespace(chars.char(i))) else {
        return;
    };
    let last = (first..to)
        .rev()
        .find(|&i| !is_js_whitespace(chars.char(i)))
        .unwrap_or(first);
    out.push(Sentence {
        text: text[chars.byte(first)..chars.byte(last + 1)].to_owned(),
        start: chars.unit(first),
        end: chars.unit(last + 1),
    });
}

/// Mark the chars inside backtick and double-quote zones (§8 rule 1). An
/// unmatched opener stops zone marking for the rest of the text.
fn no_split_zones(chars: &impl Chars) -> Vec<bool> {
    let n = chars.len();
    let mut zones = vec![false; n];
    let mut i = 0;
    while i < n {
        let open = chars.char(i);
        if open == '`' || open == '"' {
            let Some(close) = (i + 1..n).find(|&j| chars.char(j) == open) else {
                break;
            };
            for z in &mut zones[i..=close] {
                *z = true;
            }
            i = close + 1;
        } else {
            i += 1;
        }
    }
    zones
}

/// Whether the char at `k` ends a sentence (§8 rule 2).
fn is_terminator(text: &str, chars: &impl Chars, k: usize) -> bool {
    match chars.char(k) {
        '\n' | '!' | '?' => true,
        '.' => {
            let prev = k.checked_sub(1).map(|p| chars.char(p));
            let next = (k + 1 < chars.len()).then(|| chars.char(k + 1));
            let decimal = prev.is_some_and(|c| c.is_ascii_digit())
                && next.is_some_and(|c| c.is_ascii_digit());
            let upto = &text[..chars.byte(k) + 1];
            let abbreviation = ABBREVIATIONS.iter().any(|a| upto.ends_with(a));
            let lowercase_next = next.is_some_and(|c| c.is_ascii_lowercase());
            !(decimal || abbreviation || lowercase_next)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {

    use super::*;

    #[test]
    fn ascii_text_is_indexed_as_any_text_is() {
        for text in ["", "Ada deposits 5. Then?\nNo!", "a  b\t\r\n"] {
            let (ascii, any) = (Ascii(text.as_bytes()), Indexed::new(text));
            assert_eq!(ascii.len(), any.len());
            for i in 0..=text.len() {
                assert_eq!(
                    (ascii.byte(i), ascii.unit(i)),
                    (any.byte(i), any.unit(i)),
                    "{text:?} at {i}"
                );
                if i < text.len() {
                    assert_eq!(ascii.char(i), any.char(i), "{text:?} at {i}");
                }
            }
        }
        let any = Indexed::new("é.𝄞");
        let at = |i| (any.char(i), any.byte(i), any.unit(i));
        assert_eq!(
            [at(0), at(1), at(2)],
            [('é', 0, 0), ('.', 2, 1), ('𝄞', 3, 2)]
        );
        assert_eq!((any.len(), any.byte(3), any.unit(3)), (3, 7, 4));
    }

    #[test]
    fn ascii_text_splits_as_any_text_does() {
        for text in [
            "I have 3.14 apples. Then e.g. this. Open file.txt now! Really? Yes",
            "Say \"Hello, world!\" loudly. Run `a.b! c?` now.",
            "An \"a\" then `b and \"c. d\" ok.",
            "line one  \nline two\\\nline three",
            "Wait... What?! end.Next x .5 y Use vetc. Here  \n\n  ",
            "\"x. `y. z`",
            "a.\tB\u{b}c. \u{c}d",
            "",
        ] {
            assert!(text.is_ascii());
            assert_eq!(
                split_with(text, &Ascii(text.as_bytes())),
                split_with(text, &Indexed::new(text)),
                "{text:?}"
            );
        }
    }

    /// (text, start, end) of every sentence.
    fn split(text: &str) -> Vec<(String, u32, u32)> {
        split_sentences(text)
            .into_iter()
            .map(|s| (s.text, s.start, s.end))
            .collect()
    }

    fn s(text: &str, start: u32, end: u32) -> (String, u32, u32) {
        (text.to_owned(), start, end)
    }

    #[test]
    fn w5_worked_examples() {
        assert_eq!(
            split("I have 3.14 apples. Then e.g. this. Open file.txt now! Really? Yes"),
            vec![
                s("I have 3.14 apples.", 0, 19),
                s("Then e.g. this.", 20, 35),
                s("Open file.txt now!", 36, 54),
                s("Really?", 55, 62),
                s("Yes", 63, 66),
            ]
        );
        assert_eq!(
            split("Say \"Hello, world!\" loudly. Run `a.b! c?` now."),
            vec![
                s("Say \"Hello, world!\" loudly.", 0, 27),
                s("Run `a.b! c?` now.", 28, 46),
            ]
        );
        assert_eq!(
            split("An \"a\" then `b and \"c. d\" ok."),
            vec![s("An \"a\" then `b and \"c.", 0, 22), s("d\" ok.", 23, 29)]
        );
        assert_eq!(
            split("line one  \nline two\\\nline three"),
            vec![
                s("line one", 0, 8),
                s("line two\\", 11, 20),
                s("line three", 21, 31),
            ]
        );
    }

    #[test]
    fn terminator_rules() {
        let cases: &[(&str, &[&str])] = &[
            // Colon and semicolon never end a sentence (04/06/18).
            ("I echo the following:", &["I echo the following:"]),
            ("a; b: c", &["a; b: c"]),
            // Decimal guard (15) needs digits on both sides.
            ("The late fee is £2.55.", &["The late fee is £2.55."]),
            ("Version 2. Next", &["Version 2.", "Next"]),
            ("x .5 y", &["x .", "5 y"]),
            // Abbreviations: case-sensitive, no word boundary.
            ("Fruit i.e. apples. X", &["Fruit i.e. apples.", "X"]),
            ("Use vetc. Here", &["Use vetc. Here"]),
            ("Use Etc. Here", &["Use Etc.", "Here"]),
            ("A cf. B vs. C", &["A cf. B vs. C"]),
            // Lowercase-next guard; uppercase and other letters split.
            ("see a.b/c.d now", &["see a.b/c.d now"]),
            ("end.Next", &["end.", "Next"]),
            ("end.é", &["end.", "é"]),
            // Consecutive terminators make one-character sentences.
            ("What?!", &["What?", "!"]),
            ("Wait...", &["Wait.", ".", "."]),
            // LF always ends a sentence.
            ("a\nb", &["a", "b"]),
            ("  \n\n  ", &[]),
            ("", &[]),
        ];
        for (text, want) in cases {
            let got: Vec<String> = split_sentences(text).into_iter().map(|s| s.text).collect();
            assert_eq!(&got, want, "splitting {text:?}");
        }
    }

    #[test]
    fn zones_protect_terminators() {
        let cases: &[(&str, &[&str])] = &[
            ("Run `a. b` now. Ok", &["Run `a. b` now.", "Ok"]),
            ("Say \"a! b\" x", &["Say \"a! b\" x"]),
            // A quote inside a code zone is content; the zone still closes.
            ("`say \"x` then. Y", &["`say \"x` then.", "Y"]),
            // Backtick matching ignores run length.
            ("``a. b`` c. d", &["``a.", "b`` c.", "d"]),
            // Curly quotes are not zones.
            ("\u{201c}a. b\u{201d}", &["\u{201c}a.", "b\u{201d}"]),
            // An LF inside a zone does not split.
            ("\"a\nb\" c", &["\"a\nb\" c"]),
            // An unmatched quote stops marking, later zones included.
            ("\"x. `y. z`", &["\"x.", "`y.", "z`"]),
        ];
        for (text, want) in cases {
            let got: Vec<String> = split_sentences(text).into_iter().map(|s| s.text).collect();
            assert_eq!(&got, want, "splitting {text:?}");
        }
    }

    #[test]
    fn trimming_uses_js_whitespace_and_utf16_offsets() {
        assert_eq!(
            split("\u{feff}😀 hi. \u{a0}Yo\t"),
            vec![s("😀 hi.", 1, 7), s("Yo", 9, 11)]
        );
        // U+0085 is not JS whitespace, so it stays in the sentence.
        assert_eq!(split("\u{85}a"), vec![s("\u{85}a", 0, 2)]);
        // Tabs are not skipped after a terminator but are trimmed.
        assert_eq!(split("a.\tB"), vec![s("a.", 0, 2), s("B", 3, 4)]);
    }
}
