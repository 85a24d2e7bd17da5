//! One project as the server keeps it (shell: reads its files).
//!
//! Loaded once when its first oath is opened: the project as every
//! consumer loads it (`varar_project::Project::load`: the config, which
//! files are oaths; every oath, since reuse by link plans an oath among the
//! others; the committed lock), every Rust source file (the step index) and
//! the `.varar/` results. Afterwards only what changed is re-read: one
//! oath, one Rust file, the lock, one result file
//! ([`ProjectState::reload`]).

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::SystemTime;

use varar_core::lock::{Baseline, LOCK_FILE_NAME, Lock};
use varar_core::record::{RECORD_EXTENSION, RunRecord};
use varar_core::results::OathResults;
use varar_project::config::{CONFIG_FILE_NAME, ConfigWarning};
use varar_project::discovery::{Globs, OathFile};
use varar_project::store::{
    StoreError, lock_path, oath_path_of, read_lock, read_run_result_file, scratch_dir,
};
use varar_project::{Loaded, Project, ProjectError};

use crate::analysis::memo::BlockMemo;
use crate::analysis::oaths::Oaths;
use crate::analysis::rust_sources::{self, Sources, is_source, label, oath_path, rust_files};
use crate::analysis::step_index::StepIndex;
use varar_core::verdict::current::RunRead;
use varar_core::verdict::evidence::ProjectEvidence;
use varar_core::verdict::standing::RunStanding;
use varar_project::evidence::read_project;

/// A project: a directory with `varar.config.json` and its package.
#[derive(Debug)]
pub struct ProjectState {
    /// The directory holding the config.
    pub root: PathBuf,
    /// Which files are oaths; `None` when the config is unusable.
    pub globs: Option<Globs>,
    /// Where its Rust sources are.
    pub sources: Sources,
    /// Its steps.
    pub index: StepIndex,
    /// Its oaths, as planning sees them (the server puts the editor's text
    /// of an open oath in).
    pub oaths: Oaths,
    /// What matching each block of its oaths gave under `index`, kept
    /// across plans (issue 39); shared with the planning thread.
    pub memo: Arc<BlockMemo>,
    /// The committed lock, when it could be read.
    pub lock: Option<Lock>,
    /// The last run's results, by oathPath (files the reader refused are
    /// left out and logged).
    pub results: BTreeMap<String, OathResults>,
    /// The latest run's standing and that run, as the gate reads them
    /// (issue 34): read when first asked for after a change of the run
    /// records or results (`None`: to be read again).
    standing: Option<Arc<RunView>>,
    /// The modification time of every file read, for clients that do not
    /// watch files ([`ProjectState::refresh`]).
    mtimes: HashMap<PathBuf, Option<SystemTime>>,
    /// Which load of a project this is: unique in the process, so that
    /// work begun on an earlier load is told apart.
    pub epoch: u64,
    /// The config's warnings (keys written twice), shown as diagnostics
    /// on `varar.config.json`.
    pub config_warnings: Vec<ConfigWarning>,
}

/// The latest run as the gate reads it: its standing, and the run itself
/// when the standing names it (what an example's result is checked
/// against).
#[derive(Debug)]
pub struct RunView {
    /// The standing; `None` when the project could not be read as the
    /// gate reads it (its config selects nothing, say).
    pub standing: Option<RunStanding>,
    /// The latest run, when it is the one the standing judges.
    pub run: Option<RunRecord>,
    /// What the latest readable run read, by SHA-256: which texts the
    /// results are of ([`varar_core::verdict::current::drawn`]).
    pub read: RunRead,
}

/// The loads of projects so far.
static LOADS: AtomicU64 = AtomicU64::new(0);

/// What changed after a file event.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Changed {
    /// The registry changed: re-plan every open oath.
    pub steps: bool,
    /// A Rust file's diagnostics may have changed.
    pub rust: bool,
    /// The lock or a result changed: re-diagnose every open oath.
    pub evidence: bool,
    /// The config or a manifest changed: load the project again.
    pub project: bool,
    /// The text of an oath that is not open changed (or it appeared or
    /// went): re-plan what depends on it.
    pub oaths: bool,
}

impl Changed {
    /// Both changes at once.
    pub fn merge(self, other: Changed) -> Changed {
        Changed {
            steps: self.steps || other.steps,
            rust: self.rust || other.rust,
            evidence: self.evidence || other.evidence,
            project: self.project || other.project,
            oaths: self.oaths || other.oaths,
        }
    }
}

impl ProjectState {
    /// Load the project at `root`; problems go to `log`.
    pub fn load(root: &Path, log: &mut Vec<String>) -> ProjectState {
        let root = rust_sources::normalize(root);
        let mut config_warnings = Vec::new();
        let (globs, loaded) = match Project::load(&root) {
            Ok(Loaded {
                project,
                oaths,
                lock,
            }) => {
                config_warnings.clone_from(&project.config.warnings);
                let globs = match Globs::new(&project.config) {
                    Ok(globs) => Some(globs),
                    Err(e) => {
                        log.push(e.to_string());
                        None
                    }
                };
                (globs, Some((oaths, lock)))
            }
            Err(e) => {
                log.push(e.to_string());
                (None, None)
            }
        };
        let sources = rust_sources::sources(&root);
        log.extend(sources.warnings.iter().cloned());
        let files = rust_files(&sources);
        let index = StepIndex::load(files.into_iter().filter_map(|path| {
            let text = varar_project::files::read_to_string(&path)
                .map_err(|e| log.push(format!("cannot read {}: {e}", path.display())))
                .ok()?;
            let label = label(&sources, &path);
            Some((path, label, text))
        }));
        let (oaths, lock) = match loaded {
            Some((oaths, lock)) => (oaths, lock_logged(lock, log)),
            // No config: the lock is still read, as a change of it would.
            None => (Ok(Vec::new()), read_lock_logged(&root, log)),
        };
        let mut project = ProjectState {
            lock,
            results: BTreeMap::new(),
            standing: None,
            mtimes: HashMap::new(),
            epoch: LOADS.fetch_add(1, Ordering::Relaxed) + 1,
            config_warnings,
            oaths: Oaths::default(),
            memo: Arc::default(),
            root,
            globs,
            sources,
            index,
        };
        let oaths = oaths.unwrap_or_else(|e| {
            log.push(e.to_string());
            Vec::new()
        });
        project.oaths = Oaths::from_disk(oaths.into_iter().filter_map(|oath| match oath.text {
            Ok(text) => Some((oath.file.oath_path, text)),
            // Left out of the workspace, as the harness leaves it out.
            Err(e) => {
                log.push(e.to_string());
                None
            }
        }));
        project.load_results(log);
        project.mtimes = project.stamps();
        project
    }

    /// The modification time of every tracked file now.
    fn stamps(&self) -> HashMap<PathBuf, Option<SystemTime>> {
        self.tracked()
            .into_iter()
            .map(|p| {
                let m = mtime(&p);
                (p, m)
            })
            .collect()
    }

    /// Every file whose change the project notices: the oaths, the Rust
    /// sources, the lock, the config and the result files (directory
    /// listings, no reading).
    fn tracked(&self) -> Vec<PathBuf> {
        let mut files = rust_files(&self.sources);
        files.extend(self.oath_files().into_iter().map(|o| o.path));
        files.push(lock_path(&self.root));
        files.push(self.root.join(CONFIG_FILE_NAME));
        let dir = scratch_dir(&self.root);
        if dir.is_dir() {
            files.extend(
                walkdir::WalkDir::new(&dir)
                    .into_iter()
                    .flatten()
                    .filter(|e| e.file_type().is_file())
                    .map(walkdir::DirEntry::into_path)
                    .filter(|p| p.extension().is_some_and(|x| x == "json" || x == "run")),
            );
        }
        files
    }

    /// For clients that do not watch files: re-read every tracked file
    /// whose modification time changed, appeared or disappeared since the
    /// last look. Called on open and save, never per keystroke.
    pub fn refresh(&mut self, log: &mut Vec<String>) -> Changed {
        let mut changed = Changed::default();
        let now = self.stamps();
        let mut paths: Vec<PathBuf> = now
            .iter()
            .filter(|(p, m)| self.mtimes.get(*p) != Some(m))
            .map(|(p, _)| p.clone())
            .collect();
        paths.extend(
            self.mtimes
                .keys()
                .filter(|p| !now.contains_key(*p))
                .cloned(),
        );
        paths.sort();
        for path in paths {
            changed = changed.merge(self.reload(&path, log));
        }
        self.mtimes = now;
        changed
    }

    /// The oathPath of `path` if the config selects it.
    pub fn oath_path(&self, path: &Path) -> Option<String> {
        let oath = oath_path(&self.root, path)?;
        self.globs
            .as_ref()
            .is_some_and(|g| g.is_match(&oath))
            .then_some(oath)
    }

    /// Every oath the config selects, from disk, discovered as
    /// [`Project::load`] discovers them (none when that fails).
    fn oath_files(&self) -> Vec<OathFile> {
        Project::open(&self.root)
            .map_err(ProjectError::from)
            .and_then(|project| Ok(project.oath_files()?))
            .unwrap_or_default()
    }

    /// Read every result under `.varar/` again (after a run).
    pub fn reload_results(&mut self, log: &mut Vec<String>) {
        self.load_results(log);
    }

    /// The latest run's standing, read as the gate reads it (the one
    /// reader of every command, [`varar_project::evidence`]) when the run records
    /// or results changed since it was last read.
    pub fn run_view(&mut self) -> Arc<RunView> {
        if let Some(view) = &self.standing {
            return Arc::clone(view);
        }
        let evidence = read_project(&self.root)
            .ok()
            .and_then(|mut snapshot| snapshot.evidence().ok());
        let standing = evidence.as_ref().map(ProjectEvidence::standing);
        let read = RunRead::of(evidence.as_ref().and_then(|e| e.run.latest.as_ref()));
        let run = evidence.and_then(|e| e.run.latest).filter(|run| {
            standing
                .as_ref()
                .is_some_and(|s| s.run_id.as_deref() == Some(run.run_id.as_str()))
        });
        let view = Arc::new(RunView {
            standing,
            run,
            read,
        });
        self.standing = Some(Arc::clone(&view));
        view
    }

    fn load_results(&mut self, log: &mut Vec<String>) {
        self.standing = None;
        self.results.clear();
        let dir = scratch_dir(&self.root);
        if !dir.is_dir() {
            return;
        }
        for entry in walkdir::WalkDir::new(&dir).into_iter().flatten() {
            let path = entry.path();
            if entry.file_type().is_file() && path.extension().is_some_and(|x| x == "json") {
                self.read_result(path, log);
            }
        }
    }

    fn read_result(&mut self, path: &Path, log: &mut Vec<String>) {
        let Some(oath) = result_oath(&self.root, path) else {
            return;
        };
        match read_run_result_file(path) {
            Ok(results) if results.oath_path == oath => {
                self.results.insert(oath, results);
            }
            Ok(results) => {
                self.results.remove(&oath);
                log.push(format!(
                    "{} records the oath {}, not {oath}: ignored",
                    path.display(),
                    results.oath_path
                ));
            }
            Err(e) => {
                // A file of a newer format is absent (seed 000): nothing is
                // drawn, and the log says why.
                self.results.remove(&oath);
                if path.exists() {
                    let shown = path.display().to_string();
                    log.push(
                        e.newer_format_reason(&shown)
                            .unwrap_or_else(|| e.to_string()),
                    );
                }
            }
        }
    }

    /// Re-read what a changed (created, changed or deleted) file affects.
    pub fn reload(&mut self, path: &Path, log: &mut Vec<String>) -> Changed {
        let path = rust_sources::normalize(path);
        let mut changed = Changed::default();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path == self.root.join(CONFIG_FILE_NAME)
            || name == "Cargo.toml" && self.is_manifest(&path)
        {
            changed.project = true;
        } else if path == lock_path(&self.root) {
            self.lock = read_lock_logged(&self.root, log);
            self.standing = None;
            changed.evidence = true;
        } else if path.starts_with(scratch_dir(&self.root)) {
            if path.extension().is_some_and(|x| x == "json") {
                self.read_result(&path, log);
                self.standing = None;
                changed.evidence = true;
            } else if path.extension().is_some_and(|x| x == RECORD_EXTENSION) {
                // A run record: the latest run's standing is read again.
                self.standing = None;
                changed.evidence = true;
            }
        } else if is_source(&self.sources, &path) {
            changed.rust = true;
            changed.steps = match varar_project::files::read_to_string(&path) {
                Ok(text) => {
                    let label = label(&self.sources, &path);
                    self.index.update(path, label, &text)
                }
                Err(_) => self.index.remove(&path),
            };
        } else if let Some(oath_path) = self.oath_path(&path) {
            // One file read, never the tree: an oath that is open keeps the
            // editor's text.
            let text = match varar_project::files::read(&path) {
                Ok(bytes) => String::from_utf8(bytes)
                    .map_err(|_| log.push(format!("{}: not UTF-8: left out", path.display())))
                    .ok(),
                Err(_) => None,
            };
            changed.oaths = self.oaths.disk(&oath_path, text);
            // The latest run may be stale now.
            self.standing = None;
        }
        changed
    }

    fn is_manifest(&self, path: &Path) -> bool {
        path == self.root.join("Cargo.toml")
            || self
                .sources
                .dirs
                .iter()
                .any(|d| d.parent().is_some_and(|p| path == p.join("Cargo.toml")))
    }
}

fn mtime(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// The oathPath a `.varar/<oathPath>.json` file is for.
fn result_oath(root: &Path, path: &Path) -> Option<String> {
    oath_path_of(&scratch_dir(root), path)
}

fn read_lock_logged(root: &Path, log: &mut Vec<String>) -> Option<Lock> {
    lock_logged(read_lock(root), log)
}

/// The lock when it can be used for drift; why not goes to `log`.
fn lock_logged(lock: Result<Baseline, StoreError>, log: &mut Vec<String>) -> Option<Lock> {
    match lock {
        Ok(Baseline::Present { lock, .. }) => Some(lock),
        Ok(Baseline::Absent) => None,
        Ok(Baseline::Unsupported { version }) => {
            log.push(format!(
                "{LOCK_FILE_NAME} has version {version}: drift is not shown"
            ));
            None
        }
        Err(e) => {
            log.push(format!("{e}: drift is not shown"));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issue21_a_result_of_a_newer_version_is_absent_and_the_log_says_why() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let write = |rel: &str, text: &str| {
            let path = dir.path().join(rel);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).unwrap_or_else(|e| panic!("{e}"));
            }
            std::fs::write(path, text).unwrap_or_else(|e| panic!("{e}"));
        };
        write(
            "varar.config.json",
            r#"{"docs": {"include": ["varar/**/*.md"]}}"#,
        );
        write("varar/a.md", "# A\n\nI add 2.\n");
        write(
            ".varar/varar/a.md.json",
            r#"{"version": 3, "oathPath": "varar/a.md", "anything": []}"#,
        );
        let mut log = Vec::new();
        let project = ProjectState::load(dir.path(), &mut log);
        assert!(project.results.is_empty(), "{:?}", project.results);
        assert!(
            log.iter()
                .any(|l| l.contains("was written by a newer results format (version 3)")),
            "{log:?}"
        );
    }
}
