//! A planned oath read back from its stored bytes is the planned oath.

use std::sync::Arc;

use super::*;
use crate::drift::candidates;
use crate::expression::ArgValue;
use crate::parse::parse;
use crate::plan::{Expectation, PlannedExample, PlannedStep};
use crate::registry::{ParamSpec, Registry, Role, StepSpec, Trailing};
use crate::source::Source;
use crate::stored as codec;

/// Every part of the model: header-bound rows, a data table, a doc string,
/// an expected failure with its message, a custom type's groups, an
/// ambiguity, unmatched sentences, notices (a dropped step, a table
/// without rows), and text beyond ASCII (lengths are bytes, spans UTF-16).
const DOCUMENT: &str = "# Ledger — the book fund\n\n\
## Deposits\n\n\
I deposit 5 €. The balance is 5 €. Nothing matches this sentence.\n\n\
I deposit 2 €. The balance is 7 €.\n\n\
Each time I deposit amount € and see balance €.\n\n\
| amount | balance |\n|---|---|\n| 3 € | 3 € |\n| 4 € | 4 € |\n\n\
## Orders\n\n\
I order \"crème brûlée\" with these lines:\n\n\
| item | count |\n|------|-------|\n| tart | 2 |\n\n\
I note the following:\n\n\
```text\nline one\nline \"two\"\n```\n\n\
I fail on purpose 1.5 times.\n\n\
```error\nexpected to fail\n```\n\n\
Twice matched here.\n\n## Quirks\n\nI deposit 1 €. Each time I deposit amount € and see balance €.\n\n| amount | balance |\n|---|---|\n";

fn registry_of_everything() -> Registry {
    let params = vec![ParamSpec::new("money", r"(\d+) (€|\$)", "t.steps.rs", 1)];
    let steps = [
        ("I deposit {money}", Role::Stimulus),
        ("The balance is {money}", Role::Sensor),
        ("I order {string} with these lines:", Role::Stimulus),
        ("I note the following:", Role::Stimulus),
        ("I fail on purpose {float} times", Role::Stimulus),
        ("Twice matched here", Role::Stimulus),
        ("Twice {word} here", Role::Stimulus),
        (
            "Each time I deposit {word} € and see {word} €",
            Role::Sensor,
        ),
    ];
    let specs = steps
        .iter()
        .enumerate()
        .map(|(i, &(expression, role))| {
            StepSpec::new(expression, role, "t.steps.rs", i as u32 + 1, Trailing::None)
        })
        .collect();
    Registry::build(params, specs).unwrap_or_else(|e| panic!("{e}"))
}

/// The plan of `text` and its drift candidates.
fn planned(text: &str) -> (Plan, Vec<CandidateInfo>) {
    let source = Source::new(text);
    let doc = parse("t.md", &source);
    let plan = crate::plan::plan(&doc, &source, &registry_of_everything());
    let candidates = candidates(&doc, &plan);
    (plan, candidates)
}

#[test]
fn a_plan_reads_back_equal_and_exercises_the_whole_model() {
    let (plan, candidates) = planned(DOCUMENT);
    // The document reaches every part the bytes have to hold.
    let steps: Vec<&PlannedStep> = plan.examples.iter().flat_map(|e| &e.steps).collect();
    assert!(plan.examples.iter().any(|e| e.row.is_some()), "{plan:#?}");
    assert!(steps.iter().any(|s| s.data_table.is_some()), "{plan:#?}");
    assert!(steps.iter().any(|s| s.doc_string.is_some()), "{plan:#?}");
    assert!(
        plan.examples
            .iter()
            .any(|e| matches!(&e.expected, Expectation::Fail { message: Some(_) })),
        "{plan:#?}"
    );
    assert!(
        steps
            .iter()
            .flat_map(|s| &s.args)
            .any(|a| matches!(&*a.value, ArgValue::Custom { groups, .. } if groups.len() == 2)),
        "{plan:#?}"
    );
    assert!(
        plan.examples.iter().any(|e| !e.unmatched.is_empty()),
        "{plan:#?}"
    );
    assert!(
        plan.diagnostics
            .iter()
            .any(|d| d.code == DiagnosticCode::AmbiguousMatch),
        "{plan:#?}"
    );

    let kinds: Vec<NoticeKind> = plan.notices.iter().map(|n| n.kind).collect();
    assert_eq!(
        kinds,
        [NoticeKind::DroppedSteps, NoticeKind::HeaderBoundWithoutRows]
    );

    assert!(candidates.iter().any(|c| c.live), "{candidates:#?}");
    assert!(candidates.iter().any(|c| c.ambiguous), "{candidates:#?}");
    assert!(candidates.iter().any(|c| !c.live), "{candidates:#?}");

    let bytes = codec::encode(&plan, &candidates);
    assert_eq!(
        codec::decode(&bytes),
        Some((plan.clone(), candidates.clone()))
    );
    // A dead candidate kept without its name reads back so; a live one
    // without a name is refused (every live one is named).
    let mut unnamed = candidates.clone();
    for c in unnamed.iter_mut().filter(|c| !c.live) {
        c.name = None;
    }
    assert_eq!(
        codec::decode(&codec::encode(&plan, &unnamed)),
        Some((plan.clone(), unnamed.clone()))
    );
    for c in unnamed.iter_mut().filter(|c| c.live) {
        c.name = None;
    }
    assert_eq!(codec::decode(&codec::encode(&plan, &unnamed)), None);
    // Encoded on two threads (a plan of thousands of examples, whose steps
    // are packed in two halves), it reads back the same.
    let mut many = plan.clone();
    many.examples = plan.examples.iter().cycle().take(5000).cloned().collect();
    assert_eq!(
        codec::decode(&codec::encode(&many, &candidates)),
        Some((many.clone(), candidates.clone()))
    );
    // Examples under one heading share one scope again.
    let (decoded, _) = codec::decode(&bytes).unwrap_or_default();
    let shared = decoded
        .examples
        .windows(2)
        .any(|w| Arc::ptr_eq(&w[0].scope_stack, &w[1].scope_stack));
    assert!(shared, "{decoded:#?}");
    // So do the steps of one expression, and the arguments of one type.
    let steps: Vec<&PlannedStep> = decoded.examples.iter().flat_map(|e| &e.steps).collect();
    let pairs = steps.iter().enumerate().flat_map(|(i, a)| {
        steps[i + 1..]
            .iter()
            .filter(move |b| a.matched_expression == b.matched_expression)
            .map(move |b| (*a, *b))
    });
    let mut seen = 0;
    for (a, b) in pairs {
        assert!(Arc::ptr_eq(&a.matched_expression, &b.matched_expression));
        seen += 1;
    }
    assert!(seen > 0, "{decoded:#?}");
    let types: Vec<&Arc<str>> = steps
        .iter()
        .flat_map(|s| &s.args)
        .map(|a| &a.parameter_type)
        .filter(|t| &***t == "money")
        .collect();
    assert!(types.len() >= 2, "{decoded:#?}");
    assert!(types.windows(2).all(|w| Arc::ptr_eq(w[0], w[1])));
}

#[test]
fn bytes_cut_short_or_with_anything_after_them_are_refused() {
    let (plan, candidates) = planned(DOCUMENT);
    let bytes = codec::encode(&plan, &candidates);
    // Every proper prefix: the counts and lengths make the bytes
    // self-delimiting, so none of them is another plan.
    for end in 0..bytes.len() {
        assert_eq!(codec::decode(&bytes[..end]), None, "prefix of {end} bytes");
    }
    for extra in [&[0u8][..], b"x", &[0x80]] {
        assert_eq!(codec::decode(&[&bytes[..], extra].concat()), None);
    }
}

#[test]
fn a_string_that_is_not_utf8_is_refused() {
    let (plan, candidates) = planned("# H\n\nI fail on purpose 2 times.\n");
    let bytes = codec::encode(&plan, &candidates);
    // The example's name: the length, then the bytes of its text.
    let name = plan.examples[0].name.as_bytes();
    let at = bytes
        .windows(name.len())
        .position(|w| w == name)
        .unwrap_or_else(|| panic!("the name in {bytes:?}"));
    let mut edited = bytes.clone();
    edited[at] = b'J';
    assert!(codec::decode(&edited).is_some(), "another name still reads");
    edited[at] = 0xff;
    assert_eq!(codec::decode(&edited), None);
}

#[test]
fn malformed_numbers_and_counts_are_refused_without_allocating_them() {
    let too_long = [&[0xffu8; 10][..], &[0x7f, 0]].concat();
    // Each after the names (none, or a count past the bytes).
    for bytes in [
        &[][..],
        &[0],
        &[0x80],
        // More names than there are bytes.
        &[0xff, 0xff, 0xff, 0xff, 0x0f, 0],
        // More heading lists than there are bytes.
        &[0, 0xff, 0xff, 0xff, 0xff, 0x0f, 0],
        // More examples than there are bytes: refused before any vector
        // of that size is made.
        &[0, 0, 0xff, 0xff, 0xff, 0xff, 0x0f, 0],
        // A number past 64 bits.
        &[&[0][..], &too_long].concat(),
        // A diagnostic of an unknown code.
        &[0, 0, 0, 1, 9],
        // A notice of an unknown kind.
        &[0, 0, 0, 0, 1, 9],
        // One byte more than an empty oath.
        &[0, 0, 0, 0, 0, 0, 0],
    ] {
        assert_eq!(codec::decode(bytes), None, "{bytes:?}");
        assert!(codec::decode_packed(bytes).is_none(), "{bytes:?}");
    }
    assert_eq!(codec::decode(&[0, 0, 0, 0, 0, 0]), Some(Default::default()));
}

#[test]
fn packed_examples_unpack_equal_and_name_themselves_without_unpacking() {
    let (plan, _) = planned(DOCUMENT);
    let packed = PackedExamples::pack(plan.examples.clone());
    assert_eq!(packed.len(), plan.examples.len());
    assert!(packed.size() > 0);
    // Each reads back on its own, in any order; its head and key are those
    // of the example, and its step lines those of its key.
    for index in (0..plan.examples.len()).rev() {
        let whole = &plan.examples[index];
        assert_eq!(
            packed.unpack(index).as_ref(),
            Some(whole),
            "example {index}"
        );
        let head = packed.head(index).unwrap_or_else(|| panic!("head {index}"));
        assert_eq!(
            (head.name, &**head.scope_stack, head.span),
            (&*whole.name, &*whole.scope_stack, whole.span)
        );
        let key = crate::results::ExampleKey::of(whole);
        assert_eq!(packed.lines(index), key.lines);
        assert_eq!(packed.sort_line(index), key.sort_line());
        assert_eq!(packed.key(index), Some(key));
    }
    // No example past the last.
    let past = plan.examples.len();
    assert!(packed.unpack(past).is_none() && packed.head(past).is_none());
    assert!(packed.key(past).is_none() && packed.lines(past).is_empty());
    // Steps of one expression share it across examples unpacked apart, as
    // planned steps do; examples under one heading share their headings.
    let unpacked: Vec<PlannedExample> = (0..packed.len())
        .map(|i| packed.unpack(i).unwrap_or_else(|| panic!("example {i}")))
        .collect();
    let mut across = 0;
    for (i, a) in unpacked.iter().enumerate() {
        for b in &unpacked[i + 1..] {
            for (x, y) in a
                .steps
                .iter()
                .flat_map(|x| b.steps.iter().map(move |y| (x, y)))
            {
                if x.matched_expression == y.matched_expression {
                    assert!(Arc::ptr_eq(&x.matched_expression, &y.matched_expression));
                    across += 1;
                }
            }
            if a.scope_stack == b.scope_stack {
                assert!(Arc::ptr_eq(&a.scope_stack, &b.scope_stack));
            }
        }
    }
    assert!(across > 0, "{unpacked:#?}");
}

#[test]
fn no_examples_pack_to_nothing() {
    let packed = PackedExamples::pack(Vec::new());
    assert!(packed.is_empty() && packed.size() == 0);
    assert!(packed.unpack(0).is_none() && packed.head(0).is_none());
}

#[test]
fn a_plan_stored_from_its_packed_examples_is_the_plan_stored_whole() {
    let (plan, candidates) = planned(DOCUMENT);
    let whole = codec::encode(&plan, &candidates);
    let packed = PackedExamples::pack(plan.examples.clone());
    let parts = (&plan.diagnostics[..], &plan.notices[..]);
    assert_eq!(codec::encode_packed(&packed, parts, &candidates), whole);

    // Read back packed: the plan without its examples, the same examples
    // and lines, and the candidates.
    let (read, examples, read_candidates) =
        codec::decode_packed(&whole).unwrap_or_else(|| panic!("{whole:?}"));
    let rest = Plan {
        examples: Vec::new(),
        ..plan.clone()
    };
    assert_eq!(read, rest);
    assert_eq!(read_candidates, candidates);
    assert_eq!(examples.len(), plan.examples.len());
    for (i, example) in plan.examples.iter().enumerate() {
        assert_eq!(examples.unpack(i).as_ref(), Some(example), "example {i}");
        assert_eq!(examples.lines(i), packed.lines(i));
        assert_eq!(examples.section(i), packed.section(i));
    }
}

#[test]
fn packed_reading_refuses_what_whole_reading_refuses_but_a_damaged_example_body() {
    let (plan, candidates) = planned(DOCUMENT);
    let bytes = codec::encode(&plan, &candidates);
    for end in 0..bytes.len() {
        assert!(
            codec::decode_packed(&bytes[..end]).is_none(),
            "prefix of {end} bytes"
        );
    }
    assert!(codec::decode_packed(&[&bytes[..], b"x"].concat()).is_none());
    let find = |what: &[u8], from: usize| {
        bytes[from..]
            .windows(what.len())
            .position(|w| w == what)
            .map(|at| from + at)
            .unwrap_or_else(|| panic!("{what:?} in {bytes:?}"))
    };
    // A step's text that is not UTF-8 lies in its example's body: the
    // whole reading refuses the plan, the packed one that example. (The
    // name comes first and may hold the same words: looked for after it.)
    let (name, text) = (
        plan.examples[0].name.as_bytes(),
        plan.examples[0].steps[0].text.as_bytes(),
    );
    let at = find(text, find(name, 0) + name.len());
    let mut damaged = bytes.clone();
    damaged[at] = 0xff;
    assert_eq!(codec::decode(&damaged), None);
    let (_, examples, _) = codec::decode_packed(&damaged).unwrap_or_else(|| panic!("{damaged:?}"));
    assert!(examples.unpack(0).is_none());
    assert!(examples.head(0).is_some(), "its head still reads");
    assert_eq!(examples.unpack(1).as_ref(), Some(&plan.examples[1]));
    // A name that is not UTF-8 is in the head every run reads: the packed
    // reading refuses the plan too.
    let mut damaged = bytes.clone();
    damaged[find(name, 0)] = 0xff;
    assert_eq!(codec::decode(&damaged), None);
    assert!(codec::decode_packed(&damaged).is_none());
}

#[test]
fn thousands_of_examples_pack_on_two_threads_as_on_one() {
    let (plan, _) = planned(DOCUMENT);
    let many: Vec<PlannedExample> = plan.examples.iter().cycle().take(5000).cloned().collect();
    let one = PackedExamples::of_here(&many);
    let two = PackedExamples::of(&many);
    assert_eq!(two.len(), 5000);
    assert_eq!(two.size(), one.size());
    assert_eq!(two.scopes(), one.scopes());
    for i in [0, 1, 2499, 2500, 2501, 4999] {
        assert_eq!(two.section(i), one.section(i), "example {i}");
        assert_eq!(two.lines(i), one.lines(i), "example {i}");
        assert_eq!(two.unpack(i).as_ref(), Some(&many[i]));
    }
}

#[test]
fn each_name_and_heading_list_is_written_once_whatever_uses_it() {
    let (plan, candidates) = planned(DOCUMENT);
    let bytes = codec::encode(&plan, &candidates);
    let count = |what: &[u8]| bytes.windows(what.len()).filter(|w| *w == what).count();
    let steps = plan.examples.iter().flat_map(|e| &e.steps);
    let uses = steps
        .clone()
        .filter(|s| &*s.matched_expression == "I deposit {money}")
        .count();
    assert!(uses >= 2, "{plan:#?}");
    assert_eq!(count(b"I deposit {money}"), 1);
    assert_eq!(count(b"The balance is {money}"), 1);
    // Several examples stand under "Deposits", and the title above it.
    let under = |heading: &str| {
        (plan.examples.iter())
            .filter(|e| e.scope_stack.iter().any(|h| h == heading))
            .count()
    };
    let scopes = PackedExamples::of(&plan.examples).scopes().to_vec();
    let lists = |heading: &str| {
        scopes
            .iter()
            .filter(|s| s.iter().any(|h| h == heading))
            .count()
    };
    for heading in ["Ledger — the book fund", "Deposits", "Orders"] {
        assert_eq!(count(heading.as_bytes()), lists(heading), "{heading}");
    }
    assert!(lists("Deposits") < under("Deposits"), "{scopes:#?}");

    // A step whose expression is not its index's (no registry makes one)
    // still reads back as it was.
    let mut odd = plan.clone();
    let first = &mut odd.examples[0].steps[0];
    first.matched_expression = Arc::from("I deposit {money} twice");
    let bytes = codec::encode(&odd, &candidates);
    assert_eq!(
        codec::decode(&bytes),
        Some((odd.clone(), candidates.clone()))
    );
    let packed = PackedExamples::pack(odd.examples.clone());
    assert_eq!(packed.unpack(0).as_ref(), Some(&odd.examples[0]));
}

/// What the byte loop of `Reader::num` reads: the reference its quick
/// paths (one byte, two bytes) must agree with.
fn num_by_the_loop(bytes: &[u8]) -> Option<(u64, usize)> {
    let (mut n, mut shift) = (0u64, 0u32);
    for (i, &b) in bytes.iter().enumerate() {
        if shift == 63 && b > 1 {
            return None;
        }
        n |= u64::from(b & 0x7f) << shift;
        if b < 0x80 {
            return Some((n, i + 1));
        }
        shift += 7;
        if shift > 63 {
            return None;
        }
    }
    None
}

#[test]
fn numbers_read_back_as_written_and_as_the_loop_reads_any_bytes() {
    use super::read::Reader;
    use super::write::Writer;
    let edges = [0, 1, 127, 128, 255, 16_383, 16_384, 2_097_151, 2_097_152];
    for n in edges.into_iter().chain([u64::from(u32::MAX), u64::MAX]) {
        let mut w = Writer(Vec::new());
        w.num(n);
        let mut r = Reader::new(&w.0);
        assert_eq!(r.num(), Some(n), "{n}");
        assert!(r.done(), "{n}");
    }
    // Every one- and two-byte sequence, and a third byte after it (what
    // the quick paths see): the same number and length as the loop, or
    // refused alike.
    for first in 0..=255u8 {
        for second in 0..=255u8 {
            let bytes = [first, second, 0x01];
            let mut r = Reader::new(&bytes);
            let read = r.num().map(|n| (n, 3 - r.remaining()));
            assert_eq!(read, num_by_the_loop(&bytes), "{bytes:?}");
        }
        let mut r = Reader::new(std::slice::from_ref(&first));
        let read = r.num().map(|n| (n, 1 - r.remaining()));
        assert_eq!(read, num_by_the_loop(&[first]), "{first}");
    }
}

/// Six numbers as the loop reads them, each within `u32`: what
/// `Reader::span` must read (in the order `Writer::span` writes them),
/// with how many bytes.
fn span_by_the_loop(bytes: &[u8]) -> Option<(Vec<u32>, usize)> {
    let (mut numbers, mut at) = (Vec::new(), 0);
    while numbers.len() < 6 {
        let (n, len) = num_by_the_loop(&bytes[at..])?;
        numbers.push(u32::try_from(n).ok()?);
        at += len;
    }
    Some((numbers, at))
}

#[test]
fn spans_and_counts_read_as_the_loop_reads_any_bytes() {
    use super::read::Reader;
    use super::write::Writer;
    // One-, two- and longer numbers at every place of a span, cut short
    // anywhere, and numbers past 32 bits.
    let mut cases: Vec<Vec<u8>> = Vec::new();
    for first in 0..=255u8 {
        for second in [0x00, 0x01, 0x7f, 0x80, 0xff] {
            for place in 0..6 {
                let mut bytes = vec![0x05; 8];
                bytes.splice(place..place, [first, second]);
                cases.push(bytes);
            }
        }
    }
    cases.push([&[0x80u8, 0x80, 0x01][..], &[1; 5]].concat());
    cases.push([&[0xffu8, 0xff, 0xff, 0xff, 0x0f][..], &[1; 5]].concat());
    cases.push([&[0xffu8, 0xff, 0xff, 0xff, 0x10][..], &[1; 5]].concat());
    for whole in cases.clone() {
        for end in 0..whole.len() {
            cases.push(whole[..end].to_vec());
        }
    }
    for bytes in &cases {
        let mut r = Reader::new(bytes);
        let read = r.span().map(|span| {
            // The span's numbers as the writer writes them.
            let mut w = Writer(Vec::new());
            w.span(&span);
            let numbers = span_by_the_loop(&w.0).map(|(n, _)| n);
            (numbers.unwrap_or_default(), bytes.len() - r.remaining())
        });
        assert_eq!(read, span_by_the_loop(bytes), "{bytes:?}");
        // A count: a number no larger than the bytes after it.
        let mut r = Reader::new(bytes);
        let count = r.len().map(|n| (n, bytes.len() - r.remaining()));
        let by_loop = num_by_the_loop(bytes).and_then(|(n, len)| {
            let n = usize::try_from(n).ok()?;
            (n <= bytes.len() - len).then_some((n, len))
        });
        assert_eq!(count, by_loop, "{bytes:?}");
    }
}
