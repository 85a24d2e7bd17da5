//! Whether a result is drawn as current (pure; issue 34): the one rule
//! that `gate`, `junit`, `report` and the language server share (STYLE
//! §2.2, §2.9), so that none of them draws, counts or passes a result
//! another would call stale or an earlier run's.
//!
//! A result file, or one example of it, is **current** (its failures
//! placed on the text, its counts today's) only when both hold:
//!
//! - **it is of the text as it is now** ([`same_text`]): for the oath and
//!   for every document a version-2 result names, the `sourceHash` it
//!   records is the text's (the format's contract), and so is the SHA-256
//!   that the latest readable run recorded when it read the document
//!   ([`RunRead`]), because 32 bits can be made to collide by an edit. A
//!   document that run did not read, or read with two digests, is vouched
//!   for by no record: the result is stale ([`Staleness::Unvouched`]), as
//!   is every result of a project with no run record at all;
//! - **the latest run vouches for it** ([`RunStanding::draws_oath`],
//!   [`RunStanding::draws_example`]): the run is complete, or, when it is
//!   incomplete or stale, the example's item ended in it (the oath as a
//!   whole only when every item of it in the run ended and none it planned
//!   was left). A filtered run (one example, one oath) therefore vouches
//!   for what it ran and nothing else: the other results in `.varar/`
//!   were written by earlier runs and are shown as such, never as the
//!   latest run's, because the gate judges the latest run and every
//!   consumer must judge the same one.
//!
//! The text is checked first: a result not of the text now draws nothing
//! (its offsets could point at the wrong words); one of the text that the
//! latest run does not vouch for is an **earlier run's**, shown as such
//! with the standing's headline.
//!
//! [`drawn`] is the rule; `evidence::OathEvidence::state` applies it for
//! `gate` and `junit` (which judge only a run whose standing vouches for
//! every result, and list an earlier run's results as what their files
//! hold beside the standing's problems), the report and the language
//! server (by example) call it directly. The digests come from the latest
//! readable run ([`RunRead::of`]), which the standing judges.

use std::collections::{BTreeMap, BTreeSet};

use crate::hash::{sha256_hex, source_hash};
use crate::record::{DocumentDigest, RunRecord};
use crate::results::{ExampleResult, OathResults};

use crate::verdict::standing::RunStanding;

/// The digests of some documents as the latest readable run read them,
/// by path: a document without one is vouched for by no record.
pub type Vouched = BTreeMap<String, DocumentDigest>;

/// What one run read, by SHA-256, indexed once: the texts it vouches for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunRead {
    /// Each document the run's processes read, with its digest; a path
    /// they read with different digests (the file changed during the run)
    /// is left out.
    read: BTreeMap<String, DocumentDigest>,
}

impl RunRead {
    /// What `run` read (nothing when there is no run).
    pub fn of(run: Option<&RunRecord>) -> RunRead {
        let mut read: BTreeMap<String, DocumentDigest> = BTreeMap::new();
        let mut conflicting = BTreeSet::new();
        for d in run
            .into_iter()
            .flat_map(|r| &r.processes)
            .flat_map(|p| &p.manifest.documents)
        {
            match read.get(&d.path) {
                Some(seen) if seen != d => {
                    conflicting.insert(d.path.clone());
                }
                Some(_) => {}
                None => {
                    read.insert(d.path.clone(), d.clone());
                }
            }
        }
        for path in conflicting {
            read.remove(&path);
        }
        RunRead { read }
    }

    /// The digests of `paths` (an oath and the documents its result
    /// names) as the run read them.
    pub fn vouched<'p>(&self, paths: impl IntoIterator<Item = &'p str>) -> Vouched {
        paths
            .into_iter()
            .filter_map(|p| self.read.get(p).map(|d| (p.to_owned(), d.clone())))
            .collect()
    }
}

/// The latest run as the gate reads it: its standing (`None`: not read,
/// and only the text decides) and the run it judges.
#[derive(Clone, Copy, Debug, Default)]
pub struct Latest<'a> {
    /// The standing.
    pub standing: Option<&'a RunStanding>,
    /// The run, when the standing names it.
    pub run: Option<&'a RunRecord>,
}

/// A result of the text as it is now: which of it the latest run vouches
/// for (see [`drawn`]).
#[derive(Clone, Copy, Debug)]
pub struct OfText<'a> {
    latest: Latest<'a>,
    oath_path: &'a str,
}

impl OfText<'_> {
    /// Whether the whole result is current; else why it is an earlier
    /// run's (the standing's headline).
    pub fn oath(&self) -> Result<(), String> {
        match self.latest.standing {
            Some(s) if !s.draws_oath(self.oath_path) => Err(s.headline()),
            _ => Ok(()),
        }
    }

    /// Whether the result of `example` is current; else why it is an
    /// earlier run's.
    pub fn example(&self, example: &ExampleResult) -> Result<(), String> {
        match self.latest.standing {
            Some(s) if !s.draws_example(self.latest.run, self.oath_path, example) => {
                Err(s.headline())
            }
            _ => Ok(()),
        }
    }
}

/// The one rule (see the module docs): whether `results`, the result file
/// of `oath_path`, is of the text as it is now (`text_of(None)` is the
/// oath's text now, `text_of(Some(path))` a document's, `None` when it is
/// gone), by its `sourceHash` and the SHA-256 in `vouched`; if so, what of
/// it the latest run vouches for.
pub fn drawn<'a, 't>(
    latest: Latest<'a>,
    oath_path: &'a str,
    results: &OathResults,
    text_of: impl Fn(Option<&str>) -> Option<&'t str>,
    vouched: &Vouched,
) -> Result<OfText<'a>, Stale> {
    same_text(oath_path, &results.source_hash, text_of(None), vouched).map_err(|why| Stale {
        said: why.to_string(),
        why,
    })?;
    for doc in &results.documents {
        same_text(
            &doc.path,
            &doc.source_hash,
            text_of(Some(&doc.path)),
            vouched,
        )
        .map_err(|why| Stale {
            said: format!("its examples use `{}`: {why}", doc.path),
            why,
        })?;
    }
    Ok(OfText { latest, oath_path })
}

/// Why a result is not of the text as it is now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stale {
    /// Why, of which document.
    pub why: Staleness,
    /// In a line, naming the document when it is not the oath.
    pub said: String,
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
        /// What the latest run recorded when it read it.
        recorded: String,
        /// The text's now.
        now: String,
    },
    /// No record of the latest run says which text the result was made
    /// from (no record at all, or a run that did not read the document).
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
                "no record of the latest run names the text of `{path}` by SHA-256 (there is no \
                 run record, or that run did not read it): nothing says which text the result \
                 was made from; run the tests again to record it"
            ),
        }
    }
}

/// Whether `text_now` (`None`: the document is gone) is the text of
/// `path` that a result recorded with `recorded` (its `sourceHash`) was
/// made from: the same `sourceHash`, and the SHA-256 that the latest run
/// recorded when it read it (`vouched`, with that same `sourceHash`). The
/// text half of [`crate::verdict::current::drawn`], which every consumer draws
/// by (see the module docs).
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

#[cfg(test)]
mod tests;
