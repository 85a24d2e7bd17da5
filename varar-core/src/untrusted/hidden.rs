//! Characters a reader cannot see (STYLE §2.9): what a rename refuses to
//! write into every oath, and what a message shows escaped ([`hidden`]).
//!
//! Refused in a step text (each named by its code point):
//!
//! - the control characters (C0, DEL, C1) but the tab, which the
//!   expression language reads as text (spec 20 §20.2.1); a step text is
//!   one line, so LF and CR are refused too;
//! - U+2028 and U+2029, which end a line;
//! - the bidirectional-text controls, which reorder what is shown (the
//!   "Trojan Source" characters, CVE-2021-42574): the embeddings and
//!   overrides U+202A–U+202E, the isolates U+2066–U+2069, and the marks
//!   U+200E, U+200F and U+061C;
//! - the invisible characters that make two texts look the same: the soft
//!   hyphen U+00AD, U+180E, the zero-width space U+200B, the word joiner
//!   and invisible operators U+2060–U+2064, the deprecated format
//!   characters U+206A–U+206F, U+FEFF, the annotation characters
//!   U+FFF9–U+FFFB, the tag characters U+E0000–U+E007F, and the blank
//!   Hangul fillers U+115F, U+1160, U+3164 and U+FFA0.
//!
//! The zero-width non-joiner and joiner (U+200C, U+200D) and the variation
//! selectors are kept: Persian, the Indic scripts and emoji need them.

/// What a refused character is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Hidden {
    /// A C0 or C1 control character or DEL (not the tab).
    Control,
    /// U+2028 or U+2029.
    LineSeparator,
    /// A bidirectional-text embedding, override, isolate or mark.
    Bidi,
    /// A character that is drawn as nothing.
    Invisible,
}

impl Hidden {
    /// What it is and why it is refused, for the message.
    pub fn reason(self) -> &'static str {
        match self {
            Hidden::Control => "a control character: a step text is one line of text",
            Hidden::LineSeparator => "a line separator: a step text is one line of text",
            Hidden::Bidi => {
                "a bidirectional-text control: it changes the order in which the text is shown"
            }
            Hidden::Invisible => "an invisible character: a reader would not see it",
        }
    }
}

/// Whether a step text may not hold `c`, and why.
pub fn hidden(c: char) -> Option<Hidden> {
    match c {
        '\t' => None,
        c if c.is_control() => Some(Hidden::Control),
        '\u{2028}' | '\u{2029}' => Some(Hidden::LineSeparator),
        '\u{061C}'
        | '\u{200E}'
        | '\u{200F}'
        | '\u{202A}'..='\u{202E}'
        | '\u{2066}'..='\u{2069}' => Some(Hidden::Bidi),
        '\u{00AD}'
        | '\u{115F}'
        | '\u{1160}'
        | '\u{180E}'
        | '\u{200B}'
        | '\u{2060}'..='\u{2064}'
        | '\u{206A}'..='\u{206F}'
        | '\u{3164}'
        | '\u{FEFF}'
        | '\u{FFA0}'
        | '\u{FFF9}'..='\u{FFFB}'
        | '\u{E0000}'..='\u{E007F}' => Some(Hidden::Invisible),
        _ => None,
    }
}

/// `c` as `U+202E` (at least four upper-case hex digits).
pub fn code_point(c: char) -> String {
    format!("U+{:04X}", u32::from(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_bidi_controls_and_invisible_characters_are_refused_but_tab_and_joiners() {
        for c in ['\0', '\n', '\r', '\u{1B}', '\u{7F}', '\u{85}', '\u{9B}'] {
            assert_eq!(hidden(c), Some(Hidden::Control), "{}", code_point(c));
        }
        for c in [
            '\u{202A}', '\u{202E}', '\u{2066}', '\u{2069}', '\u{200F}', '\u{61C}',
        ] {
            assert_eq!(hidden(c), Some(Hidden::Bidi), "{}", code_point(c));
        }
        for c in [
            '\u{200B}',
            '\u{2060}',
            '\u{FEFF}',
            '\u{AD}',
            '\u{E0041}',
            '\u{3164}',
        ] {
            assert_eq!(hidden(c), Some(Hidden::Invisible), "{}", code_point(c));
        }
        assert_eq!(hidden('\u{2028}'), Some(Hidden::LineSeparator));
        for c in [
            '\t', ' ', 'a', 'é', '£', '\u{200C}', '\u{200D}', '\u{FE0F}', '😀', '\u{A0}',
        ] {
            assert_eq!(hidden(c), None, "{}", code_point(c));
        }
        assert_eq!(code_point('\0'), "U+0000");
        assert_eq!(code_point('\u{E0041}'), "U+E0041");
    }
}
