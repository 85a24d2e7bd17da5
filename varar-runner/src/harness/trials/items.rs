//! The items of a run as the record sees them (issue 19): each trial's
//! name, kind, oath and line, and how it ended, written down by the trial
//! itself when it finishes.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::harness::run::libtest::Trialish;
use varar_core::names::ItemKind;
use varar_core::record::Outcome;
use varar_core::untrusted::cut_string;

/// What the record says of an item before it runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ItemMeta {
    /// Its full name, shared with its trial and the watchdog.
    pub name: Arc<str>,
    /// Its kind.
    pub kind: ItemKind,
    /// Its oath (document, unreadable path), shared by the oath's items.
    pub oath_path: Arc<str>,
    /// Its line.
    pub line: u32,
}

/// How a trial ended.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Finished {
    pub outcome: Outcome,
    pub duration_ms: f64,
    /// Plain text: why it failed.
    pub message: Option<String>,
}

/// How the trials that finished ended, by trial index: a slot for each
/// index from the lowest to the highest that ended, filled as each ends (a
/// map's insert walked its tree, a few percent of a debug run of thousands
/// of items). A process that runs one item of thousands (every nextest
/// process) holds one slot, not one for each item before it.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Finishes {
    /// The index of `slots[0]`.
    first: usize,
    slots: Vec<Option<Finished>>,
}

impl Finishes {
    /// How trial `index` ended, if it did.
    pub(crate) fn get(&self, index: usize) -> Option<&Finished> {
        let at = index.checked_sub(self.first)?;
        self.slots.get(at).and_then(Option::as_ref)
    }

    /// Trial `index` ended as `finished`.
    fn set(&mut self, index: usize, finished: Finished) {
        if self.slots.is_empty() {
            self.first = index;
        } else if index < self.first {
            // Trials end about in their order: only the first few of a
            // parallel run come before an index already here.
            let before = self.first - index;
            self.slots
                .splice(0..0, std::iter::repeat_with(|| None).take(before));
            self.first = index;
        }
        let at = index - self.first;
        if at >= self.slots.len() {
            self.slots.resize_with(at + 1, || None);
        }
        self.slots[at] = Some(finished);
    }
}

/// What the trials of this process report, by trial index.
#[derive(Debug, Default)]
pub(crate) struct RunLog {
    finished: Mutex<Finishes>,
}

impl RunLog {
    fn finish(&self, index: usize, finished: Finished) {
        // A poisoned lock only means another trial panicked mid-insert.
        let mut log = self.finished.lock().unwrap_or_else(|e| e.into_inner());
        log.set(index, finished);
    }

    /// How each trial that finished ended, by trial index, taken out of
    /// the log at once (the record reads it once, at the end, and a lock
    /// and a copy an item cost a second for 180 000 of them, unoptimised).
    pub(crate) fn take(&self) -> Finishes {
        let mut log = self.finished.lock().unwrap_or_else(|e| e.into_inner());
        std::mem::take(&mut *log)
    }
}

/// The trials of a run and what the record knows of each, index for index.
#[derive(Default)]
pub(crate) struct Items {
    /// The trials, in listing order.
    pub trials: Vec<Trialish>,
    /// Each trial's metadata.
    pub meta: Vec<ItemMeta>,
    /// Where they report.
    pub log: Arc<RunLog>,
}

/// What a trial's body gives: `Err` holds the text libtest prints and the
/// plain message the record keeps.
pub(crate) type Ended = Result<(), (String, Option<String>)>;

impl Items {
    /// Room for `more` items, so that thousands of them are not copied
    /// as the lists grow.
    pub(crate) fn reserve(&mut self, more: usize) {
        self.trials.reserve_exact(more);
        self.meta.reserve_exact(more);
    }

    /// Add a trial whose `body` runs the item (boxed once, with what
    /// reports its end: a box each was two for every item of the run).
    pub(crate) fn push(&mut self, meta: ItemMeta, body: impl FnOnce() -> Ended + Send + 'static) {
        let index = self.trials.len();
        let log = Arc::clone(&self.log);
        let runner = Box::new(move || {
            let start = Instant::now();
            let result = body();
            // Kept to the microsecond: finer is noise, and a whole number
            // of thousandths is written without the float formatter.
            let micros = u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX);
            let duration_ms = micros as f64 / 1000.0;
            let (outcome, message, failed) = match result {
                Ok(()) => (Outcome::Passed, None, None),
                // The record keeps the plain text cut, as the result
                // file does (issue 34).
                Err((text, plain)) => (Outcome::Failed, plain.map(cut_string), Some(text)),
            };
            log.finish(
                index,
                Finished {
                    outcome,
                    duration_ms,
                    message,
                },
            );
            match failed {
                None => Ok(()),
                Some(text) => Err(text),
            }
        });
        let trial = Trialish {
            name: meta.name.clone(),
            runner,
        };
        self.trials.push(trial);
        self.meta.push(meta);
    }

    /// Add an item that always fails with `message` (drift, diagnostics,
    /// read errors); `plain` is the message without colour.
    pub(crate) fn push_failing(&mut self, meta: ItemMeta, message: String, plain: String) {
        self.push(meta, move || Err((message, Some(plain))));
    }
}

impl Items {
    /// Move the trials out for libtest, keeping those whose item `keep`
    /// accepts, with their indices; the metadata and the log stay.
    pub(crate) fn take_trials(
        &mut self,
        keep: impl Fn(&ItemMeta) -> bool,
    ) -> (Vec<Trialish>, Vec<usize>) {
        // Kept in place: a second list of every trial was held, beside the
        // first, at the run's peak (issue 39).
        let mut trials = std::mem::take(&mut self.trials);
        let mut indices = Vec::with_capacity(trials.len());
        let mut i = 0;
        trials.retain(|_| {
            let kept = self.meta.get(i).is_some_and(&keep);
            if kept {
                indices.push(i);
            }
            i += 1;
            kept
        });
        (trials, indices)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ended(outcome: Outcome) -> Finished {
        Finished {
            outcome,
            duration_ms: 0.5,
            message: None,
        }
    }

    #[test]
    fn trials_are_logged_by_index_in_any_order_and_taken_at_once() {
        let log = RunLog::default();
        log.finish(3, ended(Outcome::Failed));
        log.finish(0, ended(Outcome::Passed));
        log.finish(5, ended(Outcome::Passed));
        let finished = log.take();
        assert_eq!(finished.get(3), Some(&ended(Outcome::Failed)));
        assert_eq!(finished.get(0), Some(&ended(Outcome::Passed)));
        assert_eq!(finished.get(5), Some(&ended(Outcome::Passed)));
        // Never ended, or no such trial.
        for index in [1, 2, 4, 6, 7] {
            assert_eq!(finished.get(index), None, "{index}");
        }
        assert_eq!(log.take(), Finishes::default());
    }

    #[test]
    fn one_item_of_thousands_takes_one_slot() {
        let log = RunLog::default();
        log.finish(179_999, ended(Outcome::Passed));
        let finished = log.take();
        assert_eq!(finished.slots.len(), 1);
        assert_eq!(finished.get(179_999), Some(&ended(Outcome::Passed)));
        assert_eq!((finished.get(0), finished.get(179_998)), (None, None));
        // And a few ending before it, in reverse.
        let log = RunLog::default();
        for index in (10..14).rev() {
            log.finish(index, ended(Outcome::Failed));
        }
        let finished = log.take();
        assert_eq!(finished.slots.len(), 4);
        assert!((10..14).all(|i| finished.get(i) == Some(&ended(Outcome::Failed))));
        assert_eq!((finished.get(9), finished.get(14)), (None, None));
    }
}
