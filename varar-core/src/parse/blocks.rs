//! Block scanner (spec 10 §0, §3, §10): walks pulldown-cmark's offset events
//! (CommonMark + GFM tables) and flattens the block tree into the list the
//! structurer consumes: text blocks, tables, fences, headings and breaks.
//!
//! pulldown-cmark decides *which* lines form which block. Everything the model
//! stores is then cut from the unchanged source by [`super::leaves`]: block
//! text is the raw source with only `>` prefixes and list bullets removed, so
//! every line of it maps back to the source through the segment map.
//!
//! How the tree maps onto the flat model:
//! * a paragraph outside any container is a `paragraph`;
//! * a paragraph whose innermost container is a list item is that item's
//!   `list_item` (the first one) or a `paragraph` (later ones, after a nested
//!   block); one in a blockquote is a `blockquote`;
//! * consecutive paragraphs of the same item or quote, with only blank lines
//!   between, form one text block, as the reference does for blockquotes;
//! * fenced code blocks are fences and GFM tables are tables, at any depth;
//! * ATX and setext headings feed the scope stack; thematic breaks delimit;
//! * indented code, HTML blocks and link reference definitions give nothing.

use std::ops::Range;

use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};

use super::leaves::{self, Container, TextSpec};
use super::lines::{Lines, bom_len};
use crate::doc::{Fence, Heading, Table, TextBlock};
use crate::source::Source;

/// What pulldown-cmark is asked to read: CommonMark and GFM tables.
pub(super) const OPTIONS: Options = Options::ENABLE_TABLES;

/// One block of the flat list (spec 10 §3), in source order.
#[derive(Debug)]
pub(crate) enum Block {
    /// A paragraph, list item or blockquote: a candidate.
    Text(TextBlock),
    /// A GFM table.
    Table(Table),
    /// A fenced code block.
    Fence(Fence),
    /// A heading.
    Heading(Heading),
    /// A thematic break.
    Break,
}

/// The leaf block being read, with how many tags are open inside it.
enum Leaf {
    Paragraph(Range<usize>),
    Heading {
        range: Range<usize>,
        level: u8,
    },
    Fence {
        range: Range<usize>,
        /// Source ranges of the code text events (content per line).
        texts: Vec<Range<usize>>,
    },
    Table {
        /// Header first; each row is its range and its cells' ranges.
        rows: Vec<(Range<usize>, Vec<Range<usize>>)>,
    },
    /// Indented code, HTML blocks and anything else without a model.
    Ignored,
}

/// A text block that a following paragraph of the same container may extend.
struct Mergeable {
    container: usize,
    block: usize,
    first_line: usize,
    spec: TextSpec,
}

struct Walker<'s, 'a> {
    source: &'s Source<'a>,
    lines: &'s Lines,
    containers: Vec<Container>,
    /// `ordered` of each open list, innermost last.
    lists: Vec<bool>,
    next_id: usize,
    leaf: Option<(Leaf, usize)>,
    /// Inline content of a tight list item (no paragraph event around it).
    implicit: Option<Range<usize>>,
    mergeable: Option<Mergeable>,
    blocks: Vec<Block>,
}

/// Scan `source` into the flat block list.
pub(crate) fn scan(source: &Source<'_>, lines: &Lines) -> Vec<Block> {
    let text = source.text();
    // The BOM is invisible to block structure (spec 10 §10), so parse after
    // it and shift every range back.
    let bom = bom_len(text);
    let body = &text[bom..];
    let mut walker = Walker {
        source,
        lines,
        containers: Vec::new(),
        lists: Vec::new(),
        next_id: 0,
        leaf: None,
        implicit: None,
        mergeable: None,
        // Blocks are most often separated by blank lines: about one every
        // two lines, made room for at once rather than grown (and moved)
        // one doubling after another through a long oath.
        blocks: Vec::with_capacity(lines.count() / 2 + 1),
    };
    for (event, range) in Parser::new_ext(body, OPTIONS).into_offset_iter() {
        walker.event(event, (range.start + bom)..(range.end + bom));
    }
    walker.flush_implicit();
    walker.blocks
}

impl Walker<'_, '_> {
    fn event(&mut self, event: Event<'_>, range: Range<usize>) {
        if self.leaf.is_some() {
            self.leaf_event(&event, range);
            return;
        }
        match event {
            Event::Start(tag) if is_inline_tag(&tag) => self.extend_implicit(range),
            Event::End(end) if is_inline_end(&end) => self.extend_implicit(range),
            Event::Start(tag) => {
                self.flush_implicit();
                self.start_block(tag, range);
            }
            Event::End(end) => {
                self.flush_implicit();
                match end {
                    TagEnd::BlockQuote(_) | TagEnd::Item => {
                        self.containers.pop();
                    }
                    TagEnd::List(_) => {
                        self.lists.pop();
                    }
                    _ => {}
                }
                self.mergeable = None;
            }
            Event::Rule => {
                self.flush_implicit();
                self.mergeable = None;
                self.blocks.push(Block::Break);
            }
            Event::Html(_) | Event::DisplayMath(_) => {
                self.flush_implicit();
                self.mergeable = None;
            }
            Event::Text(_)
            | Event::Code(_)
            | Event::InlineMath(_)
            | Event::InlineHtml(_)
            | Event::FootnoteReference(_)
            | Event::SoftBreak
            | Event::HardBreak
            | Event::TaskListMarker(_) => self.extend_implicit(range),
        }
    }

    fn start_block(&mut self, tag: Tag<'_>, range: Range<usize>) {
        // Only a paragraph may continue the text block before it.
        if !matches!(tag, Tag::Paragraph) {
            self.mergeable = None;
        }
        let leaf = match tag {
            Tag::Paragraph => Leaf::Paragraph(range),
            Tag::Heading { level, .. } => Leaf::Heading {
                range,
                level: level as u8,
            },
            Tag::CodeBlock(CodeBlockKind::Fenced(_)) => Leaf::Fence {
                range,
                texts: Vec::new(),
            },
            Tag::Table(_) => Leaf::Table { rows: Vec::new() },
            Tag::BlockQuote(_) => {
                let id = self.new_id();
                self.containers.push(Container::Quote { id });
                return;
            }
            Tag::List(first) => {
                self.lists.push(first.is_some());
                return;
            }
            Tag::Item => {
                let id = self.new_id();
                let ordered = self.lists.last().copied().unwrap_or(false);
                let item = leaves::item(
                    self.source.text(),
                    self.lines,
                    &self.containers,
                    id,
                    ordered,
                    range.start,
                );
                self.containers.push(item);
                return;
            }
            _ => Leaf::Ignored,
        };
        self.leaf = Some((leaf, 1));
    }

    fn leaf_event(&mut self, event: &Event<'_>, range: Range<usize>) {
        let Some((leaf, depth)) = self.leaf.as_mut() else {
            return;
        };
        match event {
            Event::Start(tag) => {
                *depth += 1;
                if let Leaf::Table { rows } = leaf {
                    match tag {
                        Tag::TableHead | Tag::TableRow => rows.push((range, Vec::new())),
                        Tag::TableCell => {
                            if let Some((_, cells)) = rows.last_mut() {
                                cells.push(range);
                            }
                        }
                        _ => {}
                    }
                }
            }
            Event::End(_) => {
                *depth -= 1;
                if *depth == 0
                    && let Some((leaf, _)) = self.leaf.take()
                {
                    self.finish_leaf(leaf);
                }
            }
            Event::Text(_) => {
                if let Leaf::Fence { texts, .. } = leaf {
                    texts.push(range);
                }
            }
            _ => {}
        }
    }

    fn finish_leaf(&mut self, leaf: Leaf) {
        let text = self.source.text();
        match leaf {
            Leaf::Paragraph(range) => self.emit_text(range),
            Leaf::Heading { range, level } => {
                let end = self.lines.end(self.lines.last_line_of(&range));
                let heading = leaves::heading(text, self.lines, &self.containers, range.clone());
                self.blocks.push(Block::Heading(Heading {
                    level,
                    text: heading,
                    span: self.source.span_of_bytes(range.start, end.max(range.start)),
                }));
            }
            Leaf::Fence { range, texts } => {
                let fence = leaves::fence(self.source, self.lines, range, &texts);
                self.blocks.push(Block::Fence(fence));
            }
            Leaf::Table { rows } => {
                if let Some(table) = leaves::table(self.source, self.lines, &rows) {
                    self.blocks.push(Block::Table(table));
                }
            }
            Leaf::Ignored => {}
        }
    }

    fn extend_implicit(&mut self, range: Range<usize>) {
        self.implicit = Some(match self.implicit.take() {
            Some(r) => r.start.min(range.start)..r.end.max(range.end),
            None => range,
        });
    }

    fn flush_implicit(&mut self) {
        if let Some(range) = self.implicit.take() {
            self.emit_text(range);
        }
    }

    /// Emit (or merge) the text block of a paragraph spanning `range`.
    fn emit_text(&mut self, range: Range<usize>) {
        let first = self.lines.line_of(range.start);
        let last = self.lines.last_line_of(&range);
        let innermost = self.containers.last().map(Container::id);
        if let (Some(m), Some(id)) = (&self.mergeable, innermost)
            && m.container == id
            && m.block + 1 == self.blocks.len()
        {
            let block = leaves::text_block(
                self.source,
                self.lines,
                &self.containers,
                &m.spec,
                m.first_line,
                last,
            );
            self.blocks[m.block] = Block::Text(block);
            return;
        }
        let spec = match self.containers.last_mut() {
            None => TextSpec::TopParagraph,
            Some(Container::Quote { .. }) => TextSpec::Quote,
            Some(Container::Item {
                has_text: has_text @ false,
                ordered,
                marker,
                marker_line,
                ..
            }) => {
                *has_text = true;
                TextSpec::Item {
                    ordered: *ordered,
                    marker: marker.clone(),
                    marker_line: *marker_line,
                }
            }
            Some(Container::Item { .. }) => TextSpec::Paragraph,
        };
        let block = leaves::text_block(
            self.source,
            self.lines,
            &self.containers,
            &spec,
            first,
            last,
        );
        self.mergeable = innermost.map(|container| Mergeable {
            container,
            block: self.blocks.len(),
            first_line: first,
            spec,
        });
        self.blocks.push(Block::Text(block));
    }

    fn new_id(&mut self) -> usize {
        self.next_id += 1;
        self.next_id
    }
}

fn is_inline_tag(tag: &Tag<'_>) -> bool {
    matches!(
        tag,
        Tag::Emphasis
            | Tag::Strong
            | Tag::Strikethrough
            | Tag::Superscript
            | Tag::Subscript
            | Tag::Link { .. }
            | Tag::Image { .. }
    )
}

fn is_inline_end(end: &TagEnd) -> bool {
    matches!(
        end,
        TagEnd::Emphasis
            | TagEnd::Strong
            | TagEnd::Strikethrough
            | TagEnd::Superscript
            | TagEnd::Subscript
            | TagEnd::Link
            | TagEnd::Image
    )
}
