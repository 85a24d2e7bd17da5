//! Text that XML 1.0 can hold (pure): every character outside the `Char`
//! production (`#x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] |
//! [#x10000-#x10FFFF]`; a Rust string holds no surrogates) is replaced by
//! its Rust escape, `\u{FFFE}`, so it stays visible instead of making the
//! file malformed (U+FFFE, U+FFFF) or vanishing (the C0 controls, which
//! quick-junit drops, ESC with the ANSI sequence it starts). DEL and the C1
//! controls (U+007F..U+009F), which XML allows but quick-junit's ANSI
//! filter swallows, are escaped the same way, and so are the bidirectional
//! overrides and isolates, which would reorder what a CI page shows (issue
//! 34). The notation is the terminal's ([`varar_core::untrusted`]).

use std::borrow::Cow;

use varar_core::untrusted::{is_bidi_control, push_escaped};

/// Whether XML 1.0 allows `c` in a document (its `Char` production).
pub fn is_xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}')
        || c >= '\u{10000}'
}

/// Whether `c` goes into the XML as it is: an XML `Char` that is not DEL,
/// a C1 control or a bidirectional control.
fn kept(c: char) -> bool {
    is_xml_char(c) && !('\u{7F}'..='\u{9F}').contains(&c) && !is_bidi_control(c)
}

/// `text` with every character XML 1.0 cannot hold, DEL, the C1 controls
/// and the bidirectional controls written as `\u{XXXX}` (upper-case hex, at
/// least four digits).
pub fn xml_text(text: &str) -> Cow<'_, str> {
    if text.chars().all(kept) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if kept(c) {
            out.push(c);
        } else {
            push_escaped(&mut out, c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_characters_outside_xml_char_are_escaped() {
        assert_eq!(xml_text("a\tb\nc\rd é 😀"), "a\tb\nc\rd é 😀");
        assert_eq!(xml_text("\u{0}x\u{1}"), "\\u{0000}x\\u{0001}");
        assert_eq!(xml_text("\u{FFFE}\u{FFFF}"), "\\u{FFFE}\\u{FFFF}");
        assert_eq!(xml_text("\u{1b}[31mred"), "\\u{001B}[31mred");
        assert!(is_xml_char('\u{FFFD}') && is_xml_char('\u{10FFFF}'));
        assert!(is_xml_char('\u{7F}') && is_xml_char('\u{85}'));
        assert_eq!(xml_text("\u{7F}\u{9B}31m"), "\\u{007F}\\u{009B}31m");
        assert_eq!(xml_text("a\u{202E}b\u{2066}"), "a\\u{202E}b\\u{2066}");
    }
}
