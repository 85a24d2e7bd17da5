mod plain;
mod proptests;
mod removed;

use std::collections::BTreeSet;

use super::*;
use crate::doc::Doc;
use crate::doc::{Candidate, CandidateBody, TextBlock, TextKind};
use crate::lock::LockEntry;
use crate::lock::LockExample;
use crate::plan::Plan;
use crate::plan::{Diagnostic, DiagnosticCode, Expectation, PlannedExample};
use crate::source::Span;
use plain::{jaccard, tokens};

fn span(start: u32, end: u32, line: u32) -> Span {
    Span {
        start_offset: start,
        end_offset: end,
        start_line: line,
        start_col: 1,
        end_line: line,
        end_col: 1,
    }
}

// The comparisons of candidates that are all named, as every test's are
// (each test asserts they are by unwrapping).

fn detect_drift(baseline: Option<&LockEntry>, candidates: &[CandidateInfo]) -> Vec<Drift> {
    super::detect_drift(baseline, candidates).expect("every candidate is named")
}

fn compare_baseline(baseline: Option<&LockEntry>, candidates: &[CandidateInfo]) -> BaselineChanges {
    super::compare_baseline(baseline, candidates).expect("every candidate is named")
}

fn held_by_ambiguity(baseline: Option<&LockEntry>, candidates: &[CandidateInfo]) -> bool {
    super::held_by_ambiguity(baseline, candidates).expect("every candidate is named")
}

fn cand(name: &str, line: u32, live: bool) -> CandidateInfo {
    CandidateInfo {
        name: Some(name.to_owned()),
        line,
        span: span(line * 100, line * 100 + 10, line),
        live,
        ambiguous: false,
        runs_elsewhere: false,
    }
}

fn baseline(examples: &[(&str, i64)]) -> LockEntry {
    LockEntry {
        source_hash: "fnv1a:00000000".into(),
        examples: examples
            .iter()
            .map(|(n, l)| LockExample {
                name: (*n).into(),
                line: *l,
            })
            .collect(),
    }
}

fn set(words: &[&str]) -> BTreeSet<String> {
    words.iter().map(|w| (*w).to_owned()).collect()
}

#[test]
fn tokens_table() {
    let cases: &[(&str, &[&str])] = &[
        ("You're really", &["you", "re", "really"]),
        ("£2.50", &["2", "50"]),
        ("Café", &["café"]),
        ("Cafe\u{301}", &["cafe"]),
        ("HELLO hello 😀 world!", &["hello", "world"]),
        ("ÀÉÎ ΣΑΣ", &["àéî", "σας"]),
        ("x_y-z", &["x", "y", "z"]),
        ("٣ Ⅻ ½", &["٣", "ⅻ", "½"]),
        ("", &[]),
        ("... !!!", &[]),
    ];
    for (input, want) in cases {
        assert_eq!(tokens(input), set(want), "{input:?}");
    }
}

#[test]
fn jaccard_is_exact() {
    assert_eq!(jaccard(&set(&[]), &set(&[])), (1, 1));
    assert_eq!(jaccard(&set(&["a"]), &set(&[])), (0, 1));
    assert_eq!(
        jaccard(&tokens("alpha beta gamma"), &tokens("alpha beta delta")),
        (2, 4)
    );
    assert_eq!(
        jaccard(
            &tokens("Uppercase each one:"),
            &tokens("Uppercase every one of them:")
        ),
        (2, 6)
    );
}

#[test]
fn example_name_table() {
    let cases: &[(&str, &str)] = &[
        (
            "You're really not going to like it.",
            "You're really not going to like it",
        ),
        ("  a \n\t b  ", "a b"),
        ("Each row gives:", "Each row gives:"),
        ("Really?!", "Really?"),
        ("wait!", "wait"),
        ("x\u{a0}\u{2003}y\u{feff}", "x y"),
        ("done. ", "done"),
        ("", ""),
        (".", ""),
    ];
    for (input, want) in cases {
        assert_eq!(crate::text::example_name(input), *want, "{input:?}");
    }
}

#[test]
fn example_1_probe_is_drift() {
    let b = baseline(&[("You're really not going to like it", 1)]);
    let cs = [
        cand("You're really not going to like it", 1, false),
        cand(
            "The answer to the great question of life, the universe and everything is 42",
            3,
            true,
        ),
    ];
    let drifts = detect_drift(Some(&b), &cs);
    assert_eq!(drifts.len(), 1);
    assert_eq!(drifts[0].line, 1);
    assert_eq!(drifts[0].span, cs[0].span);
    assert_eq!(drifts[0].name, "You're really not going to like it");
}

#[test]
fn example_2_typo_is_drift_reported_with_the_baseline_name() {
    let old = "The answer to the great question of life, the universe and everything is 42";
    let new = "The answer to the great question of life, the universe and everything is forty-two";
    assert_eq!(jaccard(&tokens(old), &tokens(new)), (11, 14));
    let drifts = detect_drift(Some(&baseline(&[(old, 3)])), &[cand(new, 3, false)]);
    assert_eq!(drifts.len(), 1);
    assert_eq!((drifts[0].name.as_str(), drifts[0].line), (old, 3));
}

#[test]
fn example_3_move_is_not_drift() {
    let name = "The answer is 42";
    let cs = [cand("Intro", 1, false), cand(name, 5, true)];
    assert!(detect_drift(Some(&baseline(&[(name, 3)])), &cs).is_empty());
}

#[test]
fn example_4_threshold_is_inclusive() {
    let b = baseline(&[("alpha beta gamma", 1)]);
    assert_eq!(
        detect_drift(Some(&b), &[cand("alpha beta delta", 1, false)]).len(),
        1
    );
    let b = baseline(&[("Uppercase each one:", 1)]);
    assert!(detect_drift(Some(&b), &[cand("Uppercase every one of them:", 1, false)]).is_empty());
}

#[test]
fn example_5_ties_go_to_the_closest_then_the_earlier() {
    let cs = [
        cand("the answer is 42", 3, false),
        cand("the answer is 42", 9, false),
    ];
    let d = detect_drift(Some(&baseline(&[("the answer is 42", 8)])), &cs);
    assert_eq!(d.iter().map(|d| d.line).collect::<Vec<_>>(), [9]);
    let d = detect_drift(Some(&baseline(&[("the answer is 42", 6)])), &cs);
    assert_eq!(d.iter().map(|d| d.line).collect::<Vec<_>>(), [3]);
}

#[test]
fn a_dead_twin_on_the_same_line_is_still_drift_when_the_live_one_was_recorded() {
    // The recorded entry names the live candidate exactly, but an earlier
    // dead candidate on the same line ties it (J = 1, distance 0) and wins:
    // the unchanged-baseline shortcut must not settle this one.
    let cs = [cand("Alpha beta", 3, false), cand("alpha beta", 3, true)];
    let d = detect_drift(Some(&baseline(&[("alpha beta", 3)])), &cs);
    assert_eq!(d.iter().map(|d| d.line).collect::<Vec<_>>(), [3]);
    let recorded = [cand("Alpha beta", 2, false), cand("alpha beta", 3, true)];
    assert!(detect_drift(Some(&baseline(&[("alpha beta", 3)])), &recorded).is_empty());
}

#[test]
fn the_best_score_wins_over_distance_and_a_live_best_is_not_drift() {
    // The exact (live) match is far away; a dead near-miss is close.
    let cs = [
        cand("alpha beta delta", 2, false),
        cand("alpha beta gamma", 40, true),
    ];
    assert!(detect_drift(Some(&baseline(&[("alpha beta gamma", 2)])), &cs).is_empty());
}

#[test]
fn no_baseline_or_no_recognisable_candidate_is_not_drift() {
    let cs = [cand("something else entirely", 1, false)];
    assert!(detect_drift(None, &cs).is_empty());
    assert!(detect_drift(Some(&baseline(&[("the answer is 42", 1)])), &cs).is_empty());
    assert!(detect_drift(Some(&baseline(&[("x", 1)])), &[]).is_empty());
}

#[test]
fn several_baseline_entries_may_pick_the_same_candidate() {
    let b = baseline(&[("the answer is 42", 1), ("the answer is 42", 5)]);
    let d = detect_drift(Some(&b), &[cand("the answer is 42", 3, false)]);
    assert_eq!(d.len(), 2);
}

#[test]
fn message_is_the_spec_text() {
    let d = Drift {
        name: "a \"b\"".into(),
        line: 1,
        span: Span::default(),
    };
    assert_eq!(
        d.message(),
        "This paragraph was an example and no longer matches any step (drift): \"a \"b\"\".\n\
         Fix the step so it matches again, or accept it as prose (run in update mode)."
    );
    assert_eq!(
        d.harness_message().lines().nth(2),
        Some("Accept it with VARAR_UPDATE=1 cargo test, then commit varar.lock.json.")
    );
}

fn doc_candidate(text: &str, start: u32, end: u32, line: u32) -> Candidate {
    Candidate {
        scope_stack: Vec::new().into(),
        span: span(start, end, line),
        body: CandidateBody {
            text: TextBlock {
                kind: TextKind::Paragraph,
                text: text.to_owned(),
                span: span(start, start + 5, line),
                segment_map: Vec::new(),
            },
            attachments: Vec::new(),
        },
        preceded_by_delimiter: false,
    }
}

fn planned(start: u32, end: u32) -> PlannedExample {
    PlannedExample {
        name: String::new(),
        scope_stack: Vec::new().into(),
        span: span(start, end, 1),
        expected: Expectation::Pass,
        steps: Vec::new(),
        row: None,
        unmatched: Vec::new(),
    }
}

#[test]
fn liveness_is_offset_overlap_and_fresh_entries_keep_live_candidates() {
    let doc = Doc {
        path: "a.md".into(),
        examples: vec![
            doc_candidate("Prose here.", 0, 10, 1),
            doc_candidate("A  step\nhere!", 12, 30, 3),
            doc_candidate("Touching only.", 30, 40, 6),
            doc_candidate("Bound table:", 42, 80, 8),
        ],
        orphan_attachments: Vec::new(),
        headings: Vec::new(),
    };
    // One example covering the second candidate exactly, one row inside the fourth.
    let plan = Plan {
        notices: Vec::new(),
        examples: vec![planned(12, 30), planned(60, 70)],
        diagnostics: Vec::new(),
    };
    let cs = candidates(&doc, &plan);
    assert_eq!(
        cs.iter()
            .map(|c| (c.name.as_deref().unwrap_or("(unnamed)"), c.line, c.live))
            .collect::<Vec<_>>(),
        [
            ("Prose here", 1, false),
            ("A step here", 3, true),
            ("Touching only", 6, false),
            ("Bound table:", 8, true),
        ]
    );
    // Named only where live, and the rest named later: the same.
    let mut live_only = candidates_naming(&doc, &plan, Naming::Live);
    assert_eq!(
        live_only
            .iter()
            .map(|c| c.name.as_deref())
            .collect::<Vec<_>>(),
        [None, Some("A step here"), None, Some("Bound table:")]
    );
    name_every(&doc, &mut live_only);
    assert_eq!(live_only, cs);
    let entry = fresh_entry("fnv1a:1", &cs);
    assert_eq!(crate::drift::into_fresh_entry("fnv1a:1", cs.clone()), entry);
    assert_eq!(
        entry.examples,
        [
            LockExample {
                name: "A step here".into(),
                line: 3
            },
            LockExample {
                name: "Bound table:".into(),
                line: 8
            },
        ]
    );
}

#[test]
fn issue10_9_an_ambiguous_paragraph_is_not_also_drift_but_holds_its_entry() {
    let doc = Doc {
        path: "a.md".into(),
        examples: vec![
            doc_candidate("I add 1 twice. The count is 2.", 0, 31, 1),
            doc_candidate("Plain prose.", 33, 45, 3),
        ],
        orphan_attachments: Vec::new(),
        headings: Vec::new(),
    };
    let plan = Plan {
        notices: Vec::new(),
        examples: Vec::new(),
        diagnostics: vec![Diagnostic {
            code: DiagnosticCode::AmbiguousMatch,
            span: span(0, 13, 1),
            message: "Ambiguous step".into(),
            doc_path: None,
        }],
    };
    let cs = candidates(&doc, &plan);
    assert_eq!(
        cs.iter().map(|c| (c.live, c.ambiguous)).collect::<Vec<_>>(),
        [(false, true), (false, false)]
    );
    let b = baseline(&[("I add 1 twice. The count is 2", 1)]);
    assert!(
        detect_drift(Some(&b), &cs).is_empty(),
        "reported once, as ambiguity"
    );
    assert!(
        held_by_ambiguity(Some(&b), &cs),
        "the baseline entry is kept"
    );
    // A drifted prose paragraph next to it is still drift.
    let b = baseline(&[("Plain prose", 3)]);
    assert_eq!(detect_drift(Some(&b), &cs).len(), 1);
    assert!(!held_by_ambiguity(Some(&b), &cs));
}

#[test]
fn issue10_10_extreme_baseline_lines_do_not_overflow() {
    let cs = [
        cand("the answer is 42", 3, false),
        cand("the answer is 42", 9, false),
    ];
    for (line, want) in [(i64::MIN, 3), (i64::MAX, 9), (0, 3), (-1, 3)] {
        let drifts = detect_drift(Some(&baseline(&[("the answer is 42", line)])), &cs);
        assert_eq!(
            drifts.iter().map(|d| d.line).collect::<Vec<_>>(),
            [want],
            "{line}"
        );
    }
}

#[test]
fn issue11_a_consumed_candidate_is_never_live_and_not_drift_while_it_runs_elsewhere() {
    // Both candidates were examples; now the first is consumed (a link
    // elsewhere names its section) and still has a step, the second is
    // consumed and matches nothing any more.
    let mut cs = vec![cand("I add 2", 5, true), cand("I add 3", 9, false)];
    apply_consumed(&mut cs, &[true, true], |i| i == 0);
    assert!(cs.iter().all(|c| !c.live), "consumed: never live");
    let entry = baseline(&[("I add 2", 5), ("I add 3", 9)]);
    let drifts = detect_drift(Some(&entry), &cs);
    // Spec 70 §70.6.5: the first runs where it is linked; the second drifts.
    assert_eq!(
        drifts.iter().map(|d| d.line).collect::<Vec<_>>(),
        [9],
        "{drifts:?}"
    );
    assert!(fresh_entry("fnv1a:1", &cs).examples.is_empty());
}

#[test]
fn issue11_an_ambiguity_in_a_linked_document_does_not_mark_the_oaths_candidates() {
    let doc = Doc {
        path: "a.md".into(),
        examples: vec![doc_candidate("I add 1 twice.", 0, 14, 1)],
        orphan_attachments: Vec::new(),
        headings: Vec::new(),
    };
    let ambiguity = |doc_path: Option<&str>| Diagnostic {
        code: DiagnosticCode::AmbiguousMatch,
        span: span(2, 8, 1),
        message: "ambiguous".into(),
        doc_path: doc_path.map(str::to_owned),
    };
    let plan = |d| Plan {
        notices: Vec::new(),
        examples: Vec::new(),
        diagnostics: vec![d],
    };
    assert!(candidates(&doc, &plan(ambiguity(None)))[0].ambiguous);
    assert!(!candidates(&doc, &plan(ambiguity(Some("shared.md"))))[0].ambiguous);
}
