//! Loading a project (spec 40 §1, §2, §4.4), the one way every consumer
//! reads one: the config, discovery, every oath's text, the lock. Shell.
//!
//! [`Project::load`] runs the stages in that order and keeps each stage's
//! problem as the typed error of the layer that failed; each consumer
//! decides what a problem means to it (`cargo varar report` draws an
//! unreadable oath and goes on, the gate refuses to judge, the language
//! server logs and shows what it can). `cargo varar`'s commands and the
//! language server load through it.
//!
//! The harness composes the same stages with its caches between them:
//! [`Project::open`] (the config), then its discovery cache or
//! [`Project::discover`], then only the oaths its selection needs, read
//! with their stamps (`varar-runner`'s `harness/read/documents.rs`), then
//! [`Project::read_lock`] beside them or [`Project::read_lock_for`] the
//! oaths it plans. The caches stay in the harness: what a stage reads is
//! the same for every consumer, how much of it a run needs is the
//! harness's business.

use std::path::{Path, PathBuf};

use varar_core::lock::Baseline;

use crate::config::{Config, ConfigError, load_config_digested};
use crate::discovery::{Discovered, DiscoveryError, OathFile, discover, discover_all, read_oath};
use crate::store::{StoreError, read_lock, read_lock_for};

/// A project: its root and its config (the first stage of loading).
#[derive(Clone, Debug)]
pub struct Project {
    /// The directory holding `varar.config.json`.
    pub root: PathBuf,
    /// Its config (the empty config, [`Config::missing`], when there is no
    /// file).
    pub config: Config,
    /// The SHA-256 of the config's bytes as read, `None` without a file:
    /// what a run record names as the config the run used.
    pub config_sha256: Option<String>,
}

/// A project loaded whole ([`Project::load`]).
#[derive(Debug)]
pub struct Loaded {
    /// The project and its config.
    pub project: Project,
    /// Every oath the config selects, in discovery order, each with its
    /// text; or why discovery failed (a bad glob, or the first path it
    /// could not look at).
    pub oaths: Result<Vec<Oath>, DiscoveryError>,
    /// The drift baseline (`varar.lock.json`), or why it could not be read.
    pub lock: Result<Baseline, StoreError>,
}

/// One discovered oath and its text.
#[derive(Debug)]
pub struct Oath {
    /// Its file.
    pub file: OathFile,
    /// Its text, read strictly (spec 40 §2.4), or why it could not be read.
    pub text: Result<String, DiscoveryError>,
}

/// Why a project could not be read at all, for a consumer that needs every
/// oath: there is nothing to look at.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ProjectError {
    /// The config is invalid or unreadable.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// Discovery failed.
    #[error(transparent)]
    Discovery(#[from] DiscoveryError),
}

impl Project {
    /// Every stage: the config under `root`, the oaths it selects with
    /// their texts, the lock. Only a config that cannot be used stops the
    /// loading; every later problem is kept in the [`Loaded`] value.
    pub fn load(root: &Path) -> Result<Loaded, ConfigError> {
        let project = Project::open(root)?;
        let oaths = project
            .oath_files()
            .map(|files| files.into_iter().map(Oath::read).collect());
        let lock = project.read_lock();
        Ok(Loaded {
            project,
            oaths,
            lock,
        })
    }

    /// The first stage: read `<root>/varar.config.json`.
    pub fn open(root: &Path) -> Result<Project, ConfigError> {
        let (config, config_sha256) = load_config_digested(root)?;
        Ok(Project {
            root: root.to_path_buf(),
            config,
            config_sha256,
        })
    }

    /// Discovery (spec 40 §2.1–2.3): every oath, and every path that may
    /// hold oaths but could not be looked at, each kept apart (the harness
    /// makes each a failing item). Only bad globs are an error.
    pub fn discover(&self) -> Result<Discovered, DiscoveryError> {
        discover_all(&self.root, &self.config)
    }

    /// Discovery for a consumer that needs every oath: the first path that
    /// could not be looked at is the error.
    pub fn oath_files(&self) -> Result<Vec<OathFile>, DiscoveryError> {
        discover(&self.root, &self.config)
    }

    /// The drift baseline, `<root>/varar.lock.json` (spec 40 §4.4).
    pub fn read_lock(&self) -> Result<Baseline, StoreError> {
        read_lock(&self.root)
    }

    /// The drift baseline with only the entries of the oaths `wanted`
    /// accepts, the others skipped unread: for a run that plans a few oaths
    /// and never writes the lock.
    pub fn read_lock_for(&self, wanted: &dyn Fn(&str) -> bool) -> Result<Baseline, StoreError> {
        read_lock_for(&self.root, wanted)
    }
}

impl Oath {
    /// Read `file`'s text (bytes, then strict UTF-8).
    pub fn read(file: OathFile) -> Oath {
        Oath {
            text: read_oath(&file),
            file,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(root: &Path, rel: &str, text: &str) {
        let path = root.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap_or_else(|e| panic!("{e}"));
        }
        std::fs::write(path, text).unwrap_or_else(|e| panic!("{e}"));
    }

    #[test]
    fn a_project_loads_its_config_its_oaths_with_their_texts_and_its_lock() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let root = dir.path();
        write(
            root,
            "varar.config.json",
            r#"{"docs": {"include": ["varar/**/*.md"]}}"#,
        );
        write(root, "varar/b.md", "# B\n");
        write(root, "varar/a.md", "# A\n");
        std::fs::write(root.join("varar/bad.md"), b"# \xff\n").unwrap_or_else(|e| panic!("{e}"));
        let loaded = Project::load(root).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(loaded.project.config.docs_include, ["varar/**/*.md"]);
        let oaths = loaded.oaths.unwrap_or_else(|e| panic!("{e}"));
        let read: Vec<(&str, Option<&str>)> = oaths
            .iter()
            .map(|o| (o.file.oath_path.as_str(), o.text.as_deref().ok()))
            .collect();
        assert_eq!(
            read,
            [
                ("varar/a.md", Some("# A\n")),
                ("varar/b.md", Some("# B\n")),
                ("varar/bad.md", None)
            ]
        );
        assert!(matches!(loaded.lock, Ok(Baseline::Absent)));
    }

    #[test]
    fn only_an_unusable_config_stops_the_loading() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let root = dir.path();
        write(root, "varar.config.json", "{");
        assert!(Project::load(root).is_err());
        write(
            root,
            "varar.config.json",
            r#"{"docs": {"include": ["a**b**c**d**e**f**g**h"]}}"#,
        );
        write(root, "varar.lock.json", "not json");
        let loaded = Project::load(root).unwrap_or_else(|e| panic!("{e}"));
        assert!(loaded.oaths.is_err(), "a glob too complex to expand");
        assert!(loaded.lock.is_err(), "an unreadable lock is kept as such");
    }
}
