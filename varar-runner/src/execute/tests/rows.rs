//! Header-bound row examples: the row object in, the row check after the loop.

use super::*;

fn row_example(index: usize) -> PlannedExample {
    let row_span = span(106, 123, 9);
    let mut s = step(index, "I report the score and grade", 0, 9);
    s.match_span = row_span;
    PlannedExample {
        name: "10 / A".into(),
        span: row_span,
        row: Some(row_binding()),
        unmatched: Vec::new(),
        ..example(vec![s])
    }
}

#[test]
fn header_bound_rows_are_checked_after_the_loop() {
    // Bundle 07: the row sensor returns score 99 for a row expecting 10.
    let r = run(&row_example(REPORT_ROW));
    let f = r.failure.clone().unwrap_or_else(|| panic!("passed"));
    assert_eq!(
        (f.kind(), f.to_string()),
        (
            FailureKind::CellMismatch,
            "score: expected 10 but was 99".into()
        )
    );
    assert_eq!((f.anchor(), f.step()), (Some(span(108, 110, 9)), Some(0)));
    assert_eq!(r.steps, vec![StepOutcome::Failed(f)]);
    // A row step returning nothing (here a stimulus) fails with the row error.
    let r = run(&row_example(NOTHING));
    assert_eq!(
        failure(&r),
        (
            FailureKind::ReturnShape,
            "a header-bound row step must return a row object with one value per bound cell, got nothing".into()
        )
    );
    assert_eq!(r.failure.and_then(|f| f.anchor()), Some(span(106, 123, 9)));
}
