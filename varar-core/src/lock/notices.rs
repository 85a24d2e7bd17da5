//! What a run says of the lock beyond the spec's two pruning notices
//! (issue 37: nothing silently stops being checked): each example the lock
//! lists that no paragraph re-identifies any more (spec 40 §5.2, "remove +
//! add", which the next lock drops), and, under `VARAR_UPDATE`, what the
//! recorded lock accepted. The texts are the harness's; names and paths
//! are bounded and escaped for a terminal here, once.

use super::model::{LOCK_FILE_NAME, LockExample};
use crate::env::VARAR_UPDATE;
use crate::untrusted::{cut_to, terminal_line};

/// The most bytes of an example's name a notice shows (the rest is cut,
/// with its note): a paragraph can be as long as the oath.
pub const SHOWN_NAME: usize = 240;

/// How many examples of each kind the update summary names; the others are
/// counted.
pub const SUMMARY_NAMES: usize = 20;

/// `"name"`, cut to [`SHOWN_NAME`] bytes and escaped for a terminal on one
/// line.
pub fn shown_name(name: &str) -> String {
    format!("\"{}\"", terminal_line(&cut_to(name, SHOWN_NAME)))
}

/// The notice for an example of the lock that no paragraph of `oath_path`
/// re-identifies any more: where it was (its old line), its old text, why
/// nothing checks it now, and what to do.
///
/// ```
/// use varar_core::lock::{LockExample, removed_notice};
///
/// let gone = LockExample { name: "A loaf costs 3 pounds".into(), line: 7 };
/// assert_eq!(
///     removed_notice("varar/bakery.md", &gone),
///     "varar: removed example varar/bakery.md:7: \"A loaf costs 3 pounds\": varar.lock.json \
///      lists it, but no paragraph matches it any more (deleted, or reworded past \
///      recognition), so nothing checks it now; restore it, or commit varar.lock.json to \
///      acknowledge the removal"
/// );
/// ```
pub fn removed_notice(oath_path: &str, example: &LockExample) -> String {
    format!(
        "varar: removed example {}:{}: {}",
        terminal_line(oath_path),
        example.line,
        removed_message(&example.name)
    )
}

/// What [`removed_notice`] says of the example named `name` after its
/// place, which `cargo varar check` says too: its old text, why nothing
/// checks it now, and what to do.
pub fn removed_message(name: &str) -> String {
    format!(
        "{}: {LOCK_FILE_NAME} lists it, but no paragraph matches it any more (deleted, or \
         reworded past recognition), so nothing checks it now; restore it, or commit \
         {LOCK_FILE_NAME} to acknowledge the removal",
        shown_name(name)
    )
}

/// What a run under `VARAR_UPDATE` recorded in the lock, by oath: each
/// `(oathPath, example)` in discovery order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UpdateSummary {
    /// Drift accepted as prose: the name the lock recorded, on the line of
    /// the paragraph it re-identified onto.
    pub accepted: Vec<(String, LockExample)>,
    /// Examples the lock did not list, now recorded.
    pub added: Vec<(String, LockExample)>,
    /// Examples the lock listed that no paragraph re-identifies: dropped,
    /// at their old line.
    pub removed: Vec<(String, LockExample)>,
    /// Oaths the globs no longer match, pruned from the lock.
    pub pruned: Vec<String>,
}

impl UpdateSummary {
    /// The summary's lines: one with the four counts, then one per named
    /// example and pruned oath (at most [`SUMMARY_NAMES`] of each kind).
    ///
    /// ```
    /// use varar_core::lock::{LockExample, UpdateSummary};
    ///
    /// let summary = UpdateSummary {
    ///     removed: vec![("a.md".into(), LockExample { name: "I add 2".into(), line: 3 })],
    ///     ..UpdateSummary::default()
    /// };
    /// assert_eq!(
    ///     summary.lines(),
    ///     [
    ///         "varar: VARAR_UPDATE recorded varar.lock.json: 0 drifts accepted as prose, \
    ///          0 examples added, 1 example removed, 0 oaths pruned",
    ///         "varar:   removed a.md:3: \"I add 2\"",
    ///     ]
    /// );
    /// ```
    pub fn lines(&self) -> Vec<String> {
        let mut lines = vec![format!(
            "varar: {VARAR_UPDATE} recorded {LOCK_FILE_NAME}: {} accepted as prose, {} added, {} \
             removed, {} pruned",
            count(self.accepted.len(), "drift"),
            count(self.added.len(), "example"),
            count(self.removed.len(), "example"),
            count(self.pruned.len(), "oath"),
        )];
        let kinds = [
            ("accepted as prose", &self.accepted),
            ("added", &self.added),
            ("removed", &self.removed),
        ];
        for (word, list) in kinds {
            for (path, example) in list.iter().take(SUMMARY_NAMES) {
                lines.push(format!(
                    "varar:   {word} {}:{}: {}",
                    terminal_line(path),
                    example.line,
                    shown_name(&example.name)
                ));
            }
            more(&mut lines, word, list.len());
        }
        for path in self.pruned.iter().take(SUMMARY_NAMES) {
            lines.push(format!("varar:   pruned {}", terminal_line(path)));
        }
        more(&mut lines, "pruned", self.pruned.len());
        lines
    }
}

/// `1 drift`, `2 drifts`.
fn count(n: usize, what: &str) -> String {
    let mut out = format!("{n} {what}");
    if n != 1 {
        out.push('s');
    }
    out
}

/// `… and N more added` when a list was longer than [`SUMMARY_NAMES`].
fn more(lines: &mut Vec<String>, word: &str, len: usize) {
    if len > SUMMARY_NAMES {
        lines.push(format!(
            "varar:   … and {} more {word}",
            len - SUMMARY_NAMES
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example(name: &str, line: i64) -> LockExample {
        LockExample {
            name: name.into(),
            line,
        }
    }

    #[test]
    fn issue37_a_removed_name_is_bounded_and_escaped_on_one_line() {
        let long = format!("I add {}\u{1b}[2J\nnext", "9".repeat(1000));
        let notice = removed_notice("a.md", &example(&long, 4));
        assert!(notice.len() < 600, "{notice}");
        assert!(
            !notice.contains('\n') && !notice.contains('\u{1b}'),
            "{notice}"
        );
        assert!(notice.contains("bytes cut]"), "{notice}");
        let short = removed_notice("a.md", &example("x\u{1b}y", 4));
        assert!(short.contains("\"x\\u{001B}y\""), "{short}");
    }

    #[test]
    fn issue37_the_summary_names_each_kind_and_counts_the_rest() {
        let many: Vec<(String, LockExample)> = (0..25)
            .map(|i| ("b.md".to_owned(), example(&format!("e{i}"), i)))
            .collect();
        let summary = UpdateSummary {
            accepted: vec![("a.md".into(), example("The answer is 42", 3))],
            added: many,
            removed: Vec::new(),
            pruned: vec!["gone.md".into()],
        };
        let lines = summary.lines();
        assert_eq!(
            lines[0],
            "varar: VARAR_UPDATE recorded varar.lock.json: 1 drift accepted as prose, 25 examples \
             added, 0 examples removed, 1 oath pruned"
        );
        assert_eq!(
            lines[1],
            "varar:   accepted as prose a.md:3: \"The answer is 42\""
        );
        assert_eq!(lines[2], "varar:   added b.md:0: \"e0\"");
        assert_eq!(lines[22], "varar:   … and 5 more added");
        assert_eq!(lines[23], "varar:   pruned gone.md");
        assert_eq!(lines.len(), 24);
    }
}
