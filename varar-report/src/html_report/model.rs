//! What the report is made of and what it says (pure): the project's
//! inputs, the site's files, and each oath's freshness, counts and summary.

use varar_core::lock::Lock;
use varar_core::record::RunRecord;
use varar_core::results::OathResults;

use super::html::State;
use varar_core::verdict::current::Vouched;
use varar_core::verdict::flaky::FlakyItem;
use varar_core::verdict::standing::RunStanding;

/// Everything the report is made of.
#[derive(Debug, Default)]
pub struct ProjectInput {
    /// A name for the project (its directory name), shown in titles.
    pub name: String,
    /// Every oath the config selects, in discovery order.
    pub oaths: Vec<OathInput>,
    /// The drift baseline, when it could be read; it tells which
    /// paragraphs are examples that did not run.
    pub lock: Option<Lock>,
    /// The latest run (issue 19), when the project records one: its drift
    /// and diagnostic items are drawn on the pages of the documents it read
    /// as they are now, and its recovered examples are marked.
    pub run: Option<RunRecord>,
    /// Every item's outcomes over the kept runs of its oath as it is now
    /// (issue 20, [`varar_core::verdict::flaky::strips`]): each example's strip.
    pub history: Vec<FlakyItem>,
    /// The latest run's standing, as the gate reads it (issue 34): stated
    /// at the top of the index, and with the texts the judge of which
    /// results are drawn as current ([`varar_core::verdict::current::drawn`]: an
    /// oath's results that the latest run does not vouch for are shown as
    /// an earlier run's). `None`: no standing was read, and the texts alone
    /// decide.
    pub standing: Option<RunStanding>,
}

/// One selected oath.
#[derive(Debug)]
pub struct OathInput {
    /// Its oathPath.
    pub oath_path: String,
    /// Its text, or why it could not be read.
    pub text: Result<String, String>,
    /// Its run results.
    pub results: ResultsInput,
    /// The oath and the documents its results name, as the latest
    /// readable run read them (by SHA-256, [`varar_core::verdict::current::RunRead`]):
    /// results of a text no record names are stale
    /// ([`varar_core::verdict::current::drawn`]).
    pub vouched: Vouched,
}

/// What `.varar/` holds for an oath.
#[derive(Debug)]
pub enum ResultsInput {
    /// No result file: nothing ran.
    Missing,
    /// A result file written by a newer results format, treated as absent
    /// (seed 000's stability policy), and why.
    NewerFormat(String),
    /// A result file the strict reader refused, and why (path and reason).
    Unreadable(String),
    /// A result file, read.
    Read(OathResults),
}

/// One file of the site.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SiteFile {
    /// `/`-separated path under the output directory.
    pub path: String,
    /// The content.
    pub contents: String,
}

/// The whole site.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Site {
    /// Every file, `index.html` first.
    pub files: Vec<SiteFile>,
}

/// How an oath's results relate to its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Freshness {
    /// The oath could not be read.
    NoText,
    /// No result file.
    NoResults,
    /// A result file of a newer format, treated as absent; why.
    NewerFormat(String),
    /// No result file, and none is needed: every step of the oath runs
    /// inside the oaths that link to its sections (spec 70 §70.4.5).
    Linked,
    /// A result file the reader refused.
    Unreadable(String),
    /// Results of another version of the text, or of a text no run
    /// record vouches for.
    Stale {
        /// Why, in a sentence ([`varar_core::verdict::current::Staleness`]).
        why: String,
    },
    /// Results of this very text, that the latest run does not vouch for
    /// (issue 34): it did not run the oath to its end, or it cannot be
    /// judged; why, in one line.
    Earlier(String),
    /// Results of this very text.
    Fresh,
}

/// Counts of one oath or of the whole project.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Examples that passed.
    pub passed: usize,
    /// Examples that failed.
    pub failed: usize,
    /// Example paragraphs of the fresh baseline with no result (`None`:
    /// unknown, because the baseline or the results do not fit the text).
    pub not_run: Option<usize>,
    /// Examples that passed after an earlier attempt failed (issue 19).
    pub recovered: usize,
    /// Drift and diagnostic items of the latest run drawn on the page that
    /// failed.
    pub items_failed: usize,
    /// Examples with mixed outcomes over the kept runs (issue 20).
    pub flaky: usize,
}

/// What the index says about one oath.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OathSummary {
    /// Its oathPath.
    pub oath_path: String,
    /// Its first heading, else its path.
    pub title: String,
    /// How its results relate to it.
    pub freshness: Freshness,
    /// Its counts.
    pub counts: Counts,
    /// Its overall state.
    pub state: State,
    /// The state in words.
    pub status: &'static str,
    /// Its flaky examples: each one's name and outcomes.
    pub flaky: Vec<(String, FlakyItem)>,
}
