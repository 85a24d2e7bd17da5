//! `cargo varar test`: one front end over `cargo test` and `cargo nextest
//! run` that selects examples by where they are written (issue 38).
//!
//! The project is planned as `cargo varar check` plans it (the language
//! server's [`plan_documents`](varar_lsp::analysis::plan_documents): every
//! oath among the others, its items named by the engine's
//! [`names::items`](varar_core::names::items), in the harness's order), so a selected name is the
//! very name `cargo test -- --list` prints. Each item becomes a
//! [`Target`]: the lines it is written on in its own document, the lines
//! of other documents it runs (steps spliced in, sections its links name)
//! and the steps it calls. The selectors ([`selector`]) and the changes
//! since a git ref ([`since`]) pick targets by those lines; the names
//! travel to the harness in `VARAR_SELECT` (never as options), and the
//! harness lists and runs only those.
//!
//! The shell (`shell.rs`) reads the project and the steps, runs `git` for
//! `--since`, says what it selected and why on stderr, and runs cargo.

pub mod args;
pub mod selector;
pub mod shell;
pub mod since;

use std::collections::BTreeMap;

use varar_core::doc::Doc;
use varar_core::env::{VARAR_SELECT, VARAR_SELECT_MAX_BYTES};
use varar_core::names::{ItemKind, ItemSource, OathItems, items};
use varar_core::reference::slugify;
use varar_core::source::Span;
use varar_core::tags::{self, TagExpression, TagIndex};
use varar_core::untrusted::{cut_to, terminal_line};
use varar_lsp::analysis::Analysis;

/// Lines `start..=end` (1-based) of a document.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Lines {
    /// The document's oathPath.
    pub path: String,
    /// The first line.
    pub start: u32,
    /// The last line (`u32::MAX`: to the end).
    pub end: u32,
}

impl Lines {
    /// Whether these lines and `start..=end` of `path` share a line.
    pub fn meets(&self, path: &str, start: u32, end: u32) -> bool {
        self.path == path && self.start <= end && start <= self.end
    }

    fn of(path: &str, span: Span) -> Lines {
        Lines {
            path: path.to_owned(),
            start: span.start_line,
            end: span.end_line.max(span.start_line),
        }
    }
}

/// One test item and where it is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// Its full name, as `cargo test -- --list` prints it (without the
    /// kind).
    pub name: String,
    /// Its kind.
    pub kind: ItemKind,
    /// The document it belongs to and its first line there.
    pub document: String,
    /// Its first line.
    pub line: u32,
    /// The lines of its own document it is written on: its paragraphs
    /// with their tables and fences (a header-bound row: its row, and the
    /// sentence and header above the table).
    pub own: Vec<Lines>,
    /// The lines of other documents it runs: the steps spliced in and the
    /// sections its links name (a whole document when unsure).
    pub reaches: Vec<Lines>,
    /// The registry indices of the steps it calls.
    pub steps: Vec<usize>,
}

impl Target {
    /// Whether it is written on, or runs, a line of `start..=end` of `path`.
    pub fn meets(&self, path: &str, start: u32, end: u32) -> bool {
        self.own.iter().any(|l| l.meets(path, start, end))
    }

    /// Whether it runs lines of another document in `start..=end` of `path`.
    pub fn reaches(&self, path: &str, start: u32, end: u32) -> bool {
        self.reaches.iter().any(|l| l.meets(path, start, end))
    }
}

/// Every item of the planned oaths, in the harness's order, as targets.
pub fn targets(analyses: &[Analysis]) -> Vec<Target> {
    let planned: Vec<OathItems<'_>> = analyses.iter().map(Analysis::items).collect();
    let by_path: BTreeMap<&str, &Analysis> =
        analyses.iter().map(|a| (a.oath_path.as_str(), a)).collect();
    items(&planned)
        .into_iter()
        .map(|item| {
            let document = item.document.to_string();
            let mut target = Target {
                name: item.name.to_string(),
                kind: item.kind(),
                own: vec![Lines {
                    path: document.clone(),
                    start: item.line,
                    end: item.line,
                }],
                document,
                line: item.line,
                reaches: Vec::new(),
                steps: Vec::new(),
            };
            let oath = by_path.get(target.document.as_str()).copied();
            match (item.source(&planned), oath) {
                (Some(ItemSource::Example(example)), Some(oath)) => {
                    example_lines(&mut target, example, oath, &by_path);
                }
                (Some(ItemSource::Drift(drift)), _) => {
                    target.own = vec![Lines::of(&target.document, drift.span)];
                }
                (Some(ItemSource::Diagnostic(d)), _) => {
                    target.own = vec![Lines::of(&target.document, d.span)];
                }
                _ => {}
            }
            target
        })
        .collect()
}

/// The lines an example is written on and runs.
fn example_lines(
    target: &mut Target,
    example: &varar_core::plan::PlannedExample,
    oath: &Analysis,
    by_path: &BTreeMap<&str, &Analysis>,
) {
    let path = oath.oath_path.as_str();
    let span = Lines::of(path, example.span);
    let mut own = vec![span.clone()];
    for candidate in &oath.doc.examples {
        let c = Lines::of(path, candidate.span);
        if !c.meets(path, span.start, span.end) {
            continue;
        }
        if example.row.is_some() {
            // Its row, and what binds it: the sentence and the header,
            // up to the first row of the table.
            let first_row = oath
                .plan
                .examples
                .iter()
                .filter(|e| e.row.is_some() && c.meets(path, e.span.start_line, e.span.end_line))
                .map(|e| e.span.start_line)
                .min()
                .unwrap_or(span.start);
            own.push(Lines {
                end: first_row.saturating_sub(1).max(c.start),
                ..c
            });
        } else {
            own.push(c);
        }
    }
    let mut reaches = Vec::new();
    let mut named = Vec::new();
    for link in &oath.links {
        let block = link.block;
        if own
            .iter()
            .any(|l| l.meets(path, block.start_line, block.end_line))
        {
            let to = link.reference.path.as_str();
            named.push(to.to_owned());
            match by_path.get(to) {
                Some(doc) if !link.reference.slug.is_empty() => {
                    reaches.extend(section(to, &doc.doc, &link.reference.slug));
                }
                _ => reaches.push(whole(to)),
            }
        }
    }
    for step in &example.steps {
        target.steps.push(step.step);
        if let Some(doc) = &step.doc_path {
            reaches.push(Lines::of(doc, step.match_span));
            // Spliced by a link this example's lines do not show: the
            // whole document, since what it runs there is unsure.
            if !named.iter().any(|n| n == doc) {
                reaches.push(whole(doc));
                named.push(doc.clone());
            }
        }
    }
    target.steps.sort_unstable();
    target.steps.dedup();
    reaches.sort();
    reaches.dedup();
    own.sort();
    own.dedup();
    target.own = own;
    target.reaches = reaches;
}

/// Every line of `path`.
pub fn whole(path: &str) -> Lines {
    Lines {
        path: path.to_owned(),
        start: 1,
        end: u32::MAX,
    }
}

/// The lines of each section of `doc` whose heading slugs to `slug`: from
/// its heading to the next heading of its level or above (spec 70
/// §70.2.3). Two headings of one slug are both taken.
pub fn section(path: &str, doc: &Doc, slug: &str) -> Vec<Lines> {
    let headings = &doc.headings;
    headings
        .iter()
        .enumerate()
        .filter(|(_, h)| slugify(&h.text) == slug)
        .map(|(i, h)| {
            let end = headings
                .iter()
                .skip(i + 1)
                .find(|next| next.level <= h.level)
                .map_or(u32::MAX, |next| next.span.start_line.saturating_sub(1));
            Lines {
                path: path.to_owned(),
                start: h.span.start_line,
                end,
            }
        })
        .collect()
}

/// Why a target was selected, as said on stderr.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Why {
    /// A selector named its place (the selector as written).
    Named(String),
    /// Its own lines changed since the ref.
    Paragraph,
    /// A section or step it runs from another document changed.
    Linked(String),
    /// A step function it calls changed (the function's name).
    Step(String),
    /// Its tags match `--tags` (the expression as parsed).
    Tags(String),
    /// A diagnostic or read error, which `--tags` never leaves out.
    Untagged,
}

impl Why {
    fn text(&self) -> String {
        match self {
            Why::Named(selector) => format!("named on the command line: {selector}"),
            Why::Paragraph => "its lines changed".to_owned(),
            Why::Linked(path) => format!("what it runs from {path} changed"),
            Why::Step(function) => format!("its step function `{function}` changed"),
            Why::Tags(expression) => format!("its tags match {expression}"),
            Why::Untagged => "a document's problem, which no tag leaves out".to_owned(),
        }
    }
}

/// What was selected: target indices with why, in the harness's order.
pub type Picked = BTreeMap<usize, Why>;

/// `picked` (every target when `None`) narrowed to the items `expression`
/// selects by their tags ([`tags::selects`], the harness's rule for
/// `VARAR_TAGS`); the oaths' tags are read from the planned texts.
pub fn by_tags(
    targets: &[Target],
    analyses: &[Analysis],
    expression: &TagExpression,
    picked: Option<Picked>,
) -> Picked {
    let indices: BTreeMap<&str, TagIndex> = analyses
        .iter()
        .map(|a| (a.oath_path.as_str(), TagIndex::of(&a.text)))
        .collect();
    let none = TagIndex::default();
    let keeps = |t: &Target| {
        let index = indices.get(t.document.as_str()).unwrap_or(&none);
        tags::selects(expression, t.kind, index, t.line)
    };
    match picked {
        Some(picked) => picked
            .into_iter()
            .filter(|(i, _)| targets.get(*i).is_some_and(keeps))
            .collect(),
        None => targets
            .iter()
            .enumerate()
            .filter(|(_, t)| keeps(t))
            .map(|(i, t)| {
                let why = match t.kind {
                    ItemKind::Example | ItemKind::Drift => Why::Tags(expression.to_string()),
                    _ => Why::Untagged,
                };
                (i, why)
            })
            .collect(),
    }
}

/// How many lines of selected items stderr shows (the rest are counted).
const SHOWN: usize = 50;

/// How much of a name a line shows.
const SHOWN_BYTES: usize = 160;

/// The lines said on stderr before cargo runs: what was selected and why.
pub fn selected_text(targets: &[Target], picked: &Picked) -> Vec<String> {
    let examples = targets
        .iter()
        .filter(|t| t.kind == ItemKind::Example)
        .count();
    let mut lines = vec![format!(
        "selected {} of {} items ({} examples):",
        picked.len(),
        targets.len(),
        examples
    )];
    for (&i, why) in picked.iter().take(SHOWN) {
        let Some(t) = targets.get(i) else { continue };
        let short = t.name.rsplit("::").next().unwrap_or(&t.name);
        lines.push(format!(
            "  {}:{} \"{}\" ({})",
            terminal_line(&t.document),
            t.line,
            terminal_line(&cut_to(short, SHOWN_BYTES)),
            terminal_line(&why.text())
        ));
    }
    if picked.len() > SHOWN {
        lines.push(format!("  … and {} more", picked.len() - SHOWN));
    }
    lines
}

/// The value of `VARAR_SELECT` naming `names`, one a line; refused over
/// the limit the harness reads, or for a name a line cannot hold.
pub fn select_value(names: &[&str]) -> Result<String, String> {
    if let Some(bad) = names.iter().find(|n| n.contains(['\n', '\r', '\0'])) {
        return Err(format!(
            "the item `{}` has a line break in its name, so {VARAR_SELECT} cannot name it",
            terminal_line(&cut_to(bad, SHOWN_BYTES))
        ));
    }
    let value: String = names.iter().map(|n| format!("{n}\n")).collect();
    if value.len() > VARAR_SELECT_MAX_BYTES {
        return Err(format!(
            "the {} selected items' names take {} bytes, more than the \
             {VARAR_SELECT_MAX_BYTES} {VARAR_SELECT} may hold: select fewer, or run everything",
            names.len(),
            value.len()
        ));
    }
    Ok(value)
}

#[cfg(test)]
mod tests;
