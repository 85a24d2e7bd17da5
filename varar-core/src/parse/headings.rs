//! Headings (spec 10 §3.7, §6, §10): their text and the scope stack they feed.
//!
//! Which lines are headings is CommonMark's call (ATX and setext, indented up
//! to three spaces, inside containers too). The text is the raw source of the
//! heading's content, inline markup kept, trimmed with the JavaScript set.

use std::sync::Arc;

use crate::text::{js_trim, js_trim_end};

/// Text of an ATX heading, given its line from the first `#` to the line end.
///
/// The opening run is dropped, then an optional closing run of `#` that is
/// preceded by a space or tab, or that is the whole content (`# #` is an
/// empty heading, as in CommonMark).
pub(crate) fn atx_text(from_hashes: &str) -> String {
    let content = from_hashes.trim_start_matches('#');
    let content = js_trim(content);
    let without_closing = content.trim_end_matches('#');
    if without_closing.is_empty() {
        return String::new();
    }
    if without_closing.len() < content.len() && without_closing.ends_with([' ', '\t']) {
        return js_trim_end(without_closing).to_owned();
    }
    content.to_owned()
}

/// Text of a setext heading from its content lines (underline excluded), each
/// already stripped of container markers: every line trimmed, joined with LF.
pub(crate) fn setext_text<'a>(lines: impl IntoIterator<Item = &'a str>) -> String {
    let trimmed: Vec<&str> = lines.into_iter().map(js_trim).collect();
    js_trim(&trimmed.join("\n")).to_owned()
}

/// The stack of enclosing headings (spec 10 §6).
#[derive(Debug, Default)]
pub(crate) struct ScopeStack {
    entries: Vec<(u8, String)>,
    /// The texts as last handed out, shared by every candidate under the
    /// same headings until the next heading.
    shared: Option<Arc<[String]>>,
}

impl ScopeStack {
    /// Enter a heading: pop every entry at the same or a deeper level first.
    pub(crate) fn push(&mut self, level: u8, text: String) {
        while self.entries.last().is_some_and(|(l, _)| *l >= level) {
            self.entries.pop();
        }
        self.entries.push((level, text));
        self.shared = None;
    }

    /// The heading texts, outermost first: one allocation per run of
    /// candidates under the same headings, not one per candidate.
    pub(crate) fn texts(&mut self) -> Arc<[String]> {
        let entries = &self.entries;
        Arc::clone(
            self.shared
                .get_or_insert_with(|| entries.iter().map(|(_, t)| t.clone()).collect()),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atx_heading_texts() {
        let cases = [
            ("# Title", "Title"),
            ("# Title #", "Title"),
            ("# Title#", "Title#"),
            ("## Title ##   ", "Title"),
            ("# Title \\#", "Title \\#"),
            ("# **Bold** `x`", "**Bold** `x`"),
            ("# 😀 Emoji World", "😀 Emoji World"),
            ("# ", ""),
            ("#", ""),
            ("# #", ""),
            ("### ###", ""),
            ("# Title\r", "Title"),
            ("# Title #\r", "Title"),
            ("#\tTabbed\t#", "Tabbed"),
        ];
        for (line, want) in cases {
            assert_eq!(atx_text(line), want, "heading {line:?}");
        }
    }

    #[test]
    fn setext_heading_text_joins_trimmed_lines() {
        assert_eq!(setext_text(["Intro"]), "Intro");
        assert_eq!(setext_text(["  Long ", "  title\r"]), "Long\ntitle");
    }

    #[test]
    fn scope_stack_pops_same_and_deeper_levels() {
        let mut s = ScopeStack::default();
        s.push(1, "Counter".into());
        s.push(2, "First".into());
        s.push(2, "Second".into());
        assert_eq!(*s.texts(), ["Counter", "Second"]);
        s.push(3, "H3".into());
        s.push(2, "H2".into());
        assert_eq!(*s.texts(), ["Counter", "H2"]);
        s.push(1, "Top".into());
        assert_eq!(*s.texts(), ["Top"]);
    }
}
