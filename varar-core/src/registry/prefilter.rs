//! Which steps can match a sentence at all (spec 20 §20.6 step 1, made
//! cheap): every expression's longest required literal (its longest run of
//! top-level text, which every match contains) goes into one Aho–Corasick
//! automaton, so a sentence is read once and only the steps whose literal
//! occurs in it, plus the few expressions without a literal, are scanned.
//! A step left out has no hit in the sentence, so the hits — and with them
//! ambiguity detection, which must see every hit — are exactly the
//! unfiltered scan's (property-tested in `prefilter_tests.rs`).

use aho_corasick::{AhoCorasick, MatchKind};

/// The literal index of a registry's steps.
#[derive(Clone, Debug)]
pub(crate) struct Prefilter {
    /// Over the distinct literals; `None` when no step has one.
    automaton: Option<AhoCorasick>,
    /// Literal id → the steps requiring it, ascending.
    literal_steps: Vec<Vec<usize>>,
    /// Steps without a literal: scanned in every sentence.
    always: Vec<usize>,
    /// How many steps it indexes.
    step_count: usize,
}

impl Prefilter {
    /// The index of steps whose required literals are `literals`, in
    /// registry order.
    pub(crate) fn new<'a>(literals: impl IntoIterator<Item = Option<&'a str>>) -> Prefilter {
        let mut distinct: Vec<&str> = Vec::new();
        let mut literal_steps: Vec<Vec<usize>> = Vec::new();
        let mut always = Vec::new();
        let mut step_count = 0;
        for (step, literal) in literals.into_iter().enumerate() {
            step_count = step + 1;
            match literal {
                Some(l) if !l.is_empty() => match distinct.iter().position(|d| *d == l) {
                    Some(id) => literal_steps[id].push(step),
                    None => {
                        distinct.push(l);
                        literal_steps.push(vec![step]);
                    }
                },
                _ => always.push(step),
            }
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
                    always = (0..step_count).collect();
                    literal_steps.clear();
                    None
                }
            }
        };
        Prefilter {
            automaton,
            literal_steps,
            always,
            step_count,
        }
    }

    /// How many steps it indexes.
    pub(crate) fn step_count(&self) -> usize {
        self.step_count
    }

    /// The steps that may match `sentence`, ascending (registry order),
    /// written into `out`.
    pub(crate) fn steps_for(&self, sentence: &str, out: &mut Vec<usize>) {
        out.clear();
        out.extend_from_slice(&self.always);
        if let Some(automaton) = &self.automaton {
            let mut seen = vec![false; self.literal_steps.len()];
            for m in automaton.find_overlapping_iter(sentence) {
                let id = m.pattern().as_usize();
                if !std::mem::replace(&mut seen[id], true) {
                    out.extend_from_slice(&self.literal_steps[id]);
                }
            }
            out.sort_unstable();
        }
    }
}
