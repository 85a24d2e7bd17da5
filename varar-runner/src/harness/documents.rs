//! The texts of a run and what reuse by link needs of them (spec 70 §70.2,
//! §70.6.6): every discovered oath read once, the workspace built over
//! those texts, and the plan diagnostics gathered by the document they are
//! written in, each once.
//!
//! Reading every oath is what lets one oath be planned among the others,
//! also in a run of one item (`--exact`, a `cargo nextest` process): the
//! workspace parses only the texts that hold a link (`](`) up front, and
//! only the selected oaths are planned.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use crate::discovery::{OathFile, read_oath};
use varar_core::hash::source_hash;
use varar_core::plan::{Diagnostic, Plan};
use varar_core::results::DocumentHash;
use varar_core::workspace::Workspace;

/// Every discovered oath's text as read once by this run.
#[derive(Default)]
pub(crate) struct Texts {
    /// Per oath, in discovery order: its text, or why it could not be read.
    read: Vec<(String, Result<Arc<str>, String>)>,
    /// Indices into `read` in path order, for lookups by binary search (no
    /// hashing of every path: discovery order is nearly that order, so
    /// sorting costs a pass).
    by_path: Vec<u32>,
}

impl Texts {
    /// Read `oaths` (nothing when `wanted` is false: a run that selects no
    /// item reads nothing).
    pub fn read(oaths: &[OathFile], wanted: bool) -> Texts {
        let mut texts = Texts::default();
        if !wanted {
            return texts;
        }
        texts.read.reserve_exact(oaths.len());
        for oath in oaths {
            let text = read_oath(oath).map(Arc::from).map_err(|e| e.to_string());
            texts.read.push((oath.oath_path.clone(), text));
        }
        let path = |i: u32| texts.read[i as usize].0.as_str();
        let mut by_path: Vec<u32> =
            (0..u32::try_from(texts.read.len()).unwrap_or(u32::MAX)).collect();
        // A path given twice keeps its last text, as a map would: the later
        // index sorts first and the others are dropped.
        by_path.sort_by(|&a, &b| path(a).cmp(path(b)).then(b.cmp(&a)));
        by_path.dedup_by(|&mut later, &mut first| path(later) == path(first));
        texts.by_path = by_path;
        texts
    }

    /// The text of `oath_path`, or why it could not be read (`None` when it
    /// was not read at all).
    pub fn get(&self, oath_path: &str) -> Option<&Result<Arc<str>, String>> {
        let at = self
            .by_path
            .binary_search_by(|&i| self.read[i as usize].0.as_str().cmp(oath_path))
            .ok()?;
        self.read.get(self.by_path[at] as usize).map(|(_, t)| t)
    }

    /// Every oath that was read, with its text, in discovery order.
    pub fn readable(&self) -> impl Iterator<Item = (&str, &Arc<str>)> {
        self.read
            .iter()
            .filter_map(|(path, text)| Some((path.as_str(), text.as_ref().ok()?)))
    }

    /// The text of `oath_path` if it was read.
    pub fn text(&self, oath_path: &str) -> Option<&Arc<str>> {
        self.get(oath_path)?.as_ref().ok()
    }

    /// The workspace of the oaths that could be read (spec 70 §70.2.1: an
    /// unreadable oath is absent).
    pub fn workspace(&self) -> Workspace<'_> {
        Workspace::build(
            self.read
                .iter()
                .filter_map(|(path, text)| Some((path.as_str(), text.as_ref().ok()?.as_ref()))),
        )
    }

    /// The `documents` of an oath's results (spec 70 §70.4.5): every other
    /// document some step of its plan was written in, sorted by path, with
    /// the hash of its text as read. Empty for a plan without links, which
    /// costs one look at each step. `hashes` keeps the hashes computed so
    /// far, so each document is hashed once per run.
    pub fn documents_of(
        &self,
        plan: &Plan,
        hashes: &mut HashMap<String, String>,
    ) -> Vec<DocumentHash> {
        let mut paths: Vec<&str> = plan
            .examples
            .iter()
            .flat_map(|e| &e.steps)
            .filter_map(|s| s.doc_path.as_deref())
            .collect();
        if paths.is_empty() {
            return Vec::new();
        }
        paths.sort_unstable();
        paths.dedup();
        paths
            .into_iter()
            .filter_map(|path| {
                let hash = match hashes.get(path) {
                    Some(hash) => hash.clone(),
                    None => {
                        let hash = source_hash(self.text(path)?);
                        hashes.insert(path.to_owned(), hash.clone());
                        hash
                    }
                };
                Some(DocumentHash {
                    path: path.to_owned(),
                    source_hash: hash,
                })
            })
            .collect()
    }
}

/// The plan diagnostics of a run by the document they are written in,
/// each (document, span, code, message) once, however many oaths' plans
/// reached it (spec 70 §70.6.6).
#[derive(Default)]
pub(crate) struct Diagnostics {
    by_document: BTreeMap<String, Vec<Diagnostic>>,
    seen: HashSet<(String, u32, u32, &'static str, String)>,
}

impl Diagnostics {
    /// Add the diagnostics of `plan`, an oath's plan.
    pub fn add(&mut self, oath_path: &str, plan: &Plan) {
        for d in &plan.diagnostics {
            let document = d.doc_path.as_deref().unwrap_or(oath_path);
            let key = (
                document.to_owned(),
                d.span.start_offset,
                d.span.end_offset,
                d.code.as_str(),
                d.message.clone(),
            );
            if self.seen.insert(key) {
                self.by_document
                    .entry(document.to_owned())
                    .or_default()
                    .push(d.clone());
            }
        }
    }

    /// Take the diagnostics written in `document`, in document order (so a
    /// run that planned fewer oaths names them the same).
    pub fn take(&mut self, document: &str) -> Vec<Diagnostic> {
        let mut found = self.by_document.remove(document).unwrap_or_default();
        Diagnostic::sort_in_document_order(&mut found);
        found
    }

    /// The documents that still have diagnostics, sorted.
    pub fn documents(&self) -> Vec<String> {
        self.by_document.keys().cloned().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_found_by_path_in_any_order_and_a_repeated_path_keeps_its_last() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let oath = |oath_path: &str, file: &str, text: Option<&str>| {
            let path = dir.path().join(file);
            if let Some(text) = text {
                std::fs::write(&path, text).unwrap_or_else(|e| panic!("{e}"));
            }
            OathFile {
                oath_path: oath_path.to_owned(),
                path,
            }
        };
        // Discovery's order (segment by segment) is not `str` order.
        let oaths = [
            oath("varar/a/z.md", "1", Some("one")),
            oath("varar/a-b.md", "2", Some("two")),
            oath("varar/gone.md", "3", None),
            oath("varar/a/z.md", "4", Some("again")),
        ];
        let texts = Texts::read(&oaths, true);
        let text = |p: &str| texts.text(p).map(|t| t.to_string());
        assert_eq!(text("varar/a-b.md").as_deref(), Some("two"));
        assert_eq!(text("varar/a/z.md").as_deref(), Some("again"));
        assert!(matches!(texts.get("varar/gone.md"), Some(Err(_))));
        assert!(texts.get("varar/other.md").is_none());
        assert!(Texts::read(&oaths, false).get("varar/a-b.md").is_none());
    }
}
