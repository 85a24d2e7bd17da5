//! Plans remembered between runs (issue 23): an oath whose text has not
//! changed since the last run is not parsed and planned again. Under
//! `cargo nextest` each example of an oath is a process, and each would
//! plan the whole oath (its other examples' names go in the run record and
//! its results file); a second `cargo test` would plan every oath again.
//! Each oath's plan and drift candidates are kept in `.varar/.cache/plans/`
//! (`varar_core::stored`): for a run of every oath, one pack of them all
//! (`pack.rs`); for any other (the process of one example), one file per
//! oath.
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
/// candidate may be kept without its name).
const HEADER: &str = "varar plan 6";

/// The plans of one project, as this test binary made them.
#[derive(Debug)]
pub(in crate::harness) struct PlanCache {
    /// The directory of the one-oath files.
    dir: PathBuf,
    kept: Kept,
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
        // Module paths hold neither spaces nor commas.
        let modules = modules.map_or_else(|| "*".to_owned(), |m| m.join(","));
        let steps = move |binary: FileDigest| format!("{} {modules}", binary.sha256);
        let steps = match (layout, digests::binary_digest_if_known()) {
            (_, Some(binary)) => Steps::Known(steps(binary)),
            (Layout::Pack, None) => {
                Steps::Later(Box::new(move || digests::binary_digest().map(steps)))
            }
            (Layout::PerOath, None) => Steps::Known(steps(digests::binary_digest()?)),
        };
        PlanCache::new(&cache, steps, layout)
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
        })
    }

    /// The entry of the oath at `oath_path` whose text has the SHA-256
    /// `text_sha`.
    pub(in crate::harness) fn entry(&self, oath_path: &str, text_sha: &str) -> Entry {
        Entry {
            oath_path: oath_path.to_owned(),
            text_sha: text_sha.to_owned(),
        }
    }

    /// The plan and drift candidates stored for `entry`, if any, its
    /// examples packed apart.
    pub(in crate::harness) fn load(
        &self,
        entry: &Entry,
    ) -> Option<(Plan, PackedExamples, Vec<CandidateInfo>)> {
        match &self.kept {
            Kept::Pack(pack) => pack.load(&entry.oath_path, &entry.text_sha),
            Kept::PerOath { steps, .. } => {
                let bytes = std::fs::read(self.file(&entry.oath_path)).ok()?;
                let end = bytes.iter().position(|&b| b == b'\n')?;
                if bytes[..end] != *header(steps, entry).as_bytes() {
                    return None;
                }
                stored::decode_packed(&bytes[end + 1..])
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
        plan: &Plan,
        packed: &PackedExamples,
        candidates: &[CandidateInfo],
    ) {
        let parts = (&plan.diagnostics[..], &plan.notices[..]);
        let body = stored::encode_packed(packed, parts, candidates);
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
mod tests {
    use super::*;
    use varar_core::plan::PlannedExample;

    fn cache_for(dir: &Path, steps: &str, layout: Layout) -> PlanCache {
        PlanCache::new(dir, Steps::Known(steps.to_owned()), layout)
            .unwrap_or_else(|| panic!("known steps"))
    }

    fn a_plan(name: &str) -> Plan {
        let example = PlannedExample {
            name: name.to_owned(),
            scope_stack: vec!["Heading".to_owned()].into(),
            span: Default::default(),
            expected: varar_core::plan::Expectation::Pass,
            steps: Vec::new(),
            row: None,
            unmatched: Vec::new(),
        };
        Plan {
            notices: Vec::new(),
            examples: vec![example],
            diagnostics: Vec::new(),
        }
    }

    /// Store `plan` (its examples packed) for `entry`, without candidates.
    fn keep(cache: &PlanCache, entry: &Entry, plan: &Plan) {
        let packed = PackedExamples::of(&plan.examples);
        cache.store(entry, plan, &packed, &[]);
    }

    /// A text's key, as the run gives it.
    fn key(text: &str) -> String {
        varar_core::hash::sha256_hex(text.as_bytes())
    }

    fn stored(cache: &PlanCache, path: &str, text: &str) -> Option<Plan> {
        cache
            .load(&cache.entry(path, &key(text)))
            .and_then(|(mut plan, packed, _)| {
                plan.examples = packed.unpack_all()?;
                Some(plan)
            })
    }

    #[test]
    fn a_plan_is_found_for_the_same_oath_text_and_steps_only() {
        for layout in [Layout::PerOath, Layout::Pack] {
            let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
            let steps = format!("{} *", "b".repeat(64));
            let mut cache = cache_for(dir.path(), &steps, layout);
            let plan = a_plan("I deposit 5");
            assert_eq!(stored(&cache, "varar/a.md", "text"), None, "nothing yet");
            keep(&cache, &cache.entry("varar/a.md", &key("text")), &plan);
            cache.finish();
            let cache = cache_for(dir.path(), &steps, layout);
            assert_eq!(stored(&cache, "varar/a.md", "text"), Some(plan.clone()));
            assert_eq!(stored(&cache, "varar/a.md", "text edited"), None);
            assert_eq!(stored(&cache, "varar/b.md", "text"), None);
            let other = cache_for(dir.path(), &format!("{} one_item", "b".repeat(64)), layout);
            assert_eq!(stored(&other, "varar/a.md", "text"), None, "{layout:?}");
            let rebuilt = cache_for(dir.path(), &format!("{} *", "c".repeat(64)), layout);
            assert_eq!(stored(&rebuilt, "varar/a.md", "text"), None, "{layout:?}");
        }
    }

    /// A run whose binary is still being hashed: its steps known later.
    fn later(dir: &Path, steps: Option<&str>, layout: Layout) -> Option<PlanCache> {
        let steps = steps.map(str::to_owned);
        PlanCache::new(dir, Steps::Later(Box::new(move || steps)), layout)
    }

    #[test]
    fn a_pack_whose_steps_are_known_later_reads_nothing_and_is_written_under_them() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let plan = a_plan("I deposit 5");
        let mut cache = cache_for(dir.path(), "steps", Layout::Pack);
        keep(&cache, &cache.entry("varar/a.md", &key("text")), &plan);
        cache.finish();
        // A binary not hashed yet has no pack of its own: none is read,
        // even one of the steps it turns out to have.
        let mut cache =
            later(dir.path(), Some("steps"), Layout::Pack).unwrap_or_else(|| panic!("a pack"));
        assert_eq!(stored(&cache, "varar/a.md", "text"), None);
        let edited = a_plan("I deposit 6");
        keep(&cache, &cache.entry("varar/a.md", &key("text 2")), &edited);
        cache.finish();
        // Its plans are written under the steps it learnt.
        let cache = cache_for(dir.path(), "steps", Layout::Pack);
        assert_eq!(stored(&cache, "varar/a.md", "text 2"), Some(edited));
        assert_eq!(
            stored(&cache, "varar/a.md", "text"),
            None,
            "the pack replaced"
        );
        // Steps that cannot be learnt: nothing is written.
        let pack = std::fs::read(dir.path().join(PACK)).unwrap_or_else(|e| panic!("{e}"));
        let mut cache = later(dir.path(), None, Layout::Pack).unwrap_or_else(|| panic!("a pack"));
        keep(&cache, &cache.entry("varar/b.md", &key("b")), &plan);
        cache.finish();
        let after = std::fs::read(dir.path().join(PACK)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(after, pack);
        // A file per oath is written as it is planned: its steps must be
        // known when it is opened.
        assert!(later(dir.path(), Some("steps"), Layout::PerOath).is_none());
    }

    #[test]
    fn a_pack_is_written_again_only_when_a_plan_changed_or_an_oath_went() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let pack = dir.path().join(PACK);
        let run = |oaths: &[(&str, &str)]| {
            let mut cache = cache_for(dir.path(), "steps", Layout::Pack);
            for &(oath, text) in oaths {
                let entry = cache.entry(oath, &key(text));
                if cache.load(&entry).is_none() {
                    keep(&cache, &entry, &a_plan(text));
                }
            }
            // As a run does: the pack read is let go once all is planned,
            // while the writer may still need an unchanged oath's bytes.
            cache.planned();
            let (first, _) = oaths[0];
            assert_eq!(stored(&cache, first, oaths[0].1), None, "let go");
            cache.finish();
            std::fs::metadata(&pack).and_then(|m| m.modified()).ok()
        };
        let first = run(&[("a.md", "one"), ("b.md", "two")]);
        assert!(first.is_some(), "written");
        let pack_then = std::fs::read(&pack).unwrap_or_default();
        assert_eq!(run(&[("b.md", "two"), ("a.md", "one")]), first, "unchanged");
        assert_eq!(std::fs::read(&pack).unwrap_or_default(), pack_then);
        // An edit: written again, the other oath's plan kept as it was.
        run(&[("a.md", "one, edited"), ("b.md", "two")]);
        let cache = cache_for(dir.path(), "steps", Layout::Pack);
        assert_eq!(
            stored(&cache, "a.md", "one, edited"),
            Some(a_plan("one, edited"))
        );
        assert_eq!(stored(&cache, "b.md", "two"), Some(a_plan("two")));
        drop(cache);
        // An oath gone: written again without it.
        run(&[("b.md", "two")]);
        let cache = cache_for(dir.path(), "steps", Layout::Pack);
        assert_eq!(stored(&cache, "a.md", "one, edited"), None);
        assert_eq!(stored(&cache, "b.md", "two"), Some(a_plan("two")));
    }

    #[test]
    fn a_full_runs_oaths_keep_their_files_and_no_others() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let cache = cache_for(dir.path(), "steps", Layout::PerOath);
        for oath in ["varar/a.md", "varar/gone.md"] {
            keep(&cache, &cache.entry(oath, &key("text")), &a_plan("x"));
        }
        let pending = cache.dir.join(format!("{}1", store::TEMP_PREFIX));
        std::fs::write(&pending, "being written").unwrap_or_else(|e| panic!("{e}"));
        let discovered = [OathFile {
            oath_path: "varar/a.md".to_owned(),
            path: dir.path().join("varar/a.md"),
        }];
        cache.retain(&discovered);
        assert!(stored(&cache, "varar/a.md", "text").is_some());
        assert_eq!(stored(&cache, "varar/gone.md", "text"), None);
        assert!(!cache.file("varar/gone.md").exists());
        assert!(
            pending.exists(),
            "a temporary is left to the writer's sweep"
        );
    }

    #[test]
    fn a_damaged_file_is_a_miss() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let cache = cache_for(dir.path(), "steps", Layout::PerOath);
        keep(
            &cache,
            &cache.entry("varar/a.md", &key("text")),
            &a_plan("x"),
        );
        let file = cache.file("varar/a.md");
        let whole = std::fs::read(&file).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(&file, &whole[..whole.len() - 3]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(stored(&cache, "varar/a.md", "text"), None);
        std::fs::write(&file, [0xff, 0xfe]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(stored(&cache, "varar/a.md", "text"), None);
        // A pack cut short keeps the entries before the cut.
        let mut packed = cache_for(dir.path(), "steps", Layout::Pack);
        for oath in ["a.md", "b.md"] {
            keep(&packed, &packed.entry(oath, &key("text")), &a_plan(oath));
        }
        packed.finish();
        let pack = dir.path().join(PACK);
        let whole = std::fs::read(&pack).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(&pack, &whole[..whole.len() - 3]).unwrap_or_else(|e| panic!("{e}"));
        let cut = cache_for(dir.path(), "steps", Layout::Pack);
        let found = ["a.md", "b.md"].map(|o| stored(&cut, o, "text").is_some());
        assert_eq!(found.iter().filter(|&&f| f).count(), 1, "{found:?}");
    }

    /// Bodies are read from the pack a run opened, when each oath is
    /// planned: a pack another run writes meanwhile (a new file in its
    /// place) changes nothing this run reads or writes back.
    #[test]
    fn a_pack_replaced_after_it_was_opened_is_read_as_it_was() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let pack = dir.path().join(PACK);
        let write = |plans: &[(&str, &str)]| {
            let mut cache = cache_for(dir.path(), "steps", Layout::Pack);
            for &(oath, text) in plans {
                keep(&cache, &cache.entry(oath, &key("text")), &a_plan(text));
            }
            cache.finish();
        };
        write(&[("a.md", "old a"), ("b.md", "old b")]);
        let mut reading = cache_for(dir.path(), "steps", Layout::Pack);
        // Another run's pack takes its place.
        std::fs::rename(&pack, dir.path().join("kept")).unwrap_or_else(|e| panic!("{e}"));
        write(&[("a.md", "new a"), ("b.md", "new b")]);
        assert_eq!(stored(&reading, "a.md", "text"), Some(a_plan("old a")));
        // The other oath is planned anew: the pack is written again, with
        // the first oath's body copied from the file this run opened.
        let changed = reading.entry("b.md", &key("edited"));
        keep(&reading, &changed, &a_plan("b, edited"));
        reading.planned();
        reading.finish();
        let next = cache_for(dir.path(), "steps", Layout::Pack);
        assert_eq!(stored(&next, "a.md", "text"), Some(a_plan("old a")));
        assert_eq!(stored(&next, "b.md", "edited"), Some(a_plan("b, edited")));
    }
}
