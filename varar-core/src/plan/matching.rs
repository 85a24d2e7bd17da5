//! Matching one text block (spec 20 §20.6 steps 3–4, §20.7 step 1): the raw
//! hits of every sentence are resolved (sorted, checked for ties, selected
//! greedily) and moved from byte offsets in the sentence to UTF-16 offsets in
//! the block text.

use std::sync::Arc;

use super::split::SplitSentence;
use crate::source::utf16_len;
use varar_expression::ArgValue;

/// What planning needs from a set of step definitions. Implemented by the
/// registry; tests implement it with hand-made hits.
pub(crate) trait Matcher {
    /// Number of step definitions, in registry order.
    fn step_count(&self) -> usize;
    /// The steps worth scanning in `sentence`, ascending, into `out`: every
    /// step that has a hit in it must be there (others may be). All steps
    /// unless the matcher has a prefilter.
    fn steps_for(&self, sentence: &str, out: &mut Vec<usize>) {
        let _ = sentence;
        out.clear();
        out.extend(0..self.step_count());
    }
    /// Whether any part of `text` may hold a hit: false promises that no
    /// sentence cut from it has one (so it need not be split). True unless
    /// the matcher has a prefilter.
    fn may_match_in(&self, text: &str) -> bool {
        let _ = text;
        true
    }
    /// The raw hits of step `step` in `sentence` (§20.6 steps 1–2), with
    /// byte offsets into `sentence`.
    fn scan(&self, step: usize, sentence: &str) -> Vec<RawHit>;
    /// The expression as written.
    fn expression(&self, step: usize) -> &str;
    /// The same, shared: what each planned step keeps.
    fn shared_expression(&self, step: usize) -> std::sync::Arc<str> {
        std::sync::Arc::from(self.expression(step))
    }
    /// Where the step definition is: file and line.
    fn location(&self, step: usize) -> (&str, u32);
    /// What matching the block `text` gave before, if this matcher keeps
    /// it (a caller's [`super::MatchMemo`]); none by default.
    fn remembered(&self, text: &str) -> Option<std::sync::Arc<TextMatch>> {
        let _ = text;
        None
    }
    /// What matching the block `text` gave, to keep if this matcher keeps
    /// anything; nothing by default.
    fn remember(&self, text: &str, found: &std::sync::Arc<TextMatch>) {
        let _ = (text, found);
    }
}

/// One match of one expression in one sentence, byte offsets into the sentence.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct RawHit {
    /// Index of the step definition in registry order.
    pub step: usize,
    /// Byte offset of the match start.
    pub start: usize,
    /// Byte offset just past the match.
    pub end: usize,
    /// `None` when the anchored re-match failed (no args, no param spans).
    pub params: Option<Vec<RawParam>>,
}

/// One parameter of a raw hit: the expression module's own record (byte
/// offsets into the sentence).
pub(crate) type RawParam = varar_expression::ParamHit;

/// A sentence of a block: its text and UTF-16 start offset in the block text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SentenceRef<'a> {
    /// The sentence text (a substring of the block text).
    pub text: &'a str,
    /// UTF-16 offset of the sentence start in the block text.
    pub start: u32,
}

/// A selected hit, UTF-16 offsets into the block text.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct BlockHit {
    /// Index of the step definition.
    pub step: usize,
    /// The matched text (shared with the planned steps lifted from it).
    pub text: Arc<str>,
    /// Match start in the block text.
    pub start: u32,
    /// Match end in the block text.
    pub end: u32,
    /// Parameters; `None` when the re-match failed.
    pub params: Option<Vec<BlockParam>>,
}

/// A parameter of a selected hit, UTF-16 offsets into the block text.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct BlockParam {
    /// Whole notation start.
    pub start: u32,
    /// Whole notation end.
    pub end: u32,
    /// Highlighted part start.
    pub inner_start: u32,
    /// Highlighted part end.
    pub inner_end: u32,
    /// The parameter type name.
    pub type_name: Arc<str>,
    /// The block text under `start..end`: a planned step's raw text when
    /// its source reads the same there (shared, not copied per plan).
    pub raw: Arc<str>,
    /// The transformed value (shared with the planned steps).
    pub value: Arc<ArgValue>,
}

/// A text block matched: its sentences as planning cuts them and the hits
/// of its steps, resolved, in the block text's own offsets. Opaque; what a
/// [`super::MatchMemo`] keeps.
#[derive(Clone, Debug, PartialEq)]
pub struct TextMatch {
    pub(crate) sentences: Vec<SplitSentence>,
    pub(crate) matched: BlockMatch,
}

impl TextMatch {
    /// Match `text` afresh: split it with `split`, then match and resolve
    /// each sentence against `matcher`.
    pub(crate) fn of(
        text: &str,
        matcher: &dyn Matcher,
        split: &dyn Fn(&str) -> Vec<SplitSentence>,
    ) -> TextMatch {
        let sentences = split(text);
        let matched = match_block(&TextMatch::refs_of(&sentences), matcher);
        TextMatch { sentences, matched }
    }

    /// The sentences, as matching reads them.
    pub(crate) fn refs(&self) -> Vec<SentenceRef<'_>> {
        TextMatch::refs_of(&self.sentences)
    }

    fn refs_of(sentences: &[SplitSentence]) -> Vec<SentenceRef<'_>> {
        sentences
            .iter()
            .map(|(text, start)| SentenceRef {
                text: text.as_str(),
                start: *start,
            })
            .collect()
    }

    /// The block's sentences (spec 10 §8): each one's text, terminator
    /// included, and its UTF-16 start in the block text, in order. The
    /// same as [`crate::sentences::split_sentences`] gives.
    pub fn sentences(&self) -> impl ExactSizeIterator<Item = (&str, u32)> {
        self.sentences.iter().map(|(t, s)| (t.as_str(), *s))
    }

    /// About how many bytes it holds (its strings, its vectors' items):
    /// what a memo counts to stay within its bound.
    pub fn weight(&self) -> usize {
        let sentences: usize = self
            .sentences
            .iter()
            .map(|(t, _)| t.len() + size_of::<SplitSentence>())
            .sum();
        let hits: usize = self
            .matched
            .hits
            .iter()
            .map(|h| {
                h.text.len()
                    + size_of_val(h)
                    // A parameter's value is at most about the text it
                    // was read from.
                    + h.params.as_ref().map_or(0, |p| {
                        p.len() * size_of::<BlockParam>() + h.text.len()
                    })
            })
            .sum();
        let collisions: usize = self
            .matched
            .collisions
            .iter()
            .map(|c| c.text.len() + size_of_val(c) + c.steps.len() * size_of::<usize>())
            .sum();
        size_of::<TextMatch>() + sentences + hits + collisions
    }
}

/// Two or more hits on exactly the same range (§20.6 step 3).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Collision {
    /// The tied text.
    pub text: String,
    /// Range start in the block text.
    pub start: u32,
    /// Range end in the block text.
    pub end: u32,
    /// The tied step definitions, in registry order.
    pub steps: Vec<usize>,
}

/// The outcome of matching a whole text block (§20.7 step 1).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct BlockMatch {
    /// Selected hits in sentence order; empty when any sentence was ambiguous.
    pub hits: Vec<BlockHit>,
    /// Every collision of every sentence, in sentence then range order.
    pub collisions: Vec<Collision>,
}

impl BlockMatch {
    /// Whether any sentence of the block was ambiguous.
    pub fn is_ambiguous(&self) -> bool {
        !self.collisions.is_empty()
    }
}

/// The resolution of one sentence, still in sentence byte offsets.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Resolved {
    /// Hits kept by the greedy selection, in text order.
    Selected(Vec<RawHit>),
    /// Tied ranges `(start, end, steps)`, ascending; the sentence yields no step.
    Ambiguous(Vec<(usize, usize, Vec<usize>)>),
}

/// Resolve the raw hits of one sentence (§20.6 step 3).
pub(crate) fn resolve(mut hits: Vec<RawHit>) -> Resolved {
    // Hits arrive in registry order; the stable sort keeps it among ties.
    hits.sort_by(|a, b| {
        a.start
            .cmp(&b.start)
            .then_with(|| (b.end - b.start).cmp(&(a.end - a.start)))
    });
    // Ties are looked for among all hits, including those a longer or
    // earlier hit would hide; after the sort, equal ranges are adjacent.
    let mut collisions: Vec<(usize, usize, Vec<usize>)> = Vec::new();
    let mut i = 0;
    while i < hits.len() {
        let mut j = i + 1;
        while j < hits.len() && hits[j].start == hits[i].start && hits[j].end == hits[i].end {
            j += 1;
        }
        if j - i > 1 {
            let steps = hits[i..j].iter().map(|h| h.step).collect();
            collisions.push((hits[i].start, hits[i].end, steps));
        }
        i = j;
    }
    if !collisions.is_empty() {
        collisions.sort_by_key(|&(s, e, _)| (s, e));
        return Resolved::Ambiguous(collisions);
    }
    let mut cursor: Option<usize> = None;
    let mut kept = Vec::new();
    for hit in hits {
        if cursor.is_none_or(|c| hit.start >= c) {
            cursor = Some(hit.end);
            kept.push(hit);
        }
    }
    Resolved::Selected(kept)
}

/// Match every sentence of a block and resolve each (§20.6, §20.7 step 1).
pub(crate) fn match_block(sentences: &[SentenceRef<'_>], matcher: &dyn Matcher) -> BlockMatch {
    let mut out = BlockMatch::default();
    let mut steps = Vec::new();
    for sentence in sentences {
        matcher.steps_for(sentence.text, &mut steps);
        let mut raw = Vec::new();
        for &step in &steps {
            raw.extend(matcher.scan(step, sentence.text));
        }
        match resolve(raw) {
            Resolved::Selected(hits) => {
                out.hits
                    .extend(hits.into_iter().map(|h| to_block_hit(sentence, h)));
            }
            Resolved::Ambiguous(ties) => {
                out.collisions
                    .extend(ties.into_iter().map(|(s, e, steps)| Collision {
                        text: slice(sentence.text, s, e).to_string(),
                        start: shift(sentence, s),
                        end: shift(sentence, e),
                        steps,
                    }));
            }
        }
    }
    if out.is_ambiguous() {
        // One ambiguous sentence takes every step of the block with it.
        out.hits.clear();
    }
    out
}

fn to_block_hit(sentence: &SentenceRef<'_>, hit: RawHit) -> BlockHit {
    BlockHit {
        step: hit.step,
        text: Arc::from(slice(sentence.text, hit.start, hit.end)),
        start: shift(sentence, hit.start),
        end: shift(sentence, hit.end),
        params: hit.params.map(|ps| {
            ps.into_iter()
                .map(|p| BlockParam {
                    start: shift(sentence, p.start),
                    end: shift(sentence, p.end),
                    inner_start: shift(sentence, p.inner_start),
                    inner_end: shift(sentence, p.inner_end),
                    type_name: p.type_name,
                    raw: Arc::from(slice(sentence.text, p.start, p.end)),
                    value: Arc::new(p.value),
                })
                .collect()
        }),
    }
}

/// The byte range of a sentence, clamped to char boundaries.
fn slice(text: &str, start: usize, end: usize) -> &str {
    let s = floor_boundary(text, start);
    let e = floor_boundary(text, end).max(s);
    &text[s..e]
}

/// A sentence byte offset as a UTF-16 offset into the block text (§20.6 step 4).
fn shift(sentence: &SentenceRef<'_>, byte: usize) -> u32 {
    let b = floor_boundary(sentence.text, byte);
    sentence.start + utf16_len(&sentence.text[..b])
}

fn floor_boundary(text: &str, byte: usize) -> usize {
    let mut b = byte.min(text.len());
    while !text.is_char_boundary(b) {
        b -= 1;
    }
    b
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A matcher from fixed substrings: each step hits every occurrence of
    /// its literal, like an expression without parameters.
    pub(crate) struct Literals(pub Vec<&'static str>);

    impl Matcher for Literals {
        fn step_count(&self) -> usize {
            self.0.len()
        }
        fn scan(&self, step: usize, sentence: &str) -> Vec<RawHit> {
            let lit = self.0[step];
            sentence
                .match_indices(lit)
                .map(|(s, m)| hit(step, s, s + m.len()))
                .collect()
        }
        fn expression(&self, step: usize) -> &str {
            self.0[step]
        }
        fn location(&self, step: usize) -> (&str, u32) {
            ("lit.steps.rs", step as u32 + 1)
        }
    }

    pub(crate) fn hit(step: usize, start: usize, end: usize) -> RawHit {
        RawHit {
            step,
            start,
            end,
            params: Some(Vec::new()),
        }
    }

    fn ranges(r: &Resolved) -> Vec<(usize, usize, usize)> {
        match r {
            Resolved::Selected(h) => h.iter().map(|h| (h.step, h.start, h.end)).collect(),
            Resolved::Ambiguous(_) => panic!("unexpected ambiguity: {r:?}"),
        }
    }

    #[test]
    fn longest_hit_wins_at_one_start() {
        // `I have {int} cukes` (step 1) beats `I have {int}` (step 0).
        let r = resolve(vec![hit(0, 0, 8), hit(1, 0, 14)]);
        assert_eq!(ranges(&r), vec![(1, 0, 14)]);
    }

    #[test]
    fn earliest_overlapping_hit_wins() {
        // `alpha beta` beats `beta gamma` in `alpha beta gamma.`.
        let r = resolve(vec![hit(0, 6, 16), hit(1, 0, 10)]);
        assert_eq!(ranges(&r), vec![(1, 0, 10)]);
    }

    #[test]
    fn non_overlapping_hits_all_survive_in_text_order() {
        let r = resolve(vec![hit(0, 11, 16), hit(1, 0, 5)]);
        assert_eq!(ranges(&r), vec![(1, 0, 5), (0, 11, 16)]);
    }

    #[test]
    fn touching_hits_both_survive() {
        let r = resolve(vec![hit(0, 0, 3), hit(1, 3, 6)]);
        assert_eq!(ranges(&r), vec![(0, 0, 3), (1, 3, 6)]);
    }

    #[test]
    fn empty_hits_survive_after_a_hit_ending_there() {
        // `{}` against `abc.` gives [0,4) and [4,4).
        let r = resolve(vec![hit(0, 0, 4), hit(0, 4, 4)]);
        assert_eq!(ranges(&r), vec![(0, 0, 4), (0, 4, 4)]);
    }

    #[test]
    fn same_range_is_ambiguous_in_registry_order() {
        let r = resolve(vec![hit(0, 0, 14), hit(1, 0, 14)]);
        assert_eq!(r, Resolved::Ambiguous(vec![(0, 14, vec![0, 1])]));
    }

    #[test]
    fn hidden_collision_is_still_ambiguous() {
        // `I have {int} cukes today` covers [0,20); `cukes` and `cu{word}`
        // tie on [9,14) underneath it.
        let r = resolve(vec![hit(0, 0, 20), hit(1, 9, 14), hit(2, 9, 14)]);
        assert_eq!(r, Resolved::Ambiguous(vec![(9, 14, vec![1, 2])]));
    }

    #[test]
    fn several_collisions_are_reported_ascending() {
        let r = resolve(vec![hit(0, 5, 9), hit(1, 0, 3), hit(2, 5, 9), hit(3, 0, 3)]);
        assert_eq!(
            r,
            Resolved::Ambiguous(vec![(0, 3, vec![1, 3]), (5, 9, vec![0, 2])])
        );
    }

    #[test]
    fn no_hits_select_nothing() {
        assert_eq!(resolve(Vec::new()), Resolved::Selected(Vec::new()));
    }

    #[test]
    fn offsets_move_to_utf16_block_offsets() {
        // Bundle 11: `I greet "😀wörld".` starts the block; the hit [0,17)
        // in UTF-16 is [0,20) in bytes (😀 is 4 bytes, ö is 2).
        let text = "I greet \"😀wörld\".";
        let sentence = SentenceRef { text, start: 0 };
        let raw = RawHit {
            step: 0,
            start: 0,
            end: 20,
            params: Some(vec![RawParam {
                start: 8,
                end: 20,
                inner_start: 9,
                inner_end: 19,
                type_name: "string".into(),
                value: ArgValue::Text("😀wörld".into()),
            }]),
        };
        let h = to_block_hit(&sentence, raw);
        assert_eq!((h.start, h.end), (0, 17));
        assert_eq!(&*h.text, "I greet \"😀wörld\"");
        let p = &h.params.as_ref().unwrap()[0];
        assert_eq!((p.start, p.end, p.inner_start, p.inner_end), (8, 17, 9, 16));
    }

    #[test]
    fn second_sentence_offsets_are_shifted_by_its_start() {
        let sentences = [
            SentenceRef {
                text: "alpha.",
                start: 0,
            },
            SentenceRef {
                text: "beta gamma.",
                start: 7,
            },
        ];
        let m = match_block(&sentences, &Literals(vec!["gamma", "alpha"]));
        let got: Vec<_> = m.hits.iter().map(|h| (h.step, h.start, h.end)).collect();
        assert_eq!(got, vec![(1, 0, 5), (0, 12, 17)]);
        assert!(!m.is_ambiguous());
    }

    #[test]
    fn one_ambiguous_sentence_drops_every_step_of_the_block() {
        let sentences = [
            SentenceRef {
                text: "alpha.",
                start: 0,
            },
            SentenceRef {
                text: "I have 5 cukes.",
                start: 7,
            },
        ];
        let m = match_block(&sentences, &Literals(vec!["alpha", "5 cukes", "5 cukes"]));
        assert!(m.hits.is_empty());
        assert_eq!(
            m.collisions,
            vec![Collision {
                text: "5 cukes".into(),
                start: 14,
                end: 21,
                steps: vec![1, 2],
            }]
        );
    }
}
