use super::*;
use crate::compare::tests::support::{
    V, doc_string, map, row_binding, span, step, table, with_arg,
};
use crate::step::{ArgValue, StepError};
use varar_core::failure::FailureKind;

mod explained;
mod rows;

#[derive(Default)]
struct Count(i64);

#[derive(Default)]
struct Pair {
    a: Option<i64>,
    b: Option<i64>,
}

/// The state of the current file, created from `Default` on first use (the
/// executor prepares states from routes; these hand-written handlers have
/// none).
fn lazy<S: Default + Send + 'static>(world: &mut World) -> &mut S {
    if !world.has(std::any::TypeId::of::<S>()) {
        world.provide(S::default());
    }
    world.state_mut::<S>().unwrap()
}

fn one(v: V) -> Result<Returned, StepError> {
    Ok(Returned::One(Box::new(v)))
}

fn increment(world: &mut World, _: &Invocation<'_>) -> Result<Returned, StepError> {
    lazy::<Count>(world).0 += 1;
    Ok(Returned::Nothing)
}

fn read_count(world: &mut World, _: &Invocation<'_>) -> Result<Returned, StepError> {
    one(V::Int(lazy::<Count>(world).0))
}

fn set_b(world: &mut World, _: &Invocation<'_>) -> Result<Returned, StepError> {
    lazy::<Pair>(world).b = Some(2);
    Ok(Returned::Nothing)
}

/// `S` by value: the returned state replaces the old one completely.
fn replace_with_a(world: &mut World, _: &Invocation<'_>) -> Result<Returned, StepError> {
    lazy::<Pair>(world);
    let old = world.take_state::<Pair>().unwrap();
    world.put_state(Pair {
        a: Some(old.a.unwrap_or(0) + 1),
        b: None,
    });
    Ok(Returned::Nothing)
}

/// Sensor with two slots: `a is {int} and b is {int}`, `-1` for unset.
fn read_pair(world: &mut World, _: &Invocation<'_>) -> Result<Returned, StepError> {
    let p = lazy::<Pair>(world);
    Ok(Returned::Many(vec![
        Box::new(V::Int(p.a.unwrap_or(-1))),
        Box::new(V::Int(p.b.unwrap_or(-1))),
    ]))
}

fn panics_str(_: &mut World, _: &Invocation<'_>) -> Result<Returned, StepError> {
    panic!("division by zero")
}

fn panics_string(_: &mut World, inv: &Invocation<'_>) -> Result<Returned, StepError> {
    panic!("cannot divide {:?} by zero", inv.args.get(0))
}

fn panics_other(_: &mut World, _: &Invocation<'_>) -> Result<Returned, StepError> {
    std::panic::panic_any(42_u8)
}

fn fails(_: &mut World, _: &Invocation<'_>) -> Result<Returned, StepError> {
    Err(StepError::new("the library refused"))
}

fn nothing(_: &mut World, _: &Invocation<'_>) -> Result<Returned, StepError> {
    Ok(Returned::Nothing)
}

fn returns_number(_: &mut World, _: &Invocation<'_>) -> Result<Returned, StepError> {
    one(V::Int(5))
}

/// Reports whether the quiet flag is set while a step runs.
fn reports_quiet_flag(_: &mut World, _: &Invocation<'_>) -> Result<Returned, StepError> {
    one(V::Bool(crate::drive::in_step()))
}

/// Echoes its trailing table's data rows, after checking the header came first.
fn echo_table(_: &mut World, inv: &Invocation<'_>) -> Result<Returned, StepError> {
    let t = inv.table.ok_or_else(|| StepError::new("no table"))?;
    if t.header() != ["name", "n"] {
        return Err(StepError::new(format!("header was {:?}", t.header())));
    }
    let rows = t
        .data_rows()
        .iter()
        .map(|r| V::List(r.iter().map(|c| V::Str(c.clone())).collect()));
    one(V::List(rows.collect()))
}

fn echo_doc(_: &mut World, inv: &Invocation<'_>) -> Result<Returned, StepError> {
    let d = inv
        .doc_string
        .ok_or_else(|| StepError::new("no doc string"))?;
    one(V::Str(d.content.clone()))
}

/// Row sensor: returns `score` 99 whatever the row, and echoes the grade.
fn report_row(_: &mut World, inv: &Invocation<'_>) -> Result<Returned, StepError> {
    let row = inv.row.ok_or_else(|| StepError::new("no row"))?;
    let grade = row.get("grade").unwrap_or_default();
    one(map(&[
        ("score", V::Str("99".into())),
        ("grade", V::Str(grade.into())),
    ]))
}

type SyncFn = fn(&mut World, &Invocation<'_>) -> Result<Returned, StepError>;

fn target(role: Role, file: &'static str, handler: SyncFn) -> StepTarget<'static> {
    StepTarget {
        role,
        expression: "",
        file,
        handler: Some(Handler::Sync(handler)),
        trailing: Trailing::None,
        route: None,
    }
}

/// The registry of these tests; the constants name its indices.
const INC_A: usize = 0;
const READ_A: usize = 1;
const READ_B: usize = 2;
const SET_B: usize = 3;
const REPLACE: usize = 4;
const READ_PAIR: usize = 5;
const PANIC_STR: usize = 6;
const PANIC_STRING: usize = 7;
const PANIC_OTHER: usize = 8;
const FAILS: usize = 9;
const NOTHING: usize = 10;
const STIMULUS_NUMBER: usize = 11;
const QUIET: usize = 12;
const ECHO_TABLE: usize = 13;
const ECHO_DOC: usize = 14;
const REPORT_ROW: usize = 15;
const NO_HANDLER: usize = 16;
const NEEDS_TABLE: usize = 17;
const NEEDS_DOC: usize = 18;
const NEEDS_ROW: usize = 19;

fn registry() -> Vec<StepTarget<'static>> {
    use Role::{Sensor, Stimulus};
    let with = |mut t: StepTarget<'static>, trailing| {
        t.trailing = trailing;
        t
    };
    vec![
        target(Stimulus, "tests/a.steps.rs", increment),
        target(Sensor, "tests/a.steps.rs", read_count),
        target(Sensor, "tests/b.steps.rs", read_count),
        target(Stimulus, "tests/a.steps.rs", set_b),
        target(Stimulus, "tests/a.steps.rs", replace_with_a),
        target(Sensor, "tests/a.steps.rs", read_pair),
        target(Stimulus, "tests/a.steps.rs", panics_str),
        target(Stimulus, "tests/a.steps.rs", panics_string),
        target(Stimulus, "tests/a.steps.rs", panics_other),
        target(Stimulus, "tests/a.steps.rs", fails),
        target(Stimulus, "tests/a.steps.rs", nothing),
        target(Stimulus, "tests/a.steps.rs", returns_number),
        target(Sensor, "tests/a.steps.rs", reports_quiet_flag),
        with(
            target(Sensor, "tests/a.steps.rs", echo_table),
            Trailing::Table,
        ),
        with(
            target(Sensor, "tests/a.steps.rs", echo_doc),
            Trailing::DocString,
        ),
        with(
            target(Sensor, "tests/a.steps.rs", report_row),
            Trailing::Row,
        ),
        StepTarget {
            role: Sensor,
            expression: "I am only an expression",
            file: "x.rs",
            handler: None,
            trailing: Trailing::None,
            route: None,
        },
        with(target(Sensor, "tests/a.steps.rs", nothing), Trailing::Table),
        with(
            target(Sensor, "tests/a.steps.rs", nothing),
            Trailing::DocString,
        ),
        with(target(Sensor, "tests/a.steps.rs", nothing), Trailing::Row),
    ]
}

/// A step at its own line (line = ordinal + 1), text `step N`.
fn st(index: usize, ordinal: u32) -> PlannedStep {
    step(index, &format!("step {ordinal}"), 10 * ordinal, ordinal + 1)
}

/// A sensor step with one `{int}` parameter expecting `n`.
fn expects(index: usize, ordinal: u32, n: i64) -> PlannedStep {
    let s = st(index, ordinal);
    let from = s.match_span.start_offset + 5;
    with_arg(s, &n.to_string(), "int", ArgValue::Int(n.to_string()), from)
}

fn example(steps: Vec<PlannedStep>) -> PlannedExample {
    PlannedExample {
        name: "an example".into(),
        scope_stack: Vec::new().into(),
        span: span(0, 100, 1),
        expected: Expectation::Pass,
        steps,
        row: None,
        unmatched: Vec::new(),
    }
}

fn expecting_failure(steps: Vec<PlannedStep>, message: Option<&str>) -> PlannedExample {
    PlannedExample {
        expected: Expectation::Fail {
            message: message.map(str::to_string),
        },
        ..example(steps)
    }
}

fn run(ex: &PlannedExample) -> ExampleRun {
    execute(ex, registry().as_slice())
}

fn outcomes(r: &ExampleRun) -> Vec<&'static str> {
    r.steps
        .iter()
        .map(|s| match s {
            StepOutcome::Passed => "pass",
            StepOutcome::Failed(_) => "fail",
            StepOutcome::Skipped => "skipped",
        })
        .collect()
}

fn failure(r: &ExampleRun) -> (FailureKind, String) {
    match &r.failure {
        Some(f) => (f.kind(), f.to_string()),
        None => panic!("the example passed: {r:?}"),
    }
}

#[test]
fn every_example_starts_from_default_state() {
    // Bundle 02: two examples each read back 1 from a fresh counter.
    let ex = example(vec![st(INC_A, 1), expects(READ_A, 2, 1)]);
    for _ in 0..2 {
        let r = run(&ex);
        assert!(r.passed(), "{r:?}");
        assert_eq!(outcomes(&r), ["pass", "pass"]);
    }
}

#[test]
fn two_step_files_keep_separate_states() {
    let ex = example(vec![
        st(INC_A, 1),
        st(INC_A, 2),
        expects(READ_B, 3, 0),
        expects(READ_A, 4, 2),
    ]);
    let r = run(&ex);
    assert!(r.passed(), "{r:?}");
    assert_eq!(outcomes(&r), ["pass", "pass", "pass", "pass"]);
}

#[test]
fn a_stimulus_by_value_replaces_the_whole_state() {
    let pair = |a: i64, b: i64| {
        let s = st(READ_PAIR, 3);
        let s = with_arg(s, &a.to_string(), "int", ArgValue::Int(a.to_string()), 35);
        with_arg(s, &b.to_string(), "int", ArgValue::Int(b.to_string()), 38)
    };
    // `b` set by the first stimulus is gone after the replacement: no merge.
    let r = run(&example(vec![st(SET_B, 1), st(REPLACE, 2), pair(1, -1)]));
    assert!(r.passed(), "{r:?}");
    let r = run(&example(vec![st(SET_B, 1), st(REPLACE, 2), pair(1, 2)]));
    assert_eq!(
        failure(&r),
        (
            FailureKind::CellMismatch,
            "cell 2: expected 2 but was -1".into()
        )
    );
}

#[test]
fn steps_after_a_failure_are_skipped() {
    let ex = example(vec![
        st(INC_A, 1),
        st(PANIC_STR, 2),
        st(INC_A, 3),
        expects(READ_A, 4, 9),
    ]);
    let r = run(&ex);
    assert_eq!(outcomes(&r), ["pass", "fail", "skipped", "skipped"]);
    let f = r
        .failure
        .as_ref()
        .map(|f| (f.kind(), f.to_string(), f.step(), f.anchor()));
    assert_eq!(
        f,
        Some((
            FailureKind::Thrown,
            "division by zero".to_string(),
            Some(1),
            Some(ex.steps[1].match_span)
        ))
    );
    assert_eq!(
        r.steps[1],
        StepOutcome::Failed(r.failure.clone().unwrap_or_else(|| unreachable!()))
    );
}

#[test]
fn thrown_messages_come_from_errors_and_panic_payloads() {
    crate::harness::install_quiet_panic_hook();
    let with_arg_step = with_arg(
        st(PANIC_STRING, 1),
        "1",
        "int",
        ArgValue::Int("1".into()),
        15,
    );
    let cases = [
        (st(PANIC_STR, 1), "division by zero"),
        (with_arg_step, "cannot divide Some(Int(\"1\")) by zero"),
        (st(PANIC_OTHER, 1), "handler panicked"),
        (st(FAILS, 1), "the library refused"),
        (
            st(NO_HANDLER, 1),
            "no function is registered for the step \"I am only an expression\"",
        ),
        (
            st(99, 1),
            "no function is registered for the step \"step 1\"",
        ),
    ];
    for (s, want) in cases {
        let r = run(&example(vec![s]));
        assert_eq!(failure(&r), (FailureKind::Thrown, want.to_string()));
    }
}

#[test]
fn a_panic_fails_only_its_example() {
    crate::harness::install_quiet_panic_hook();
    let examples = [
        example(vec![st(PANIC_STR, 1), st(INC_A, 2)]),
        example(vec![st(INC_A, 1), expects(READ_A, 2, 1)]),
    ];
    let runs: Vec<ExampleRun> = examples.iter().map(run).collect();
    assert_eq!(
        failure(&runs[0]),
        (FailureKind::Thrown, "division by zero".into())
    );
    assert!(runs[1].passed(), "{:?}", runs[1]);
    assert!(
        !crate::drive::in_step(),
        "the flag is reset after a caught panic"
    );
    // The payload reaches the run-result file's failure message.
    let result = varar_core::results::example_result(&examples[0], &runs[0], "a.md");
    let message = result.failure.map(|f| f.message);
    assert_eq!(message.as_deref(), Some("division by zero"));
}

#[test]
fn the_quiet_flag_is_set_only_inside_a_step() {
    assert!(!crate::drive::in_step());
    let s = with_arg(
        st(QUIET, 1),
        "true",
        "bool",
        ArgValue::Text("true".into()),
        15,
    );
    // `V::Bool` never equals a text value, so the actual shows the flag.
    let r = run(&example(vec![s]));
    assert_eq!(failure(&r).1, "cell 1: expected true but was true");
    assert!(!crate::drive::in_step());
}

#[test]
fn expected_failure_inversion() {
    let failing = || vec![st(INC_A, 1), st(FAILS, 2)];
    // 1. Nothing failed: unexpected pass at the last step, steps stay pass.
    let ex = expecting_failure(vec![st(INC_A, 1), st(NOTHING, 2)], Some("boom"));
    let r = run(&ex);
    assert_eq!(outcomes(&r), ["pass", "pass"]);
    let f = r.failure.as_ref().map(|f| {
        (
            f.kind(),
            f.to_string(),
            f.anchor(),
            f.step(),
            f.cells().len(),
        )
    });
    assert_eq!(
        f,
        Some((
            FailureKind::UnexpectedPass,
            "expected the example to fail, but it passed".to_string(),
            Some(ex.steps[1].match_span),
            Some(1),
            0
        ))
    );
    // 2. A failure and no expected message: passes, the step keeps its failure.
    let r = run(&expecting_failure(failing(), None));
    assert!(r.passed());
    assert_eq!(outcomes(&r), ["pass", "fail"]);
    // 3. The message contains the expected text (case-sensitive substring).
    assert!(run(&expecting_failure(failing(), Some("library"))).passed());
    // 4. It does not: the original failure stands.
    let r = run(&expecting_failure(failing(), Some("Library")));
    assert_eq!(
        failure(&r),
        (FailureKind::Thrown, "the library refused".into())
    );
    assert_eq!(r.failure.as_ref().and_then(|f| f.step()), Some(1));
}

#[test]
fn trailing_tables_and_doc_strings_are_the_last_argument() {
    let mut t = st(ECHO_TABLE, 1);
    t.data_table = Some(table(&[&["name", "n"], &["Ada", "7"]], 30, 3));
    assert!(run(&example(vec![t.clone()])).passed());
    t.data_table = Some(table(
        &[&["name", "n"], &["Ada", "7"], &["Bob", "8"]],
        30,
        3,
    ));
    assert!(run(&example(vec![t])).passed());

    let mut d = st(ECHO_DOC, 1);
    d.doc_string = Some(doc_string("hello\n", 71, 8));
    assert!(run(&example(vec![d])).passed());
}

#[test]
fn wiring_errors_are_thrown() {
    let mut with_table = st(NEEDS_DOC, 1);
    with_table.data_table = Some(table(&[&["a"], &["1"]], 30, 3));
    let mut with_doc = st(NEEDS_TABLE, 1);
    with_doc.doc_string = Some(doc_string("x\n", 30, 3));
    let cases = [
        (
            st(NEEDS_TABLE, 1),
            "this step has 0 slot(s), but the function takes 1",
        ),
        (
            with_arg(st(NEEDS_DOC, 1), "1", "int", ArgValue::Int("1".into()), 15),
            "this step has 1 slot(s), but the function takes 2",
        ),
        (
            with_table,
            "this step has a data table, but the function takes a doc string",
        ),
        (
            with_doc,
            "this step has a doc string, but the function takes a data table",
        ),
        (
            st(NEEDS_ROW, 1),
            "this step is not bound to a header-bound table row, but the function takes a row",
        ),
    ];
    for (s, want) in cases {
        assert_eq!(
            failure(&run(&example(vec![s]))),
            (FailureKind::Thrown, want.to_string())
        );
    }
}

#[test]
fn a_stimulus_returning_a_value_is_a_return_shape_error() {
    let r = run(&example(vec![st(STIMULUS_NUMBER, 1)]));
    assert_eq!(
        failure(&r),
        (
            FailureKind::ReturnShape,
            "a stimulus must return the complete next state, or nothing to leave it unchanged"
                .into()
        )
    );
}

#[test]
fn a_built_registry_keys_states_by_the_definition_file() {
    use crate::linked::{LinkedSteps, StepCode};
    use varar_core::registry::{Registry, StepSpec};
    let spec = |expression: &str, role, file: &str, handler: SyncFn| {
        let code = StepCode {
            handler: Handler::Sync(handler),
            state: None,
        };
        (
            StepSpec::new(expression, role, file, 1, Trailing::None),
            code,
        )
    };
    let (specs, code): (Vec<StepSpec>, Vec<StepCode>) = [
        spec(
            "I increment",
            Role::Stimulus,
            "tests/steps/counter.steps.rs",
            increment,
        ),
        spec(
            "the counter is {int}",
            Role::Sensor,
            "tests/steps/counter.steps.rs",
            read_count,
        ),
        spec(
            "the other counter is {int}",
            Role::Sensor,
            "tests/steps/other.steps.rs",
            read_count,
        ),
    ]
    .into_iter()
    .unzip();
    let registry = Registry::build(Vec::new(), specs).unwrap_or_else(|e| panic!("{e}"));
    let registry = LinkedSteps::from_parts(registry, code);
    // Same state type `Count`, two files: the increments are invisible to the other file.
    let ex = example(vec![st(0, 1), st(0, 2), expects(2, 3, 0), expects(1, 4, 2)]);
    let r = execute(&ex, &registry);
    assert!(r.passed(), "{r:?}");
    let ex = example(vec![st(0, 1), expects(2, 2, 1)]);
    let r = execute(&ex, &registry);
    assert_eq!(
        failure(&r),
        (
            FailureKind::CellMismatch,
            "cell 1: expected 1 but was 0".into()
        )
    );
}
