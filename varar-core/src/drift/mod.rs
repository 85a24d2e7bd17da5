//! Drift detection (spec 40 §5): a candidate the baseline recorded as an
//! example that no longer matches any step. Baseline entries are
//! re-identified among the oath's current candidates by the Jaccard
//! similarity of their word tokens; a re-identified candidate that is dead is
//! drift; an entry no candidate re-identifies is a removed example
//! ([`compare_baseline`]: "remove + add", §5.2, named so that nothing stops
//! being checked without a word, issue 37). Also computes the candidates' names, lines and liveness (§0) and the
//! fresh lock entry (§4.2) from a document and its plan. Pure.

mod candidates;
mod detect;
mod index;
mod model;
mod similarity;
#[cfg(test)]
mod tests;

pub use candidates::{
    Naming, apply_consumed, candidates, candidates_naming, fresh_entry, into_fresh_entry,
    name_every, oath_candidates,
};
pub use detect::{compare_baseline, detect_drift, held_by_ambiguity};
pub use model::{BaselineChanges, CandidateInfo, Drift, HARNESS_DRIFT_HINT, drift_message};
