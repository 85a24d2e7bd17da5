//! The workspace (spec 70 §70.2): every oath of the run by oathPath, parsed
//! at most once, and the set of sections some reference block names.
//!
//! A shell builds it from the texts it has already read (an oath that could
//! not be read is simply left out) and plans each oath against it with
//! [`crate::plan::plan_oath`]. Building is cheap: only a text that holds `](`
//! can contain a reference block, so only those are parsed up front (to
//! collect what they reference); every other document is parsed the first
//! time planning needs it, and never twice. A one-item `nextest` process
//! that plans a single oath therefore parses only the ones with links, the
//! oath itself and the documents it reaches; a document that cannot link
//! ([`may_link`] false) and that nothing links to changes no other
//! document's plan, which lets a shell leave it out.
//!
//! Planning one document alone ([`crate::plan::plan`]) uses
//! [`Workspace::empty`]: same-file links still resolve against the document,
//! other files are not found, and nothing is consumed.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::doc::{Doc, Heading};
use crate::parse::parse;
use crate::reference::{Reference, recognise, section_key, slugify};
use crate::source::Source;

/// Every oath of a run, by oathPath, with the sections referenced anywhere.
///
/// ```
/// use varar_core::workspace::Workspace;
/// let checkout = "# Pay\n\nI add 1.\n\n[Fill](shared.md#fill)\n";
/// let shared = "# Shared\n\n## Fill\n\nI add 2.\n";
/// let ws = Workspace::build([("varar/checkout.md", checkout), ("varar/shared.md", shared)]);
/// assert!(ws.is_referenced("varar/shared.md#fill"));
/// let shared = ws.document("varar/shared.md").unwrap();
/// assert_eq!(ws.consumed(shared), [true]);
/// ```
#[derive(Debug, Default)]
pub struct Workspace<'t> {
    slots: BTreeMap<String, Slot<'t>>,
    /// oathPath → the slugs referenced in it (`""`: the whole file).
    referenced: BTreeMap<String, BTreeSet<String>>,
    parses: AtomicUsize,
}

#[derive(Debug)]
struct Slot<'t> {
    text: &'t str,
    parsed: OnceLock<Document<'t>>,
}

/// Why an oath cannot be planned against a workspace.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WorkspaceError {
    /// The oathPath is not one of the workspace's documents.
    #[error("`{oath_path}` is not an oath of this workspace")]
    NotInWorkspace {
        /// The oathPath asked for.
        oath_path: String,
    },
}

impl<'t> Workspace<'t> {
    /// The workspace with no documents and no references.
    pub fn empty() -> Self {
        Workspace::default()
    }

    /// A workspace of `(oathPath, text)` documents. A path given twice keeps
    /// its last text. Every text holding `](` is parsed now, to collect the
    /// sections its reference blocks name (blocks inside referenced sections
    /// and links that resolve nowhere included, spec 70 §70.2.2).
    pub fn build<P: Into<String>>(documents: impl IntoIterator<Item = (P, &'t str)>) -> Self {
        Workspace::build_parsed(documents, [])
    }

    /// [`Workspace::build`], with some of the documents already parsed
    /// from the very texts given for their paths: those are not parsed
    /// again (the editor parses an edited oath to find its links, then
    /// plans it). A document parsed from another text than its path's, or
    /// whose path is not given, is ignored.
    ///
    /// ```
    /// use varar_core::workspace::{Document, Workspace};
    /// let text = "# A\n\n[Fill](b.md)\n";
    /// let parsed = Document::parse("varar/a.md", text);
    /// let ws = Workspace::build_parsed([("varar/a.md", text)], [parsed]);
    /// assert!(ws.document("varar/a.md").is_some());
    /// assert_eq!(ws.parsed_count(), 0);
    /// ```
    pub fn build_parsed<P: Into<String>>(
        documents: impl IntoIterator<Item = (P, &'t str)>,
        parsed: impl IntoIterator<Item = Document<'t>>,
    ) -> Self {
        let mut workspace = Workspace::empty();
        for (path, text) in documents {
            let slot = Slot {
                text,
                parsed: OnceLock::new(),
            };
            workspace.slots.insert(path.into(), slot);
        }
        for document in parsed {
            if let Some(slot) = workspace.slots.get(document.path())
                && std::ptr::eq(slot.text, document.source().text())
            {
                let _ = slot.parsed.set(document);
            }
        }
        let mut referenced: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (path, slot) in &workspace.slots {
            if !may_link(slot.text) {
                continue;
            }
            let document = workspace.parsed(path, slot);
            for (_, reference) in document.references() {
                referenced
                    .entry(reference.path.clone())
                    .or_default()
                    .insert(reference.slug.clone());
            }
        }
        workspace.referenced = referenced;
        workspace
    }

    /// The document at `oath_path`, parsed on first use.
    pub fn document(&self, oath_path: &str) -> Option<&Document<'t>> {
        let (path, slot) = self.slots.get_key_value(oath_path)?;
        Some(self.parsed(path, slot))
    }

    /// `f` of the document at `oath_path`. One that is not parsed yet and
    /// that no document links to is parsed for this call alone and dropped
    /// after it (nothing else will ask for it): planning the oaths of a run
    /// one by one then holds one parse per thread at a time, not every
    /// parse at once.
    ///
    /// ```
    /// use varar_core::workspace::Workspace;
    /// let ws = Workspace::build([("varar/a.md", "# A\n\nI add 2.\n")]);
    /// let headings = ws.with_document("varar/a.md", |d| d.doc().headings.len());
    /// assert_eq!(headings, Some(1));
    /// assert_eq!(ws.parsed_count(), 1);
    /// // Not kept: asking again parses again.
    /// ws.with_document("varar/a.md", |_| ());
    /// assert_eq!(ws.parsed_count(), 2);
    /// ```
    pub fn with_document<R>(
        &self,
        oath_path: &str,
        f: impl FnOnce(&Document<'t>) -> R,
    ) -> Option<R> {
        let (path, slot) = self.slots.get_key_value(oath_path)?;
        if let Some(document) = slot.parsed.get() {
            return Some(f(document));
        }
        if self.referenced.contains_key(path) {
            return Some(f(self.parsed(path, slot)));
        }
        self.parses.fetch_add(1, Ordering::Relaxed);
        Some(f(&Document::parse(path, slot.text)))
    }

    fn parsed<'w>(&'w self, path: &str, slot: &'w Slot<'t>) -> &'w Document<'t> {
        slot.parsed.get_or_init(|| {
            self.parses.fetch_add(1, Ordering::Relaxed);
            Document::parse(path, slot.text)
        })
    }

    /// The documents parsed so far, by oathPath, the workspace given up:
    /// what a caller keeps of a plan without copying a model.
    pub fn into_documents(self) -> BTreeMap<String, Document<'t>> {
        self.slots
            .into_iter()
            .filter_map(|(path, slot)| Some((path, slot.parsed.into_inner()?)))
            .collect()
    }

    /// Whether `oath_path` is one of the documents.
    pub fn contains(&self, oath_path: &str) -> bool {
        self.slots.contains_key(oath_path)
    }

    /// The oathPaths, sorted.
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.slots.keys().map(String::as_str)
    }

    /// How many documents there are.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether there is no document.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Every referenced section key (`<path>#<slug>`, `<path>#` for a whole
    /// file), sorted.
    pub fn referenced_keys(&self) -> impl Iterator<Item = String> + '_ {
        self.referenced
            .iter()
            .flat_map(|(path, slugs)| slugs.iter().map(move |slug| section_key(path, slug)))
    }

    /// Whether some reference block names the section `key`.
    pub fn is_referenced(&self, key: &str) -> bool {
        let (path, slug) = key.rsplit_once('#').unwrap_or((key, ""));
        self.referenced
            .get(path)
            .is_some_and(|slugs| slugs.contains(slug))
    }

    /// For each candidate of `document`, whether it is consumed (spec 70
    /// §70.2.2): its whole file is referenced, or a heading on its scope
    /// stack names a referenced section. Consumed candidates run only where
    /// they are referenced: they give no example, diagnostic, item or live
    /// lock entry in their own oath.
    pub fn consumed(&self, document: &Document<'_>) -> Vec<bool> {
        consumed(self, &document.view())
    }

    /// How many documents have been parsed so far (each at most once).
    pub fn parsed_count(&self) -> usize {
        self.parses.load(Ordering::Relaxed)
    }

    /// The documents whose reference blocks reach `path`, directly or
    /// through other documents' links, sorted (`path` itself only when a
    /// chain of links leads back to it). Planning those is what reports
    /// the diagnostics written in `path` that only arise where it is
    /// referenced (a run of one diagnostic item of `path`). Only documents
    /// holding `](` can link, so only those are looked at.
    pub fn reaching(&self, path: &str) -> BTreeSet<String> {
        let mut links_to: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
        for (from, slot) in &self.slots {
            if !may_link(slot.text) {
                continue;
            }
            for (_, reference) in self.parsed(from, slot).references() {
                links_to
                    .entry(reference.path.as_str())
                    .or_default()
                    .insert(from.as_str());
            }
        }
        let mut found = BTreeSet::new();
        let mut queue = vec![path];
        while let Some(target) = queue.pop() {
            for &from in links_to.get(target).into_iter().flatten() {
                if found.insert(from.to_owned()) {
                    queue.push(from);
                }
            }
        }
        found
    }

    /// The slugs referenced in `path`, if any.
    fn referenced_in(&self, path: &str) -> Option<&BTreeSet<String>> {
        self.referenced.get(path)
    }
}

/// [`Workspace::consumed`] for any view of a document.
pub(crate) fn consumed(workspace: &Workspace<'_>, view: &View<'_>) -> Vec<bool> {
    let count = view.doc.examples.len();
    let Some(slugs) = workspace.referenced_in(view.path) else {
        return vec![false; count];
    };
    if slugs.contains("") {
        return vec![true; count];
    }
    view.doc
        .examples
        .iter()
        .map(|c| {
            c.scope_stack
                .iter()
                .any(|h| slugs.contains(view.slug_of(h).as_ref()))
        })
        .collect()
}

/// One parsed oath of a workspace: its source, document model and reference
/// blocks.
#[derive(Debug)]
pub struct Document<'t> {
    source: Source<'t>,
    doc: Doc,
    /// The reference blocks, by candidate index.
    references: References,
    slugs: OnceLock<Slugs>,
}

impl<'t> Document<'t> {
    /// Parse `text` as the oath at `oath_path` and recognise its reference
    /// blocks.
    pub fn parse(oath_path: &str, text: &'t str) -> Self {
        let source = Source::new(text);
        let doc = parse(oath_path, &source);
        Document::from_parts(doc, source)
    }

    /// A document from a model already parsed from `source`.
    pub fn from_parts(doc: Doc, source: Source<'t>) -> Self {
        let references = recognise_all(&doc);
        Document {
            source,
            doc,
            references,
            slugs: OnceLock::new(),
        }
    }

    /// Its oathPath.
    pub fn path(&self) -> &str {
        &self.doc.path
    }

    /// The document model, the document given up.
    pub fn into_doc(self) -> Doc {
        self.doc
    }

    /// The document model.
    pub fn doc(&self) -> &Doc {
        &self.doc
    }

    /// The source it was parsed from.
    pub fn source(&self) -> &Source<'t> {
        &self.source
    }

    /// The reference of candidate `index`, if it is a reference block.
    pub fn reference(&self, index: usize) -> Option<&Reference> {
        self.references.get(index)
    }

    /// Every reference block, in document order, with its candidate index.
    pub fn references(&self) -> impl Iterator<Item = (usize, &Reference)> {
        self.references.0.iter().map(|(i, r)| (*i, r))
    }

    /// The headings whose slug is `slug`, in document order (two or more
    /// make an anchor ambiguous).
    pub fn headings_named(&self, slug: &str) -> Vec<&Heading> {
        self.view().headings_named(slug)
    }

    /// The candidates of the section `slug` (`""`: the whole file), by index
    /// in document order (spec 70 §70.2.3).
    pub fn section(&self, slug: &str) -> Vec<usize> {
        self.view().section(slug)
    }

    /// The planner's view of this document.
    pub(crate) fn view(&self) -> View<'_> {
        View {
            path: &self.doc.path,
            doc: &self.doc,
            source: &self.source,
            references: &self.references,
            slugs: &self.slugs,
        }
    }
}

/// The reference blocks of a document by candidate index, ascending: kept
/// apart from the candidates, since most documents have few or none.
#[derive(Clone, Debug, Default)]
pub(crate) struct References(Vec<(usize, Reference)>);

impl References {
    /// The reference of candidate `index`, if it is a reference block.
    pub fn get(&self, index: usize) -> Option<&Reference> {
        let found = self.0.binary_search_by_key(&index, |(i, _)| *i).ok()?;
        self.0.get(found).map(|(_, r)| r)
    }
}

/// The reference blocks among the candidates of `doc`.
pub(crate) fn recognise_all(doc: &Doc) -> References {
    References(
        doc.examples
            .iter()
            .enumerate()
            .filter_map(|(i, c)| Some((i, recognise(&c.body.text.text, &doc.path)?)))
            .collect(),
    )
}

/// A document as planning reads it, borrowed from a [`Document`] or built
/// over a model parsed elsewhere.
#[derive(Clone, Copy, Debug)]
pub(crate) struct View<'d> {
    pub path: &'d str,
    pub doc: &'d Doc,
    pub source: &'d Source<'d>,
    pub references: &'d References,
    pub slugs: &'d OnceLock<Slugs>,
}

/// The slug of every heading text of a document, computed once, when a
/// section or a consumption is first asked for.
#[derive(Debug)]
pub(crate) struct Slugs {
    by_text: HashMap<String, String>,
}

impl<'d> View<'d> {
    /// The reference of candidate `index`, if any.
    pub fn reference(&self, index: usize) -> Option<&'d Reference> {
        self.references.get(index)
    }

    /// The slug of a heading text of this document.
    pub fn slug_of(&self, heading: &str) -> Cow<'d, str> {
        let slugs = self.slugs.get_or_init(|| Slugs {
            by_text: self
                .doc
                .headings
                .iter()
                .map(|h| (h.text.clone(), slugify(&h.text)))
                .collect(),
        });
        match slugs.by_text.get(heading) {
            Some(slug) => Cow::Borrowed(slug.as_str()),
            // Only a hand-built model has scope texts that are not headings.
            None => Cow::Owned(slugify(heading)),
        }
    }

    /// The headings whose slug is `slug`.
    pub fn headings_named(&self, slug: &str) -> Vec<&'d Heading> {
        self.doc
            .headings
            .iter()
            .filter(|h| self.slug_of(&h.text) == slug)
            .collect()
    }

    /// The candidates of section `slug`, by index.
    pub fn section(&self, slug: &str) -> Vec<usize> {
        let examples = &self.doc.examples;
        if slug.is_empty() {
            return (0..examples.len()).collect();
        }
        (0..examples.len())
            .filter(|&i| self.scope_has(i, slug))
            .collect()
    }

    /// Whether a heading on candidate `index`'s scope stack slugs to `slug`.
    pub fn scope_has(&self, index: usize, slug: &str) -> bool {
        self.doc
            .examples
            .get(index)
            .is_some_and(|c| c.scope_stack.iter().any(|h| self.slug_of(h) == slug))
    }
}

/// Whether `text` holds `](`, which every Markdown link does: what lets
/// [`Workspace::build`] parse only the documents that may link. A search
/// for `]` alone (the standard library's byte search, fast even in an
/// unoptimised build, where a substring search costs 40 times more: a
/// fifth of a `cargo nextest` process's instructions on 100 oaths), then a
/// look at the byte after each.
///
/// ```
/// assert!(varar_core::workspace::may_link("[Fill](shared.md#fill)\n"));
/// assert!(!varar_core::workspace::may_link("# Shop\n\nI pay [2].\n"));
/// ```
pub fn may_link(text: &str) -> bool {
    let mut rest = text;
    while let Some(at) = rest.find(']') {
        rest = &rest[at + 1..];
        if rest.starts_with('(') {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests;
