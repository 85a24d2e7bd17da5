//! Failure kinds, messages and the anchor rule (spec 30 §30.4–30.6).

mod support;

use support::span;
use varar_core::failure::*;
use varar_core::source::Span;

fn cell(column: &str, expected: &str, actual: &str, s: Span) -> CellDiff {
    CellDiff {
        column: column.into(),
        expected: expected.into(),
        actual: actual.into(),
        span: s,
    }
}

#[test]
fn kinds_have_their_trace_names() {
    let cases = [
        (FailureKind::CellMismatch, "cell-mismatch"),
        (FailureKind::ReturnShape, "return-shape"),
        (FailureKind::UnexpectedPass, "unexpected-pass"),
        (FailureKind::Thrown, "thrown"),
    ];
    for (kind, name) in cases {
        assert_eq!(kind.as_str(), name);
    }
}

#[test]
fn issue10_13_every_return_shape_displays_its_spec_text() {
    let cases: Vec<(Shape, &str)> = vec![
        (
            Shape::StimulusNotState,
            "a stimulus must return the complete next state, or nothing to leave it unchanged",
        ),
        (
            Shape::ZeroSlotValue,
            "this sensor has no parameters, data table or doc string — nothing to compare a return value against (throw to fail, return nothing to pass)",
        ),
        (
            Shape::GotNothing { slots: 1 },
            "a sensor with 1 slot(s) must return one value per slot, got nothing",
        ),
        (
            Shape::NotASequence {
                slots: 2,
                found: JsType::String,
            },
            "a sensor with 2 slots must return an array of 2 values, got string",
        ),
        (
            Shape::WrongLength { slots: 3, got: 2 },
            "sensor return must have 3 element(s), got 2",
        ),
        (
            Shape::NotATable {
                found: JsType::Number,
            },
            "expected a table (array of rows), got number",
        ),
        (
            Shape::RowCount {
                expected: 1,
                got: 2,
            },
            "expected 1 row(s), got 2",
        ),
        (
            Shape::MixedRows,
            "table rows must be all arrays or all objects",
        ),
        (
            Shape::RowWidth {
                row: 0,
                expected: 2,
                got: 3,
            },
            "row 0: expected 2 column(s), got 3",
        ),
        (
            Shape::MissingColumn {
                row: 1,
                column: "grade".into(),
            },
            "row 1: missing column \"grade\"",
        ),
        (
            Shape::NotADocString {
                found: JsType::Boolean,
            },
            "expected a doc string (string), got boolean",
        ),
        (
            Shape::RowGotNothing,
            "a header-bound row step must return a row object with one value per bound cell, got nothing",
        ),
    ];
    for (shape, want) in cases {
        assert_eq!(shape.to_string(), want);
    }
}

#[test]
fn issue10_9_an_attachment_the_function_does_not_take_is_named_with_its_line() {
    let table = Shape::AttachmentNotTaken {
        attached: Attached::Table,
        line: 9,
        params: 1,
    };
    assert_eq!(
        table.to_string(),
        "a table (line 9) is attached to this step, which makes it the sensor's slot 2; the \
         function does not take it and does not return a value for it: take it as the last \
         argument, or separate it from the paragraph"
    );
    let fence = Shape::AttachmentNotTaken {
        attached: Attached::UnterminatedFence,
        line: 4,
        params: 0,
    };
    assert!(
        fence.to_string().starts_with(
            "a doc string: the fence opened on line 4 is never closed, so it runs to the end of \
             the file, is attached to this step, which makes it the sensor's slot 1;"
        ),
        "{fence}"
    );
}

#[test]
fn issue10_13_a_mismatch_displays_its_failing_cells_and_is_anchored_at_the_first() {
    let step = span(40, 60, 5);
    let first = span(71, 77, 8);
    let second = span(80, 82, 9);
    let f = Failure::locate(
        Problem::Mismatch(vec![
            cell("after", "VÁR", "VAR", first),
            cell("after", "BDD", "bdd", second),
        ]),
        2,
        step,
    );
    assert_eq!(f.kind(), FailureKind::CellMismatch);
    assert_eq!(f.anchor(), Some(first));
    assert_eq!(f.step(), Some(2));
    assert_eq!(f.cells().len(), 2);
    assert_eq!(
        f.to_string(),
        "after: expected VÁR but was VAR; after: expected BDD but was bdd"
    );
    let one = Failure::locate(
        Problem::Mismatch(vec![cell("cell 1", "£2.55", "£2.60", first)]),
        0,
        step,
    );
    assert_eq!(one.to_string(), "cell 1: expected £2.55 but was £2.60");
}

#[test]
fn other_kinds_are_anchored_at_the_step_and_carry_no_cells() {
    let step = span(40, 60, 5);
    for (problem, kind, message) in [
        (
            Problem::Shape(Shape::MixedRows),
            FailureKind::ReturnShape,
            "table rows must be all arrays or all objects",
        ),
        (Problem::thrown("boom"), FailureKind::Thrown, "boom"),
    ] {
        let f = Failure::locate(problem, 0, step);
        assert_eq!(f.kind(), kind);
        assert_eq!(f.anchor(), Some(step));
        assert!(f.cells().is_empty());
        assert_eq!(f.to_string(), message);
    }
}

#[test]
fn unexpected_pass_points_at_the_last_step() {
    let last = span(254, 273, 9);
    let f = Failure::UnexpectedPass {
        last: Some((1, last)),
    };
    assert_eq!(f.to_string(), "expected the example to fail, but it passed");
    assert_eq!((f.anchor(), f.step()), (Some(last), Some(1)));
    assert_eq!(Failure::UnexpectedPass { last: None }.anchor(), None);
}

#[test]
fn a_panic_keeps_its_site_beside_an_unchanged_message() {
    let site = PanicSite {
        location: "tests/steps/basket.rs:42:9".into(),
        backtrace: None,
    };
    let f = Failure::locate(
        Problem::Thrown {
            message: "called `Option::unwrap()` on a `None` value".into(),
            panic: Some(site.clone()),
        },
        0,
        span(0, 4, 1),
    );
    assert_eq!(f.to_string(), "called `Option::unwrap()` on a `None` value");
    assert_eq!(f.panic(), Some(&site));
}

#[test]
fn issue34_every_text_a_step_supplies_is_bounded_and_ordinary_ones_are_untouched() {
    use varar_core::outcome::{ExampleRun, StepOutcome};
    use varar_core::untrusted::{TEXT_LIMIT, was_cut};
    let huge = "h".repeat(TEXT_LIMIT + 1);
    let thrown = Failure::locate(
        Problem::Thrown {
            message: huge.clone(),
            panic: Some(PanicSite {
                location: huge.clone(),
                backtrace: Some(huge.clone()),
            }),
        },
        0,
        span(0, 4, 1),
    );
    let run = ExampleRun {
        steps: vec![
            StepOutcome::Passed,
            StepOutcome::Failed(thrown.clone()),
            StepOutcome::Skipped,
        ],
        failure: Some(thrown),
        teardown: vec![huge.clone(), "teardown of S failed: no".into()],
    }
    .bounded();
    let Some(Failure::Thrown {
        message,
        panic: Some(site),
        ..
    }) = &run.failure
    else {
        panic!("{:?}", run.failure.map(|f| f.kind()));
    };
    for text in [
        message,
        &site.location,
        site.backtrace.as_ref().unwrap_or(&huge),
    ] {
        assert!(text.len() <= TEXT_LIMIT && was_cut(text));
    }
    assert_eq!(
        run.steps[1],
        StepOutcome::Failed(
            run.failure
                .clone()
                .unwrap_or(Failure::UnexpectedPass { last: None })
        )
    );
    assert_eq!(
        (&run.steps[0], &run.steps[2]),
        (&StepOutcome::Passed, &StepOutcome::Skipped)
    );
    assert!(was_cut(&run.teardown[0]));
    assert_eq!(run.teardown[1], "teardown of S failed: no");

    let mismatch = Failure::locate(
        Problem::Mismatch(vec![
            cell(&huge, &huge, &huge, span(0, 1, 1)),
            cell("cell 2", "£2.55", "£2.60", span(2, 3, 1)),
        ]),
        0,
        span(0, 4, 1),
    )
    .bounded();
    let cells = mismatch.cells();
    assert!(
        [&cells[0].column, &cells[0].expected, &cells[0].actual]
            .iter()
            .all(|t| t.len() <= TEXT_LIMIT && was_cut(t))
    );
    assert_eq!(cells[1], cell("cell 2", "£2.55", "£2.60", span(2, 3, 1)));
    assert!(mismatch.bounded_message().len() <= TEXT_LIMIT);

    let shape = Failure::locate(
        Problem::Shape(Shape::MissingColumn {
            row: 0,
            column: huge.clone(),
        }),
        0,
        span(0, 4, 1),
    )
    .bounded();
    assert!(shape.to_string().len() < TEXT_LIMIT + 40);
    let ordinary = Failure::locate(Problem::thrown("boom"), 0, span(0, 4, 1));
    assert_eq!(ordinary.clone().bounded(), ordinary);
    assert_eq!(ordinary.bounded_message(), "boom");
}
