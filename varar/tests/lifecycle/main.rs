//! Spec 60 in process: `async fn` steps, run-wide resources, state
//! factories, teardown and timeouts, each through the real harness
//! (`Runner::run_with`) on a throwaway project, asserting the exit code,
//! libtest's log, the run-result files and what the user's code recorded.
//!
//! These run on whichever executor the `tokio` feature of `varar` selects
//! in this build (the built-in one unless something enables it).

#[path = "../support/mod.rs"]
mod support;

mod async_steps;
mod resources;
mod teardowns;
mod timeouts;

use std::sync::Mutex;

/// The 1-based line of the first line of `text` that starts with `start`.
pub(crate) fn line_of(text: &str, start: &str) -> i64 {
    text.lines()
        .position(|l| l.starts_with(start))
        .map(|i| i as i64 + 1)
        .unwrap_or_else(|| panic!("no line starts with {start:?}"))
}

pub(crate) fn take(log: &Mutex<Vec<String>>) -> Vec<String> {
    std::mem::take(&mut *log.lock().unwrap())
}

/// A future that is pending once, so an `async fn` really suspends.
pub(crate) struct YieldNow(bool);

impl std::future::Future for YieldNow {
    type Output = ();
    fn poll(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<()> {
        if self.0 {
            std::task::Poll::Ready(())
        } else {
            self.0 = true;
            cx.waker().wake_by_ref();
            std::task::Poll::Pending
        }
    }
}

pub(crate) fn yield_now() -> YieldNow {
    YieldNow(false)
}
