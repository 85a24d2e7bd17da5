//! How an oath's run result relates to the oath as it is now (pure): the
//! staleness contract of the run-result format (spec 30 §30.8, seed "Run
//! results"), which `gate` and `junit` share.
//!
//! A result is **fresh** when its `sourceHash` equals the hash of the
//! oath's text now and, for version 2, every document in its `documents`
//! list still has the recorded hash (spec 70 §70.4.5: an edit in a
//! referenced document moves only that entry). Otherwise it is **stale**:
//! its lines and offsets may point at the wrong text.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use varar_core::hash::source_hash;
use varar_core::lock::Lock;
use varar_core::results::OathResults;
use varar_core::workspace::Workspace;

use crate::records::ErrorRecord;
use crate::run_evidence::RunEvidence;

/// The evidence of a whole project.
#[derive(Debug)]
pub struct ProjectEvidence {
    /// The project root.
    pub root: PathBuf,
    /// Every selected oath, in discovery order.
    pub oaths: Vec<OathEvidence>,
    /// The oaths that have no result, and need none: every paragraph of
    /// them lies in a section other oaths link to (spec 70 §70.4.5).
    pub linked_only: BTreeSet<String>,
    /// The oaths `varar.lock.json` records examples of: each must have
    /// items in the latest run.
    pub baselined: BTreeSet<String>,
    /// What the run records say (issue 19).
    pub run: RunEvidence,
}

/// One selected oath and what the project holds for it.
#[derive(Clone, Debug)]
pub struct OathEvidence {
    /// Its oathPath.
    pub oath_path: String,
    /// Where its result file is, relative to the root (`.varar/<oathPath>.json`).
    pub result_path: String,
    /// Its text, or why it could not be read (`input_error`).
    pub text: Result<String, ErrorRecord>,
    /// Its result (`None`: no file), or why it was refused (`invalid_result`).
    pub results: Result<Option<OathResults>, ErrorRecord>,
    /// The texts of the other documents its version-2 result names.
    pub documents: BTreeMap<String, DocumentText>,
    /// Why its result file, which exists, is treated as absent: it was
    /// written by a newer results format (seed 000's stability policy).
    pub absent_because: Option<String>,
}

impl OathEvidence {
    /// Why the oath has no result, for a message: the newer format of its
    /// file, or that the file does not exist.
    pub fn missing_reason(&self) -> String {
        self.absent_because
            .clone()
            .unwrap_or_else(|| format!("`{}` does not exist", self.result_path))
    }
}

/// A document named in a result's `documents` list.
#[derive(Clone, Debug)]
pub enum DocumentText {
    /// Its text now.
    Text(String),
    /// It no longer exists: the result is stale.
    Missing,
    /// It could not be read.
    Unreadable(ErrorRecord),
}

/// The state of an oath's evidence.
#[derive(Debug)]
pub enum EvidenceState<'a> {
    /// Results of the oath as it is now.
    Fresh(&'a OathResults),
    /// Results of another version of the oath; the reason names what changed.
    Stale(&'a OathResults, String),
    /// No result file.
    Missing,
    /// The oath, its result or a document could not be read.
    Unusable(Vec<ErrorRecord>),
}

impl OathEvidence {
    /// The hash of the oath's text now, when it could be read.
    pub fn current_hash(&self) -> Option<String> {
        self.text.as_ref().ok().map(|t| source_hash(t))
    }

    /// Judge the evidence.
    pub fn state(&self) -> EvidenceState<'_> {
        let mut errors = Vec::new();
        if let Err(e) = &self.text {
            errors.push(e.clone());
        }
        let results = match &self.results {
            Ok(r) => r.as_ref(),
            Err(e) => {
                errors.push(e.clone());
                None
            }
        };
        for doc in self.documents.values() {
            if let DocumentText::Unreadable(e) = doc {
                errors.push(e.clone());
            }
        }
        if !errors.is_empty() {
            return EvidenceState::Unusable(errors);
        }
        let (Some(results), Some(now)) = (results, self.current_hash()) else {
            return EvidenceState::Missing;
        };
        if results.source_hash != now {
            let why = format!(
                "`{}` changed after its run (the result records {}, the file is now {now})",
                self.oath_path, results.source_hash
            );
            return EvidenceState::Stale(results, why);
        }
        for doc in &results.documents {
            let why = match self.documents.get(&doc.path) {
                Some(DocumentText::Text(text)) => {
                    let now = source_hash(text);
                    if now == doc.source_hash {
                        continue;
                    }
                    format!(
                        "`{}`, whose text its examples use, changed after the run (the result \
                         records {}, the file is now {now})",
                        doc.path, doc.source_hash
                    )
                }
                _ => format!(
                    "`{}`, whose text its examples use, no longer exists",
                    doc.path
                ),
            };
            return EvidenceState::Stale(results, why);
        }
        EvidenceState::Fresh(results)
    }

    /// The text a fresh failure's offsets point into: the document named
    /// by `docPath`, else the oath itself.
    pub fn text_of(&self, doc_path: Option<&str>) -> Option<&str> {
        match doc_path {
            None => self.text.as_deref().ok(),
            Some(path) => match self.documents.get(path) {
                Some(DocumentText::Text(text)) => Some(text),
                _ => None,
            },
        }
    }
}

/// Which of `without_result` need no result (pure; `gate`, `junit` and
/// `report` share it): a section of the oath is linked from another oath
/// (read from the `texts` alone, as the harness's workspace is), and the
/// baseline of the last full run records no example of its own, so every
/// step it holds runs inside the linking oaths.
pub fn linked_only_among<'t>(
    texts: impl IntoIterator<Item = (&'t str, &'t str)>,
    without_result: &[&str],
    lock: &Lock,
) -> BTreeSet<String> {
    let workspace = Workspace::build(texts);
    without_result
        .iter()
        .filter(|path| {
            lock.oaths
                .get(**path)
                .is_some_and(|e| e.examples.is_empty())
        })
        .filter(|path| {
            workspace
                .document(path)
                .is_some_and(|document| workspace.consumed(document).contains(&true))
        })
        .map(|path| (*path).to_owned())
        .collect()
}

#[cfg(test)]
mod tests {
    use varar_core::results::DocumentHash;

    use super::*;
    use crate::records::Code;

    fn evidence(text: &str, results: Option<OathResults>) -> OathEvidence {
        OathEvidence {
            oath_path: "a.md".into(),
            result_path: ".varar/a.md.json".into(),
            text: Ok(text.into()),
            results: Ok(results),
            documents: BTreeMap::new(),
            absent_because: None,
        }
    }

    fn results(hash: &str) -> OathResults {
        OathResults {
            version: 1,
            oath_path: "a.md".into(),
            source_hash: hash.into(),
            documents: Vec::new(),
            examples: Vec::new(),
        }
    }

    #[test]
    fn fresh_stale_missing_and_unusable() {
        let text = "# A\n";
        let e = evidence(text, Some(results(&source_hash(text))));
        assert!(matches!(e.state(), EvidenceState::Fresh(_)));
        let e = evidence("# A changed\n", Some(results(&source_hash(text))));
        match e.state() {
            EvidenceState::Stale(_, why) => {
                assert!(why.starts_with("`a.md` changed after its run"))
            }
            v => panic!("{v:?}"),
        }
        assert!(matches!(
            evidence(text, None).state(),
            EvidenceState::Missing
        ));
        let mut e = evidence(text, None);
        e.text = Err(ErrorRecord::new(Code::InputError, "x"));
        e.results = Err(ErrorRecord::new(Code::InvalidResult, "y"));
        match e.state() {
            EvidenceState::Unusable(errors) => assert_eq!(errors.len(), 2),
            v => panic!("{v:?}"),
        }
    }

    #[test]
    fn a_changed_or_deleted_document_makes_a_version_2_result_stale() {
        let text = "# A\n";
        let mut r = results(&source_hash(text));
        r.version = 2;
        r.documents.push(DocumentHash {
            path: "shared.md".into(),
            source_hash: source_hash("shared"),
        });
        let mut e = evidence(text, Some(r));
        e.documents
            .insert("shared.md".into(), DocumentText::Text("shared".into()));
        assert!(matches!(e.state(), EvidenceState::Fresh(_)));
        assert_eq!(e.text_of(Some("shared.md")), Some("shared"));
        e.documents
            .insert("shared.md".into(), DocumentText::Text("edited".into()));
        assert!(matches!(e.state(), EvidenceState::Stale(_, why) if why.contains("`shared.md`")));
        e.documents
            .insert("shared.md".into(), DocumentText::Missing);
        assert!(
            matches!(e.state(), EvidenceState::Stale(_, why) if why.ends_with("no longer exists"))
        );
    }
}
