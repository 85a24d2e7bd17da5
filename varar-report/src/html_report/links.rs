//! Where the links of an oath may point once it is a page of the report:
//! only to other pages, to anchors, or to plain web and mail addresses.
//! Anything else (`javascript:`, `data:`, `vbscript:`, `file:` …) is
//! dropped and the link text stays as text. A relative link to another
//! oath of the report (`shared.md#fill-the-basket`) is pointed at that
//! oath's page; its path is percent-decoded first, as the harness reads a
//! reference block's target.

use std::collections::BTreeSet;

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};

/// The schemes a link may have.
const ALLOWED_SCHEMES: [&str; 3] = ["http", "https", "mailto"];

/// The site path of an oath's page: `oaths/<oathPath>.html`.
pub fn page_path(oath_path: &str) -> String {
    format!("oaths/{oath_path}.html")
}

/// What a URL path keeps as written: letters, digits, `-`, `.`, `_`, `~`
/// and the separator `/`.
const URL_PLAIN: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'/')
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// [`page_path`] as a relative URL: every other byte percent-encoded, so
/// that an oathPath's `%`, `#`, `?`, space or backslash (which a browser
/// reads as `/`) still leads to its own page (issue 34).
pub fn page_href(oath_path: &str) -> String {
    utf8_percent_encode(&page_path(oath_path), URL_PLAIN).to_string()
}

/// Resolves the links of one page.
pub struct Links<'a> {
    /// The oath whose page is being written.
    pub from: &'a str,
    /// Every oath that has a page.
    pub oaths: &'a BTreeSet<String>,
}

impl Links<'_> {
    /// The relative `href` from this page to the page of `oath_path`, if
    /// that oath has one.
    pub fn page(&self, oath_path: &str) -> Option<String> {
        self.oaths.contains(oath_path).then(|| {
            let mut href = "../".repeat(page_path(self.from).matches('/').count());
            href.push_str(&page_href(oath_path));
            href
        })
    }

    /// The `href` to write for a link destination, or `None` to drop it.
    pub fn href(&self, dest: &str) -> Option<String> {
        let dest = dest.trim();
        match scheme(dest) {
            Some(s) if ALLOWED_SCHEMES.contains(&s.as_str()) => return Some(dest.to_owned()),
            Some(_) => return None,
            None => {}
        }
        if dest.starts_with('#') || dest.starts_with('/') || dest.starts_with('?') {
            return Some(dest.to_owned());
        }
        let (path, fragment) = match dest.split_once('#') {
            Some((p, f)) => (p, Some(f)),
            None => (dest, None),
        };
        // Percent-decoded, as the harness reads a reference's target
        // (issue 21): `with%20space.md` is the oath `with space.md`.
        let Some(target) = self.resolve(&varar_core::reference::decoded(path)) else {
            return Some(dest.to_owned());
        };
        let Some(mut href) = self.page(&target) else {
            return Some(dest.to_owned());
        };
        if let Some(f) = fragment {
            href.push('#');
            href.push_str(f);
        }
        Some(href)
    }

    /// `path` relative to the directory of `from`, normalised; `None` when
    /// it climbs above the project root.
    fn resolve(&self, path: &str) -> Option<String> {
        let mut parts: Vec<&str> = self.from.split('/').collect();
        parts.pop();
        for seg in path.split('/') {
            match seg {
                "" | "." => {}
                ".." => {
                    parts.pop()?;
                }
                s => parts.push(s),
            }
        }
        Some(parts.join("/"))
    }
}

/// The scheme of a URL as a browser would see it (ASCII whitespace and
/// control characters removed, lower-cased), if it has one.
fn scheme(dest: &str) -> Option<String> {
    let cleaned: String = dest
        .chars()
        .filter(|c| !c.is_ascii_whitespace() && !c.is_ascii_control())
        .collect();
    let end = cleaned.find([':', '/', '?', '#'])?;
    if cleaned[end..].starts_with(':') {
        Some(cleaned[..end].to_ascii_lowercase())
    } else {
        None
    }
}

/// A heading's anchor, GitHub style: lower case, letters, digits, `-` and
/// `_` kept, spaces turned into `-`, everything else dropped.
pub fn slug(text: &str) -> String {
    text.trim()
        .chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                Some(c.to_lowercase().collect::<String>())
            } else if c == ' ' {
                Some("-".to_owned())
            } else {
                None
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn links(from: &str, oaths: &[&str]) -> (String, BTreeSet<String>) {
        (
            from.to_owned(),
            oaths.iter().map(|s| s.to_string()).collect(),
        )
    }

    #[test]
    fn issue34_a_page_href_percent_encodes_what_a_browser_would_read_otherwise() {
        assert_eq!(
            page_href("varar/back\\slash 100%#?.md"),
            "oaths/varar/back%5Cslash%20100%25%23%3F.md.html"
        );
        assert_eq!(
            page_href("varar/a-b_c.~d.md"),
            "oaths/varar/a-b_c.~d.md.html"
        );
        let (from, oaths) = links("varar/back\\slash.md", &["varar/ü.md"]);
        let l = Links {
            from: &from,
            oaths: &oaths,
        };
        assert_eq!(
            l.page("varar/ü.md").as_deref(),
            Some("../../oaths/varar/%C3%BC.md.html")
        );
    }

    #[test]
    fn dangerous_schemes_are_dropped_however_they_are_spelled() {
        let (from, oaths) = links("varar/a.md", &[]);
        let l = Links {
            from: &from,
            oaths: &oaths,
        };
        for bad in [
            "javascript:alert(1)",
            "JavaScript:alert(1)",
            " java\tscript:alert(1)",
            "java\nscript:alert(1)",
            "data:text/html,<script>alert(1)</script>",
            "vbscript:x",
            "file:///etc/passwd",
        ] {
            assert_eq!(l.href(bad), None, "{bad:?}");
        }
        for good in [
            "https://example.com/x",
            "mailto:a@b.c",
            "#section",
            "notes.txt",
        ] {
            assert_eq!(l.href(good).as_deref(), Some(good), "{good:?}");
        }
    }

    #[test]
    fn links_to_other_oaths_point_at_their_pages() {
        let (from, oaths) = links("varar/checkout.md", &["varar/shared.md", "top.md"]);
        let l = Links {
            from: &from,
            oaths: &oaths,
        };
        assert_eq!(
            l.href("shared.md#fill-the-basket").as_deref(),
            Some("../../oaths/varar/shared.md.html#fill-the-basket")
        );
        assert_eq!(
            l.href("../top.md").as_deref(),
            Some("../../oaths/top.md.html")
        );
        assert_eq!(
            l.href("../../outside.md").as_deref(),
            Some("../../outside.md")
        );
    }

    #[test]
    fn issue21_a_percent_encoded_link_points_at_the_oath_it_names() {
        let (from, oaths) = links("varar/checkout.md", &["varar/with space.md"]);
        let l = Links {
            from: &from,
            oaths: &oaths,
        };
        assert_eq!(
            l.href("with%20space.md#spaced").as_deref(),
            Some("../../oaths/varar/with%20space.md.html#spaced")
        );
    }

    #[test]
    fn slugs_follow_the_usual_heading_anchors() {
        assert_eq!(slug("Fill the basket"), "fill-the-basket");
        assert_eq!(slug("What's new? Ünïcode"), "whats-new-ünïcode");
    }
}
