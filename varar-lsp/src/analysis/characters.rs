//! Text from the editor shown in a message to it (pure, STYLE §2.9):
//! every control character (the tab too) and every character
//! [`hidden`] names written as `\u{202E}`, and bounded ([`shown`]).

use varar_core::untrusted::{cut_to, hidden, push_escaped};

/// How many bytes of a text [`shown`] keeps, its cut note included.
pub const SHOWN_BYTES: usize = 512;

/// `text` for a message to the editor: every control character (the tab
/// too) and every character [`hidden`] names written as `\u{202E}`, then
/// cut to [`SHOWN_BYTES`] with the note every cut ends with (`… [N bytes
/// cut]`, `N` counted in the escaped text).
pub fn shown(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(SHOWN_BYTES));
    for c in text.chars() {
        if c.is_control() || hidden(c).is_some() {
            push_escaped(&mut out, c);
        } else {
            out.push(c);
        }
    }
    cut_to(&out, SHOWN_BYTES).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shown_text_escapes_what_a_reader_cannot_see_and_is_bounded() {
        assert_eq!(
            shown("--logfile=/tmp/x\u{202E}gol.\t\u{1B}[31m\u{200B}"),
            "--logfile=/tmp/x\\u{202E}gol.\\u{0009}\\u{001B}[31m\\u{200B}"
        );
        assert_eq!(shown("I sell £5 ✓"), "I sell £5 ✓");
        let long = "é".repeat(SHOWN_BYTES);
        let cut = shown(&long);
        assert!(cut.len() <= SHOWN_BYTES, "{}", cut.len());
        assert!(cut.starts_with("éé"), "{cut}");
        assert!(cut.ends_with(" bytes cut]"), "{cut}");
        let kept = cut.split('…').next().unwrap_or_default().len();
        assert_eq!(
            cut,
            format!("{}… [{} bytes cut]", &long[..kept], long.len() - kept)
        );
    }
}
