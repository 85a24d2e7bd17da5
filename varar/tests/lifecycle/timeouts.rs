//! Timeouts: a blocking step, a pending future, a step that returns late.

use std::time::{Duration, Instant};

use crate::support::{Project, failed, failure_at};
use crate::{line_of, take};

mod stuck {
    use std::sync::Mutex;

    use varar::stimulus;

    pub static LOG: Mutex<Vec<String>> = Mutex::new(Vec::new());

    pub struct Guard(String);

    #[varar::state]
    fn guard() -> Guard {
        Guard(String::new())
    }

    #[varar::teardown]
    fn release(guard: Guard) {
        LOG.lock().unwrap().push(guard.0);
    }

    #[stimulus("I am {word} today")]
    fn name(guard: &mut Guard, who: String) {
        guard.0 = who;
    }

    #[stimulus("I block forever")]
    fn block(_: &mut Guard) {
        loop {
            std::thread::park();
        }
    }

    #[stimulus("I wait forever")]
    async fn wait(_: &mut Guard) {
        std::future::pending::<()>().await;
    }

    #[stimulus("I return late")]
    fn late(_: &mut Guard) {
        std::thread::sleep(std::time::Duration::from_millis(900));
    }

    #[stimulus("I am quick")]
    fn quick(_: &Guard) {}
}

const TIMEOUTS: &str = "\
# Timeouts

## Blocking

I am blocker today. I block forever. I am quick.

## Waiting

I am waiter today. I wait forever.

## Late

I am late today. I return late.

## Quick

I am speedy today. I am quick.
";

#[test]
fn a_stuck_example_times_out_at_its_step_and_the_run_ends() {
    let p = Project::new(&[("varar/timeouts.md", TIMEOUTS)]);
    let start = Instant::now();
    let (code, log) = p.run_with("lifecycle::timeouts::stuck", &[], |r| {
        r.timeout(Duration::from_millis(300))
    });
    assert_eq!(code, failed(), "{log}");
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "the run must not wait for the blocked thread"
    );
    let r = p.results("varar/timeouts.md");
    assert_eq!(
        failure_at(&r, line_of(TIMEOUTS, "I am blocker today")).as_deref(),
        Some("timed out after 300ms in step \"I block forever\"")
    );
    let blocker = line_of(TIMEOUTS, "I am blocker today");
    assert!(
        log.contains(&format!(
            "varar/timeouts.md:{blocker}:21: timed out after 300ms in step \"I block forever\""
        )),
        "anchored on the stuck step\n{log}"
    );
    assert_eq!(
        failure_at(&r, line_of(TIMEOUTS, "I am waiter today")).as_deref(),
        Some("timed out after 300ms in step \"I wait forever\"")
    );
    assert_eq!(
        failure_at(&r, line_of(TIMEOUTS, "I am late today")).as_deref(),
        Some("timed out after 300ms in step \"I return late\"")
    );
    assert_eq!(failure_at(&r, line_of(TIMEOUTS, "I am speedy today")), None);
    // The async step's future was dropped and its state torn down; the
    // late step's state is torn down as soon as the step returns; the
    // blocked one's never.
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut torn = Vec::new();
    while Instant::now() < deadline {
        torn.extend(take(&stuck::LOG));
        if torn.contains(&"late".to_string()) {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    torn.sort();
    assert_eq!(torn, ["late", "speedy", "waiter"]);
}
