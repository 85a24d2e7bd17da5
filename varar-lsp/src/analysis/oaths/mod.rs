//! The oaths of a project as the server plans them (pure): every oath the
//! config selects, by oathPath, with the text planning sees (the editor's
//! while the oath is open, else the file's) and the sections its reference
//! blocks name (reuse by link, spec 70).
//!
//! Planning one oath needs only some of them: the oath, every document its
//! links reach (transitively: their sections are spliced), and every
//! document that links to it (their links decide which of its sections are
//! consumed, spec 70 §70.2.2). [`Oaths::workspace`] builds the engine's
//! workspace over just those, so an edit costs the same in a project of ten
//! oaths as in one of a thousand, and [`Oaths::deps`] says when a plan made
//! earlier still holds: the texts it read and the links that consume its
//! sections are unchanged.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, OnceLock};

use varar_core::workspace::{Document, Workspace, may_link};

/// A reference block's target: the oath and the section (`""`: the whole
/// file).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Link {
    /// The oathPath it points at.
    pub path: String,
    /// The normalised fragment.
    pub slug: String,
}

#[derive(Clone, Debug)]
struct Entry {
    /// Shared: the server hands a copy of the oaths to each planning
    /// thread, which then costs no copy of the texts (issue 39).
    text: Arc<str>,
    /// Increases with every change of any entry; a removed and re-added
    /// oath never gets an old version back.
    version: u64,
    /// Where its reference blocks point, each once, sorted: found when
    /// first asked for, which for an edited oath is when it is planned, by
    /// the parse the plan then uses (not a parse of its own on each
    /// keystroke, issue 39). Shared by the copies of the oaths: the server
    /// plans on a copy, and what the copy found is the server's too.
    links: Arc<OnceLock<Vec<Link>>>,
    /// Open in the editor: the file on disk does not count.
    open: bool,
}

/// What a plan of one oath was made from: when it is unchanged, the plan
/// still holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Deps {
    /// The registry generation.
    pub generation: u64,
    /// The version of the oath and of every document its links reach.
    pub versions: Vec<(String, u64)>,
    /// The slugs of the oath that some link names (its consumed sections).
    pub consumed: BTreeSet<String>,
}

/// Every oath of a project, with its text and links.
#[derive(Clone, Debug, Default)]
pub struct Oaths {
    entries: BTreeMap<String, Entry>,
    version: u64,
}

impl Oaths {
    /// Oaths read from disk: `(oathPath, text)`.
    pub fn from_disk(texts: impl IntoIterator<Item = (String, String)>) -> Oaths {
        let mut oaths = Oaths::default();
        for (path, text) in texts {
            oaths.disk(&path, Some(text));
        }
        oaths
    }

    /// The editor opened the oath with `text`. Returns whether the text
    /// planning sees changed.
    pub fn open(&mut self, path: &str, text: &str) -> bool {
        let changed = self.put(path, text);
        if let Some(entry) = self.entries.get_mut(path) {
            entry.open = true;
        }
        changed
    }

    /// The editor's text of an open oath changed (a no-op for an oath that
    /// is not open). Returns whether the text changed.
    pub fn edit(&mut self, path: &str, text: &str) -> bool {
        if !self.entries.get(path).is_some_and(|e| e.open) {
            return false;
        }
        self.put(path, text)
    }

    /// The editor closed the oath: the file's text counts again (`None`:
    /// it is gone or unreadable, and so is the oath). Returns whether the
    /// text changed.
    pub fn close(&mut self, path: &str, disk: Option<String>) -> bool {
        if let Some(entry) = self.entries.get_mut(path) {
            entry.open = false;
        }
        self.disk(path, disk)
    }

    /// The file of an oath changed on disk (`None`: deleted or unreadable).
    /// Ignored while the oath is open. Returns whether the text changed.
    pub fn disk(&mut self, path: &str, text: Option<String>) -> bool {
        if self.entries.get(path).is_some_and(|e| e.open) {
            return false;
        }
        match text {
            Some(text) => self.put(path, &text),
            None => {
                let removed = self.entries.remove(path).is_some();
                if removed {
                    self.version += 1;
                }
                removed
            }
        }
    }

    fn put(&mut self, path: &str, text: &str) -> bool {
        if self.entries.get(path).is_some_and(|e| &*e.text == text) {
            return false;
        }
        self.version += 1;
        let open = self.entries.get(path).is_some_and(|e| e.open);
        self.entries.insert(
            path.to_string(),
            Entry {
                text: Arc::from(text),
                version: self.version,
                links: Arc::default(),
                open,
            },
        );
        true
    }

    /// Increases with every change of any oath's text (the project's
    /// oaths as a whole are unchanged while it is the same).
    pub fn version(&self) -> u64 {
        self.version
    }

    /// The text of an oath.
    pub fn text(&self, path: &str) -> Option<&str> {
        self.entries.get(path).map(|e| &*e.text)
    }

    /// The text of `path`, shared rather than copied (what an analysis
    /// keeps of the text it planned).
    pub fn shared_text(&self, path: &str) -> Option<Arc<str>> {
        self.entries.get(path).map(|e| Arc::clone(&e.text))
    }

    /// Whether the oath is open in the editor.
    pub fn is_open(&self, path: &str) -> bool {
        self.entries.get(path).is_some_and(|e| e.open)
    }

    /// Every oathPath, sorted.
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.entries.keys().map(String::as_str)
    }

    /// How many oaths there are.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Where the reference blocks of an oath point.
    pub fn links(&self, path: &str) -> &[Link] {
        self.entries
            .get_key_value(path)
            .map_or(&[], |(p, e)| e.links(p))
    }

    /// Every oath the links of `path` reach, directly or through the
    /// documents they reach (`path` itself only through a cycle).
    pub fn reaches(&self, path: &str) -> BTreeSet<String> {
        self.walk(path, |oaths, p| {
            oaths.links(p).iter().map(|l| l.path.clone()).collect()
        })
    }

    /// Every oath that reaches `path` through links.
    pub fn reached_by(&self, path: &str) -> BTreeSet<String> {
        self.walk(path, |oaths, p| oaths.linking_to(p))
    }

    /// The oaths with a reference block naming `path` (any section).
    pub fn linking_to(&self, path: &str) -> Vec<String> {
        self.entries
            .iter()
            .filter(|(p, e)| e.links(p).iter().any(|l| l.path == path))
            .map(|(p, _)| p.clone())
            .collect()
    }

    fn walk(&self, from: &str, next: impl Fn(&Oaths, &str) -> Vec<String>) -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.to_string()];
        while let Some(p) = todo.pop() {
            for n in next(self, &p) {
                if self.entries.contains_key(&n) && seen.insert(n.clone()) {
                    todo.push(n);
                }
            }
        }
        seen
    }

    /// Whether a plan of `path` made from `deps` still holds: `deps` is
    /// what [`Oaths::deps`] says now. An oath edited since is known to
    /// need a plan without its links being looked for (which would parse
    /// it): the server asks on each keystroke, before it plans.
    pub fn deps_hold(&self, path: &str, generation: u64, deps: &Deps) -> bool {
        let version = self.entries.get(path).map(|e| e.version);
        let was = deps.versions.iter().find(|(p, _)| p == path).map(|v| v.1);
        deps.generation == generation && was == version && *deps == self.deps(path, generation)
    }

    /// What a plan of `path` made now would be made from.
    pub fn deps(&self, path: &str, generation: u64) -> Deps {
        let mut versions: Vec<(String, u64)> = std::iter::once(path.to_string())
            .chain(self.reaches(path))
            .filter_map(|p| Some((p.clone(), self.entries.get(&p)?.version)))
            .collect();
        versions.sort();
        versions.dedup();
        let consumed = self
            .entries
            .iter()
            .flat_map(|(p, e)| e.links(p).iter())
            .filter(|l| l.path == path)
            .map(|l| l.slug.clone())
            .collect();
        Deps {
            generation,
            versions,
            consumed,
        }
    }

    /// The engine's workspace for planning `paths`: each of them, every
    /// document they reach, and every document that links to one of them.
    /// Plans of `paths` against it equal plans against the workspace of
    /// every oath (nothing else can be spliced into them or consume them).
    pub fn workspace(&self, paths: &[&str]) -> Workspace<'_> {
        // An oath whose links are not known yet (it was edited) is parsed
        // here once: for its links, then for its plan.
        let parsed: Vec<Document<'_>> = paths
            .iter()
            .filter_map(|path| {
                let (path, entry) = self.entries.get_key_value(*path)?;
                if entry.links.get().is_some() || !may_link(&entry.text) {
                    return None;
                }
                let document = Document::parse(path, &entry.text);
                let _ = entry.links.set(links_in(&document));
                Some(document)
            })
            .collect();
        let mut needed: BTreeSet<String> = BTreeSet::new();
        for path in paths {
            needed.insert((*path).to_string());
            needed.extend(self.reaches(path));
            needed.extend(self.linking_to(path));
        }
        Workspace::build_parsed(
            needed
                .into_iter()
                .filter_map(|p| self.entries.get_key_value(&p))
                .map(|(p, e)| (p.clone(), &*e.text)),
            parsed,
        )
    }

    /// The engine's workspace of every oath.
    pub fn whole_workspace(&self) -> Workspace<'_> {
        Workspace::build(self.entries.iter().map(|(p, e)| (p.clone(), &*e.text)))
    }
}

impl Entry {
    /// Whether its links were looked for (a test's window on the parses
    /// that were not made).
    #[cfg(test)]
    fn links_known(&self) -> bool {
        self.links.get().is_some()
    }

    /// Where its reference blocks point (see [`Entry::links`]).
    fn links(&self, path: &str) -> &[Link] {
        self.links.get_or_init(|| {
            // Only a text with `](` can hold one, so only those are parsed.
            if !may_link(&self.text) {
                return Vec::new();
            }
            links_in(&Document::parse(path, &self.text))
        })
    }
}

/// The targets of a document's reference blocks, each once, sorted.
fn links_in(document: &Document<'_>) -> Vec<Link> {
    let links: BTreeSet<Link> = document
        .references()
        .map(|(_, r)| Link {
            path: r.path.clone(),
            slug: r.slug.clone(),
        })
        .collect();
    links.into_iter().collect()
}

#[cfg(test)]
mod tests;
