//! An oath's Markdown rendered to HTML with the results drawn on it.
//!
//! pulldown-cmark reads the oath with the options the harness parses it
//! with (CommonMark + GFM tables, after a BOM), so the blocks on the page
//! are the blocks the results speak of. The HTML is written here rather
//! than by pulldown-cmark's writer, because results add attributes to
//! paragraphs, list items and table rows and cut text at exact offsets:
//!
//! - Each text event whose text is the source at its range (the usual case,
//!   in tables, lists, quotes and code blocks alike) is cut at the byte
//!   offsets of the highlighted spans, so a span lands on exactly the
//!   characters its UTF-16 offsets name, emoji and combining marks
//!   included. Inline code is found inside its backticks. Text that differs
//!   from its source (an entity like `&amp;`) is marked whole if a span
//!   touches it.
//! - A failure's callout (expected and actual, or the message) is written
//!   at the end of the innermost paragraph, list item, quote, heading or
//!   table cell where its span starts (after a code block), so it sits next
//!   to the span and is read in document order, with or without a mouse.
//! - Raw HTML is shown as text (comments are dropped), unsafe link targets
//!   are dropped and images are not loaded: nothing an oath says can run.

use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;
use std::ops::Range;

use pulldown_cmark::{Alignment, CodeBlockKind, Event, LinkType, Options, Parser, Tag, TagEnd};

use super::html::{State, badge, escape, escape_into};
use super::links::{Links, slug};
use super::overlay::{BlockKind, Detail, Overlay};

/// The rendered body of an oath page.
#[derive(Debug)]
pub struct Rendered {
    /// The HTML of the oath.
    pub html: String,
    /// The text of the oath's first heading, if it has one.
    pub title: Option<String>,
    /// For each note of the overlay, whether its callout is in `html`.
    pub placed: Vec<bool>,
}

/// What an open element needs when it closes.
struct Frame {
    /// Written when the element ends.
    close: &'static str,
    /// Whether callouts may be written in it (before `close`), or, for a
    /// code block, right after it.
    host: Host,
    /// Notes whose callouts go at this element's end.
    callouts: Vec<usize>,
    /// HTML written after the element's callouts: what a link paragraph
    /// splices (inside a list item or quote, after a paragraph, which
    /// cannot hold it).
    spliced: Option<(String, bool)>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Host {
    No,
    Inside,
    After,
}

struct TableState {
    alignments: Vec<Alignment>,
    cell: usize,
    in_head: bool,
    row_table: bool,
    /// The state of the current row of a header-bound table.
    row_state: State,
}

struct Renderer<'a> {
    text: &'a str,
    line_starts: Vec<usize>,
    overlay: &'a Overlay,
    links: &'a Links<'a>,
    heading_ids: HashMap<usize, String>,
    out: String,
    stack: Vec<Frame>,
    claimed: BTreeSet<u32>,
    /// Lines whose spliced steps an element already took.
    spliced_claimed: BTreeSet<u32>,
    used_ids: BTreeSet<u32>,
    started: Vec<bool>,
    placed: Vec<bool>,
    table: Option<TableState>,
    html_block: Option<String>,
}

/// The byte length of a leading BOM, which block structure ignores.
fn bom_len(text: &str) -> usize {
    if text.starts_with('\u{feff}') { 3 } else { 0 }
}

fn events(text: &str) -> impl Iterator<Item = (Event<'_>, Range<usize>)> {
    let bom = bom_len(text);
    Parser::new_ext(&text[bom..], Options::ENABLE_TABLES)
        .into_offset_iter()
        .map(move |(e, r)| (e, (r.start + bom)..(r.end + bom)))
}

/// Render `text` with `overlay` drawn on it; `links` resolves link targets.
pub fn render(text: &str, overlay: &Overlay, links: &Links<'_>) -> Rendered {
    let (heading_ids, title) = headings(text);
    let mut line_starts = vec![0];
    line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
    let mut r = Renderer {
        text,
        line_starts,
        overlay,
        links,
        heading_ids,
        out: String::with_capacity(text.len() * 2 + 256),
        stack: Vec::new(),
        claimed: BTreeSet::new(),
        spliced_claimed: BTreeSet::new(),
        used_ids: BTreeSet::new(),
        started: vec![false; overlay.notes.len()],
        placed: vec![false; overlay.notes.len()],
        table: None,
        html_block: None,
    };
    for (event, range) in events(text) {
        r.event(event, range);
    }
    Rendered {
        html: r.out,
        title,
        placed: r.placed,
    }
}

/// Heading anchors by the heading's start offset (unique, GitHub style),
/// and the text of the first heading.
fn headings(text: &str) -> (HashMap<usize, String>, Option<String>) {
    let mut ids = HashMap::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut first = None;
    let mut current: Option<(usize, String)> = None;
    for (event, range) in events(text) {
        match event {
            Event::Start(Tag::Heading { .. }) => current = Some((range.start, String::new())),
            Event::Text(t) | Event::Code(t) => {
                if let Some((_, s)) = current.as_mut() {
                    s.push_str(&t);
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some((start, s)) = current.take() {
                    let base = match slug(&s) {
                        b if b.is_empty() => "section".to_owned(),
                        b => b,
                    };
                    let n = seen.entry(base.clone()).or_insert(0);
                    let id = if *n == 0 {
                        base.clone()
                    } else {
                        format!("{base}-{n}")
                    };
                    *n += 1;
                    ids.insert(start, id);
                    if first.is_none() {
                        first = Some(s.trim().to_owned());
                    }
                }
            }
            _ => {}
        }
    }
    (ids, first)
}

impl Renderer<'_> {
    fn line_of(&self, byte: usize) -> u32 {
        match self.line_starts.binary_search(&byte) {
            Ok(i) => i as u32 + 1,
            Err(i) => i as u32,
        }
    }

    fn push(&mut self, close: &'static str, host: Host) {
        self.stack.push(Frame {
            close,
            host,
            callouts: Vec::new(),
            spliced: None,
        });
    }

    /// ` id="L<line>"` the first time a block starts on `line`.
    fn line_id(&mut self, line: u32) -> String {
        if self.used_ids.insert(line) {
            format!(" id=\"L{line}\"")
        } else {
            String::new()
        }
    }

    /// Open a text block (`p`, `li`, `blockquote`), marked if its line holds
    /// an example of `kind` that no enclosing element took yet.
    fn open_block(&mut self, tag: &str, kind: Option<BlockKind>, range: &Range<usize>) {
        let line = self.line_of(range.start);
        let id = self.line_id(line);
        if let Some(html) = self.overlay.spliced.get(&line)
            && self.spliced_claimed.insert(line)
            && let Some(frame) = self.stack.last_mut()
        {
            frame.spliced = Some((html.clone(), tag == "p"));
        }
        let mark =
            self.overlay.blocks.get(&line).filter(|m| {
                !self.claimed.contains(&line) && (kind.is_none() || kind == Some(m.kind))
            });
        match mark {
            None => {
                let _ = write!(self.out, "<{tag}{id}>");
            }
            Some(mark) => {
                self.claimed.insert(line);
                let k = mark.state.key();
                let recovered = mark
                    .recovered
                    .map(|n| format!(" data-varar-recovered=\"{n}\""))
                    .unwrap_or_default();
                let _ = write!(
                    self.out,
                    "<{tag}{id} class=\"varar-example varar-{k}\" data-varar-state=\"{k}\"{recovered}>"
                );
                badge(&mut self.out, mark.state, &mark.label);
                self.out.push(' ');
                if let Some(frame) = self.stack.last_mut() {
                    frame.callouts.extend(mark.notes.iter().copied());
                }
            }
        }
    }

    fn event(&mut self, event: Event<'_>, range: Range<usize>) {
        if let Some(buffer) = self.html_block.as_mut() {
            match event {
                Event::End(TagEnd::HtmlBlock) => self.close_html_block(),
                Event::Html(t) | Event::Text(t) => buffer.push_str(&t),
                _ => {}
            }
            return;
        }
        match event {
            Event::Start(tag) => self.start(tag, range),
            Event::End(end) => self.end(end),
            Event::Text(t) => self.text(&t, &range, false),
            Event::Code(t) => {
                self.out.push_str("<code>");
                self.text(&t, &range, true);
                self.out.push_str("</code>");
            }
            Event::InlineHtml(t) | Event::Html(t) => {
                if !is_comment(&t) {
                    self.out.push_str("<code class=\"varar-raw-html\">");
                    escape_into(&mut self.out, &t);
                    self.out.push_str("</code>");
                }
            }
            Event::SoftBreak => self.out.push('\n'),
            Event::HardBreak => self.out.push_str("<br>\n"),
            Event::Rule => self.out.push_str("<hr>\n"),
            Event::TaskListMarker(done) => {
                self.out.push_str(if done { "[x] " } else { "[ ] " });
            }
            Event::FootnoteReference(t) | Event::InlineMath(t) | Event::DisplayMath(t) => {
                escape_into(&mut self.out, &t);
            }
        }
    }

    fn start(&mut self, tag: Tag<'_>, range: Range<usize>) {
        match tag {
            Tag::Paragraph => {
                self.push("</p>\n", Host::Inside);
                self.open_block("p", None, &range);
            }
            Tag::Item => {
                self.push("</li>\n", Host::Inside);
                self.open_block("li", Some(BlockKind::ListItem), &range);
            }
            Tag::BlockQuote(_) => {
                self.push("</blockquote>\n", Host::Inside);
                self.open_block("blockquote", Some(BlockKind::Blockquote), &range);
            }
            Tag::Heading { level, .. } => self.start_heading(level as u8, &range),
            Tag::CodeBlock(kind) => self.start_code_block(&kind, &range),
            Tag::HtmlBlock => self.html_block = Some(String::new()),
            Tag::List(start) => self.start_list(start),
            Tag::Table(alignments) => self.start_table(alignments, &range),
            Tag::TableHead => self.start_head(),
            Tag::TableRow => self.start_row(&range),
            Tag::TableCell => self.start_cell(&range),
            Tag::Emphasis => self.inline("<em>", "</em>"),
            Tag::Strong => self.inline("<strong>", "</strong>"),
            Tag::Strikethrough => self.inline("<del>", "</del>"),
            Tag::Superscript => self.inline("<sup>", "</sup>"),
            Tag::Subscript => self.inline("<sub>", "</sub>"),
            Tag::Link {
                link_type,
                dest_url,
                title,
                ..
            } => self.start_link(link_type, &dest_url, &title),
            Tag::Image { .. } => {
                self.push("]</span>", Host::No);
                self.out.push_str(
                    "<span class=\"varar-image\" title=\"images are not loaded\">[image: ",
                );
            }
            Tag::FootnoteDefinition(_)
            | Tag::DefinitionList
            | Tag::DefinitionListTitle
            | Tag::DefinitionListDefinition
            | Tag::MetadataBlock(_) => self.push("", Host::No),
        }
    }

    /// `<hN id="…">`, the id GitHub would give the heading.
    fn start_heading(&mut self, n: u8, range: &Range<usize>) {
        self.push(HEADING_CLOSE[usize::from(n.clamp(1, 6)) - 1], Host::Inside);
        let _ = write!(self.out, "<h{n}");
        if let Some(id) = self.heading_ids.get(&range.start) {
            let _ = write!(self.out, " id=\"{}\"", escape(id));
        }
        self.out.push('>');
    }

    /// `<pre><code class="language-…">`, the language only when it is a
    /// plain word.
    fn start_code_block(&mut self, kind: &CodeBlockKind<'_>, range: &Range<usize>) {
        self.push("</code></pre>\n", Host::After);
        let line = self.line_of(range.start);
        let id = self.line_id(line);
        let _ = write!(self.out, "<pre{id}");
        self.attached_state(line);
        self.out.push_str("><code");
        if let CodeBlockKind::Fenced(info) = kind {
            let lang = info.split_whitespace().next().unwrap_or("");
            if !lang.is_empty()
                && lang
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+-_".contains(c))
            {
                let _ = write!(self.out, " class=\"language-{lang}\"");
            }
        }
        self.out.push('>');
    }

    fn start_list(&mut self, start: Option<u64>) {
        match start {
            Some(1) => {
                self.push("</ol>\n", Host::No);
                self.out.push_str("<ol>\n");
            }
            Some(n) => {
                self.push("</ol>\n", Host::No);
                let _ = writeln!(self.out, "<ol start=\"{n}\">");
            }
            None => {
                self.push("</ul>\n", Host::No);
                self.out.push_str("<ul>\n");
            }
        }
    }

    fn start_head(&mut self) {
        self.push("", Host::No);
        if let Some(t) = self.table.as_mut() {
            t.in_head = true;
            t.cell = 0;
        }
        self.out.push_str("<thead>\n<tr>");
    }

    /// A link whose target is safe (see [`Links::href`]); any other is
    /// dropped, its text kept.
    fn start_link(&mut self, link_type: LinkType, dest_url: &str, title: &str) {
        let dest = if link_type == LinkType::Email {
            format!("mailto:{dest_url}")
        } else {
            dest_url.to_string()
        };
        match self.links.href(&dest) {
            Some(href) => {
                self.push("</a>", Host::No);
                let _ = write!(self.out, "<a href=\"{}\"", escape(&href));
                if !title.is_empty() {
                    let _ = write!(self.out, " title=\"{}\"", escape(title));
                }
                self.out.push('>');
            }
            None => {
                self.push("</span>", Host::No);
                self.out.push_str(
                    "<span class=\"varar-dropped-link\" title=\"link removed: \
                     its address could run code\">",
                );
            }
        }
    }

    fn inline(&mut self, open: &str, close: &'static str) {
        self.push(close, Host::No);
        self.out.push_str(open);
    }

    /// ` class=… data-varar-state=…` on a table or code block attached to
    /// a marked example.
    fn attached_state(&mut self, line: u32) {
        if let Some(state) = self.overlay.attachments.get(&line) {
            let k = state.key();
            let _ = write!(
                self.out,
                " class=\"varar-attached varar-{k}\" data-varar-state=\"{k}\""
            );
        }
    }

    fn end(&mut self, end: TagEnd) {
        match end {
            TagEnd::TableHead => self.end_head(),
            TagEnd::TableRow => self.end_row(),
            TagEnd::Table => self.table = None,
            _ => {}
        }
        let Some(frame) = self.stack.pop() else {
            return;
        };
        if frame.host == Host::Inside {
            self.callouts(&frame.callouts);
        }
        let (spliced, after) = frame.spliced.unwrap_or_default();
        if !after {
            self.out.push_str(&spliced);
        }
        self.out.push_str(frame.close);
        if after {
            self.out.push_str(&spliced);
        }
        match frame.host {
            Host::After => self.callouts(&frame.callouts),
            // A host's leftover notes (a code block's inside a list item)
            // move to the enclosing host.
            Host::No if !frame.callouts.is_empty() => {
                if let Some(parent) = self.stack.last_mut() {
                    parent.callouts.extend(frame.callouts);
                }
            }
            _ => {}
        }
    }

    fn close_html_block(&mut self) {
        let Some(block) = self.html_block.take() else {
            return;
        };
        if !is_comment(&block) {
            self.out.push_str("<pre class=\"varar-raw-html\"><code>");
            escape_into(&mut self.out, &block);
            self.out.push_str("</code></pre>\n");
        }
    }

    /// Write `t`, whose source is `range`, cutting it at highlighted spans.
    fn text(&mut self, t: &str, range: &Range<usize>, code: bool) {
        let source = &self.text[range.clone()];
        let base = if source == t {
            Some(range.start)
        } else if code {
            source.find(t).map(|i| range.start + i)
        } else {
            None
        };
        let overlay = self.overlay;
        let Some(base) = base else {
            // Text that is not its source verbatim: marked whole or not.
            let hit = overlay
                .regions
                .iter()
                .find(|r| r.start < range.end && range.start < r.end);
            match hit {
                Some(r) => {
                    self.open_mark(r.note);
                    escape_into(&mut self.out, t);
                    self.out.push_str("</mark>");
                }
                None => escape_into(&mut self.out, t),
            }
            return;
        };
        let end = base + t.len();
        let mut cuts: Vec<usize> = vec![base, end];
        for r in &overlay.regions {
            for p in [r.start, r.end] {
                if base < p && p < end {
                    cuts.push(p);
                }
            }
        }
        cuts.sort_unstable();
        cuts.dedup();
        for w in cuts.windows(2) {
            let (a, b) = (w[0], w[1]);
            let piece = &t[a - base..b - base];
            match overlay.regions.iter().find(|r| r.start <= a && b <= r.end) {
                Some(r) => {
                    self.open_mark(r.note);
                    escape_into(&mut self.out, piece);
                    self.out.push_str("</mark>");
                }
                None => escape_into(&mut self.out, piece),
            }
        }
    }

    /// Open a `<mark>` for note `n`; the first one gets the id, keyboard
    /// focus and the description, and books the callout.
    fn open_mark(&mut self, n: usize) {
        let Some(note) = self.overlay.notes.get(n) else {
            return;
        };
        if self.started[n] {
            let _ = write!(
                self.out,
                "<mark class=\"varar-mark\" data-varar-state=\"failed\" data-varar-note=\"{}\">",
                n + 1
            );
            return;
        }
        self.started[n] = true;
        let title = match &note.detail {
            Detail::Cell { expected, actual } => format!("expected {expected}, actual {actual}"),
            Detail::Message(m) | Detail::Item { message: m, .. } => m.chars().take(300).collect(),
        };
        let _ = write!(
            self.out,
            "<mark class=\"varar-mark\" data-varar-state=\"failed\" data-varar-note=\"{num}\" \
             id=\"varar-mark-{num}\" tabindex=\"0\" aria-describedby=\"varar-note-{num}\" title=\"{title}\">",
            num = n + 1,
            title = escape(&title)
        );
        if let Some(frame) = self.stack.iter_mut().rev().find(|f| f.host != Host::No) {
            frame.callouts.push(n);
        }
    }

    fn callouts(&mut self, notes: &[usize]) {
        for &n in notes {
            if self.placed.get(n).copied().unwrap_or(true) {
                continue;
            }
            self.placed[n] = true;
            let has_mark = self.started[n];
            super::callout::write(&mut self.out, self.overlay, self.links, n, has_mark);
        }
    }
}

const HEADING_CLOSE: [&str; 6] = [
    "</h1>\n", "</h2>\n", "</h3>\n", "</h4>\n", "</h5>\n", "</h6>\n",
];

/// Whether raw HTML is only a comment (dropped: it is invisible anyway).
fn is_comment(html: &str) -> bool {
    let t = html.trim();
    t.starts_with("<!--") && t.ends_with("-->")
}

mod table;
#[cfg(test)]
mod tests;
