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
    let (chars, units) = indexed(text);
    let split = Split {
        text,
        chars: &chars,
        units: &units,
    };
    let zones = no_split_zones(&chars);
    let mut out = Vec::new();
    let mut seg_start = 0usize; // index into `chars`
    let mut k = 0usize;
    while k < chars.len() {
        if !zones[k] && is_terminator(text, &chars, k) {
            split.emit(seg_start, k + 1, &mut out);
            let mut next = k + 1;
            while next < chars.len() && matches!(chars[next].1, ' ' | '\n') {
                next += 1;
            }
            seg_start = next;
            k = next;
            continue;
        }
        k += 1;
    }
    split.emit(seg_start, chars.len(), &mut out);
    out
}

/// Every char of `text` with its byte offset, and the UTF-16 offset of
/// every char and of the end, computed once, so that each sentence's
/// offsets cost O(1) and the whole split is one pass. ASCII text (the
/// common case) is indexed by a byte loop: the char iterator costs a few
/// hundred instructions a char in an unoptimised build.
fn indexed(text: &str) -> (Vec<(usize, char)>, Vec<u32>) {
    if text.is_ascii() {
        let bytes = text.as_bytes();
        let mut chars = Vec::with_capacity(bytes.len());
        let mut units = Vec::with_capacity(bytes.len() + 1);
        let mut i = 0;
        while i < bytes.len() {
            chars.push((i, char::from(bytes[i])));
            units.push(i as u32);
            i += 1;
        }
        units.push(bytes.len() as u32);
        return (chars, units);
    }
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut units = Vec::with_capacity(chars.len() + 1);
    let mut at = 0u32;
    for &(_, c) in &chars {
        units.push(at);
        at += c.len_utf16() as u32;
    }
    units.push(at);
    (chars, units)
}

/// A text being split: its chars with their byte offsets, and the UTF-16
/// offset of every char.
struct Split<'a> {
    text: &'a str,
    chars: &'a [(usize, char)],
    units: &'a [u32],
}

impl Split<'_> {
    /// Trim the segment `chars[from..to]` and push it unless empty (§8 rule 4).
    fn emit(&self, from: usize, to: usize, out: &mut Vec<Sentence>) {
        if from >= to {
            return;
        }
        let seg = &self.chars[from..to];
        let Some(first) = seg.iter().position(|&(_, c)| !is_js_whitespace(c)) else {
            return;
        };
        let last = seg
            .iter()
            .rposition(|&(_, c)| !is_js_whitespace(c))
            .unwrap_or(first);
        let start_byte = seg[first].0;
        let end_byte = self
            .chars
            .get(from + last + 1)
            .map_or(self.text.len(), |&(b, _)| b);
        out.push(Sentence {
            text: self.text[start_byte..end_byte].to_owned(),
            start: self.units[from + first],
            end: self.units[from + last + 1],
        });
    }
}

/// Mark the chars inside backtick and double-quote zones (§8 rule 1). An
/// unmatched opener stops zone marking for the rest of the text.
fn no_split_zones(chars: &[(usize, char)]) -> Vec<bool> {
    let mut zones = vec![false; chars.len()];
    let mut i = 0;
    while i < chars.len() {
        let open = chars[i].1;
        if open == '`' || open == '"' {
            let Some(close) = (i + 1..chars.len()).find(|&j| chars[j].1 == open) else {
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
fn is_terminator(text: &str, chars: &[(usize, char)], k: usize) -> bool {
    match chars[k].1 {
        '\n' | '!' | '?' => true,
        '.' => {
            let prev = k.checked_sub(1).map(|p| chars[p].1);
            let next = chars.get(k + 1).map(|&(_, c)| c);
            let decimal = prev.is_some_and(|c| c.is_ascii_digit())
                && next.is_some_and(|c| c.is_ascii_digit());
            let upto = &text[..chars[k].0 + 1];
            let abbreviation = ABBREVIATIONS.iter().any(|a| upto.ends_with(a));
            let lowercase_next = next.is_some_and(|c| c.is_ascii_lowercase());
            !(decimal || abbreviation || lowercase_next)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn ascii_text_is_indexed_as_the_char_iterator_indexes_it() {
        for text in ["", "Ada deposits 5. Then?\nNo!", "a  b\t\r\n"] {
            let (chars, units) = super::indexed(text);
            let expected: Vec<(usize, char)> = text.char_indices().collect();
            assert_eq!(chars, expected);
            let ends: Vec<u32> = (0..=text.len() as u32).collect();
            assert_eq!(units, ends);
        }
        let (chars, units) = super::indexed("é.𝄞");
        assert_eq!(chars, vec![(0, 'é'), (2, '.'), (3, '𝄞')]);
        assert_eq!(units, vec![0, 1, 2, 4]);
    }

    use super::*;

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
