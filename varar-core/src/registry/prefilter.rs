//! Which steps can match a sentence at all (spec 20 §20.6 step 1, made
//! cheap): every run of top-level text of every expression (each is in
//! every match) goes into one Aho–Corasick automaton, so a sentence is read
//! once, and only the steps all of whose literals occur in it, plus the few
//! expressions without a literal, are scanned. Requiring every literal, not
//! only the longest, matters when many steps share their longest one (`
//! loaves of kind 1` in `shelf {int} holds {int} loaves of kind 1` …): issue
//! 21 measured a 5 MB oath scanning a hundred steps per sentence. A step
//! left out has no hit in the sentence, so the hits — and with them
//! ambiguity detection, which must see every hit — are exactly the
//! unfiltered scan's (property-tested in `prefilter_tests.rs`).

use std::collections::HashMap;

use aho_corasick::{AhoCorasick, MatchKind};

/// The literal index of a registry's steps.
#[derive(Clone, Debug)]
pub(crate) struct Prefilter {
    /// Over the distinct literals; `None` when no step has one.
    automaton: Option<AhoCorasick>,
    /// Literal id → the steps requiring it, ascending.
    literal_steps: Vec<Vec<usize>>,
    /// Step → how many distinct literals it requires (0: always scanned).
    needed: Vec<usize>,
    /// Steps without a literal: scanned in every sentence.
    always: Vec<usize>,
}

impl Prefilter {
    /// The index of steps whose required literals are `literals`, in
    /// registry order (each step's list: every literal its matches hold).
    pub(crate) fn new<'a, L>(literals: impl IntoIterator<Item = L>) -> Prefilter
    where
        L: IntoIterator<Item = &'a str>,
    {
        let mut ids: HashMap<&str, usize> = HashMap::new();
        let mut distinct: Vec<&str> = Vec::new();
        let mut literal_steps: Vec<Vec<usize>> = Vec::new();
        let mut needed = Vec::new();
        let mut always = Vec::new();
        for (step, literals) in literals.into_iter().enumerate() {
            let mut own: Vec<usize> = Vec::new();
            for l in literals.into_iter().filter(|l| !l.is_empty()) {
                let id = *ids.entry(l).or_insert_with(|| {
                    distinct.push(l);
                    literal_steps.push(Vec::new());
                    distinct.len() - 1
                });
                if !own.contains(&id) {
                    own.push(id);
                    literal_steps[id].push(step);
                }
            }
            if own.is_empty() {
                always.push(step);
            }
            needed.push(own.len());
        }
        let automaton = if distinct.is_empty() {
            None
        } else {
            // Standard semantics report every occurrence, overlapping ones
            // included, so no literal hides another. Building can only fail
            // past size limits far beyond any registry; then nothing is
            // filtered out.
            match AhoCorasick::builder()
                .match_kind(MatchKind::Standard)
                .build(&distinct)
            {
                Ok(a) => Some(a),
                Err(_) => {
                    always = (0..needed.len()).collect();
                    literal_steps.clear();
                    None
                }
            }
        };
        Prefilter {
            automaton,
            literal_steps,
            needed,
            always,
        }
    }

    /// How many steps it indexes.
    pub(crate) fn step_count(&self) -> usize {
        self.needed.len()
    }

    /// The steps that may match `sentence`, ascending (registry order),
    /// written into `out`: those whose every literal occurs in it, and
    /// those without one.
    pub(crate) fn steps_for(&self, sentence: &str, out: &mut Vec<usize>) {
        out.clear();
        out.extend_from_slice(&self.always);
        if let Some(automaton) = &self.automaton {
            let mut seen = vec![false; self.literal_steps.len()];
            // How many of each step's literals were seen (a step requires
            // at most as many distinct literals as its expression has runs
            // of text, far below `u16::MAX`).
            let mut found = vec![0u16; self.needed.len()];
            for m in automaton.find_overlapping_iter(sentence) {
                let id = m.pattern().as_usize();
                if !std::mem::replace(&mut seen[id], true) {
                    for &step in &self.literal_steps[id] {
                        found[step] = found[step].saturating_add(1);
                        if usize::from(found[step]) == self.needed[step] {
                            out.push(step);
                        }
                    }
                }
            }
            out.sort_unstable();
        }
    }
}
