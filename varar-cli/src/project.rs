//! Reading a project's evidence for `gate` and `junit` (shell): the root,
//! its config, every oath the config selects with its text and its
//! `.varar/` result (read by the one strict reader), and the texts of the
//! other documents that version-2 results name. Problems become
//! [`ErrorRecord`]s here; judging the evidence is pure ([`crate::evidence`]).

use std::collections::{BTreeMap, BTreeSet};
use std::io::ErrorKind;
use std::path::{Component, Path, PathBuf};

use varar_runner::internal::config::load_config;
use varar_runner::internal::discovery::{DiscoveryError, OathFile, discover, read_oath};
use varar_runner::internal::lock::Baseline;
use varar_runner::internal::store::{SCRATCH_DIR, read_lock, read_run_result};

use crate::evidence::{DocumentText, OathEvidence};
use crate::records::{Code, ErrorRecord};
use crate::root;

/// The evidence of a whole project.
#[derive(Debug)]
pub struct Project {
    /// The project root.
    pub root: PathBuf,
    /// Every selected oath, in discovery order.
    pub oaths: Vec<OathEvidence>,
    /// The oaths that have no result, and need none: every paragraph of
    /// them lies in a section other oaths link to (spec 70 §70.4.5).
    pub linked_only: BTreeSet<String>,
}

/// Read the project at `--root` (or found from `cwd`). A missing or
/// invalid config, a failed walk or a config selecting nothing is one
/// record: there is no evidence to look at.
pub fn read_project(explicit_root: Option<&Path>, cwd: &Path) -> Result<Project, ErrorRecord> {
    let root = root::resolve(explicit_root, cwd).map_err(|e| ErrorRecord::root(&e))?;
    let config = load_config(&root).map_err(|e| ErrorRecord::config(&e, &root))?;
    let files = discover(&root, &config).map_err(|e| ErrorRecord::discovery(&e, &root))?;
    if files.is_empty() {
        return Err(ErrorRecord::new(
            Code::NoOaths,
            format!(
                "varar.config.json selects no oath (docs.include {:?}): there is no evidence \
                 to look at",
                config.docs_include
            ),
        )
        .with_path(varar_runner::internal::config::CONFIG_FILE_NAME));
    }
    let oaths: Vec<OathEvidence> = files.iter().map(|f| read_oath_evidence(&root, f)).collect();
    let linked_only = linked_only(&root, &oaths);
    Ok(Project {
        root,
        oaths,
        linked_only,
    })
}

/// The oaths without a result that need none (spec 70 §70.4.5), from the
/// project's baseline; without a readable baseline nothing is exempt.
fn linked_only(root: &Path, oaths: &[OathEvidence]) -> BTreeSet<String> {
    let without_result: Vec<&str> = oaths
        .iter()
        .filter(|o| matches!(o.results, Ok(None)))
        .map(|o| o.oath_path.as_str())
        .collect();
    if without_result.is_empty() {
        return BTreeSet::new();
    }
    let Ok(Baseline::Present { lock, .. }) = read_lock(root) else {
        return BTreeSet::new();
    };
    let texts = oaths
        .iter()
        .filter_map(|o| Some((o.oath_path.as_str(), o.text.as_deref().ok()?)));
    crate::evidence::linked_only_among(texts, &without_result, &lock)
}

fn read_oath_evidence(root: &Path, file: &OathFile) -> OathEvidence {
    let result_path = format!("{SCRATCH_DIR}/{}.json", file.oath_path);
    let text = read_oath(file).map_err(|e| ErrorRecord::discovery(&e, root));
    let results = read_run_result(root, &file.oath_path)
        .map_err(|e| ErrorRecord::result_file(&e, root).with_oath(file.oath_path.clone()));
    let mut documents = BTreeMap::new();
    if let Ok(Some(results)) = &results {
        for doc in &results.documents {
            documents
                .entry(doc.path.clone())
                .or_insert_with(|| read_document(root, &file.oath_path, &result_path, &doc.path));
        }
    }
    OathEvidence {
        oath_path: file.oath_path.clone(),
        result_path,
        text,
        results,
        documents,
    }
}

/// The text of a document a version-2 result names (spec 70 §70.4.5).
fn read_document(root: &Path, oath_path: &str, result_path: &str, doc: &str) -> DocumentText {
    let plain = !doc.is_empty()
        && Path::new(doc)
            .components()
            .all(|c| matches!(c, Component::Normal(_)));
    if !plain {
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
