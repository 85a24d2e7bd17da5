//! How an oath's run result relates to the oath as it is now (pure): the
//! staleness contract of the run-result format (spec 30 §30.8, seed "Run
//! results"), which `gate` and `junit` share.
//!
//! A result is **fresh** when the oath's text now is the text it was
//! made from and, for version 2, so is every document in its `documents`
//! list (spec 70 §70.4.5: an edit in a referenced document moves only that
//! entry). Otherwise it is **stale**: its lines and offsets may point at
//! the wrong text.
//!
//! "The text it was made from" is decided by [`same_text`], the one rule
//! `gate`, `junit`, `report` and the editor share (issue 34): the
//! `sourceHash` the result records must be the text's (the contract of the
//! format), and the SHA-256 that the run which wrote the result recorded
//! for the document ([`crate::run_evidence::RunDigests`]) must be the
//! text's too, because 32 bits can be made to collide by an edit. A result
//! no kept run record vouches for (its run pruned, its records deleted) is
//! stale: nothing says which text its offsets point into.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use varar_core::hash::{sha256_hex, source_hash};
use varar_core::lock::Lock;
use varar_core::results::OathResults;
use varar_core::workspace::Workspace;

use crate::records::ErrorRecord;
use crate::run_evidence::{RunEvidence, Vouched};

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
    /// The oath and the documents its result names, as the run that wrote
    /// the result read them (by SHA-256).
    pub vouched: Vouched,
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
    /// Results no kept run record says the text of (by SHA-256): they may
    /// be of another version; the reason says which document.
    Unvouched(&'a OathResults, String),
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
        let (Some(results), Ok(text)) = (results, &self.text) else {
            return EvidenceState::Missing;
        };
        let stale = |why: Staleness, said: String| match why {
            Staleness::Unvouched { .. } => EvidenceState::Unvouched(results, said),
            _ => EvidenceState::Stale(results, said),
        };
        if let Err(why) = same_text(
            &self.oath_path,
            &results.source_hash,
            Some(text),
            &self.vouched,
        ) {
            let said = why.to_string();
            return stale(why, said);
        }
        for doc in &results.documents {
            let now = self.text_of(Some(&doc.path));
            if let Err(why) = same_text(&doc.path, &doc.source_hash, now, &self.vouched) {
                let said = format!("its examples use `{}`: {why}", doc.path);
                return stale(why, said);
            }
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

/// Why a result does not describe a document's text now (see the module
/// docs): each names the document, and `Display` says why in a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Staleness {
    /// The document is gone.
    Missing {
        /// Its path.
        path: String,
    },
    /// Its `sourceHash` is another.
    SourceHash {
        /// Its path.
        path: String,
        /// What the result records.
        recorded: String,
        /// The text's now.
        now: String,
    },
    /// Its `sourceHash` is the recorded one but its SHA-256 is not the
    /// one the run recorded: an edit whose 32-bit hash collides.
    Sha256 {
        /// Its path.
        path: String,
        /// What the run that wrote the result recorded.
        recorded: String,
        /// The text's now.
        now: String,
    },
    /// No kept run record says which text the result was made from.
    Unvouched {
        /// Its path.
        path: String,
    },
}

impl std::fmt::Display for Staleness {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Staleness::Missing { path } => write!(f, "`{path}` no longer exists"),
            Staleness::SourceHash {
                path,
                recorded,
                now,
            } => write!(
                f,
                "`{path}` changed after its run (the result records {recorded}, the file is now \
                 {now})"
            ),
            Staleness::Sha256 {
                path,
                recorded,
                now,
            } => write!(
                f,
                "`{path}` changed after its run: its sourceHash is the one recorded, but the run \
                 read sha256 {recorded} and the file is now {now}"
            ),
            Staleness::Unvouched { path } => write!(
                f,
                "no kept run record names the text of `{path}` that the result was made from by \
                 SHA-256; run the tests again to record it"
            ),
        }
    }
}

/// Whether `text_now` (`None`: the document is gone) is the text of
/// `path` that a result recorded with `recorded` (its `sourceHash`) was
/// made from: the same `sourceHash`, and the SHA-256 that the run which
/// wrote the result recorded (`vouched`, with that same `sourceHash`).
/// The one rule of freshness (see the module docs).
pub fn same_text(
    path: &str,
    recorded: &str,
    text_now: Option<&str>,
    vouched: &Vouched,
) -> Result<(), Staleness> {
    let path_owned = || path.to_owned();
    let Some(text) = text_now else {
        return Err(Staleness::Missing { path: path_owned() });
    };
    let now = source_hash(text);
    if now != recorded {
        return Err(Staleness::SourceHash {
            path: path_owned(),
            recorded: recorded.to_owned(),
            now,
        });
    }
    let Some(digest) = vouched.get(path).filter(|d| d.source_hash == recorded) else {
        return Err(Staleness::Unvouched { path: path_owned() });
    };
    let sha = sha256_hex(text.as_bytes());
    if digest.sha256 != sha {
        return Err(Staleness::Sha256 {
            path: path_owned(),
            recorded: digest.sha256.clone(),
            now: sha,
        });
    }
    Ok(())
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
pub(crate) mod tests {
    use varar_core::results::DocumentHash;

    use super::*;
    use crate::records::Code;
    use crate::run_evidence::tests::vouched;

    fn evidence(text: &str, results: Option<OathResults>) -> OathEvidence {
        OathEvidence {
            oath_path: "a.md".into(),
            result_path: ".varar/a.md.json".into(),
            text: Ok(text.into()),
            results: Ok(results),
            documents: BTreeMap::new(),
            absent_because: None,
            vouched: vouched(&[("a.md", text)]),
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
        e.vouched = vouched(&[("a.md", text), ("shared.md", "shared")]);
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

    /// Two oath texts with the same `sourceHash`: an edit that moves a
    /// cell by one character (`tests/fixtures/colliding/`).
    pub(crate) const BEFORE: &str = include_str!("../tests/fixtures/colliding/before.md");
    pub(crate) const AFTER: &str = include_str!("../tests/fixtures/colliding/after.md");

    #[test]
    fn issue34_the_colliding_fixture_still_collides() {
        assert_ne!(BEFORE, AFTER);
        assert_eq!(source_hash(BEFORE), source_hash(AFTER));
        assert_ne!(sha256_hex(BEFORE.as_bytes()), sha256_hex(AFTER.as_bytes()));
    }

    #[test]
    fn issue34_an_edit_with_a_colliding_source_hash_is_stale_by_sha256() {
        let mut e = evidence(AFTER, Some(results(&source_hash(BEFORE))));
        // The run that wrote the result read the text before the edit.
        e.vouched = vouched(&[("a.md", BEFORE)]);
        match e.state() {
            EvidenceState::Stale(_, why) => assert!(
                why.starts_with("`a.md` changed after its run: its sourceHash is the one recorded"),
                "{why}"
            ),
            v => panic!("the old run's result on the new text: {v:?}"),
        }
        assert!(matches!(
            same_text("a.md", &source_hash(BEFORE), Some(AFTER), &e.vouched),
            Err(Staleness::Sha256 { .. })
        ));
        assert_eq!(
            same_text("a.md", &source_hash(BEFORE), Some(BEFORE), &e.vouched),
            Ok(())
        );
    }

    #[test]
    fn issue34_a_result_no_run_record_vouches_for_is_stale() {
        let text = "# A\n";
        let mut e = evidence(text, Some(results(&source_hash(text))));
        e.vouched.clear();
        match e.state() {
            EvidenceState::Unvouched(_, why) => {
                assert!(
                    why.starts_with("no kept run record names the text of `a.md`"),
                    "{why}"
                )
            }
            v => panic!("{v:?}"),
        }
        // A record of another sourceHash of the oath vouches for nothing.
        e.vouched = vouched(&[("a.md", "# B\n")]);
        assert!(matches!(e.state(), EvidenceState::Unvouched(..)));
    }
}
