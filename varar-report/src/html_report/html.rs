//! HTML building blocks shared by every page: escaping, the page shell with
//! its Content-Security-Policy, and the status labels. Every piece of text
//! that comes from an oath, a result file or a path goes through
//! [`escape`]; markup, classes and ids come only from fixed templates and
//! numbers.

use std::fmt::Write as _;

/// The stylesheet every page links to (written once, as `style.css`).
pub const STYLE_CSS: &str = include_str!("style.css");

/// The policy of every page: nothing may run, load or submit; only the
/// site's own stylesheet applies. A second line of defence behind escaping.
pub const CSP: &str = "default-src 'none'; style-src 'self'; img-src 'none'; \
     script-src 'none'; object-src 'none'; frame-src 'none'; base-uri 'none'; form-action 'none'";

/// Append `text` escaped for element content and attribute values.
pub fn escape_into(out: &mut String, text: &str) {
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
}

/// `text` escaped for element content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    escape_into(&mut out, text);
    out
}

/// What a block, row, oath or total is, as data; each state has a text
/// label and an icon, so colour never carries the meaning alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum State {
    /// Every example ran and passed.
    Passed,
    /// At least one example failed.
    Failed,
    /// No result for it.
    NotRun,
    /// Results from another version of the oath.
    Stale,
    /// The result file could not be read.
    Unreadable,
}

impl State {
    /// The value of `data-varar-state` and the CSS class suffix.
    pub fn key(self) -> &'static str {
        match self {
            State::Passed => "passed",
            State::Failed => "failed",
            State::NotRun => "not-run",
            State::Stale => "stale",
            State::Unreadable => "unreadable",
        }
    }

    /// The icon shown before the label (decorative; the label says it).
    pub fn icon(self) -> &'static str {
        match self {
            State::Passed => "✓",
            State::Failed => "✗",
            State::NotRun => "○",
            State::Stale | State::Unreadable => "⚠",
        }
    }
}

/// A label: `<span class="varar-badge" data-varar-state=…>✓ passed</span>`.
pub fn badge(out: &mut String, state: State, text: &str) {
    let _ = write!(
        out,
        "<span class=\"varar-badge varar-{k}\" data-varar-state=\"{k}\">\
         <span aria-hidden=\"true\">{icon}</span> ",
        k = state.key(),
        icon = state.icon()
    );
    escape_into(out, text);
    out.push_str("</span>");
}

/// A whole page: `title` and `body` (already HTML), with the stylesheet at
/// `root_prefix` (`""` at the top, `"../"` one directory down, …).
pub fn page(title: &str, root_prefix: &str, body: &str) -> String {
    let mut out = String::with_capacity(body.len() + 1024);
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    let _ = writeln!(
        out,
        "<meta http-equiv=\"Content-Security-Policy\" content=\"{CSP}\">"
    );
    out.push_str("<meta name=\"referrer\" content=\"no-referrer\">\n");
    out.push_str("<meta name=\"generator\" content=\"cargo varar report\">\n<title>");
    escape_into(&mut out, title);
    out.push_str("</title>\n");
    let _ = writeln!(
        out,
        "<link rel=\"stylesheet\" href=\"{root_prefix}style.css\">"
    );
    out.push_str("</head>\n<body>\n");
    out.push_str(body);
    out.push_str("</body>\n</html>\n");
    out
}

/// `"../"` repeated once per directory of `path` (a `/`-separated site
/// path), so that links from that page reach the site root.
pub fn root_prefix(path: &str) -> String {
    "../".repeat(path.matches('/').count())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_covers_every_html_metacharacter() {
        assert_eq!(
            escape(r#"<script>alert('x')</script> & "q""#),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;"
        );
        assert_eq!(escape("£ 😀 é"), "£ 😀 é");
    }

    #[test]
    fn pages_forbid_scripts_and_link_the_stylesheet_from_their_depth() {
        let html = page("<t>", &root_prefix("oaths/varar/a.md.html"), "<p>x</p>\n");
        assert!(html.contains("script-src 'none'"), "{html}");
        assert!(html.contains("default-src 'none'"), "{html}");
        assert!(html.contains("<title>&lt;t&gt;</title>"), "{html}");
        assert!(html.contains("href=\"../../style.css\""), "{html}");
        assert_eq!(root_prefix("index.html"), "");
    }

    #[test]
    fn badges_carry_a_text_label_and_the_state() {
        let mut out = String::new();
        badge(&mut out, State::Failed, "1 of 3 failed");
        assert!(out.contains("data-varar-state=\"failed\""), "{out}");
        assert!(out.contains("✗</span> 1 of 3 failed"), "{out}");
    }
}
