//! Failures that explain themselves (issue 10): where a step panicked, and
//! what is attached to a sensor that does not take it.

use super::*;

#[test]
fn issue10_9_a_table_the_sensor_does_not_take_says_it_is_attached_and_where() {
    let mut s = st(NOTHING, 1);
    s.data_table = Some(table(&[&["a"], &["1"]], 30, 3));
    // A sensor that answers a slot, but not the table's: the table check.
    let mut sensor = s.clone();
    sensor.step = READ_B;
    assert_eq!(
        failure(&run(&example(vec![sensor]))),
        (
            FailureKind::ReturnShape,
            "expected a table (array of rows), got number".into()
        )
    );
    // A sensor returning nothing for a table it does not take: not the
    // slot-count message, but what is attached and where.
    let reg = {
        let mut r = registry();
        r[NOTHING].role = Role::Sensor;
        r
    };
    let r = execute(&example(vec![s.clone()]), reg.as_slice());
    assert_eq!(
        failure(&r),
        (
            FailureKind::ReturnShape,
            "a table (line 3) is attached to this step, which makes it the sensor's slot 1; the \
             function does not take it and does not return a value for it: take it as the last \
             argument, or separate it from the paragraph"
                .into()
        )
    );
    // The same for a fence that is never closed.
    let mut fenced = s;
    fenced.data_table = None;
    let mut body = doc_string("rest of the file\n", 40, 5);
    body.closed = false;
    fenced.doc_string = Some(body);
    let r = execute(&example(vec![fenced]), reg.as_slice());
    let (kind, message) = failure(&r);
    assert_eq!(kind, FailureKind::ReturnShape);
    assert!(
        message.starts_with("a doc string: the fence opened on line 4 is never closed"),
        "{message}"
    );
}

#[test]
fn issue10_7_a_panic_records_where_in_the_step_it_happened() {
    crate::harness::install_quiet_panic_hook();
    let r = run(&example(vec![st(PANIC_STR, 1)]));
    let failure = r.failure.unwrap_or_else(|| panic!("the step panics"));
    assert_eq!(failure.to_string(), "division by zero", "message unchanged");
    let location = failure
        .panic()
        .map(|s| s.location.clone())
        .unwrap_or_default();
    assert!(
        location.contains("execute/tests/mod.rs:"),
        "the panic's own file:line:col, got {location:?}"
    );
    // An `Err` is not a panic: it has no site.
    let r = run(&example(vec![st(FAILS, 1)]));
    assert_eq!(r.failure.and_then(|f| f.panic().cloned()), None);
}
