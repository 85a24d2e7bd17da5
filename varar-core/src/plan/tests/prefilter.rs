//! The literal prefilter never changes which hits exist (spec 20 §20.6):
//! matching with it equals matching every step against every sentence, on
//! random registries and sentences, ambiguities included.

use proptest::prelude::*;
use proptest::test_runner::Config;

use super::matching::{BlockMatch, Matcher, RawHit, SentenceRef, match_block};
use crate::registry::{Prefilter, Registry, Role, StepSpec, Trailing};

/// The registry with the default `steps_for`: every step, every sentence.
struct Unfiltered<'a>(&'a Registry);

impl Matcher for Unfiltered<'_> {
    fn step_count(&self) -> usize {
        self.0.step_count()
    }
    fn scan(&self, step: usize, sentence: &str) -> Vec<RawHit> {
        self.0.scan(step, sentence)
    }
    fn expression(&self, step: usize) -> &str {
        self.0.expression(step)
    }
    fn location(&self, step: usize) -> (&str, u32) {
        self.0.location(step)
    }
}

/// Expression pieces: literal words (shared with the sentences), parameters,
/// optionals, alternations, escapes and an expression that matches empty.
const PIECES: &[&str] = &[
    "I",
    "have",
    "cukes",
    "cu",
    "a",
    "b",
    " ",
    " ",
    "{int}",
    "{word}",
    "{string}",
    "{}",
    "(s)",
    "big/small",
    "\\(x\\)",
    "é",
    "😀",
];

/// Sentence pieces, so that literals occur, overlap and repeat.
const WORDS: &[&str] = &[
    "I", "have", "5", "cukes", "cu", "a", "b", "ab", " ", " ", "\"q\"", "big", "small", "(x)", "é",
    "😀", "s", ".",
];

fn registry(expressions: &[String]) -> Option<Registry> {
    let mut seen = std::collections::HashSet::new();
    let specs: Vec<StepSpec> = expressions
        .iter()
        .filter(|e| seen.insert(e.as_str()))
        .enumerate()
        .map(|(i, e)| StepSpec {
            expression: e.as_str().into(),
            role: Role::Stimulus,
            file: "p.steps.rs".into(),
            line: i as u32 + 1,
            trailing: Trailing::None,
        })
        .collect();
    // Invalid expressions (e.g. a lone optional) are not the point here.
    let valid: Vec<StepSpec> = specs
        .into_iter()
        .filter(|s| Registry::build(Vec::new(), vec![s.clone()]).is_ok())
        .collect();
    Registry::build(Vec::new(), valid).ok()
}

fn block(sentences: &[String], matcher: &dyn Matcher) -> BlockMatch {
    let mut start = 0;
    let refs: Vec<SentenceRef<'_>> = sentences
        .iter()
        .map(|text| {
            let r = SentenceRef { text, start };
            start += text.encode_utf16().count() as u32 + 1;
            r
        })
        .collect();
    match_block(&refs, matcher)
}

proptest! {
    #![proptest_config(Config { cases: 300, ..Config::default() })]

    #[test]
    fn prefiltered_matching_equals_the_full_scan(
        expressions in prop::collection::vec(
            prop::collection::vec(prop::sample::select(PIECES), 1..5).prop_map(|p| p.concat()),
            1..8,
        ),
        sentences in prop::collection::vec(
            prop::collection::vec(prop::sample::select(WORDS), 0..10).prop_map(|w| w.concat()),
            1..4,
        ),
    ) {
        let Some(registry) = registry(&expressions) else {
            return Ok(());
        };
        prop_assert_eq!(block(&sentences, &registry), block(&sentences, &Unfiltered(&registry)));
    }
}

#[test]
fn steps_without_their_literal_are_skipped_and_those_without_one_never_are() {
    let prefilter = Prefilter::new([vec!["deposits"], vec![], vec!["is"], vec!["deposits"]]);
    let mut out = Vec::new();
    prefilter.steps_for("Ada deposits 5", &mut out);
    assert_eq!(out, [0, 1, 3]);
    prefilter.steps_for("this is it", &mut out);
    assert_eq!(out, [1, 2]);
    prefilter.steps_for("", &mut out);
    assert_eq!(out, [1]);
}

#[test]
fn issue21_a_step_is_scanned_only_where_every_one_of_its_literals_occurs() {
    // A hundred steps sharing their longest literal: only the one whose
    // other literal occurs too is scanned.
    let steps: Vec<Vec<String>> = (0..100)
        .map(|f| vec![format!("shelf {f} holds "), " loaves of kind 1".to_owned()])
        .collect();
    let prefilter = Prefilter::new(steps.iter().map(|l| l.iter().map(String::as_str)));
    let mut out = Vec::new();
    prefilter.steps_for("Now shelf 17 holds 3 loaves of kind 1.", &mut out);
    assert_eq!(out, [17]);
    prefilter.steps_for("Now shelf 17 holds 3 loaves of kind 2.", &mut out);
    assert!(out.is_empty());
    let r = registry(&["I have {int} cuke(s) in {word} bags".to_owned()])
        .unwrap_or_else(|| panic!("does not compile"));
    assert_eq!(
        r.steps[0].expression.required_literals(),
        ["I have ", " cuke", " in ", " bags"]
    );
}

#[test]
fn sentences_without_a_literals_first_trigram_skip_the_automaton_and_lose_no_hit() {
    // Leading spaces are skipped: " deposits " is signed by "dep".
    let prefilter = Prefilter::new([vec![" deposits "], vec![], vec!["the balance"]]);
    let mut out = Vec::new();
    for (sentence, want) in [
        ("Tellers like tidy books.", &[1][..]),
        ("Ada deposits 5", &[0, 1]),
        ("and the balance is 5", &[1, 2]),
        ("dep", &[1]),
        ("the balanc", &[1]),
        ("", &[1]),
    ] {
        prefilter.steps_for(sentence, &mut out);
        assert_eq!(out, want, "{sentence}");
    }
    // A literal too short to sign leaves every sentence to the automaton.
    let short = Prefilter::new([vec!["is"], vec![" deposits "]]);
    short.steps_for("this is it", &mut out);
    assert_eq!(out, [0]);
}

#[test]
fn the_required_literal_is_the_longest_top_level_text_run() {
    let cases: &[(&str, Option<&str>)] = &[
        ("{word} deposits {int}", Some(" deposits ")),
        ("I have {int} cuke(s)", Some("I have ")),
        ("big/small dog", Some(" dog")),
        ("{int}", None),
        ("(a)b/c", None),
        ("the \\(x\\) sign", Some("the (x) sign")),
    ];
    for (expression, want) in cases {
        let r = registry(&[expression.to_string()])
            .unwrap_or_else(|| panic!("{expression} does not compile"));
        assert_eq!(
            r.steps[0].expression.required_literal(),
            *want,
            "{expression}"
        );
    }
}

proptest! {
    #![proptest_config(Config { cases: 300, ..Config::default() })]

    /// The literals looked for one by one (the first sentences of a
    /// process) and through the automaton give the same steps.
    #[test]
    fn literal_by_literal_and_the_automaton_pick_the_same_steps(
        steps in prop::collection::vec(
            prop::collection::vec(prop::sample::select(WORDS), 0..3),
            1..6,
        ),
        sentences in prop::collection::vec(
            prop::collection::vec(prop::sample::select(WORDS), 0..10).prop_map(|w| w.concat()),
            1..6,
        ),
    ) {
        let literals = || steps.iter().map(|l| l.iter().copied());
        let one_by_one = Prefilter::building_after(literals(), usize::MAX);
        let automaton = Prefilter::building_after(literals(), 0);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for sentence in &sentences {
            one_by_one.steps_for(sentence, &mut a);
            automaton.steps_for(sentence, &mut b);
            prop_assert_eq!(&a, &b, "{:?}", sentence);
        }
    }
}

#[test]
fn the_automaton_is_built_only_past_the_first_sentences() {
    let prefilter = Prefilter::building_after([vec!["deposits"], vec!["is"]], 2);
    let mut out = Vec::new();
    for (i, want) in [(0, false), (1, false), (2, true)] {
        prefilter.steps_for("Ada deposits 5", &mut out);
        assert_eq!(out, [0], "sentence {i}");
        assert_eq!(prefilter.has_automaton(), want, "sentence {i}");
    }
}

/// Paragraphs of `WORDS` and sentence ends, in an oath with an `error`
/// fence after one of them.
fn oath_of(paragraphs: &[Vec<&str>]) -> String {
    let mut text = String::from("# Oath\n\n");
    for (i, words) in paragraphs.iter().enumerate() {
        text.push_str(&words.concat());
        text.push_str("\n\n");
        if i == 0 {
            text.push_str("```error\nno\n```\n\n");
        }
    }
    text
}

/// Plan `text` with `matcher` and the real splitter.
fn planned(text: &str, matcher: &dyn Matcher) -> super::Plan {
    let source = crate::source::Source::new(text);
    let doc = crate::parse::parse("p.md", &source);
    super::plan_with(&doc, &source, matcher, &super::split::split)
}

proptest! {
    #![proptest_config(Config { cases: 300, ..Config::default() })]

    /// A paragraph turned away whole, unsplit, plans as its sentences
    /// each scanned by every step would: same examples, diagnostics and
    /// notices.
    #[test]
    fn paragraphs_turned_away_unsplit_plan_as_the_full_scan(
        expressions in prop::collection::vec(
            prop::collection::vec(prop::sample::select(PIECES), 1..5).prop_map(|p| p.concat()),
            1..4,
        ),
        paragraphs in prop::collection::vec(
            prop::collection::vec(
                prop::sample::select([WORDS, &[". ", "! ", "?\n", "\n", "`", "\""]].concat()),
                0..14,
            ),
            1..4,
        ),
    ) {
        let Some(registry) = registry(&expressions) else {
            return Ok(());
        };
        let text = oath_of(&paragraphs);
        prop_assert_eq!(planned(&text, &registry), planned(&text, &Unfiltered(&registry)));
    }
}

#[test]
fn a_paragraph_without_a_literal_s_trigram_is_turned_away_whole() {
    let r = registry(&[
        "{word} deposits {int}".to_owned(),
        "the balance is {int}".to_owned(),
    ])
    .unwrap_or_else(|| panic!("does not compile"));
    assert!(!r.may_match_in("Tellers like tidy books. So do auditors!"));
    assert!(r.may_match_in("Tellers like tidy books. Ada deposits 5."));
    // Where a literal's trigrams are, the paragraph is split.
    assert!(r.may_match_in("Ada deposits. 5"));
    let text = "# Oath\n\nTellers like tidy books.\n\n```error\nno\n```\n\nAda deposits 5. So the balance is 5.\n";
    assert_eq!(planned(text, &r), planned(text, &Unfiltered(&r)));
    // A step without a literal may match anything.
    let any = registry(&["{int}".to_owned()]).unwrap_or_else(|| panic!("does not compile"));
    assert!(any.may_match_in("Tellers like tidy books."));
}

#[test]
fn a_literal_is_found_whole_at_every_offset_of_a_paragraph() {
    // Only every stride-th trigram is read: each offset must still find it.
    let prefilter = Prefilter::new([vec![" deposits "], vec!["the balance is "]]);
    for pad in 0..20 {
        for literal in ["deposits ", "the balance is "] {
            let text = format!("{}{literal}{}", "x".repeat(pad), "y".repeat(pad % 3));
            assert!(prefilter.may_match_in(&text), "{text:?}");
        }
        let text = format!("{}Tellers like tidy books.", "x".repeat(pad));
        assert!(!prefilter.may_match_in(&text), "{text:?}");
    }
}
