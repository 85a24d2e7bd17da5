//! The built-in executor, the deadline and the explanation of tokio's
//! missing-reactor panic.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use super::{BuiltIn, Deadline, Driver, Interrupted, explain_panic, guarded};

/// A deadline that has already passed, or one far away.
struct Fixed(Option<Duration>);

impl Deadline for Fixed {
    fn remaining(&self) -> Option<Duration> {
        self.0
    }
    fn limit(&self) -> &str {
        "5s"
    }
}

/// Pending `n` times (waking itself), then ready.
struct Countdown(usize, &'static AtomicUsize);

impl std::future::Future for Countdown {
    type Output = &'static str;
    fn poll(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<&'static str> {
        self.1.fetch_add(1, Ordering::SeqCst);
        if self.0 == 0 {
            return std::task::Poll::Ready("done");
        }
        self.0 -= 1;
        cx.waker().wake_by_ref();
        std::task::Poll::Pending
    }
}

#[test]
fn the_built_in_executor_polls_until_ready_on_this_thread() {
    static POLLS: AtomicUsize = AtomicUsize::new(0);
    let driver = BuiltIn::new();
    assert_eq!(driver.block_on(Countdown(3, &POLLS)), Ok("done"));
    assert_eq!(POLLS.load(Ordering::SeqCst), 4);
    // A waker fired from another thread unparks this one.
    let (tx, rx) = std::sync::mpsc::channel::<std::task::Waker>();
    let woken = std::thread::spawn(move || {
        if let Ok(w) = rx.recv() {
            std::thread::sleep(Duration::from_millis(20));
            w.wake();
        }
    });
    let mut sent = Some(tx);
    let value = driver.block_on_unlimited(std::future::poll_fn(move |cx| match sent.take() {
        Some(tx) => {
            let _ = tx.send(cx.waker().clone());
            std::task::Poll::Pending
        }
        None => std::task::Poll::Ready(7),
    }));
    assert_eq!(value, 7);
    woken.join().unwrap();
    assert!(driver.deadline().is_none() && driver.without_tokio());
}

#[test]
fn a_passed_deadline_drops_a_pending_future() {
    let passed = Fixed(None);
    let driver = BuiltIn::with_deadline(Some(&passed));
    let mut dropped = false;
    struct OnDrop<'a>(&'a mut bool);
    impl Drop for OnDrop<'_> {
        fn drop(&mut self) {
            *self.0 = true;
        }
    }
    let guard = OnDrop(&mut dropped);
    let pending = async move {
        let _guard = guard;
        std::future::pending::<()>().await;
    };
    assert_eq!(driver.block_on(pending), Err(Interrupted));
    assert!(
        dropped,
        "the future is dropped, so what it borrowed is free"
    );
    // A ready future still completes, whatever the time.
    assert_eq!(driver.block_on(async { 1 }), Ok(1));
    let far = Fixed(Some(Duration::from_secs(60)));
    static POLLS: AtomicUsize = AtomicUsize::new(0);
    let driver = BuiltIn::with_deadline(Some(&far));
    assert_eq!(driver.block_on(Countdown(2, &POLLS)), Ok("done"));
}

#[test]
fn tokio_s_missing_reactor_panic_names_the_feature_to_enable() {
    // tokio's own text, from a real call outside any runtime.
    let message = guarded(|| {
        let _sleep = tokio::time::sleep(Duration::from_millis(1));
    })
    .expect_err("tokio panics without a runtime");
    let explained = explain_panic(message.clone(), true);
    assert!(
        explained
            .starts_with("this step needs a Tokio runtime: enable the \"tokio\" feature of varar"),
        "{explained}"
    );
    assert!(explained.ends_with(&format!("tokio said: {message}")));
    assert_eq!(explain_panic(message.clone(), false), message);
    assert_eq!(explain_panic("boom".into(), true), "boom");
}
