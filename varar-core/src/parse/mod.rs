//! Markdown → document model (spec 10): the `doc` artifact.
//!
//! Block structure comes from pulldown-cmark (CommonMark + GFM tables), as
//! the oath renders for its readers (spec 10 §0). Block text, cells, fence
//! bodies and heading texts are cut from the unchanged source, and every
//! position is a UTF-16 offset into it. Where the reference's line scanner
//! and CommonMark disagree, this follows CommonMark; `docs/markdown.md` lists
//! each such difference and `tests.rs` pins it.
//!
//! Stages: `lines` (line table), `blocks` (pulldown-cmark walk → flat
//! blocks), `leaves` (cutting text, cells and bodies out of the source),
//! `headings` (heading text, scope stack), `candidates` (attachments,
//! orphans, `precededByDelimiter`).

mod blocks;
mod candidates;
mod headings;
mod leaves;
mod lines;

#[cfg(test)]
mod divergences;
#[cfg(test)]
mod tests;

use crate::doc::Doc;
use crate::source::Source;

/// The bits of the `pulldown_cmark::Options` the block scanner parses with
/// (CommonMark and GFM tables): what a measure of pulldown-cmark's own pass
/// gives it to be the pass this parser makes (varar-bench's Markdown floor).
pub const PULLDOWN_CMARK_OPTIONS: u32 = blocks::OPTIONS.bits();

/// Parse an oath into its document model. Infallible: any text parses.
///
/// `path` is stored as given (the conformance harness passes `"example.md"`).
///
/// ```
/// use varar_core::{parse::parse, source::Source};
/// let source = Source::new("# Shop\n\nI add 2 apples.\n");
/// let doc = parse("shop.md", &source);
/// assert_eq!(*doc.examples[0].scope_stack, ["Shop"]);
/// assert_eq!(doc.examples[0].body.text.text, "I add 2 apples.");
/// ```
pub fn parse(path: &str, source: &Source<'_>) -> Doc {
    let lines = lines::Lines::new(source.text());
    let blocks = blocks::scan(source, &lines);
    candidates::structure(path, blocks)
}
