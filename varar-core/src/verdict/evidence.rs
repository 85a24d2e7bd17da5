//! How an oath's run result relates to the oath as it is now (pure): the
//! staleness contract of the run-result format (spec 30 §30.8, seed "Run
//! results"), which `gate`, `junit`, `report` and the editor share.
//!
//! A result is **fresh** when the oath's text now is the text it was
//! made from and, for version 2, so is every document in its `documents`
//! list (spec 70 §70.4.5: an edit in a referenced document moves only that
//! entry), and the latest run vouches for it. Otherwise it is **stale**
//! (its lines and offsets may point at the wrong text) or an **earlier
//! run's** (of this text, but not the latest run's).
//!
//! The decision is [`crate::verdict::current::drawn`], the one rule every
//! consumer draws by (issue 34); "the text it was made from" is its first
//! half, [`crate::verdict::current::same_text`]: the `sourceHash` the result
//! records must be the text's (the contract of the format), and so must
//! the SHA-256 that the latest run recorded for the document when it read
//! it, because 32 bits can be made to collide by an edit. A result no run
//! record vouches for (no record, or a latest run that did not read the
//! document) is stale: nothing says which text its offsets point into.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use crate::hash::source_hash;
use crate::lock::Lock;
use crate::results::OathResults;
use crate::workspace::Workspace;

use crate::verdict::current::{self, Latest, OfText, Staleness, Vouched};
use crate::verdict::records::ErrorRecord;
use crate::verdict::run_evidence::RunEvidence;
use crate::verdict::standing::{Against, RunStanding};

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
    /// The oath and the documents its result names, as the latest
    /// readable run read them (by SHA-256: [`crate::verdict::current::RunRead`]).
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
    /// Results of the oath as it is now, that the latest run vouches for.
    Fresh(&'a OathResults),
    /// Results of another version of the oath; the reason names what changed.
    Stale(&'a OathResults, String),
    /// Results no run record says the text of (by SHA-256): they may be of
    /// another version; the reason says which document.
    Unvouched(&'a OathResults, String),
    /// Results of the oath as it is now that the latest run does not vouch
    /// for (issue 34): an earlier run's; the reason is the standing's.
    Earlier(&'a OathResults, String),
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

    /// Judge the evidence against the latest run (`Latest::default()`:
    /// by its text alone), by [`current::drawn`].
    pub fn state(&self, latest: Latest<'_>) -> EvidenceState<'_> {
        match self.drawn(latest) {
            Err(state) => state,
            Ok((results, of_text)) => match of_text.oath() {
                Ok(()) => EvidenceState::Fresh(results),
                Err(why) => EvidenceState::Earlier(results, why),
            },
        }
    }

    /// The results when they are of the text as it is now
    /// ([`current::drawn`]), with what of them the latest run vouches for
    /// (by example, for the editor); else the state that says why not.
    pub fn drawn<'e: 'o, 'l: 'o, 'o>(
        &'e self,
        latest: Latest<'l>,
    ) -> Result<(&'e OathResults, OfText<'o>), EvidenceState<'e>> {
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
            return Err(EvidenceState::Unusable(errors));
        }
        let (Some(results), Ok(_)) = (results, &self.text) else {
            return Err(EvidenceState::Missing);
        };
        match current::drawn(
            latest,
            &self.oath_path,
            results,
            |doc| self.text_of(doc),
            &self.vouched,
        ) {
            Ok(of_text) => Ok((results, of_text)),
            Err(stale) => Err(match stale.why {
                Staleness::Unvouched { .. } => EvidenceState::Unvouched(results, stale.said),
                _ => EvidenceState::Stale(results, stale.said),
            }),
        }
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

impl ProjectEvidence {
    /// The oaths that must have items in the latest run: the selected
    /// oaths whose result of their text as it is now has examples (by the
    /// text alone: whether the run vouches for it is what is being
    /// judged; one that no record of it names by SHA-256 too) or that the
    /// lock records examples of.
    pub fn expected_oaths(&self) -> BTreeSet<String> {
        self.oaths
            .iter()
            .filter(|o| {
                self.baselined.contains(&o.oath_path)
                    || matches!(
                        o.state(Latest::default()),
                        EvidenceState::Fresh(r) | EvidenceState::Unvouched(r, _)
                            if !r.examples.is_empty()
                    )
            })
            .map(|o| o.oath_path.clone())
            .collect()
    }

    /// The project's run standing: what every consumer shows.
    pub fn standing(&self) -> RunStanding {
        self.run.standing(Against {
            expected: &self.expected_oaths(),
            sources: true,
        })
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
pub(crate) mod tests {
    use crate::hash::sha256_hex;
    use crate::results::DocumentHash;

    use super::*;
    use crate::verdict::current::same_text;
    use crate::verdict::records::Code;
    use crate::verdict::testing::vouched;

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
        assert!(matches!(
            e.state(Latest::default()),
            EvidenceState::Fresh(_)
        ));
        let e = evidence("# A changed\n", Some(results(&source_hash(text))));
        match e.state(Latest::default()) {
            EvidenceState::Stale(_, why) => {
                assert!(why.starts_with("`a.md` changed after its run"))
            }
            v => panic!("{v:?}"),
        }
        assert!(matches!(
            evidence(text, None).state(Latest::default()),
            EvidenceState::Missing
        ));
        let mut e = evidence(text, None);
        e.text = Err(ErrorRecord::new(Code::InputError, "x"));
        e.results = Err(ErrorRecord::new(Code::InvalidResult, "y"));
        match e.state(Latest::default()) {
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
        assert!(matches!(
            e.state(Latest::default()),
            EvidenceState::Fresh(_)
        ));
        assert_eq!(e.text_of(Some("shared.md")), Some("shared"));
        e.documents
            .insert("shared.md".into(), DocumentText::Text("edited".into()));
        assert!(
            matches!(e.state(Latest::default()), EvidenceState::Stale(_, why) if why.contains("`shared.md`"))
        );
        e.documents
            .insert("shared.md".into(), DocumentText::Missing);
        assert!(
            matches!(e.state(Latest::default()), EvidenceState::Stale(_, why) if why.ends_with("no longer exists"))
        );
    }

    use crate::verdict::testing::{AFTER, BEFORE};

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
        match e.state(Latest::default()) {
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
        match e.state(Latest::default()) {
            EvidenceState::Unvouched(_, why) => {
                assert!(
                    why.starts_with("no record of the latest run names the text of `a.md`"),
                    "{why}"
                )
            }
            v => panic!("{v:?}"),
        }
        // A record of another sourceHash of the oath vouches for nothing.
        e.vouched = vouched(&[("a.md", "# B\n")]);
        assert!(matches!(
            e.state(Latest::default()),
            EvidenceState::Unvouched(..)
        ));
    }
}
