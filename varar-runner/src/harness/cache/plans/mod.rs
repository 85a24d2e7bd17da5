//! Plans remembered between runs (issue 23): an oath whose text has not
//! changed since the last run is not parsed and planned again. Under
//! `cargo nextest` each example of an oath is a process, and each would
//! plan the whole oath (its other examples' names go in the run record and
//! its results file); a second `cargo test` would plan every oath again.
//! Each oath's plan and drift candidates are kept in `.varar/.cache/plans/`
//! (`varar_core::stored`): for a run of every oath, one pack of them all
//! (`pack.rs`); for any other (the process of one example), one file per
//! oath. A listing reads them and writes none ([`PlanCache::for_listing`]).
//!
//! A stored plan is used only when it is certainly the plan planning
//! would make now. Planning is a pure function of the document, the
//! documents it links to or that link to it (spec 70), and the steps:
//!
//! - the file names the steps (the test binary's SHA-256, the digest the
//!   run record holds, cached beside the binary, and the modules the
//!   runner takes steps from) and the oath's text (its SHA-256), so a
//!   rebuild, another choice of steps or an edit is a miss;
//! - links: plans are kept, and used, only by a run in which no document
//!   it read may link (`workspace::may_link`), so no other document can
//!   have shaped one, and none is consumed (its candidates are the same
//!   with a baseline or without).
//!
//! Anything else (no file, another key, bytes `stored::decode` refuses) is
//! a miss: the run plans, as without the cache. Each file is written
//! atomically, so concurrent processes only ever read a whole one.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use varar_core::drift::CandidateInfo;
use varar_core::plan::Plan;
use varar_core::record::FileDigest;
use varar_core::stored::{self, PackedExamples};

use super::digests;
use varar_project::discovery::OathFile;
use varar_project::store;

mod pack;

use pack::Steps;

/// The directory of the one-oath files, under `.varar/.cache/`.
const DIR: &str = "plans";

/// The pack, under `.varar/.cache/`.
const PACK: &str = "plans.pack";

/// The first words of a one-oath file's first line, and the format's
/// version (2: plans hold their notices, issue 37; 3: each example's
/// steps are a section of their own, issue 39; 4: steps name their
/// expressions and parameter types by number; 6: a dead drift
/// candidate may be kept without its name; 7: the body starts with its
/// text's `sourceHash`).
const HEADER: &str = "varar plan 7";

/// The plans of one project, as this test binary made them.
#[derive(Debug)]
pub(in crate::harness) struct PlanCache {
    /// The directory of the one-oath files.
    dir: PathBuf,
    kept: Kept,
    /// Whether plans are stored and stale files removed: not for a
    /// listing, which writes nothing ([`PlanCache::for_listing`]).
    writes: bool,
}

/// How a run keeps its plans.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::harness) enum Layout {
    /// A file per oath, each written as it is planned: for a run of some
    /// oaths, such as the process of one example, which needs one oath's
    /// plan and of which a nextest run starts thousands.
    PerOath,
    /// The pack (`pack.rs`): for a run of every oath, whose pack replaces
    /// the last.
    Pack,
}

#[derive(Debug)]
enum Kept {
    PerOath {
        /// The steps: the test binary's SHA-256 and the modules it takes
        /// them from (the pack's writer holds the pack's).
        steps: String,
        /// Whether the directory is known to exist.
        made: AtomicBool,
    },
    Pack(pack::Packing),
}

/// The plan of one oath's text: which oath, and its text's SHA-256.
pub(in crate::harness) struct Entry {
    oath_path: String,
    text_sha: String,
}

/// What is kept for an oath's text: its plan, the plan's examples packed
/// apart, its drift candidates, and the text's `sourceHash` (a pass over
/// the text a byte at a time, which a run otherwise makes for its result
/// file and record: 2% of a second run's time, issue 39).
pub(in crate::harness) struct Loaded {
    pub plan: Plan,
    pub packed: PackedExamples,
    pub candidates: Vec<CandidateInfo>,
    pub source_hash: String,
}

impl PlanCache {
    /// The cache of the project at `root` for the steps of this binary's
    /// `modules` (all when `None`), kept as `layout` says; `None` when the
    /// binary's digest is unknown (a plan could then not be tied to its
    /// steps).
    ///
    /// A run of every oath whose binary's digest is not known yet (built
    /// since the last run that asked: `digests::hash_binary_aside` is
    /// hashing it) reads no plan, which could not be of this binary, and
    /// stores its plans under the digest once it is known: it plans
    /// while the binary is hashed, not after.
    pub(in crate::harness) fn open(
        root: &Path,
        modules: Option<&[String]>,
        layout: Layout,
    ) -> Option<PlanCache> {
        let cache = store::ensure_cache_dir(root).ok()?;
        let modules = modules_key(modules);
        let steps = move |binary: FileDigest| steps_key(&binary, &modules);
        let steps = match (layout, digests::binary_digest_if_known()) {
            (_, Some(binary)) => Steps::Known(steps(binary)),
            (Layout::Pack, None) => {
                Steps::Later(Box::new(move || digests::binary_digest().map(steps)))
            }
            (Layout::PerOath, None) => Steps::Known(steps(digests::binary_digest()?)),
        };
        PlanCache::new(&cache, steps, layout)
    }

    /// The cache a listing reads (`--list`, which plans every oath it
    /// lists): the plans kept for this binary, when its digest is cached
    /// beside it (it is not hashed for a listing) and the project has a
    /// cache; nothing is written, not even the cache's directory.
    pub(in crate::harness) fn for_listing(
        root: &Path,
        modules: Option<&[String]>,
        layout: Layout,
    ) -> Option<PlanCache> {
        let cache = store::cache_dir(root);
        if !cache.is_dir() {
            return None;
        }
        let binary = digests::binary_digest_if_cached()?;
        let steps = steps_key(&binary, &modules_key(modules));
        Some(PlanCache::reading(&cache, steps, layout))
    }

    /// The cache in `cache` for `steps`; `None` for a file per oath
    /// whose steps are not known yet (each is written under them as it is
    /// planned).
    fn new(cache: &Path, steps: Steps, layout: Layout) -> Option<PlanCache> {
        let kept = match (layout, steps) {
            (Layout::PerOath, Steps::Known(steps)) => Kept::PerOath {
                steps,
                made: AtomicBool::new(false),
            },
            (Layout::PerOath, Steps::Later(_)) => return None,
            (Layout::Pack, steps) => Kept::Pack(pack::Packing::open(cache.join(PACK), steps)),
        };
        Some(PlanCache {
            dir: cache.join(DIR),
            kept,
            writes: true,
        })
    }

    /// The cache in `cache` for `steps`, read and never written.
    fn reading(cache: &Path, steps: String, layout: Layout) -> PlanCache {
        let kept = match layout {
            Layout::PerOath => Kept::PerOath {
                steps,
                made: AtomicBool::new(true),
            },
            Layout::Pack => Kept::Pack(pack::Packing::read_only(cache.join(PACK), &steps)),
        };
        PlanCache {
            dir: cache.join(DIR),
            kept,
            writes: false,
        }
    }

    /// The entry of the oath at `oath_path` whose text has the SHA-256
    /// `text_sha`.
    pub(in crate::harness) fn entry(&self, oath_path: &str, text_sha: &str) -> Entry {
        Entry {
            oath_path: oath_path.to_owned(),
            text_sha: text_sha.to_owned(),
        }
    }

    /// What is stored for `entry`, if anything.
    pub(in crate::harness) fn load(&self, entry: &Entry) -> Option<Loaded> {
        match &self.kept {
            Kept::Pack(pack) => pack.load(&entry.oath_path, &entry.text_sha, read_body),
            Kept::PerOath { steps, .. } => {
                // As large as the plan it holds: no limit but the type.
                let bytes = store::read_cache_file(&self.file(&entry.oath_path), u64::MAX)?;
                let end = bytes.iter().position(|&b| b == b'\n')?;
                if bytes[..end] != *header(steps, entry).as_bytes() {
                    return None;
                }
                read_body(&bytes[end + 1..])
            }
        }
    }

    /// Store `plan`, whose examples `packed` holds (its own list is not
    /// read), and `candidates` as those of `entry`, as soon as they can be
    /// written (a run of thousands of examples never holds them all), each
    /// file atomically. Best effort: a plan that cannot be stored is made
    /// again next time.
    pub(in crate::harness) fn store(
        &self,
        entry: &Entry,
        (plan, source_hash): (&Plan, &str),
        packed: &PackedExamples,
        candidates: &[CandidateInfo],
    ) {
        if !self.writes || !is_source_hash(source_hash) {
            return;
        }
        let parts = (&plan.diagnostics[..], &plan.notices[..]);
        let mut body = format!("{source_hash}\n").into_bytes();
        body.extend_from_slice(&stored::encode_packed(packed, parts, candidates));
        match &self.kept {
            Kept::Pack(pack) => pack.store(&entry.oath_path, &entry.text_sha, body),
            Kept::PerOath { steps, made } => {
                if !made.load(Ordering::Relaxed) {
                    if std::fs::create_dir_all(&self.dir).is_err() {
                        return;
                    }
                    made.store(true, Ordering::Relaxed);
                }
                let mut file = header(steps, entry).into_bytes();
                file.push(b'\n');
                file.extend_from_slice(&body);
                let _ = store::write_disposable(&self.file(&entry.oath_path), &file);
            }
        }
    }

    /// Every oath of the run is planned or loaded: what the cache read
    /// for them is let go (the pack's bytes), and nothing more is stored.
    pub(in crate::harness) fn planned(&mut self) {
        if let Kept::Pack(pack) = &mut self.kept {
            pack.planned();
        }
    }

    /// Wait until every plan stored so far is written.
    pub(in crate::harness) fn finish(&mut self) {
        if let Kept::Pack(pack) = &mut self.kept {
            pack.finish();
        }
    }

    /// Remove the one-oath files of oaths other than `oaths` (those
    /// discovered by a run of every oath): a renamed or deleted oath's plan
    /// goes with the next full run (the pack keeps only the oaths of its
    /// run). Best effort.
    pub(in crate::harness) fn retain(&self, oaths: &[OathFile]) {
        if !self.writes {
            return;
        }
        let Ok(listing) = std::fs::read_dir(&self.dir) else {
            return;
        };
        let kept: HashSet<PathBuf> = oaths.iter().map(|o| self.file(&o.oath_path)).collect();
        for entry in listing.flatten() {
            let path = entry.path();
            // Temporaries are the atomic writer's to sweep.
            let temporary = entry
                .file_name()
                .to_string_lossy()
                .starts_with(store::TEMP_PREFIX);
            if !temporary && !kept.contains(&path) {
                let _ = std::fs::remove_file(&path);
            }
        }
    }

    /// One flat file per oath, named by a hash of its path (FNV-1a, 64
    /// bits): no directory to make per folder of oaths. Two paths of one
    /// name only take turns; the header tells them apart.
    fn file(&self, oath_path: &str) -> PathBuf {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for &b in oath_path.as_bytes() {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
        self.dir.join(format!("{hash:016x}"))
    }
}

/// A stored body: the text's `sourceHash` on a line, then the plan's
/// bytes (`varar_core::stored`); `None` when either does not read.
fn read_body(body: &[u8]) -> Option<Loaded> {
    let end = body.iter().position(|&b| b == b'\n')?;
    let source_hash = std::str::from_utf8(&body[..end]).ok()?;
    if !is_source_hash(source_hash) {
        return None;
    }
    let (plan, packed, candidates) = stored::decode_packed(&body[end + 1..])?;
    Some(Loaded {
        plan,
        packed,
        candidates,
        source_hash: source_hash.to_owned(),
    })
}

/// Whether `text` is a `sourceHash` as `varar_core::hash::source_hash`
/// writes it: `fnv1a:` and eight lowercase hexadecimal digits.
fn is_source_hash(text: &str) -> bool {
    text.strip_prefix("fnv1a:").is_some_and(|hex| {
        hex.len() == 8
            && hex
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    })
}

/// The modules steps are taken from as a cache key: `*` for all. (Module
/// paths hold neither spaces nor commas.)
fn modules_key(modules: Option<&[String]>) -> String {
    modules.map_or_else(|| "*".to_owned(), |m| m.join(","))
}

/// The steps plans are made with, as the cache names them: the test
/// binary's SHA-256 and the modules.
fn steps_key(binary: &FileDigest, modules: &str) -> String {
    format!("{} {modules}", binary.sha256)
}

/// `<HEADER> <binary> <modules> <text's SHA-256> <oathPath>`: what a
/// one-oath file's plan was made of (`steps`: the binary and the modules).
fn header(steps: &str, entry: &Entry) -> String {
    format!("{HEADER} {steps} {} {}", entry.text_sha, entry.oath_path)
}

impl Drop for PlanCache {
    fn drop(&mut self) {
        self.finish();
    }
}

#[cfg(test)]
mod tests;
