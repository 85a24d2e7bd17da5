//! What drift detection compares and reports (spec 40 §5.3–5.4).

use crate::lock::LockExample;
use crate::source::Span;

/// What drift detection needs to know of one candidate of the current text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CandidateInfo {
    /// Its example name (spec 40 §0): always made for a live candidate. A
    /// dead one's is made only when asked for ([`Naming::Every`]): only
    /// re-identifying a baseline that no longer reads as recorded reads
    /// it, and naming every paragraph of prose was most of a first run's
    /// drift work (issue 39). `None`: not made.
    ///
    /// [`Naming::Every`]: super::Naming::Every
    pub name: Option<String>,
    /// 1-based start line of its primary block.
    pub line: u32,
    /// Its whole span (primary block and attachments).
    pub span: Span,
    /// Whether a planned example overlaps it.
    pub live: bool,
    /// Whether it holds an ambiguous sentence: it is dead because two steps
    /// match, which its own diagnostic item reports, so it is never also
    /// drift (issue 10).
    pub ambiguous: bool,
    /// Whether it is consumed (a link elsewhere names its section, spec 70
    /// §70.2.2) and, planned alone, still has a step: it now runs where it
    /// is referenced, so a baseline entry that re-identifies onto it is not
    /// drift (spec 70 §70.6.5). Such a candidate is never live.
    pub runs_elsewhere: bool,
}

/// One baseline example that now re-identifies onto a dead candidate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Drift {
    /// The name stored in the baseline (reported verbatim).
    pub name: String,
    /// The current line of the candidate it re-identified onto.
    pub line: u32,
    /// The span of that candidate.
    pub span: Span,
}

/// What one oath's lock entry and its current candidates say, from one
/// re-identification pass ([`compare_baseline`](super::compare_baseline)).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BaselineChanges {
    /// The lock's examples that re-identify onto a dead candidate, in
    /// stored order (spec 40 §5.1).
    pub drifts: Vec<Drift>,
    /// Whether a lock example re-identifies onto a candidate that is dead
    /// because it is ambiguous: the entry is then kept as it was.
    pub held: bool,
    /// The lock's examples no candidate re-identifies (no J ≥ 0.5, spec 40
    /// §5.2: deleted or rewritten past recognition), as the lock stores
    /// them (old name, old line), in stored order. Not drift: the next lock
    /// drops them; this is what says so.
    pub removed: Vec<LockExample>,
    /// The examples (live candidates) no lock example re-identifies onto,
    /// as a fresh entry records them, in document order.
    pub added: Vec<LockExample>,
}

impl Drift {
    /// The two-line message of spec 40 §5.4.
    pub fn message(&self) -> String {
        drift_message(&self.name)
    }

    /// The §5.4 message plus the harness's third line
    /// ([`HARNESS_DRIFT_HINT`]).
    pub fn harness_message(&self) -> String {
        format!("{}\n{HARNESS_DRIFT_HINT}", self.message())
    }
}

/// The message of spec 40 §5.4 for a baseline name.
pub fn drift_message(name: &str) -> String {
    format!(
        "This paragraph was an example and no longer matches any step (drift): \"{name}\".\n\
         Fix the step so it matches again, or accept it as prose (run in update mode)."
    )
}

/// The third line the `cargo test` harness appends to [`drift_message`].
pub const HARNESS_DRIFT_HINT: &str =
    "Accept it with VARAR_UPDATE=1 cargo test, then commit varar.lock.json.";
