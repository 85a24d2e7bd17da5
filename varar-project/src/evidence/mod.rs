//! Reading a project's evidence (shell; feature `evidence`): the one
//! reader of every command that works on a project (`report`, `gate`,
//! `junit`, and the language server's report). [`read_project`] loads it
//! with [`Project::load`] (the config under the root, every
//! oath it selects with its text, the baseline) and adds each oath's
//! `.varar/` result (read by the one strict reader) and the run records,
//! keeping every problem as the typed error of the layer that failed: each
//! command decides what a problem means to it (the report draws an
//! unreadable oath and goes on; the gate refuses to judge).
//!
//! [`ProjectSnapshot::into_evidence`] goes on for `gate` and `junit`: it reads
//! the other documents that version-2 results name, and the config and
//! documents the latest run used as they are now ([`run_evidence`]), and
//! turns problems into [`ErrorRecord`]s; judging the evidence is pure
//! ([`varar_core::verdict::evidence`],
//! [`varar_core::verdict::run_evidence`]).
//!
//! [`kept`] reads the kept runs (the run history, downloaded trees),
//! [`records`] gives this crate's errors their error records, [`runs`]
//! turns the run directories the store read into the engine's
//! [`RunEvidence`].

use std::collections::{BTreeMap, BTreeSet};
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use varar_core::hash::sha256_hex;
use varar_core::lock::Baseline;
use varar_core::oath_path::is_oath_path;
use varar_core::record::RunRecord;
use varar_core::results::OathResults;
use varar_core::verdict::current::RunRead;
use varar_core::verdict::evidence::{
    DocumentText, OathEvidence, ProjectEvidence, linked_only_among,
};
use varar_core::verdict::records::{Code, ErrorRecord, display_path};
use varar_core::verdict::run_evidence::{ElsewhereRecord, FileNow, RunEvidence, SourcesNow};

use crate::config::{CONFIG_FILE_NAME, Config};
use crate::discovery::{DiscoveryError, OathFile, read_oath};
use crate::root::ProjectRoot;
use crate::store::{
    History, RecordFileError, ResultFileError, RunDirectory, StoreError, project_id, read_run_dirs,
    read_run_result, records_missing_from, result_path_shown, runs_dir,
};
use crate::{Loaded, Oath, Project, ProjectError};

pub mod kept;
pub mod records;
pub mod runs;

use records::{ProjectRecords, config_warning};

/// A project as read from disk at one moment.
#[derive(Debug)]
pub struct ProjectSnapshot {
    /// The project root.
    pub root: PathBuf,
    /// Its `varar.config.json`.
    pub config: Config,
    /// Every selected oath, in discovery order.
    pub oaths: Vec<OathSnapshot>,
    /// The drift baseline (`varar.lock.json`), or why it could not be read.
    pub baseline: Result<Baseline, StoreError>,
    /// Every run directory under `.varar/.runs/`, each record read
    /// strictly (`Err`: `.varar/.runs/` could not be listed).
    pub runs: Result<Vec<RunDirectory>, RecordFileError>,
}

/// One selected oath as read from disk.
#[derive(Debug)]
pub struct OathSnapshot {
    /// Its file.
    pub file: OathFile,
    /// Its text, or why it could not be read.
    pub text: Result<String, DiscoveryError>,
    /// Its result (`None`: no file), or why the strict reader refused it.
    pub results: Result<Option<OathResults>, ResultFileError>,
}

/// Read the project at `root` (see the module docs).
pub fn read_project(root: &Path) -> Result<ProjectSnapshot, ProjectError> {
    let Loaded {
        project,
        oaths,
        lock,
    } = Project::load(root)?;
    let oaths = oaths?
        .into_iter()
        .map(|Oath { file, text }| OathSnapshot {
            text,
            results: read_run_result(root, &file.oath_path),
            file,
        })
        .collect();
    Ok(ProjectSnapshot {
        root: root.to_path_buf(),
        config: project.config,
        oaths,
        baseline: lock,
        runs: read_run_dirs(root),
    })
}

/// The evidence of the project at `location`, or the one record that says
/// why there is none (no root, an invalid config, a failed walk, a config
/// selecting nothing): what `gate` and `junit` judge. The config's
/// warnings go to `notes` either way (a key written twice may be why it
/// selects nothing).
pub fn read_evidence(
    location: &ProjectRoot,
    notes: &mut Vec<String>,
) -> Result<ProjectEvidence, ErrorRecord> {
    let root = location.resolve().map_err(|e| ErrorRecord::root(&e))?;
    let snapshot = read_project(&root).map_err(|e| ErrorRecord::project(&e, &root))?;
    notes.extend(
        snapshot
            .config_warnings()
            .into_iter()
            .map(|w| format!("warning: {w}")),
    );
    snapshot.into_evidence()
}

impl ProjectSnapshot {
    /// The config's warnings, as people read them (without `warning: `).
    pub fn config_warnings(&self) -> Vec<String> {
        self.config
            .warnings
            .iter()
            .map(|w| config_warning(w, &self.root))
            .collect()
    }

    /// The evidence `gate` and `junit` judge; a config selecting no oath is
    /// one record (`no_oaths`): there is no evidence to look at.
    pub fn into_evidence(mut self) -> Result<ProjectEvidence, ErrorRecord> {
        self.evidence()
    }

    /// [`ProjectSnapshot::into_evidence`], the snapshot kept (its oaths'
    /// texts and results copied; its run records taken): what the report
    /// reads the latest run's standing from, beside what it draws.
    pub fn evidence(&mut self) -> Result<ProjectEvidence, ErrorRecord> {
        if self.oaths.is_empty() {
            return Err(ErrorRecord::new(
                Code::NoOaths,
                format!(
                    "varar.config.json selects no oath (docs.include {:?}): there is no evidence \
                     to look at",
                    self.config.docs_include
                ),
            )
            .with_path(CONFIG_FILE_NAME));
        }
        let root = self.root.clone();
        let runs = std::mem::replace(&mut self.runs, Ok(Vec::new()));
        let run = run_evidence(&root, runs);
        // What the latest run read vouches for the texts of the results.
        let read = RunRead::of(run.latest.as_ref());
        let oaths: Vec<OathEvidence> = self
            .oaths
            .iter()
            .map(|o| oath_evidence(&root, o, &read))
            .collect();
        let linked_only = linked_only(&self.baseline, &oaths);
        let baselined = match &self.baseline {
            Ok(Baseline::Present { lock, .. }) => lock
                .oaths
                .iter()
                .filter(|(_, entry)| !entry.examples.is_empty())
                .map(|(path, _)| path.clone())
                .collect(),
            _ => BTreeSet::new(),
        };
        Ok(ProjectEvidence {
            root,
            oaths,
            linked_only,
            baselined,
            run,
        })
    }
}

/// The oaths without a result that need none (spec 70 §70.4.5), from the
/// project's baseline; without a readable baseline nothing is exempt.
fn linked_only(
    baseline: &Result<Baseline, StoreError>,
    oaths: &[OathEvidence],
) -> BTreeSet<String> {
    let without_result: Vec<&str> = oaths
        .iter()
        .filter(|o| matches!(o.results, Ok(None)))
        .map(|o| o.oath_path.as_str())
        .collect();
    if without_result.is_empty() {
        return BTreeSet::new();
    }
    let Ok(Baseline::Present { lock, .. }) = baseline else {
        return BTreeSet::new();
    };
    let texts = oaths
        .iter()
        .filter_map(|o| Some((o.oath_path.as_str(), o.text.as_deref().ok()?)));
    linked_only_among(texts, &without_result, lock)
}

fn oath_evidence(root: &Path, oath: &OathSnapshot, read: &RunRead) -> OathEvidence {
    let oath_path = &oath.file.oath_path;
    let result_path = result_path_shown(oath_path);
    let text = oath
        .text
        .as_ref()
        .map(String::clone)
        .map_err(|e| ErrorRecord::discovery(e, root));
    let mut absent_because = None;
    let results = match &oath.results {
        // Seed 000: a file of a newer format is treated as absent.
        Err(e) if e.unknown_version().is_some() => {
            absent_because = e.newer_format_reason(&result_path);
            Ok(None)
        }
        Ok(results) => Ok(results.clone()),
        Err(e) => Err(ErrorRecord::result_file(e, root).with_oath(oath_path.clone())),
    };
    let mut documents = BTreeMap::new();
    if let Ok(Some(results)) = &results {
        for doc in &results.documents {
            documents
                .entry(doc.path.clone())
                .or_insert_with(|| read_document(root, oath_path, &result_path, &doc.path));
        }
    }
    let vouched = read
        .vouched(std::iter::once(oath_path.as_str()).chain(documents.keys().map(String::as_str)));
    OathEvidence {
        oath_path: oath_path.clone(),
        result_path,
        text,
        results,
        documents,
        absent_because,
        vouched,
    }
}

/// The text of a document a version-2 result names (spec 70 §70.4.5).
fn read_document(root: &Path, oath_path: &str, result_path: &str, doc: &str) -> DocumentText {
    if !is_oath_path(doc) {
        return DocumentText::Unreadable(
            ErrorRecord::new(
                Code::InvalidResult,
                format!(
                    "`{result_path}` names the document `{doc}`, which is not a path inside \
                     the project"
                ),
            )
            .with_path(result_path)
            .with_oath(oath_path),
        );
    }
    let file = OathFile {
        oath_path: doc.to_owned(),
        path: root.join(doc),
    };
    match read_oath(&file) {
        Ok(text) => DocumentText::Text(text),
        Err(DiscoveryError::Read { source, .. }) if source.kind() == ErrorKind::NotFound => {
            DocumentText::Missing
        }
        Err(e) => DocumentText::Unreadable(ErrorRecord::discovery(&e, root).with_oath(oath_path)),
    }
}

/// The evidence of the project's run records (see
/// [`varar_core::verdict::run_evidence`] and [`varar_core::verdict::standing`]): the latest run, every
/// run directory, the records the run history holds that `.varar/.runs`
/// does not (issue 34), and the config and documents the latest run used
/// as they are now.
pub fn run_evidence(root: &Path, runs: Result<Vec<RunDirectory>, RecordFileError>) -> RunEvidence {
    let mut evidence = runs::of_dirs(RunEvidence::none().dir, runs, root);
    evidence.elsewhere = elsewhere(root, evidence.latest.as_ref());
    if let Some(run) = &evidence.latest {
        evidence.now.config = Some(file_now(root, CONFIG_FILE_NAME));
        for d in run.documents() {
            if !evidence.now.documents.contains_key(&d.path) {
                let now = document_now(root, &d.path);
                evidence.now.documents.insert(d.path.clone(), now);
            }
        }
    }
    evidence
}

/// The records of this project that the run history (where the
/// environment puts it, as the harness finds it) holds and `.varar/.runs`
/// does not, of processes that started at or after `latest` did (every one
/// without a latest run): a run that could not write to `.varar/` but
/// wrote to the history (issue 34). Records of other projects sharing the
/// history, and records that do not name their project, are not this
/// project's. A history the harness refuses (issue 34, see
/// `store::History::check_readable`) holds none of its records: it is not
/// read.
fn elsewhere(root: &Path, latest: Option<&RunRecord>) -> Vec<ElsewhereRecord> {
    let (Some(history), _) = History::from_env(root) else {
        return Vec::new();
    };
    if history.check_readable().is_err() {
        return Vec::new();
    }
    let since = latest.map(RunRecord::started_at);
    let project = project_id(root);
    records_missing_from(&history.dir, &runs_dir(root), since)
        .into_iter()
        .filter(|(_, h)| h.project.as_deref() == Some(project.as_str()))
        .filter(|(_, h)| since.is_none_or(|s| h.started_at.as_str() >= s))
        .map(|(path, h)| ElsewhereRecord {
            path: display_path(&path, root),
            run_id: h.run_id,
            process_id: h.process_id,
            started_at: h.started_at,
        })
        .collect()
}

/// The config and every document some run of `runs` read, as they are
/// now under `root`.
pub fn sources_now(root: &Path, runs: &[RunRecord]) -> SourcesNow {
    let mut now = SourcesNow {
        config: Some(file_now(root, CONFIG_FILE_NAME)),
        documents: BTreeMap::new(),
    };
    for d in runs.iter().flat_map(RunRecord::documents) {
        if !now.documents.contains_key(&d.path) {
            now.documents
                .insert(d.path.clone(), document_now(root, &d.path));
        }
    }
    now
}

/// A file of the project as it is now.
pub fn file_now(root: &Path, rel: &str) -> FileNow {
    match crate::files::read(&root.join(rel)) {
        Ok(bytes) => FileNow::Sha256(sha256_hex(&bytes)),
        Err(e) if e.kind() == ErrorKind::NotFound => FileNow::Missing,
        Err(e) => FileNow::Unreadable(
            ErrorRecord::new(Code::InputError, format!("cannot read `{rel}`: {e}")).with_path(rel),
        ),
    }
}

/// A document a run record names, as it is now: refused unless it is a
/// plain path inside the project.
fn document_now(root: &Path, doc: &str) -> FileNow {
    if !is_oath_path(doc) {
        return FileNow::Unreadable(
            ErrorRecord::new(
                Code::InvalidRun,
                format!(
                    "the latest run's record names the document `{doc}`, which is not a path \
                     inside the project"
                ),
            )
            .with_path(RunEvidence::none().dir),
        );
    }
    match file_now(root, doc) {
        FileNow::Unreadable(e) => FileNow::Unreadable(e.with_oath(doc)),
        other => other,
    }
}
