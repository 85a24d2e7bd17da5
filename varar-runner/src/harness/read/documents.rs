//! The texts of a run and what reuse by link needs of them (spec 70
//! §70.2): every discovered oath read once, and the workspace built over
//! those texts.
//!
//! Reading every oath is what lets one oath be planned among the others,
//! also in a run of one item (`--exact`, a `cargo nextest` process): the
//! workspace parses only the texts that hold a link (`](`) up front, and
//! only the selected oaths are planned. The run of one example reads fewer:
//! an oath the link index knows to hold no link is skipped unless one read
//! links to it (`cache/links.rs`).

use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::sync::{Arc, OnceLock};
use std::time::SystemTime;

use super::select::Selection;
use crate::harness::cache::links::LinkIndex;
use crate::harness::cache::stamp::Stamp;
use varar_core::hash::{sha256_hex, source_hash};
use varar_core::plan::Plan;
use varar_core::record::DocumentDigest;
use varar_core::results::DocumentHash;
use varar_core::workspace::{Workspace, may_link};
use varar_project::discovery::{OathFile, read_oath_with_metadata};

/// Every discovered oath's text as read once by this run.
#[derive(Default)]
pub(crate) struct Texts {
    /// Per oath, in discovery order: its text, or why it could not be read.
    read: Vec<(String, Result<Arc<str>, String>)>,
    /// Per entry of `read`, the file's stamp, if it can be trusted.
    stamps: Vec<Option<Stamp>>,
    /// Per entry of `read`, whether its text may link (`may_link`), looked
    /// for once.
    links: Vec<bool>,
    /// Per entry of `read`, its text's SHA-256 once asked for (the plan
    /// cache's key, the run record's digest).
    shas: Vec<OnceLock<String>>,
    /// Per entry of `read`, its text's `sourceHash` once asked for (the
    /// plan's, the record's, a linking document's): a pass over the text
    /// a byte at a time, once, not once per use.
    source_hashes: Vec<OnceLock<String>>,
    /// Indices into `read` in path order, for lookups by binary search (no
    /// hashing of every path: discovery order is nearly that order, so
    /// sorting costs a pass).
    by_path: Vec<u32>,
    /// The oaths left unread (`skip`), in discovery order.
    skipped: Vec<OathFile>,
    /// Per entry of `read`, the file it was read from.
    files: Vec<std::path::PathBuf>,
    /// Per entry of `read`, whether its text was let go
    /// ([`Texts::let_go_but`]).
    gone: Vec<bool>,
}

impl Texts {
    /// Every discovered oath's text (`oaths`), read once for a run of
    /// `selection` under `root`: planning one oath needs the others' links
    /// and headings (spec 70 §70.2), even in a run of one item. But the
    /// process of one example (no rerun, which digests every oath) leaves
    /// unread the oaths the link index knows to hold no link, unless a read
    /// one links to them. A run that is no listing (`list`) records in the
    /// index what it read. A run that selects nothing reads nothing.
    pub fn read_for(
        root: &Path,
        oaths: &[OathFile],
        selection: &Selection,
        list: bool,
        rerun: bool,
    ) -> Texts {
        if *selection == Selection::Nothing {
            return Texts::default();
        }
        let mut index = LinkIndex::load(root);
        let one_example = !rerun && selection.is_one_example();
        let skip = |oath: &OathFile| {
            one_example
                && !selection.wants(&oath.oath_path)
                && index.is_linkless(&oath.oath_path, &oath.path)
        };
        let mut texts = Texts::read(oaths, &skip);
        if !texts.skipped().is_empty() {
            let linked: BTreeSet<String> = texts
                .workspace()
                .referenced_keys()
                .filter_map(|key| Some(key.rsplit_once('#')?.0.to_owned()))
                .collect();
            texts.read_skipped(|path| linked.contains(path));
        }
        if !list {
            texts.record_in(&mut index);
            index.retain_discovered(oaths);
            index.save(root);
        }
        texts
    }

    /// Read `oaths` but those `skip` accepts.
    pub fn read(oaths: &[OathFile], skip: &dyn Fn(&OathFile) -> bool) -> Texts {
        let mut texts = Texts::default();
        let (skipped, read): (Vec<&OathFile>, Vec<&OathFile>) = oaths.iter().partition(|o| skip(o));
        texts.skipped = skipped.into_iter().cloned().collect();
        texts.add(read);
        texts
    }

    /// Read the skipped oaths `wanted` accepts after all.
    pub fn read_skipped(&mut self, wanted: impl Fn(&str) -> bool) {
        let (read, skipped): (Vec<OathFile>, Vec<OathFile>) = std::mem::take(&mut self.skipped)
            .into_iter()
            .partition(|o| wanted(&o.oath_path));
        self.skipped = skipped;
        if !read.is_empty() {
            self.add(read.iter());
        }
    }

    /// The oaths left unread.
    pub fn skipped(&self) -> &[OathFile] {
        &self.skipped
    }

    fn add<'a>(&mut self, oaths: impl IntoIterator<Item = &'a OathFile>) {
        let read_at = SystemTime::now();
        for oath in oaths {
            let (text, stamp) = match read_oath_with_metadata(oath) {
                Ok((text, meta)) => (Ok(Arc::from(text)), Stamp::settled(&meta, read_at)),
                Err(e) => (Err(e.to_string()), None),
            };
            self.links.push(text.as_deref().is_ok_and(may_link));
            self.shas.push(OnceLock::new());
            self.source_hashes.push(OnceLock::new());
            self.read.push((oath.oath_path.clone(), text));
            self.files.push(oath.path.clone());
            self.gone.push(false);
            self.stamps.push(stamp);
        }
        let path = |i: u32| self.read[i as usize].0.as_str();
        let mut by_path: Vec<u32> =
            (0..u32::try_from(self.read.len()).unwrap_or(u32::MAX)).collect();
        // A path given twice keeps its last text, as a map would: the later
        // index sorts first and the others are dropped.
        by_path.sort_by(|&a, &b| path(a).cmp(path(b)).then(b.cmp(&a)));
        by_path.dedup_by(|&mut later, &mut first| path(later) == path(first));
        self.by_path = by_path;
    }

    /// Record in `index` each oath read with a stamp to trust, and whether
    /// it may link.
    pub fn record_in(&self, index: &mut LinkIndex) {
        let entries = self.read.iter().zip(&self.stamps).zip(&self.links);
        for (((path, text), stamp), &links) in entries {
            let read = match (text, stamp) {
                (Ok(_), Some(stamp)) => Some((*stamp, links)),
                _ => None,
            };
            index.record(path, read);
        }
    }

    /// Whether any text that was read may link (`workspace::may_link`).
    pub fn any_may_link(&self) -> bool {
        self.links.contains(&true)
    }

    /// The text of `oath_path`, or why it could not be read (`None` when it
    /// was not read at all, or once its text was let go).
    pub fn get(&self, oath_path: &str) -> Option<&Result<Arc<str>, String>> {
        let at = self.index(oath_path)?;
        match &self.read[at].1 {
            Ok(_) if self.gone[at] => None,
            read => Some(read),
        }
    }

    /// The SHA-256 of the text of `oath_path` if it was read, computed once
    /// (not once the texts are let go).
    pub fn sha256(&self, oath_path: &str) -> Option<&str> {
        let at = self.index(oath_path)?;
        match self.held(at) {
            Some(text) => Some(self.shas[at].get_or_init(|| sha256_hex(text.as_bytes()))),
            None => self.shas[at].get().map(String::as_str),
        }
    }

    /// The `sourceHash` of the text of `oath_path` if it was read,
    /// computed once (not once the texts are let go).
    pub fn source_hash(&self, oath_path: &str) -> Option<&str> {
        let at = self.index(oath_path)?;
        match self.held(at) {
            Some(text) => Some(self.source_hashes[at].get_or_init(|| source_hash(text))),
            None => self.source_hashes[at].get().map(String::as_str),
        }
    }

    /// The `sourceHash` of the text of `oath_path`, known to be `hash`
    /// (kept with the text's plan, under its SHA-256): taken as the
    /// text's unless it was computed already. `None` when no such text
    /// was read.
    pub fn know_source_hash(&self, oath_path: &str, hash: String) -> Option<String> {
        let at = self.index(oath_path)?;
        Some(self.source_hashes[at].get_or_init(|| hash).clone())
    }

    /// The text of entry `at`, while the texts are held.
    fn held(&self, at: usize) -> Option<&Arc<str>> {
        self.read[at].1.as_ref().ok().filter(|_| !self.gone[at])
    }

    /// The oath at `oath_path` as it was read: its path and its file.
    pub fn file(&self, oath_path: &str) -> Option<OathFile> {
        let at = self.index(oath_path)?;
        Some(OathFile {
            oath_path: self.read[at].0.clone(),
            path: self.files[at].clone(),
        })
    }

    /// Let every text go but those of the oaths `keep` accepts (issue 39):
    /// once planned, the run needs no text but a failing item's, which its
    /// oath reads again (`trials/text.rs`). A text let go keeps the digests
    /// computed so far; no other is computed, and it is given no more.
    pub fn let_go_but(&mut self, keep: impl Fn(&str) -> bool) {
        let none: Arc<str> = Arc::from("");
        for ((path, read), gone) in self.read.iter_mut().zip(&mut self.gone) {
            if let Ok(text) = read
                && !*gone
                && !keep(path)
            {
                *text = Arc::clone(&none);
                *gone = true;
            }
        }
    }

    /// Where `oath_path` is in `read`.
    fn index(&self, oath_path: &str) -> Option<usize> {
        let at = self
            .by_path
            .binary_search_by(|&i| self.read[i as usize].0.as_str().cmp(oath_path))
            .ok()?;
        Some(self.by_path[at] as usize)
    }

    /// Every oath that was read, with its text, in discovery order (those
    /// read after all, by [`Texts::read_skipped`], last).
    pub fn readable(&self) -> impl Iterator<Item = (&str, &Arc<str>)> {
        (self.read.iter().zip(&self.gone))
            .filter(|(_, gone)| !**gone)
            .filter_map(|((path, text), _)| Some((path.as_str(), text.as_ref().ok()?)))
    }

    /// The text of `oath_path` if it was read.
    pub fn text(&self, oath_path: &str) -> Option<&Arc<str>> {
        self.get(oath_path)?.as_ref().ok()
    }

    /// The workspace of the oaths that could be read (spec 70 §70.2.1: an
    /// unreadable oath is absent).
    pub fn workspace(&self) -> Workspace<'_> {
        Workspace::build(
            (self.read.iter().zip(&self.gone))
                .filter(|(_, gone)| !**gone)
                .filter_map(|((path, text), _)| {
                    Some((path.as_str(), text.as_ref().ok()?.as_ref()))
                }),
        )
    }

    /// The `documents` of an oath's results (spec 70 §70.4.5): the
    /// documents `paths` (those `linked_documents` found in its plan),
    /// with the hash of each text as read. `hashes` keeps the hashes
    /// computed so far, so each document is hashed once per run.
    pub fn documents_of(
        &self,
        paths: &[String],
        hashes: &mut HashMap<String, String>,
    ) -> Vec<DocumentHash> {
        paths
            .iter()
            .filter_map(|path| {
                let hash = match hashes.get(path) {
                    Some(hash) => hash.clone(),
                    None => {
                        let hash = self.source_hash(path)?.to_owned();
                        hashes.insert(path.clone(), hash.clone());
                        hash
                    }
                };
                Some(DocumentHash {
                    path: path.clone(),
                    source_hash: hash,
                })
            })
            .collect()
    }

    /// The digests of the documents `paths`, as read, in path order.
    pub(crate) fn digests<'a>(
        &self,
        paths: impl IntoIterator<Item = &'a str>,
    ) -> Vec<DocumentDigest> {
        let mut out: Vec<DocumentDigest> = paths
            .into_iter()
            .filter_map(|path| {
                Some(DocumentDigest {
                    path: path.to_owned(),
                    sha256: self.sha256(path)?.to_owned(),
                    source_hash: self.source_hash(path)?.to_owned(),
                })
            })
            .collect();
        out.sort_by(|a, b| a.path.cmp(&b.path));
        out
    }
}

/// Every other document some step of `plan` was written in, sorted by
/// path, each once: empty for a plan without links, which costs one look
/// at each step.
pub(crate) fn linked_documents(plan: &Plan) -> Vec<String> {
    let mut paths: Vec<&str> = plan
        .examples
        .iter()
        .flat_map(|e| &e.steps)
        .filter_map(|s| s.doc_path.as_deref())
        .collect();
    paths.sort_unstable();
    paths.dedup();
    paths.into_iter().map(str::to_owned).collect()
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
        let texts = Texts::read(&oaths, &|_| false);
        let text = |p: &str| texts.text(p).map(|t| t.to_string());
        assert_eq!(text("varar/a-b.md").as_deref(), Some("two"));
        assert_eq!(text("varar/a/z.md").as_deref(), Some("again"));
        assert!(matches!(texts.get("varar/gone.md"), Some(Err(_))));
        assert!(texts.get("varar/other.md").is_none());
        let nothing = Texts::read_for(dir.path(), &oaths, &Selection::Nothing, false, false);
        assert!(
            nothing.get("varar/a-b.md").is_none(),
            "a run selecting nothing reads nothing"
        );
        // What is skipped is not read until asked for.
        let mut texts = Texts::read(&oaths, &|o| o.oath_path == "varar/a-b.md");
        assert!(texts.get("varar/a-b.md").is_none());
        assert_eq!(texts.skipped().len(), 1);
        texts.read_skipped(|p| p == "varar/a-b.md");
        assert_eq!(
            texts.text("varar/a-b.md").map(|t| t.to_string()).as_deref(),
            Some("two")
        );
        assert!(texts.skipped().is_empty());
    }

    #[test]
    fn texts_let_go_keep_the_digests_computed_and_give_no_other() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let oath = |oath_path: &str, text: &str| {
            let path = dir.path().join(oath_path);
            std::fs::write(&path, text).unwrap_or_else(|e| panic!("{e}"));
            OathFile {
                oath_path: oath_path.to_owned(),
                path,
            }
        };
        let oaths = [oath("a.md", "alpha"), oath("b.md", "beta")];
        let mut texts = Texts::read(&oaths, &|_| false);
        let sha = texts.sha256("a.md").map(str::to_owned);
        assert_eq!(sha.as_deref(), Some(sha256_hex(b"alpha").as_str()));
        texts.let_go_but(|path| path == "b.md");
        // Let go: no text, the digest computed before, no other digest.
        assert!(texts.text("a.md").is_none() && texts.get("a.md").is_none());
        assert_eq!(texts.sha256("a.md").map(str::to_owned), sha);
        assert_eq!(texts.source_hash("a.md"), None);
        assert_eq!(
            texts.file("a.md").map(|f| f.path),
            Some(dir.path().join("a.md"))
        );
        let readable: Vec<&str> = texts.readable().map(|(path, _)| path).collect();
        assert_eq!(readable, ["b.md"]);
        // Kept: as before.
        assert_eq!(
            texts.text("b.md").map(|t| t.to_string()).as_deref(),
            Some("beta")
        );
        assert!(texts.source_hash("b.md").is_some());
        texts.let_go_but(|_| false);
        assert!(texts.text("b.md").is_none());
    }
}
