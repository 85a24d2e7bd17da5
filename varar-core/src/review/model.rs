//! What a review lists: the changes of the latest run, each with its id,
//! its kind and what accepting it would do.

use serde::Serialize;

/// The three kinds of change a review offers (issue 37, point 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChangeKind {
    /// A lock example whose paragraph matches no step any more: accepted as
    /// prose by dropping it from the lock.
    Drift,
    /// A compared value (a table cell, an inline parameter) the step
    /// answered differently: accepted by writing the observed value into
    /// the Markdown.
    Value,
    /// A lock example no paragraph re-identifies any more: acknowledged by
    /// dropping it from the lock (when the run left it there).
    Removed,
}

impl ChangeKind {
    /// The kind as the command line and JSON name it.
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeKind::Drift => "drift",
            ChangeKind::Value => "value",
            ChangeKind::Removed => "removed",
        }
    }

    /// The kind named `s` ([`ChangeKind::as_str`]).
    pub fn parse(s: &str) -> Option<ChangeKind> {
        Some(match s {
            "drift" => ChangeKind::Drift,
            "value" => ChangeKind::Value,
            "removed" => ChangeKind::Removed,
            _ => return None,
        })
    }
}

/// The changes of one run to review.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Review {
    /// The run they come from.
    pub run_id: String,
    /// In the run's order: its items' listing order, then its removals.
    pub changes: Vec<Change>,
}

/// One change of the run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Change {
    /// Its stable id: the libtest item name, or [`removed_id`].
    pub id: String,
    /// Its kind.
    pub kind: ChangeKind,
    /// Its oath.
    pub oath_path: String,
    /// Its line: the drifted paragraph's, the failing example's first, the
    /// removed example's as the lock recorded it.
    pub line: i64,
    /// What the run says, in one line.
    pub summary: String,
    /// What accepting it does.
    pub acceptance: Acceptance,
    /// Why it cannot be accepted, when it cannot (the oath changed since
    /// the run, a value with no text span to write to).
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "as_text")]
    pub refused: Option<Refusal>,
}

/// Why a change cannot be accepted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Refusal {
    /// The oath's text now is not the one the run read (SHA-256).
    #[error(
        "`{0}` changed since the run (its SHA-256 is not the one the run recorded): run `cargo \
         test` again, then review"
    )]
    ChangedSinceRun(String),
    /// The run recorded no digest of the oath.
    #[error("the run recorded no digest of `{0}`: run `cargo test` again, then review")]
    NotRecorded(String),
    /// The oath cannot be read now.
    #[error("`{0}` cannot be read now")]
    Unreadable(String),
    /// A compared value without a one-line text span in a paragraph or a
    /// table (a doc string, whose observed value is rendered JSON-quoted).
    #[error(
        "a compared value without a one-line text span (a doc string): edit the Markdown by hand"
    )]
    NoTextSpan,
    /// An observed value that would change the structure of the Markdown
    /// written in place of the expected text (empty, a line break, a `|`).
    #[error(
        "the observed value is empty or holds a line break or a `|`: written there it would \
         change the Markdown's structure; edit it by hand"
    )]
    UnfitValue,
    /// A drift whose message does not name its lock example.
    #[error("its message does not name the lock example (spec 40 §5.4)")]
    Unnamed,
}

impl Refusal {
    /// Whether the refusal is that the oath changed since the run (or that
    /// the run did not record it): `cargo test` again clears it.
    pub fn is_changed(&self) -> bool {
        matches!(
            self,
            Refusal::ChangedSinceRun(_) | Refusal::NotRecorded(_) | Refusal::Unreadable(_)
        )
    }
}

fn as_text<S: serde::Serializer>(refused: &Option<Refusal>, s: S) -> Result<S::Ok, S::Error> {
    match refused {
        Some(r) => s.collect_str(r),
        None => s.serialize_none(),
    }
}

/// What accepting a change does.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "edit", rename_all = "camelCase")]
pub enum Acceptance {
    /// Drop one example from the oath's lock entry (drift, removed).
    #[serde(rename_all = "camelCase")]
    DropFromLock {
        /// The example's name as the lock holds it.
        name: String,
        /// For a drift, the paragraph's line now (of several lock examples
        /// of that name, the nearest goes); for a removal, the line the
        /// lock holds (only that one goes).
        line: i64,
    },
    /// Write observed values over expected texts in the oath.
    WriteValues {
        /// The cells, in document order.
        cells: Vec<ValueCell>,
    },
}

/// One failing compared value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ValueCell {
    /// UTF-16 start offset of the expected text in the oath.
    pub from: u32,
    /// UTF-16 end offset (exclusive).
    pub to: u32,
    /// The expected text, as the oath has it (empty when the oath is not
    /// the run's text any more).
    pub expected: String,
    /// The observed value, as the run rendered it.
    pub actual: String,
}

/// The id of a removed example, which has no libtest item:
/// `<oathPath>::varar:removed:<line>` (the line the lock recorded), shaped
/// like the drift items' names.
pub fn removed_id(oath_path: &str, line: i64) -> String {
    format!("{oath_path}::varar:removed:{line}")
}
