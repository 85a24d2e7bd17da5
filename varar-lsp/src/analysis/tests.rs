use varar_core::lock::{Lock, LockEntry, LockExample};

use crate::tests::support::{at, bakery, plan, plan_with_lock};

const SHELF: &str = include_str!("../../../examples/bakery/varar/shelf.md");

#[test]
fn matched_sentences_rows_and_prose() {
    let index = bakery();
    let a = plan(&index, SHELF);
    assert!(a.plan.diagnostics.is_empty());
    let texts: Vec<&str> = a.steps.iter().map(|s| &*s.text).collect();
    assert_eq!(
        texts,
        [
            "the baker puts 12 buns on the shelf",
            "I sell 5 buns from the shelf",
            "7 buns are left on the shelf",
            "the baker puts 3 scones on the shelf",
            "I sell 4 scones from the shelf",
            "the opening stock, how many were baked, how many were sold and the closing stock",
        ]
    );
    // The header-bound sentence is found once, in the paragraph, not per row.
    let bound = &a.steps[5];
    assert_eq!(bound.span.start_offset, at(SHELF, "the opening stock", 0));
    assert_eq!(bound.span.start_line, 22);
    let put = &a.steps[0];
    assert_eq!(put.params.len(), 2);
    assert_eq!(&*put.params[0].raw, "12");
    assert_eq!(&*put.params[0].parameter_type, "int");
    // Prose sentences are there and unmatched.
    let prose = a
        .sentences
        .iter()
        .find(|s| s.text.starts_with("Unsold bread"))
        .unwrap_or_else(|| panic!("prose sentence"));
    assert!(!prose.matched);
    assert!(
        a.sentence_at(at(SHELF, "In the morning the baker puts 12", 3))
            .is_some_and(|s| s.matched)
    );
    assert!(
        a.step_at(at(SHELF, "5 buns", 0))
            .is_some_and(|(s, p)| s.step == 8 && p == Some(0))
    );
    assert!(a.step_at(at(SHELF, "Unsold", 0)).is_none());
}

#[test]
fn drift_against_the_committed_lock_before_running() {
    let index = bakery();
    let text = "# S\n\nIn the morning the baker puts 12 buns on the shelve.\n";
    let mut lock = Lock::default();
    lock.oaths.insert(
        "varar/x.md".into(),
        LockEntry {
            source_hash: "fnv1a:00000000".into(),
            examples: vec![LockExample {
                name: "In the morning the baker puts 12 buns on the shelf".into(),
                line: 3,
            }],
        },
    );
    let a = plan_with_lock(&index, Some(&lock), text);
    assert_eq!(a.drifts.len(), 1);
    assert_eq!(a.drifts[0].line, 3);
    // Still matching: no drift.
    let a = plan_with_lock(&index, Some(&lock), &text.replace("shelve", "shelf"));
    assert!(a.drifts.is_empty());
    // No lock: no drift.
    assert!(plan(&index, text).drifts.is_empty());
}

#[test]
fn issue34_spans_found_by_walking_the_lines_are_the_source_s() {
    use varar_core::source::Source;
    let text = "# T\n\nab\ncd é😀\n\n\nlast line";
    let source = Source::new(text);
    let len = varar_core::source::utf16_len(text);
    let mut lines = super::uses::Lines::new(&source);
    // Forward, then back again, then past the end.
    let offsets: Vec<u32> = (0..=len).chain((0..=len).rev()).chain([len + 3]).collect();
    for pair in offsets.windows(2) {
        let (from, to) = (pair[0].min(pair[1]), pair[0].max(pair[1]));
        assert_eq!(lines.span(from, to), source.span(from, to), "{from}..{to}");
    }
}

#[test]
fn a_long_oath_gathers_its_sentences_beside_its_steps_as_a_short_one_does() {
    // Past `TWO_THREADS_FROM` candidates, the step uses and the sentences
    // are gathered on two threads: each paragraph's step, its two
    // sentences (the first matched), in order, as in a one-example oath.
    let index = bakery();
    let paragraph = |n: usize| {
        format!("In the morning the baker puts {n} buns on the shelf. Some prose about it.\n")
    };
    let one = plan(&index, &format!("# S\n\n{}", paragraph(1)));
    let count = 2 * varar_core::threads::TWO_THREADS_FROM;
    let text: String = std::iter::once("# S\n".to_string())
        .chain((0..count).map(|n| format!("\n{}", paragraph(n % 9 + 1))))
        .collect();
    let long = plan(&index, &text);
    assert_eq!(long.doc.examples.len(), count);
    assert_eq!(long.steps.len(), count);
    assert_eq!(long.sentences.len(), 2 * count);
    let shape = |s: &crate::analysis::SentenceInfo| (s.text.clone(), s.matched);
    assert_eq!(
        one.sentences.iter().map(shape).collect::<Vec<_>>(),
        long.sentences[..2].iter().map(shape).collect::<Vec<_>>()
    );
    for (i, pair) in long.sentences.chunks(2).enumerate() {
        assert!(pair[0].matched && !pair[1].matched, "paragraph {i}");
        assert!(pair[0].span.start_offset < pair[1].span.start_offset);
        let step = &long.steps[i];
        assert!(step.span.start_offset >= pair[0].span.start_offset);
        assert!(step.span.end_offset <= pair[0].span.end_offset);
    }
}

#[test]
fn a_section_linked_twice_in_its_own_oath_has_its_steps_used_once() {
    // The section is consumed and spliced where each link stands: its step
    // is in the plan twice, at one span of this oath, and used once, in
    // document order with the others.
    let index = bakery();
    let text = "# S\n\n## Fill\n\nIn the morning the baker puts 2 buns on the shelf.\n\n\
                ## One\n\n[Fill](#fill)\n\nI sell 1 buns from the shelf.\n\n\
                ## Two\n\n[Fill](#fill)\n\nI sell 1 buns from the shelf.\n";
    let a = plan(&index, text);
    assert!(a.plan.diagnostics.is_empty(), "{:?}", a.plan.diagnostics);
    let put = at(text, "the baker puts", 0);
    let last_sell = text.rfind("I sell").map_or(0, |b| b as u32);
    let planned = a
        .plan
        .examples
        .iter()
        .flat_map(|e| &e.steps)
        .filter(|s| s.match_span.start_offset == put)
        .count();
    assert_eq!(planned, 2);
    let uses: Vec<(&str, u32)> = a
        .steps
        .iter()
        .map(|s| (&*s.text, s.span.start_offset))
        .collect();
    assert_eq!(
        uses,
        [
            ("the baker puts 2 buns on the shelf", put),
            ("I sell 1 buns from the shelf", at(text, "I sell", 0)),
            ("I sell 1 buns from the shelf", last_sell),
        ]
    );
}
