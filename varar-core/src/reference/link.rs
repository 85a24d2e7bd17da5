//! The link-only rule (spec 70 §70.1.1): which block texts are reference
//! blocks, and where they point.
//!
//! The rule is syntactic, on the raw block text (spec 10 §4), never on
//! pulldown-cmark's inline events: plan shape and lock liveness depend on it.
//! It is the regex `^\[([^\]]*)\]\(\s*([^\s)]+)\s*\)$` over the trimmed text,
//! written out by hand (`\s` is Unicode whitespace, as the reference's), with
//! two departures from the reference (issue 21), so that a link resolves
//! where CommonMark, a browser and every forge take it:
//!
//! - the destination may be written in angle brackets, `(<my file.md#x>)`,
//!   and may then hold spaces and `)` (no `<`, `>` or line break);
//! - the file part and the fragment are percent-decoded (`my%20file.md` is
//!   `my file.md`, `#caf%C3%A9` is `#café`) after the target is split at
//!   its first `#`, so `%23` is no separator. A `%` sequence that does not
//!   decode to UTF-8 is kept as written.
//!
//! The reference matches the raw text: for it `<shared.md#x>` points at the
//! file `<shared.md` and `my%20file.md` at a file with `%20` in its name.

use super::path::{dirname, join};
use super::slug::{is_unicode_space, normalise};

/// A reference block's link: what it says and which section it names.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Reference {
    /// The link text as written (may be empty, may hold line breaks and
    /// markup).
    pub text: String,
    /// The link target as written.
    pub target: String,
    /// The oathPath it points at (the referring oath's own for `#…`).
    pub path: String,
    /// The normalised fragment; `""` names the whole file.
    pub slug: String,
}

impl Reference {
    /// Its section key, `<path>#<slug>` (spec 70 §70.2.2).
    pub fn key(&self) -> String {
        section_key(&self.path, &self.slug)
    }

    /// Whether it names a whole file (`x.md`, `x.md#`, `#`).
    pub fn is_whole_file(&self) -> bool {
        self.slug.is_empty()
    }

    /// Where it resolves, as the diagnostics say it: `<path>` for a
    /// whole-file reference, else `<path>#<slug>`.
    pub fn location(&self) -> String {
        if self.is_whole_file() {
            self.path.clone()
        } else {
            self.key()
        }
    }
}

/// The key of the section `slug` of the oath `path`: `<path>#<slug>`, and
/// `<path>#` for the whole file.
///
/// ```
/// assert_eq!(varar_core::reference::section_key("varar/a.md", "x"), "varar/a.md#x");
/// ```
pub fn section_key(path: &str, slug: &str) -> String {
    let mut key = String::with_capacity(path.len() + 1 + slug.len());
    key.push_str(path);
    key.push('#');
    key.push_str(slug);
    key
}

/// The reference block whose text is `block_text`, written in the oath at
/// `referring_path`; `None` when the text is anything but one link to an
/// oath-shaped target.
///
/// ```
/// use varar_core::reference::recognise;
/// let r = recognise("[Fill](../shared.md#Fill)", "varar/sub/main.md").unwrap();
/// assert_eq!((r.path.as_str(), r.slug.as_str()), ("varar/shared.md", "fill"));
/// assert!(recognise("See [Fill](shared.md#fill).", "varar/sub/main.md").is_none());
/// ```
pub fn recognise(block_text: &str, referring_path: &str) -> Option<Reference> {
    let (text, target) = link_only(block_text)?;
    if let Some(fragment) = target.strip_prefix('#') {
        return Some(Reference {
            text: text.to_owned(),
            target: target.to_owned(),
            path: referring_path.to_owned(),
            slug: normalise(&decoded(fragment)),
        });
    }
    let (file, fragment) = target.split_once('#').unwrap_or((target, ""));
    let file = decoded(file);
    if !file.ends_with(".md") || has_scheme(&file) || file.starts_with('/') {
        return None;
    }
    Some(Reference {
        text: text.to_owned(),
        target: target.to_owned(),
        path: join(dirname(referring_path), &file),
        slug: normalise(&decoded(fragment)),
    })
}

/// `part` of a link destination percent-decoded, or as written when the
/// bytes it decodes to are not UTF-8.
///
/// ```
/// use varar_core::reference::decoded;
/// assert_eq!(decoded("my%20file.md"), "my file.md");
/// assert_eq!(decoded("caf%C3%A9"), "café");
/// assert_eq!(decoded("bad%FF"), "bad%FF");
/// ```
pub fn decoded(part: &str) -> String {
    match percent_encoding::percent_decode_str(part).decode_utf8() {
        Ok(text) => text.into_owned(),
        Err(_) => part.to_owned(),
    }
}

/// The link text and target of a block that is exactly one inline link
/// `[text](target)` once trimmed: the text holds no `]`, the target no
/// whitespace and no `)` (or it is `<target>`, which holds no `<`, `>` or
/// line break), and nothing else is there (no title, no `!`, no
/// punctuation around it).
fn link_only(block_text: &str) -> Option<(&str, &str)> {
    let trimmed = block_text.trim_matches(is_unicode_space);
    let rest = trimmed.strip_prefix('[')?;
    // `[^\]]*` cannot cross a `]`, so the text ends at the first one.
    let close = rest.find(']')?;
    let text = &rest[..close];
    let inner = rest[close + 1..].strip_prefix('(')?.strip_suffix(')')?;
    let target = inner.trim_matches(is_unicode_space);
    if let Some(bracketed) = target.strip_prefix('<') {
        let target = bracketed.strip_suffix('>')?;
        let valid = !target.is_empty() && !target.contains(['<', '>', '\n', '\r']);
        return valid.then_some((text, target));
    }
    let valid = !target.is_empty() && !target.contains(|c| c == ')' || is_unicode_space(c));
    valid.then_some((text, target))
}

/// Whether `file` starts with a URI scheme, `^[a-z][a-z0-9+.\-]*:` without
/// regard to case (`https:`, `mailto:`, and a drive letter such as `C:`).
fn has_scheme(file: &str) -> bool {
    let mut chars = file.chars();
    if !chars.next().is_some_and(|c| c.is_ascii_alphabetic()) {
        return false;
    }
    for c in chars {
        match c {
            ':' => return true,
            c if c.is_ascii_alphanumeric() || matches!(c, '+' | '.' | '-') => {}
            _ => return false,
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schemes_are_letters_then_scheme_characters_then_a_colon() {
        for file in [
            "https://x/a.md",
            "mailto:a.md",
            "C:/x/a.md",
            "git+ssh:a.md",
            "A.b-c:x.md",
        ] {
            assert!(has_scheme(file), "{file}");
        }
        for file in ["a.md", "1a:x.md", ":a.md", "a_b:x.md", "dir/a:b.md", ""] {
            assert!(!has_scheme(file), "{file}");
        }
    }

    #[test]
    fn link_only_splits_text_and_target() {
        let cases = [
            ("[Fill](x.md)", Some(("Fill", "x.md"))),
            ("\u{a0}[a](\tx.md\u{3000})\n", Some(("a", "x.md"))),
            ("[](x.md)", Some(("", "x.md"))),
            ("[a)](x.md)", Some(("a)", "x.md"))),
            ("[a](x.md) ", Some(("a", "x.md"))),
            ("[a]()", None),
            ("[a]( )", None),
            ("[a](x y.md)", None),
            ("[a](x.md))", None),
            ("[a] (x.md)", None),
            ("[a](x.md).", None),
            ("[a\\]b](x.md)", None),
            ("\u{feff}[a](x.md)", None),
        ];
        for (text, want) in cases {
            assert_eq!(link_only(text), want, "{text:?}");
        }
    }
}
