//! Plans remembered for the process of one example (issue 23): under
//! `cargo nextest`, each example of an oath is a process, and each would
//! parse and plan the whole oath (its other examples' names go in the run
//! record and its results file). The first process of an oath stores the
//! plan in `.varar/.cache/plans/`; the others read it back.
//!
//! A stored plan is used only when it is certainly the plan planning
//! would make now. Planning is a pure function of the document, the
//! documents it links to or that link to it (spec 70), and the steps:
//!
//! - the file names the steps (the test binary's SHA-256, the digest the
//!   run record holds, cached beside the binary, and the modules the
//!   runner takes steps from) and the oath's text (its SHA-256), so a
//!   rebuild, another choice of steps or an edit is a miss;
//! - links: a plan is stored, and used, only when no document the process
//!   read may link (`workspace::may_link`), the oath included, so no other
//!   document can have shaped it.
//!
//! Anything else (no file, another key, bytes `stored::decode` refuses) is
//! a miss: the process plans, as without the cache. The file is written
//! atomically, so concurrent processes only ever read a whole one.

use std::path::{Path, PathBuf};

use varar_core::hash::sha256_hex;
use varar_core::plan::{Plan, stored};

use super::digests;
use crate::store;

/// The directory under `.varar/.cache/`.
const DIR: &str = "plans";

/// The first word of every file's first line, and the format's version.
const HEADER: &str = "varar plan 1";

/// The plans of one project, as this test binary made them.
#[derive(Debug)]
pub(super) struct PlanCache {
    dir: PathBuf,
    /// The steps: the test binary's SHA-256 and the modules it takes them
    /// from.
    steps: String,
}

impl PlanCache {
    /// The cache of the project at `root` for the steps of this binary's
    /// `modules` (all when `None`); `None` when the binary's digest is
    /// unknown (a plan could then not be tied to its steps).
    pub(super) fn open(root: &Path, modules: Option<&[String]>) -> Option<PlanCache> {
        let binary = digests::binary_digest()?.sha256;
        let dir = store::ensure_cache_dir(root).ok()?.join(DIR);
        // Module paths hold neither spaces nor commas.
        let modules = modules.map_or_else(|| "*".to_owned(), |m| m.join(","));
        Some(PlanCache {
            dir,
            steps: format!("{binary} {modules}"),
        })
    }

    /// The plan stored for `oath_path` with this `text`, if any.
    pub(super) fn load(&self, oath_path: &str, text: &str) -> Option<Plan> {
        let bytes = std::fs::read(self.file(oath_path)).ok()?;
        let end = bytes.iter().position(|&b| b == b'\n')?;
        if bytes[..end] != *self.header(oath_path, text).as_bytes() {
            return None;
        }
        stored::decode(&bytes[end + 1..])
    }

    /// Store `plan` as the plan of `oath_path` with this `text`. Best
    /// effort: a plan that cannot be stored is planned again next time.
    pub(super) fn store(&self, oath_path: &str, text: &str, plan: &Plan) {
        if std::fs::create_dir_all(&self.dir).is_err() {
            return;
        }
        let mut file = self.header(oath_path, text).into_bytes();
        file.push(b'\n');
        file.extend_from_slice(&stored::encode(plan));
        let _ = store::write_disposable(&self.file(oath_path), &file);
    }

    /// `<HEADER> <binary> <modules> <text> <oathPath>`: what the plan was
    /// made of.
    fn header(&self, oath_path: &str, text: &str) -> String {
        format!(
            "{HEADER} {} {} {oath_path}",
            self.steps,
            sha256_hex(text.as_bytes())
        )
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

#[cfg(test)]
mod tests {
    use super::*;
    use varar_core::plan::PlannedExample;

    fn cache(dir: &Path) -> PlanCache {
        PlanCache {
            dir: dir.join("plans"),
            steps: format!("{} *", "b".repeat(64)),
        }
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
            examples: vec![example],
            diagnostics: Vec::new(),
        }
    }

    #[test]
    fn a_plan_is_found_for_the_same_oath_text_and_binary_only() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let cache = cache(dir.path());
        let plan = a_plan("I deposit 5");
        assert_eq!(cache.load("varar/a.md", "text"), None, "nothing stored yet");
        cache.store("varar/a.md", "text", &plan);
        assert_eq!(cache.load("varar/a.md", "text"), Some(plan.clone()));
        assert_eq!(cache.load("varar/a.md", "text edited"), None);
        assert_eq!(cache.load("varar/b.md", "text"), None);
        let other_steps = PlanCache {
            steps: format!("{} one_item", "b".repeat(64)),
            dir: cache.dir.clone(),
        };
        assert_eq!(other_steps.load("varar/a.md", "text"), None);
        let rebuilt = PlanCache {
            steps: format!("{} *", "c".repeat(64)),
            ..cache
        };
        assert_eq!(rebuilt.load("varar/a.md", "text"), None);
    }

    #[test]
    fn a_damaged_file_is_a_miss() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let cache = cache(dir.path());
        cache.store("varar/a.md", "text", &a_plan("x"));
        let file = cache.file("varar/a.md");
        let whole = std::fs::read(&file).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(&file, &whole[..whole.len() - 3]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(cache.load("varar/a.md", "text"), None);
        std::fs::write(&file, [0xff, 0xfe]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(cache.load("varar/a.md", "text"), None);
    }
}
