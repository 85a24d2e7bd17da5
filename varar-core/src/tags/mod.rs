//! Tags (this port's extension, issue 38): `@slow`-style labels read from
//! an oath's text as an overlay, and the cucumber tag expressions that
//! select by them.
//!
//! # Writing tags
//!
//! A tag comment is an HTML comment whose whole content is tags:
//!
//! ```markdown
//! <!-- @slow @db -->
//! ## Checkout
//!
//! <!-- @smoke -->
//! I add 2 apples. Then the basket holds 2 apples.
//! ```
//!
//! * A tag is `@` followed by one or more characters that are neither
//!   whitespace nor `@`. Tags compare case-sensitively (as in cucumber);
//!   one written twice counts once.
//! * A tag comment tags the block that follows it (blank lines may come
//!   between). Above a heading it tags the heading's section: every
//!   example up to the next heading of the same or a higher level
//!   (subsections included). Above a paragraph, list item or blockquote it
//!   tags the example written there; the examples a header-bound table
//!   makes of its rows inherit their paragraph's tags.
//! * Several tag comments in a row add up.
//! * An example's tags are those of every tagged section around it, outer
//!   first, then its own, in the order written.
//! * A comment holding anything besides tags (`<!-- TODO @slow -->`) is an
//!   ordinary comment. A tag comment followed by anything else (a fence, a
//!   break, the end of its list or quote, the end of the file) tags nothing:
//!   [`TagIndex::unattached`] lists those, for tools to warn about.
//!
//! # An overlay
//!
//! Tags change nothing Varar otherwise reads: the parser gives HTML blocks
//! nothing, so plans, item names, the lock and the results are those of the
//! same text without them, but for the lines they take (the proofs: the
//! conformance suite, a property test over generated documents, and the
//! end-to-end run of a tagged sample). A tag comment is text like any
//! other, so adding one changes the oath's `sourceHash`, as any edit does.
//!
//! # Selecting
//!
//! [`TagExpression`] parses the expressions cucumber-rs and cucumber's
//! `tag-expressions` take (`@smoke and not (@slow or @db)`); the harness
//! reads one from `VARAR_TAGS` ([`crate::env::VARAR_TAGS`]), and
//! [`selects`] decides, for the harness and `cargo varar test` alike,
//! which items it keeps.
//!
//! ```
//! use varar_core::tags::{TagExpression, TagIndex};
//! let text = "<!-- @slow -->\n# Shop\n\n<!-- @smoke -->\nI add 2.\n\nI add 3.\n";
//! let index = TagIndex::of(text);
//! assert_eq!(index.at(5), ["@slow", "@smoke"]);
//! assert_eq!(index.at(7), ["@slow"]);
//! let smoke = TagExpression::parse("@smoke and @slow").unwrap();
//! assert!(smoke.matches(&index.at(5)));
//! assert!(!smoke.matches(&index.at(7)));
//! ```

mod expression;
#[cfg(test)]
mod tests;

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

pub use expression::{TagExpression, TagExpressionError, TagExpressionErrorKind};

use crate::names::ItemKind;

/// Whether `expression` selects the item of kind `kind` whose line is
/// `line` in the document `index` was read from: decided once, for the
/// harness's `VARAR_TAGS` and `cargo varar test --tags`. An example runs
/// when its tags match; a drift item follows the example it is about (the
/// tags at its line); plan diagnostics and read errors always run: they
/// are problems of a document, not examples, and a tag filter must not
/// hide them.
pub fn selects(expression: &TagExpression, kind: ItemKind, index: &TagIndex, line: u32) -> bool {
    match kind {
        ItemKind::Example | ItemKind::Drift => expression.matches(&index.at(line)),
        // Diagnostics, read errors, and any kind to come.
        _ => true,
    }
}

use crate::parse::parse;
use crate::source::Source;

/// Tagged lines: the first and last (1-based, inclusive) of a section or
/// example, and its tags in the order written.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Tagged {
    first: u32,
    last: u32,
    tags: Vec<String>,
}

/// The tags of one oath's text, by line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TagIndex {
    /// Tagged sections, in document order.
    sections: Vec<Tagged>,
    /// Tagged examples (their text block and its tables), in document order.
    examples: Vec<Tagged>,
    /// The 1-based first line of every tag comment that tags nothing.
    unattached: Vec<u32>,
}

/// A tag comment's tags (each once, in the order written), or `None` for
/// any other HTML: only `<!--`, tags and whitespace, `-->`.
pub fn comment_tags(html: &str) -> Option<Vec<String>> {
    let inner = html.trim().strip_prefix("<!--")?.strip_suffix("-->")?;
    let mut tags: Vec<String> = Vec::new();
    for word in inner.split_whitespace() {
        let name = word.strip_prefix('@')?;
        if name.is_empty() || name.contains('@') {
            return None;
        }
        if !tags.iter().any(|t| t == word) {
            tags.push(word.to_owned());
        }
    }
    (!tags.is_empty()).then_some(tags)
}

impl TagIndex {
    /// Read the tags of `text`, an oath's whole text. Any text reads; one
    /// without a tag comment gives the empty index without being parsed.
    pub fn of(text: &str) -> TagIndex {
        if !text.contains("<!--") {
            return TagIndex::default();
        }
        let source = Source::new(text);
        let doc = parse("", &source);
        let mut index = TagIndex::default();
        // Tag comments met and not yet given to a block: their tags and the
        // first line of the first of them.
        let mut pending: Option<(Vec<String>, u32)> = None;
        let mut html: Option<(usize, String)> = None;
        // The parser reads after a BOM, as `parse` does; positions count it.
        let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };
        let line_of = |byte: usize| source.span_of_bytes(byte + bom, byte + bom).start_line;
        for (event, range) in
            Parser::new_ext(&text[bom..], Options::ENABLE_TABLES).into_offset_iter()
        {
            match event {
                Event::Start(Tag::HtmlBlock) => html = Some((range.start, String::new())),
                Event::Html(part) => {
                    if let Some((_, content)) = &mut html {
                        content.push_str(&part);
                    }
                }
                Event::End(TagEnd::HtmlBlock) => {
                    let Some((start, content)) = html.take() else {
                        continue;
                    };
                    let first = line_of(start);
                    match comment_tags(&content) {
                        Some(tags) => match &mut pending {
                            Some((held, _)) => {
                                for tag in tags {
                                    if !held.contains(&tag) {
                                        held.push(tag);
                                    }
                                }
                            }
                            None => pending = Some((tags, first)),
                        },
                        // Another comment between tags and their block.
                        None => index.leave(&mut pending),
                    }
                }
                Event::Start(tag) if pending.is_some() && is_block(&tag) => {
                    if let Some((tags, first)) = pending.take()
                        && !index.attach(&doc, line_of(range.start), tags)
                    {
                        index.unattached.push(first);
                    }
                }
                Event::End(_) | Event::Rule => index.leave(&mut pending),
                _ => {}
            }
        }
        index.leave(&mut pending);
        index
    }

    /// Give `tags` to the heading or example starting at `line`; false when
    /// neither starts there.
    fn attach(&mut self, doc: &crate::doc::Doc, line: u32, tags: Vec<String>) -> bool {
        if let Some(i) = doc.headings.iter().position(|h| h.span.start_line == line) {
            let level = doc.headings[i].level;
            let last = doc.headings[i + 1..]
                .iter()
                .find(|h| h.level <= level)
                .map_or(u32::MAX, |h| h.span.start_line.saturating_sub(1));
            self.sections.push(Tagged {
                first: line,
                last,
                tags,
            });
            return true;
        }
        // The example's own text, not a table or fence it holds (which the
        // comment would stand above): those tag nothing.
        let text = |c: &&crate::doc::Candidate| {
            let span = c.body.text.span;
            span.start_line <= line && line <= span.end_line
        };
        let Some(example) = doc.examples.iter().find(text) else {
            return false;
        };
        self.examples.push(Tagged {
            first: example.span.start_line,
            last: example.span.end_line,
            tags,
        });
        true
    }

    /// Tag comments no block took.
    fn leave(&mut self, pending: &mut Option<(Vec<String>, u32)>) {
        if let Some((_, first)) = pending.take() {
            self.unattached.push(first);
        }
    }

    /// The tags of the example whose first line is `line` (1-based, as the
    /// results, the run record and item metadata give it): every tagged
    /// section's around it, outer first, then its own, each tag once. Any
    /// line of a tagged paragraph (its tables' rows included) answers the
    /// same; a line outside every example gets its sections' tags.
    pub fn at(&self, line: u32) -> Vec<&str> {
        let mut tags: Vec<&str> = Vec::new();
        let around = |t: &&Tagged| t.first <= line && line <= t.last;
        for tagged in self
            .sections
            .iter()
            .filter(around)
            .chain(self.examples.iter().filter(around))
        {
            for tag in &tagged.tags {
                if !tags.contains(&tag.as_str()) {
                    tags.push(tag);
                }
            }
        }
        tags
    }

    /// Whether the text has no tag that tags anything.
    pub fn is_empty(&self) -> bool {
        self.sections.is_empty() && self.examples.is_empty()
    }

    /// The first line of every tag comment that tags nothing (followed by a
    /// fence, a break, the end of its container or of the file), in order.
    pub fn unattached(&self) -> &[u32] {
        &self.unattached
    }
}

/// Whether `tag` opens a block a tag comment can stand above (not inline
/// markup, which only occurs inside blocks).
fn is_block(tag: &Tag<'_>) -> bool {
    matches!(
        tag,
        Tag::Paragraph
            | Tag::Heading { .. }
            | Tag::BlockQuote(_)
            | Tag::CodeBlock(_)
            | Tag::HtmlBlock
            | Tag::List(_)
            | Tag::Item
            | Tag::FootnoteDefinition(_)
            | Tag::Table(_)
            | Tag::DefinitionList
            | Tag::MetadataBlock(_)
    )
}
