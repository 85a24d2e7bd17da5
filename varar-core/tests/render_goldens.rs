//! Rendering goldens (STYLE §2.5 item 3): every failing item is rendered
//! plain and coloured, and both are checked in under `tests/snapshots/render/`.
//!
//! A mismatch fails with the whole actual text and writes it next to the
//! temp dir as `<name>.txt.new`; review it and copy it over the snapshot.

use varar_core::drift::Drift;
use varar_core::failure::{Attached, CellDiff, Failure, PanicSite, Shape};
use varar_core::plan::{Diagnostic, DiagnosticCode, Expectation, PlannedExample, PlannedStep};
use varar_core::render::{Styles, report};
use varar_core::source::{Source, Span};

const OATH: &str = "\
# Bakery

The bakery opens at seven.

I put 2 buns in the basket. The total is £1.60.

Given the menu is:

| item | price |
| ---- | ----- |
| bun  | £0.80 |

The receipt reads:

```text
2 x bun
```

I drop the tray.

I weigh the dough. The dough rises twice.
";

fn src() -> Source<'static> {
    Source::new(OATH)
}

/// The span of the first occurrence of `needle` (after `from` bytes).
fn span_of(needle: &str, from: usize) -> Span {
    let s = src();
    let start = OATH[from..].find(needle).expect("needle in oath") + from;
    s.span_of_bytes(start, start + needle.len())
}

fn example(name: &str, steps: Vec<Span>, expected: Expectation) -> PlannedExample {
    let first = steps.first().copied().unwrap_or_default();
    PlannedExample {
        name: name.to_string(),
        scope_stack: vec!["Bakery".into()].into(),
        span: first,
        expected,
        steps: steps
            .into_iter()
            .enumerate()
            .map(|(i, span)| PlannedStep {
                text: src().slice_utf16(span.start_offset, span.end_offset).into(),
                match_span: span,
                param_spans: Vec::new(),
                inner_spans: Vec::new(),
                step: i,
                matched_expression: "".into(),
                args: Vec::new(),
                data_table: None,
                doc_string: None,
                doc_path: None,
            })
            .collect(),
        row: None,
        unmatched: Vec::new(),
    }
}

fn mismatch(cells: Vec<CellDiff>) -> Failure {
    Failure::CellMismatch { step: 0, cells }
}

fn thrown(message: &str, at: Span, panic: Option<PanicSite>) -> Failure {
    Failure::Thrown {
        at: Some((0, at)),
        message: message.to_string(),
        panic,
    }
}

/// A named way to render one failing item.
type Case = (&'static str, Box<dyn Fn(&Styles) -> String>);

fn cases() -> Vec<Case> {
    let put = span_of("I put 2 buns in the basket", 0);
    let total = span_of("The total is £1.60", 0);
    let fee = span_of("£1.60", 0);
    let menu = span_of("Given the menu is", 0);
    let price = span_of("£0.80", 0);
    let receipt = span_of("The receipt reads", 0);
    let body = span_of("2 x bun\n", 0);
    let drop = span_of("I drop the tray", 0);
    let prose = span_of("The bakery opens at seven.", 0);
    let weigh = span_of("I weigh the dough", 0);
    let rises = span_of("The dough rises twice.", 0);
    let pass = Expectation::Pass;
    vec![
        ("cell-mismatch-inline", {
            let ex = example(
                "I put 2 buns in the basket. The total is £1.60",
                vec![put, total],
                pass.clone(),
            );
            let f = mismatch(vec![CellDiff {
                column: "cell 1".into(),
                expected: "£1.60".into(),
                actual: "£1.80".into(),
                span: fee,
            }]);
            Box::new(move |st: &Styles| {
                report::failure_in(("varar/bakery.md", Some(&src())), None, &ex, &f, st)
            })
        }),
        ("cell-mismatch-table", {
            let ex = example("Given the menu is:", vec![menu], pass.clone());
            let f = mismatch(vec![CellDiff {
                column: "price".into(),
                expected: "£0.80".into(),
                actual: "£0.90".into(),
                span: price,
            }]);
            Box::new(move |st: &Styles| {
                report::failure_in(("varar/bakery.md", Some(&src())), None, &ex, &f, st)
            })
        }),
        ("cell-mismatch-doc-string", {
            let ex = example("The receipt reads:", vec![receipt], pass.clone());
            let f = mismatch(vec![CellDiff {
                column: "doc string".into(),
                expected: "\"2 x bun\\n\"".into(),
                actual: "\"3 x bun\\n\"".into(),
                span: body,
            }]);
            Box::new(move |st: &Styles| {
                report::failure_in(("varar/bakery.md", Some(&src())), None, &ex, &f, st)
            })
        }),
        ("return-shape", {
            let ex = example("The receipt reads:", vec![receipt], pass.clone());
            let f = Failure::ReturnShape {
                step: 0,
                span: receipt,
                shape: Shape::GotNothing { slots: 1 },
            };
            Box::new(move |st: &Styles| {
                report::failure_in(("varar/bakery.md", Some(&src())), None, &ex, &f, st)
            })
        }),
        ("thrown", {
            let ex = example("I drop the tray", vec![drop], pass.clone());
            let f = thrown("the tray broke\nall 12 buns are on the floor", drop, None);
            Box::new(move |st: &Styles| {
                report::failure_in(("varar/bakery.md", Some(&src())), None, &ex, &f, st)
            })
        }),
        ("thrown-not-the-expected-message", {
            let ex = example(
                "I drop the tray",
                vec![drop],
                Expectation::Fail {
                    message: Some("out of flour".into()),
                },
            );
            let f = thrown("the tray broke", drop, None);
            Box::new(move |st: &Styles| {
                report::failure_in(("varar/bakery.md", Some(&src())), None, &ex, &f, st)
            })
        }),
        ("unexpected-pass", {
            let ex = example(
                "I drop the tray",
                vec![drop],
                Expectation::Fail { message: None },
            );
            let f = Failure::UnexpectedPass {
                last: Some((0, drop)),
            };
            Box::new(move |st: &Styles| {
                report::failure_in(("varar/bakery.md", Some(&src())), None, &ex, &f, st)
            })
        }),
        ("issue10_7-panic", {
            let ex = example("I drop the tray", vec![drop], pass.clone());
            let site = PanicSite {
                location: "tests/steps/tray.rs:42:9".into(),
                backtrace: None,
            };
            let f = thrown(
                "called `Option::unwrap()` on a `None` value",
                drop,
                Some(site),
            );
            Box::new(move |st: &Styles| {
                report::failure_in(("varar/bakery.md", Some(&src())), None, &ex, &f, st)
            })
        }),
        ("issue10_7-panic-backtrace", {
            let ex = example("I drop the tray", vec![drop], pass.clone());
            let site = PanicSite {
                location: "tests/steps/tray.rs:42:9".into(),
                backtrace: Some(
                    "   6: oaths::steps::tray::carry\n             at ./tests/steps/tray.rs:42:9\n"
                        .into(),
                ),
            };
            let f = thrown(
                "called `Option::unwrap()` on a `None` value",
                drop,
                Some(site),
            );
            Box::new(move |st: &Styles| {
                report::failure_in(("varar/bakery.md", Some(&src())), None, &ex, &f, st)
            })
        }),
        ("issue10_9-table-attached", {
            let ex = example("Given the menu is:", vec![menu], pass.clone());
            let f = Failure::ReturnShape {
                step: 0,
                span: menu,
                shape: Shape::AttachmentNotTaken {
                    attached: Attached::Table,
                    line: 9,
                    params: 0,
                },
            };
            Box::new(move |st: &Styles| {
                report::failure_in(("varar/bakery.md", Some(&src())), None, &ex, &f, st)
            })
        }),
        ("issue10_9-unmatched-sentences", {
            let mut ex = example("I weigh the dough", vec![weigh], pass.clone());
            ex.unmatched = vec![rises];
            let f = thrown("the scale is broken", weigh, None);
            Box::new(move |st: &Styles| {
                report::failure_in(("varar/bakery.md", Some(&src())), None, &ex, &f, st)
            })
        }),
        ("drift", {
            let d = Drift {
                name: "The bakery opens at seven".into(),
                line: 3,
                span: prose,
            };
            Box::new(move |st: &Styles| report::drift("varar/bakery.md", &src(), &d, st))
        }),
        ("diagnostic", {
            let d = Diagnostic {
                code: DiagnosticCode::AmbiguousMatch,
                span: put,
                message: "Ambiguous step: \"I put 2 buns in the basket\"\nMatched by:\n  'I put {int} buns in the basket'    at steps.rs:3\n  'I put {int} {word} in the basket'    at steps.rs:9".into(),
                doc_path: None,
            };
            Box::new(move |st: &Styles| report::diagnostic("varar/bakery.md", &src(), &d, st))
        }),
    ]
}

fn snapshot(name: &str) -> Option<String> {
    let path = format!(
        "{}/tests/snapshots/render/{name}.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path).ok()
}

#[test]
fn every_failing_item_renders_as_checked_in() {
    let mut problems = Vec::new();
    for (name, render) in cases() {
        for (flavour, styles) in [
            ("plain", Styles::plain()),
            ("colored", Styles::plain().colorize()),
        ] {
            let file = format!("{name}.{flavour}");
            let actual = render(&styles);
            if snapshot(&file).as_deref() != Some(actual.as_str()) {
                let new = std::env::temp_dir().join(format!("varar-render-{file}.txt.new"));
                let _ = std::fs::write(&new, &actual);
                problems.push(format!(
                    "{file} differs (actual written to {}):\n{actual}",
                    new.display()
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn colour_never_carries_meaning() {
    let escapes = regex::Regex::new("\x1b\\[[0-9;]*m").expect("constant regex");
    for (name, render) in cases() {
        let plain = render(&Styles::plain());
        let coloured = render(&Styles::plain().colorize());
        assert!(!plain.contains('\x1b'), "{name}: plain output has escapes");
        assert!(
            coloured.contains('\x1b'),
            "{name}: coloured output has no escapes"
        );
        let stripped = escapes.replace_all(&coloured, "");
        assert_eq!(stripped, plain, "{name}: colour changed the text");
    }
}

/// A document that changed during the run has no source (issue 39): the
/// failure keeps its header, values and notes, draws no excerpt (not even
/// a blank one for a step on line 1) and names the sentences that matched
/// no step by their line alone.
#[test]
fn a_failure_without_its_document_draws_nothing_from_it() {
    let st = Styles::plain();
    let (put, fee) = (
        span_of("I put 2 buns in the basket", 0),
        span_of("£1.60", 0),
    );
    let mut ex = example("I put 2 buns", vec![put], Expectation::Pass);
    ex.unmatched = vec![span_of("The bakery opens at seven.", 0)];
    let f = mismatch(vec![CellDiff {
        column: "cell 1".into(),
        expected: "£1.60".into(),
        actual: "£1.80".into(),
        span: fee,
    }]);
    let with = report::failure_in(("varar/bakery.md", Some(&src())), None, &ex, &f, &st);
    assert!(
        with.contains("I put 2 buns in the basket. The total is"),
        "{with}"
    );
    assert!(
        with.contains("line 3: The bakery opens at seven."),
        "{with}"
    );
    let without = report::failure_in(("varar/bakery.md", None), None, &ex, &f, &st);
    assert!(without.starts_with("varar/bakery.md:5:"), "{without}");
    assert!(without.contains("£1.80"), "{without}");
    assert!(
        !without.contains("I put 2 buns in the basket. The total"),
        "{without}"
    );
    assert!(without.contains("  line 3\n"), "{without}");
    assert!(!without.contains("line 3:"), "{without}");
    // A step anchored on line 1 draws no blank excerpt either.
    let heading = span_of("# Bakery", 0);
    let ex = example("# Bakery", vec![heading], Expectation::Pass);
    let f = thrown("the oven is cold", heading, None);
    let with = report::failure_in(("varar/bakery.md", Some(&src())), None, &ex, &f, &st);
    let without = report::failure_in(("varar/bakery.md", None), None, &ex, &f, &st);
    assert!(
        with.lines().count() > without.lines().count(),
        "{with}\n---\n{without}"
    );
    assert!(!without.contains("# Bakery\n"), "{without}");
    assert!(!without.contains(" | "), "{without}");
}
