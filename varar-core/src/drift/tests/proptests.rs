//! Property tests: the linear drift path (`index.rs`) agrees with the plain
//! algorithm of spec 40 §5.1 (`plain.rs`) on random small oaths and locks,
//! and the one-pass liveness agrees with the plain overlap test.

use proptest::prelude::*;
use proptest::test_runner::Config;

use super::*;
use crate::doc::{Candidate, CandidateBody, Doc, TextBlock, TextKind};
use crate::drift::similarity::WORD;
use crate::lock::LockExample;
use crate::plan::{Expectation, PlannedExample};

/// Few words, so names share tokens, tie, and cross the ½ threshold often;
/// case and punctuation variants make equal token sets from unequal names.
const WORDS: &[&str] = &[
    "alpha", "Alpha", "beta", "gamma", "delta", "the", "answer", "is", "42", "you're", "re",
    "café", "CAFÉ", "£2.50", "...", "",
];

fn name() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(WORDS), 0..6).prop_map(|w| w.join(" "))
}

fn span_at(line: u32) -> Span {
    Span {
        start_offset: line * 10,
        end_offset: line * 10 + 5,
        start_line: line,
        start_col: 1,
        end_line: line,
        end_col: 6,
    }
}

fn candidate() -> impl Strategy<Value = CandidateInfo> {
    (name(), 1u32..30, any::<bool>(), prop::bool::weighted(0.2)).prop_map(
        |(name, line, live, ambiguous)| CandidateInfo {
            name: Some(name),
            line,
            span: span_at(line),
            live,
            // Only a dead candidate can hold an ambiguous sentence.
            ambiguous: ambiguous && !live,
            runs_elsewhere: false,
        },
    )
}

/// A baseline entry: a fresh name, or a candidate's name (index picked
/// later) possibly with one word added.
fn entry() -> impl Strategy<Value = (Option<prop::sample::Index>, String, i64)> {
    (
        prop::option::of(any::<prop::sample::Index>()),
        name(),
        // Any JSON integer is a valid stored line (spec 40 §4.4), the
        // extremes included.
        prop_oneof![8 => -3i64..33, 1 => Just(i64::MIN), 1 => Just(i64::MAX)],
    )
}

proptest! {
    #![proptest_config(Config { cases: 2000, ..Config::default() })]

    #[test]
    fn linear_drift_equals_the_plain_algorithm(
        candidates in prop::collection::vec(candidate(), 0..12),
        entries in prop::collection::vec(entry(), 0..10),
        extra in prop::sample::select(WORDS),
    ) {
        let examples = entries
            .into_iter()
            .enumerate()
            .map(|(k, (pick, fresh, line))| {
                let name = match pick {
                    Some(ix) if !candidates.is_empty() => {
                        let base = candidates[ix.index(candidates.len())]
                            .name
                            .clone()
                            .expect("every candidate is named");
                        // Every third copy gains a word: a near miss.
                        if k % 3 == 2 { format!("{base} {extra}") } else { base.clone() }
                    }
                    _ => fresh,
                };
                LockExample { name, line }
            })
            .collect();
        let baseline = LockEntry { source_hash: "fnv1a:00000000".into(), examples };
        prop_assert_eq!(
            detect_drift(Some(&baseline), &candidates),
            plain::detect(Some(&baseline), &candidates)
        );
        // Issue 37: the removed examples, from the same pass.
        prop_assert_eq!(
            compare_baseline(Some(&baseline), &candidates).removed,
            plain::removed(&baseline, &candidates)
        );
    }

    #[test]
    fn an_unchanged_baseline_has_no_drift_as_the_plain_algorithm_says(
        candidates in prop::collection::vec(candidate(), 0..12),
        keep in prop::collection::vec(any::<bool>(), 12),
    ) {
        // Candidates in document order on distinct lines; the baseline is
        // (some of) their live entries, as the last run recorded them: the
        // shortcut of `index.rs` decides, and must agree with §5.1.
        let mut candidates = candidates;
        for (i, c) in candidates.iter_mut().enumerate() {
            c.line = 2 * i as u32 + 1;
            c.span = span_at(c.line);
        }
        let examples = candidates
            .iter()
            .zip(&keep)
            .filter(|(c, k)| c.live && **k)
            .map(|(c, _)| LockExample {
                name: c.name.clone().expect("every candidate is named"),
                line: i64::from(c.line),
            })
            .collect();
        let baseline = LockEntry { source_hash: "fnv1a:00000000".into(), examples };
        prop_assert_eq!(
            detect_drift(Some(&baseline), &candidates),
            plain::detect(Some(&baseline), &candidates)
        );
        prop_assert!(detect_drift(Some(&baseline), &candidates).is_empty());
        // Nothing is removed, and only the live candidates left out of the
        // baseline are new.
        let changes = compare_baseline(Some(&baseline), &candidates);
        prop_assert!(changes.removed.is_empty());
        let unkept: Vec<u32> = candidates
            .iter()
            .zip(&keep)
            .filter(|(c, k)| c.live && !**k)
            .map(|(c, _)| c.line)
            .collect();
        let added: Vec<u32> = changes.added.iter().map(|e| e.line as u32).collect();
        prop_assert_eq!(added, unkept);
    }

    #[test]
    fn one_pass_liveness_equals_the_plain_overlap_test(
        blocks in prop::collection::vec((0u32..60, 0u32..8), 0..10),
        examples in prop::collection::vec((0u32..60, 0u32..12), 0..10),
    ) {
        let doc = Doc {
            path: "a.md".into(),
            examples: blocks.iter().map(|&(start, len)| {
                let span = Span { start_offset: start, end_offset: start + len, ..span_at(1) };
                Candidate {
                    scope_stack: Vec::new().into(),
                    span,
                    body: CandidateBody {
                        text: TextBlock {
                            kind: TextKind::Paragraph,
                            text: "x".into(),
                            span,
                            segment_map: Vec::new(),
                        },
                        attachments: Vec::new(),
                    },
                    preceded_by_delimiter: false,
                }
            }).collect(),
            orphan_attachments: Vec::new(),
            headings: Vec::new(),
        };
        let plan = Plan {
            notices: Vec::new(),
            examples: examples.iter().map(|&(start, len)| PlannedExample {
                name: String::new(),
                scope_stack: Vec::new().into(),
                span: Span { start_offset: start, end_offset: start + len, ..span_at(1) },
                expected: Expectation::Pass,
                steps: Vec::new(),
                row: None,
                unmatched: Vec::new(),
            }).collect(),
            diagnostics: Vec::new(),
        };
        let live: Vec<bool> = candidates(&doc, &plan).iter().map(|c| c.live).collect();
        let plain: Vec<bool> = doc.examples.iter().map(|c| {
            plan.examples.iter().any(|e| {
                e.span.start_offset < c.span.end_offset && c.span.start_offset < e.span.end_offset
            })
        }).collect();
        prop_assert_eq!(live, plain);
    }
}

proptest! {
    #![proptest_config(Config { cases: 2000, ..Config::default() })]

    /// The ASCII fast path of the tokenizer gives the regex's runs.
    #[test]
    fn tokens_equal_the_regex_runs(s in "[ -~\u{e9}\u{130}\u{301}\u{1f600}]{0,24}") {
        let lower = s.to_lowercase();
        let want: std::collections::BTreeSet<String> =
            WORD.find_iter(&lower).map(|m| m.as_str().to_owned()).collect();
        prop_assert_eq!(tokens(&s), want);
    }
}
