//! What matching one text block gives, kept by a caller between plans
//! (issue 39: an editor re-plans a 5 MB oath on every keystroke, and a
//! keystroke changes one block).
//!
//! Matching a block (spec 20 §20.6, §20.7 step 1: split it into sentences,
//! scan every step worth scanning in each, resolve the hits) depends only
//! on the block's text and the registry: its offsets are in the block
//! text, not in the document. [`TextMatch`] (in `matching`) is that outcome, and
//! [`MatchMemo`] is the seam through which a caller that plans again and
//! again (the language server) hands back what it kept of an earlier plan.
//! The engine keeps nothing: the memo, its bound and its lifetime are the
//! caller's.

use std::sync::Arc;

use super::matching::{Matcher, RawHit, TextMatch};
use crate::registry::Registry;

/// What a caller kept of earlier plans, by block text: planning asks it
/// before matching a block and hands it every block it matched. A memo
/// must answer only with what it was handed for the same text **and the
/// same registry** (a caller whose steps change starts a new one, or
/// forgets): then a plan made with it is exactly the plan made without.
/// It may forget anything at any time (that is how it stays bounded).
/// It is shared by the threads that plan one long oath's halves.
pub trait MatchMemo: Sync {
    /// What was kept for `text`, if anything.
    fn get(&self, text: &str) -> Option<Arc<TextMatch>>;
    /// Keep (or not) what matching `text` gave.
    fn put(&self, text: &str, found: &Arc<TextMatch>);
}

/// The registry, asking a memo before it matches a block.
pub(crate) struct Memoised<'a> {
    pub registry: &'a Registry,
    pub memo: &'a dyn MatchMemo,
}

impl Matcher for Memoised<'_> {
    fn step_count(&self) -> usize {
        Matcher::step_count(self.registry)
    }
    fn steps_for(&self, sentence: &str, out: &mut Vec<usize>) {
        Matcher::steps_for(self.registry, sentence, out);
    }
    fn may_match_in(&self, text: &str) -> bool {
        Matcher::may_match_in(self.registry, text)
    }
    fn scan(&self, step: usize, sentence: &str) -> Vec<RawHit> {
        Matcher::scan(self.registry, step, sentence)
    }
    fn expression(&self, step: usize) -> &str {
        Matcher::expression(self.registry, step)
    }
    fn shared_expression(&self, step: usize) -> Arc<str> {
        Matcher::shared_expression(self.registry, step)
    }
    fn location(&self, step: usize) -> (&str, u32) {
        Matcher::location(self.registry, step)
    }
    fn remembered(&self, text: &str) -> Option<Arc<TextMatch>> {
        self.memo.get(text)
    }
    fn remember(&self, text: &str, found: &Arc<TextMatch>) {
        self.memo.put(text, found);
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::sync::{Arc, Mutex};

    use super::{MatchMemo, TextMatch};
    use crate::planned::{Against, plan_with_drift, plan_with_drift_memo};
    use crate::registry::{Registry, Role, StepSpec, Trailing};
    use crate::sentences::split_sentences;
    use crate::workspace::Workspace;

    /// Keeps everything, and counts what it was asked for and answered.
    #[derive(Default)]
    struct Everything {
        kept: Mutex<HashMap<String, Arc<TextMatch>>>,
        answered: Mutex<usize>,
    }

    impl MatchMemo for Everything {
        fn get(&self, text: &str) -> Option<Arc<TextMatch>> {
            let found = self.kept.lock().unwrap().get(text).cloned();
            *self.answered.lock().unwrap() += usize::from(found.is_some());
            found
        }
        fn put(&self, text: &str, found: &Arc<TextMatch>) {
            self.kept
                .lock()
                .unwrap()
                .insert(text.to_owned(), Arc::clone(found));
        }
    }

    fn registry() -> Registry {
        let step =
            |e: &str, line| StepSpec::new(e, Role::Stimulus, "steps.rs", line, Trailing::None);
        Registry::build(
            Vec::new(),
            vec![
                step("I add {int}", 1),
                step("I add {int} twice", 2),
                step("the total is {int}", 3),
                step("I remove {word}", 4),
                step("I remove {int}", 5),
            ],
        )
        .unwrap()
    }

    #[test]
    fn a_memoised_plan_is_the_plan_and_answers_unchanged_blocks() {
        let registry = registry();
        let memo = Everything::default();
        let texts = [
            "# Till\n\nI add 2. The total is 2.\n\nI add 3 twice.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nI remove 3 now.\n",
            // A sentence edited, a block now ambiguous, a heading added.
            "# Till\n\nI add 2. The total is 4.\n\n## More\n\nI add 3 twice.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nI remove 3 now.\n",
            "# Till\n\nI add 2. The total is 4.\n\n## More\n\nI add 3 twice.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nI remove 3 now.\n",
        ];
        for text in texts {
            let ws = Workspace::build([("varar/a.md", text)]);
            let document = ws.document("varar/a.md").unwrap();
            let fresh = plan_with_drift(&ws, document, &registry, Against::default());
            let (memoised, matched) =
                plan_with_drift_memo(&ws, document, &registry, Against::default(), &memo);
            assert_eq!(matched.len(), document.doc().examples.len());
            for (found, candidate) in matched.iter().zip(&document.doc().examples) {
                let found = found.as_ref().unwrap();
                let split = split_sentences(&candidate.body.text.text);
                let split: Vec<(&str, u32)> =
                    split.iter().map(|s| (s.text.as_str(), s.start)).collect();
                assert_eq!(found.sentences().collect::<Vec<_>>(), split);
            }
            assert_eq!(memoised, fresh);
            assert!(
                !fresh.plan.diagnostics.is_empty(),
                "the ambiguity is planned"
            );
        }
        // The third text is the second: every block was answered.
        assert!(*memo.answered.lock().unwrap() >= 4);
    }
}
