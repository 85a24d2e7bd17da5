//! Slugs (spec 70 §70.1.3): how a link fragment and a heading meet.
//!
//! These are the reference's rules, kept for interoperability (spec 70
//! §70.6.8), not GitHub's: duplicate slugs get no `-1` suffix, underscores
//! pair up as emphasis (`snake_case_name` → `snakecasename`) and link syntax
//! in a heading is not unwrapped.

use std::sync::OnceLock;

use regex::Regex;

/// A link fragment as a slug: trimmed, lowercased (full Unicode), every
/// character that is not a letter, a number, `_`, a space or `-` deleted,
/// then each space replaced by `-` (runs are not collapsed).
///
/// ```
/// use varar_core::reference::normalise;
/// assert_eq!(normalise("Fill-The-Basket"), "fill-the-basket");
/// assert_eq!(normalise("fill%20it"), "fill20it");
/// ```
pub fn normalise(fragment: &str) -> String {
    let lower = fragment.trim_matches(is_unicode_space).to_lowercase();
    lower
        .chars()
        .filter(|&c| is_slug_char(c))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// A heading's slug: its text (spec 10 §3.7, inline markup raw) with code
/// spans, `**strong**`, `*emphasis*` and `_emphasis_` unwrapped, in that
/// order, then [`normalise`]d.
///
/// ```
/// use varar_core::reference::slugify;
/// assert_eq!(slugify("Fees, VAT & rounding"), "fees-vat--rounding");
/// assert_eq!(slugify("`code` **bold** *em* _u_"), "code-bold-em-u");
/// ```
pub fn slugify(heading: &str) -> String {
    let mut text = heading.to_owned();
    for unwrap in unwrappers() {
        // Most headings have no markup at all: skip the replacement then.
        if unwrap.is_match(&text) {
            text = unwrap.replace_all(&text, "$1").into_owned();
        }
    }
    normalise(&text)
}

/// The four unwrapping patterns, each keeping the inner text, which must not
/// contain the delimiter character (it may be empty).
fn unwrappers() -> &'static [Regex] {
    static PATTERNS: OnceLock<Vec<Regex>> = OnceLock::new();
    PATTERNS.get_or_init(|| {
        [
            r"`([^`]*)`",
            r"\*\*([^*]*)\*\*",
            r"\*([^*]*)\*",
            r"_([^_]*)_",
        ]
        .iter()
        .filter_map(|p| Regex::new(p).ok())
        .collect()
    })
}

/// Letters (`\p{L}`), numbers (`\p{N}`), `_`, space and `-`: what a slug
/// keeps. Combining marks, punctuation, symbols, tabs and NBSP go.
fn is_slug_char(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric() || matches!(c, '_' | ' ' | '-');
    }
    // `char::is_numeric` is exactly `\p{N}`; `char::is_alphabetic` is wider
    // than `\p{L}` (it includes letter numbers and some marks), so letters
    // are asked of the regex crate's Unicode tables.
    if c.is_numeric() {
        return true;
    }
    static LETTER: OnceLock<Option<Regex>> = OnceLock::new();
    let letter = LETTER.get_or_init(|| Regex::new(r"^\p{L}$").ok());
    let mut buf = [0u8; 4];
    match letter {
        Some(re) => re.is_match(c.encode_utf8(&mut buf)),
        None => c.is_alphabetic(),
    }
}

/// Unicode whitespace as the reference trims it (Python's `str.strip` and
/// `\s`): the White_Space property plus the four separators U+001C–U+001F.
/// NBSP is included; U+FEFF is not.
pub(crate) fn is_unicode_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Spec 70 §70.1.4, the heading slugs under the table.
    #[test]
    fn heading_slugs_of_the_spec_table() {
        let cases = [
            ("Fill the basket", "fill-the-basket"),
            ("Fees, VAT & rounding", "fees-vat--rounding"),
            ("`code` **bold** *em* _u_", "code-bold-em-u"),
            ("Über Größe", "über-größe"),
            ("C++ / C#", "c--c"),
            ("emoji 😀 here", "emoji--here"),
            ("Trailing hyphen -", "trailing-hyphen--"),
            ("Tabs\tand  two spaces", "tabsand--two-spaces"),
            ("x²", "x²"),
            ("Ⅻ roman", "ⅻ-roman"),
            ("a-b_c", "a-b_c"),
        ];
        for (heading, want) in cases {
            assert_eq!(slugify(heading), want, "{heading:?}");
        }
    }

    /// The known differences from GitHub (spec 70 §70.1.3).
    #[test]
    fn github_differences_are_kept() {
        assert_eq!(slugify("snake_case_name"), "snakecasename");
        // A decomposed é loses its accent: the combining mark is deleted.
        assert_eq!(slugify("cafe\u{301}"), "cafe");
        assert_eq!(slugify("café"), "café");
        // Link syntax is not unwrapped: brackets vanish, the URL text stays.
        assert_eq!(slugify("[See](x.md)"), "seexmd");
        // Empty markup pairs are unwrapped too.
        assert_eq!(slugify("a __ b"), "a--b");
        assert_eq!(slugify("**"), "");
    }

    #[test]
    fn fragments_normalise() {
        let cases = [
            ("Fill-The-Basket", "fill-the-basket"),
            ("fees,-vat--rounding", "fees-vat--rounding"),
            ("fill%20it", "fill20it"),
            ("x#y", "xy"),
            ("café-ß", "café-ß"),
            ("fill-the-basket!", "fill-the-basket"),
            ("  padded  ", "padded"),
            ("\u{a0}nbsp\u{a0}in\u{a0}", "nbspin"),
            ("tab\there", "tabhere"),
            ("ΣΑΣ", "σας"),
            ("", ""),
        ];
        for (fragment, want) in cases {
            assert_eq!(normalise(fragment), want, "{fragment:?}");
        }
    }

    #[test]
    fn letters_are_general_category_letters() {
        // Letter numbers and other numbers are numbers; marks are neither.
        for c in ['é', 'ß', 'Ω', '日', 'ⅻ', '²', '٣', '_', '-', ' '] {
            assert!(is_slug_char(c), "{c:?} is kept");
        }
        for c in [
            '\u{301}', '\u{345}', '\u{93e}', '😀', '\u{a0}', '\t', '.', '#', '–',
        ] {
            assert!(!is_slug_char(c), "{c:?} is deleted");
        }
    }

    #[test]
    fn unicode_space_is_pythons() {
        for c in [' ', '\t', '\n', '\u{a0}', '\u{85}', '\u{1c}', '\u{3000}'] {
            assert!(is_unicode_space(c), "{c:?}");
        }
        for c in ['\u{feff}', '\u{200b}', 'a'] {
            assert!(!is_unicode_space(c), "{c:?}");
        }
    }
}
