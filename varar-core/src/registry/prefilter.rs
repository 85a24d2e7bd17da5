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
//! unfiltered scan's (property-tested in `plan/tests/prefilter.rs`).
//! Before the automaton, a table of first trigrams (of each step's longest
//! literal) turns away the sentences, most prose, that no step can match.
//!
//! The automaton is built only once [`AUTOMATON_AFTER`] sentences have
//! asked: before that the literals are looked for by the pair of bytes
//! each starts with. Building it costs what a few hundred sentences cost
//! to look through so, and a `cargo nextest` process plans one oath.
//! Unoptimised (the dev profile), it is never built: there the automaton
//! costs a few hundred instructions a byte, more than the pairs at any
//! length of run.

use std::collections::HashMap;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};

/// How many sentences are looked through by pairs before the automaton is
/// built (optimised builds only).
pub(crate) const AUTOMATON_AFTER: usize = 256;

/// The literal index of a registry's steps.
#[derive(Debug)]
pub(crate) struct Prefilter {
    /// The distinct literals, by id.
    literals: Vec<String>,
    /// Over the distinct literals, built on first use past `after`
    /// sentences; `None` when it could not be built (then every step is
    /// scanned).
    automaton: OnceLock<Option<AhoCorasick>>,
    /// Sentences asked about so far, and how many may be before the
    /// automaton is built.
    asked: AtomicUsize,
    after: usize,
    /// Literal id → the steps requiring it, ascending.
    literal_steps: Vec<Vec<usize>>,
    /// Step → how many distinct literals it requires (0: always scanned).
    needed: Vec<usize>,
    /// Steps without a literal: scanned in every sentence.
    always: Vec<usize>,
    /// The first three bytes (after leading spaces) of each step's longest
    /// literal. A sentence holding none of them holds no step's every
    /// literal, and the automaton is not run over it. `None` when such a
    /// literal is shorter than that.
    signatures: Option<Signatures>,
    /// The distinct literals by their first two bytes, what a sentence is
    /// looked through with before the automaton is built.
    pairs: PairIndex,
}

/// The distinct literals by the pair of bytes each starts with: a
/// sentence is read a pair at a time, and only the literals starting with
/// that pair are compared there. Exactly `str::contains` of each literal,
/// without setting a searcher up for each (dear in an unoptimised build,
/// where the automaton costs a few hundred instructions a byte too).
#[derive(Clone, Debug)]
struct PairIndex {
    /// By first byte: 1 + the index in `rows` of the literals starting so;
    /// 0 when none does. Two levels, not one table of every pair: the
    /// table was 256 KiB held by every run, for the few dozen first bytes
    /// a registry's literals start with (issue 39).
    firsts: Box<[u16; 256]>,
    /// By second byte, for one first byte: 1 + the index in `lists` of the
    /// literals starting with the pair; 0 when none does.
    rows: Vec<[u32; 256]>,
    /// Literal ids, by starting pair.
    lists: Vec<Vec<usize>>,
    /// The literals of one byte: that byte, and the id.
    single: Vec<(u8, usize)>,
}

impl PairIndex {
    fn new(literals: &[&str]) -> PairIndex {
        let mut index = PairIndex {
            firsts: Box::new([0; 256]),
            rows: Vec::new(),
            lists: Vec::new(),
            single: Vec::new(),
        };
        for (id, literal) in literals.iter().enumerate() {
            match *literal.as_bytes() {
                [] => {}
                [byte] => index.single.push((byte, id)),
                [a, b, ..] => {
                    let row = &mut index.firsts[usize::from(a)];
                    if *row == 0 {
                        index.rows.push([0; 256]);
                        // At most 256 rows: one per first byte.
                        *row = index.rows.len() as u16;
                    }
                    let slot = &mut index.rows[*row as usize - 1][usize::from(b)];
                    if *slot == 0 {
                        index.lists.push(Vec::new());
                        *slot = index.lists.len() as u32;
                    }
                    index.lists[*slot as usize - 1].push(id);
                }
            }
        }
        index
    }

    /// Set `seen[id]` for each of `literals` (by id) that occurs in
    /// `sentence`.
    fn mark(&self, literals: &[String], sentence: &str, seen: &mut [bool]) {
        let b = sentence.as_bytes();
        for &(byte, id) in &self.single {
            seen[id] = b.contains(&byte);
        }
        // Slices, not vectors: indexing a `Vec` is a call unoptimised.
        let (firsts, rows): (&[u16; 256], &[[u32; 256]]) = (&self.firsts, &self.rows);
        if rows.is_empty() {
            return;
        }
        let mut i = 0;
        while i + 1 < b.len() {
            let row = firsts[b[i] as usize];
            let slot = match row {
                0 => 0,
                row => rows[row as usize - 1][b[i + 1] as usize],
            };
            if slot != 0 {
                for &id in &self.lists[slot as usize - 1] {
                    if !seen[id] && b[i..].starts_with(literals[id].as_bytes()) {
                        seen[id] = true;
                    }
                }
            }
            i += 1;
        }
    }
}

/// The trigrams every step's longest literal starts with: a flag per pair
/// of their first two bytes, read first, and a bit per hashed trigram.
#[derive(Clone, Debug)]
struct Signatures {
    /// Indexed by `first << 8 | second`.
    pairs: Vec<bool>,
    bits: Vec<u64>,
}

impl Clone for Prefilter {
    fn clone(&self) -> Self {
        Prefilter {
            literals: self.literals.clone(),
            automaton: self.automaton.clone(),
            asked: AtomicUsize::new(self.asked.load(Ordering::Relaxed)),
            after: self.after,
            literal_steps: self.literal_steps.clone(),
            needed: self.needed.clone(),
            always: self.always.clone(),
            signatures: self.signatures.clone(),
            pairs: self.pairs.clone(),
        }
    }
}

/// Bits of the signature table.
const SIGNATURE_BITS: usize = 1 << 16;

/// The table slot of the trigram `a b c`.
fn trigram(a: u8, b: u8, c: u8) -> usize {
    (usize::from(a) * 961 + usize::from(b) * 31 + usize::from(c)) % SIGNATURE_BITS
}

/// The signature table of `literals` (one per step with a literal), or
/// `None` when one of them has no trigram after its leading spaces.
fn signatures(literals: &[&str]) -> Option<Signatures> {
    let mut pairs = vec![false; 1 << 16];
    let mut bits = vec![0u64; SIGNATURE_BITS / 64];
    for literal in literals {
        let b = literal.trim_start_matches(' ').as_bytes();
        if b.len() < 3 {
            return None;
        }
        pairs[usize::from(b[0]) << 8 | usize::from(b[1])] = true;
        let slot = trigram(b[0], b[1], b[2]);
        bits[slot / 64] |= 1 << (slot % 64);
    }
    Some(Signatures { pairs, bits })
}

/// Whether `sentence` holds a signed trigram: false means it holds none
/// of the literals. A plain index loop, quick even unoptimised (where the
/// automaton costs a few hundred instructions a byte): a byte read and one
/// look at the pair it ends for most bytes (`as`, not `usize::from`,
/// which would be a call each), the trigram's hash only after a signed
/// pair.
fn may_hold_literal(signatures: &Signatures, sentence: &str) -> bool {
    // Slices, not vectors: indexing a `Vec` is a call (two) unoptimised.
    let (pairs, bits): (&[bool], &[u64]) = (&signatures.pairs, &signatures.bits);
    let b = sentence.as_bytes();
    if b.len() < 3 {
        return false;
    }
    let mut pair = b[0] as usize;
    let mut i = 1;
    while i + 1 < b.len() {
        pair = (pair << 8 & 0xff00) | b[i] as usize;
        if pairs[pair] {
            let slot =
                ((pair >> 8) * 961 + (pair & 0xff) * 31 + b[i + 1] as usize) % SIGNATURE_BITS;
            if bits[slot / 64] & (1 << (slot % 64)) != 0 {
                return true;
            }
        }
        i += 1;
    }
    false
}

impl Prefilter {
    /// The index of steps whose required literals are `literals`, in
    /// registry order (each step's list: every literal its matches hold).
    pub(crate) fn new<'a, L>(literals: impl IntoIterator<Item = L>) -> Prefilter
    where
        L: IntoIterator<Item = &'a str>,
    {
        // Unoptimised (where debug assertions are on, as in the dev
        // profile), the pairs are quicker than the automaton at any length
        // of run: it is never built.
        let after = if cfg!(debug_assertions) {
            usize::MAX
        } else {
            AUTOMATON_AFTER
        };
        Prefilter::building_after(literals, after)
    }

    /// [`Prefilter::new`] whose automaton is built once `after` sentences
    /// have been looked through without it.
    pub(crate) fn building_after<'a, L>(
        literals: impl IntoIterator<Item = L>,
        after: usize,
    ) -> Prefilter
    where
        L: IntoIterator<Item = &'a str>,
    {
        let mut ids: HashMap<&str, usize> = HashMap::new();
        let mut distinct: Vec<&str> = Vec::new();
        let mut literal_steps: Vec<Vec<usize>> = Vec::new();
        let mut needed = Vec::new();
        let mut always = Vec::new();
        let mut longest: Vec<&str> = Vec::new();
        for (step, literals) in literals.into_iter().enumerate() {
            let mut own: Vec<usize> = Vec::new();
            let mut own_longest: &str = "";
            for l in literals.into_iter().filter(|l| !l.is_empty()) {
                if l.len() > own_longest.len() {
                    own_longest = l;
                }
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
            } else {
                longest.push(own_longest);
            }
            needed.push(own.len());
        }
        let signatures = if distinct.is_empty() {
            None
        } else {
            signatures(&longest)
        };
        Prefilter {
            pairs: PairIndex::new(&distinct),
            literals: distinct.iter().map(|l| (*l).to_owned()).collect(),
            automaton: OnceLock::new(),
            asked: AtomicUsize::new(0),
            after,
            literal_steps,
            needed,
            always,
            signatures,
        }
    }

    /// Whether the automaton has been built.
    #[cfg(test)]
    pub(crate) fn has_automaton(&self) -> bool {
        self.automaton.get().is_some()
    }

    /// The automaton over the distinct literals (`None`: it could not be
    /// built).
    fn automaton(&self) -> Option<&AhoCorasick> {
        self.automaton
            .get_or_init(|| {
                // Standard semantics report every occurrence, overlapping
                // ones included, so no literal hides another. Building can
                // only fail past size limits far beyond any registry; then
                // nothing is filtered out. Unoptimised, the plain automaton:
                // a DFA is quicker per byte but costs more to build than
                // every sentence of a run takes to read, and each process
                // builds it again. Optimised (where debug assertions are
                // off, as in the release profile), the DFA's build is a few
                // microseconds and its search several times quicker.
                let kind = if cfg!(debug_assertions) {
                    AhoCorasickKind::NoncontiguousNFA
                } else {
                    AhoCorasickKind::DFA
                };
                AhoCorasick::builder()
                    .match_kind(MatchKind::Standard)
                    .kind(Some(kind))
                    .build(&self.literals)
                    .ok()
            })
            .as_ref()
    }

    /// How many steps it indexes.
    pub(crate) fn step_count(&self) -> usize {
        self.needed.len()
    }

    /// Whether any sentence of `text` (each a part of it) may match a step:
    /// false only when no step is without a literal and `text` holds none
    /// of the trigrams every step's longest literal starts with, so its
    /// sentences need not be split out to be turned away one by one (a
    /// paragraph of prose is read once).
    pub(crate) fn may_match_in(&self, text: &str) -> bool {
        if !self.always.is_empty() {
            return true;
        }
        match &self.signatures {
            Some(signatures) => may_hold_literal(signatures, text),
            // No step at all: nothing can match.
            None if self.needed.is_empty() => false,
            None => true,
        }
    }

    /// The steps that may match `sentence`, ascending (registry order),
    /// written into `out`: those whose every literal occurs in it, and
    /// those without one.
    pub(crate) fn steps_for(&self, sentence: &str, out: &mut Vec<usize>) {
        out.clear();
        if self.literals.is_empty() {
            out.extend_from_slice(&self.always);
            return;
        }
        if self
            .signatures
            .as_ref()
            .is_some_and(|signatures| !may_hold_literal(signatures, sentence))
        {
            out.extend_from_slice(&self.always);
            return;
        }
        let mut seen = vec![false; self.literals.len()];
        if self.asked.fetch_add(1, Ordering::Relaxed) < self.after {
            self.pairs.mark(&self.literals, sentence, &mut seen);
        } else {
            let Some(automaton) = self.automaton() else {
                out.extend(0..self.needed.len());
                return;
            };
            for m in automaton.find_overlapping_iter(sentence) {
                seen[m.pattern().as_usize()] = true;
            }
        }
        out.extend_from_slice(&self.always);
        // How many of each step's literals were seen (a step requires at
        // most as many distinct literals as its expression has runs of
        // text, far below `u16::MAX`).
        let mut found = vec![0u16; self.needed.len()];
        for (id, _) in seen.iter().enumerate().filter(|(_, s)| **s) {
            for &step in &self.literal_steps[id] {
                found[step] = found[step].saturating_add(1);
                if usize::from(found[step]) == self.needed[step] {
                    out.push(step);
                }
            }
        }
        out.sort_unstable();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pairs_find_each_literal_as_contains_does() {
        let literals = ["a", "aa", "aab", " deposits ", "de", "é", "😀x", "b"];
        let owned: Vec<String> = literals.iter().map(|l| (*l).to_owned()).collect();
        let index = PairIndex::new(&literals);
        for sentence in ["", "a", "aaab", "Ada deposits 5", "dé😀x", "bb", "d"] {
            let mut seen = vec![false; literals.len()];
            index.mark(&owned, sentence, &mut seen);
            let want: Vec<bool> = literals.iter().map(|l| sentence.contains(l)).collect();
            assert_eq!(seen, want, "{sentence:?}");
        }
    }
}
