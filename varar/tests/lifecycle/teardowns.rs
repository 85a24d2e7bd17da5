//! State teardown: newest first, after a pass, a failure or a panic; failing teardowns.

use crate::support::{Project, failed, failure_at};
use crate::{line_of, take, yield_now};

mod teardown {
    use std::sync::Mutex;

    use varar::stimulus;

    pub static LOG: Mutex<Vec<String>> = Mutex::new(Vec::new());

    fn log(entry: String) {
        LOG.lock().unwrap().push(entry);
    }

    pub struct First(String);
    pub struct Second(String);
    pub struct Fragile;
    pub struct Brittle;

    #[varar::state]
    fn first() -> First {
        First(String::new())
    }

    #[varar::state]
    async fn second() -> Second {
        Second(String::new())
    }

    #[derive(Default)]
    pub struct Plain;

    #[varar::teardown]
    fn close_first(first: First) {
        log(format!("first:{}", first.0));
    }

    #[varar::teardown]
    async fn close_second(second: Second) -> Result<(), String> {
        super::yield_now().await;
        log(format!("second:{}", second.0));
        Ok(())
    }

    #[varar::state]
    fn fragile() -> Fragile {
        Fragile
    }

    #[varar::teardown]
    async fn close_fragile(_: Fragile) -> Result<(), String> {
        Err("the socket is already closed".to_string())
    }

    #[varar::state]
    fn brittle() -> Brittle {
        Brittle
    }

    #[varar::teardown]
    fn close_brittle(_: Brittle) {
        panic!("brittle broke");
    }

    #[stimulus("I am {word} today")]
    fn name(first: &mut First, who: String) {
        first.0 = who;
    }

    #[stimulus("{word} opens the second")]
    async fn open_second(second: &mut Second, who: String) {
        second.0 = who;
    }

    #[stimulus("I panic")]
    fn panics(_: &Plain) {
        panic!("step panicked");
    }

    #[stimulus("I fail")]
    async fn fails() -> Result<(), String> {
        Err("step failed".to_string())
    }

    #[stimulus("I touch the fragile thing")]
    fn touch(_: &mut Fragile) {}

    #[stimulus("I touch the brittle thing")]
    fn touch_brittle(_: &Brittle) {}
}

const TEARDOWN: &str = "\
# Teardown

## Passing

I am ann today. ann opens the second.

## Panicking

I am bob today. bob opens the second. I panic.

## Failing

I am cy today. cy opens the second. I fail.

## A failing teardown

I am dee today. I touch the fragile thing.

## A failing teardown after a failure

I touch the fragile thing. I fail.

## A panicking teardown

I touch the brittle thing.
";

#[test]
fn states_are_torn_down_newest_first_whatever_happened() {
    let p = Project::new(&[("varar/teardown.md", TEARDOWN)]);
    let (code, log) = p.run("lifecycle::teardowns::teardown", &["--test-threads", "1"]);
    assert_eq!(code, failed(), "{log}");
    let torn = take(&teardown::LOG);
    for who in ["ann", "bob", "cy"] {
        let second = torn.iter().position(|e| *e == format!("second:{who}"));
        let first = torn.iter().position(|e| *e == format!("first:{who}"));
        assert!(
            matches!((second, first), (Some(s), Some(f)) if s + 1 == f),
            "{who}: second, then first: {torn:?}"
        );
    }
    assert!(torn.contains(&"first:dee".to_string()), "{torn:?}");
    let r = p.results("varar/teardown.md");
    assert_eq!(failure_at(&r, line_of(TEARDOWN, "I am ann today")), None);
    assert_eq!(
        failure_at(&r, line_of(TEARDOWN, "I am bob today")).as_deref(),
        Some("step panicked")
    );
    assert_eq!(
        failure_at(&r, line_of(TEARDOWN, "I am cy today")).as_deref(),
        Some("step failed")
    );
    // A teardown failure fails an example that otherwise passed, anchored
    // on the step that made the state.
    let dee = line_of(TEARDOWN, "I am dee today");
    assert_eq!(
        failure_at(&r, dee).as_deref(),
        Some("teardown of Fragile failed: the socket is already closed")
    );
    assert!(
        log.contains(&format!(
            "varar/teardown.md:{dee}:17: teardown of Fragile failed"
        )),
        "{log}"
    );
    // After the example's own failure, it stays the recorded failure and
    // the teardown text follows in the output.
    let both = line_of(TEARDOWN, "I touch the fragile thing. I fail");
    assert_eq!(failure_at(&r, both).as_deref(), Some("step failed"));
    assert!(
        log.contains("also: teardown of Fragile failed: the socket is already closed"),
        "{log}"
    );
    assert_eq!(
        failure_at(&r, line_of(TEARDOWN, "I touch the brittle")).as_deref(),
        Some("teardown of Brittle failed: brittle broke")
    );
}
