//! Driving futures (spec 60.2–60.3): the [`Driver`] an example's async
//! steps, factories, resources and teardowns run through, and [`BuiltIn`],
//! the small executor used without the `tokio` feature.
//!
//! Every future is driven to completion on the example's own thread (a
//! libtest thread, never a runtime worker), one at a time, so step futures
//! need not be `Send` and steps of one example never overlap. The clock is
//! not read here: a [`Deadline`] is passed in by the shell.

use std::any::Any;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::{Pin, pin};
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use std::thread::{self, Thread};
use std::time::Duration;

use super::quiet;

/// The example's time ran out while a future was pending; it was dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interrupted;

/// The end of an example's time, as the shell measures it.
pub trait Deadline: Sync {
    /// The time left, `None` once it has passed.
    fn remaining(&self) -> Option<Duration>;
    /// The limit as the user wrote it (`500ms`), for the failure message.
    fn limit(&self) -> &str;
}

/// Runs the futures of one example on the current thread.
pub trait Driver {
    /// Drive `future` to completion, or drop it when the deadline passes.
    fn block_on<F: Future>(&self, future: F) -> Result<F::Output, Interrupted>;
    /// Drive `future` to completion whatever the time (teardowns).
    fn block_on_unlimited<F: Future>(&self, future: F) -> F::Output;
    /// The example's deadline, if it has one.
    fn deadline(&self) -> Option<&dyn Deadline>;
    /// Whether futures run without a tokio runtime, so that tokio's "no
    /// reactor" panic is explained with the feature to enable.
    fn without_tokio(&self) -> bool;
}

/// The built-in executor: polls on the current thread and parks it until
/// a waker fires (or the deadline passes). Enough for futures that need no
/// reactor: `async fn` steps over pure code, channels, other executors'
/// handles.
#[derive(Clone, Copy, Default)]
pub struct BuiltIn<'a> {
    deadline: Option<&'a dyn Deadline>,
}

impl<'a> BuiltIn<'a> {
    /// An executor without a deadline.
    pub fn new() -> Self {
        BuiltIn { deadline: None }
    }

    /// An executor that gives up at `deadline`.
    pub fn with_deadline(deadline: Option<&'a dyn Deadline>) -> Self {
        BuiltIn { deadline }
    }
}

struct Unpark(Thread);

impl Wake for Unpark {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.unpark();
    }
}

fn poll_loop<F: Future>(
    future: F,
    mut wait: impl FnMut() -> Result<(), Interrupted>,
) -> Result<F::Output, Interrupted> {
    let mut future = pin!(future);
    let waker = Waker::from(Arc::new(Unpark(thread::current())));
    let mut cx = Context::from_waker(&waker);
    loop {
        if let Poll::Ready(value) = future.as_mut().poll(&mut cx) {
            return Ok(value);
        }
        wait()?;
    }
}

impl Driver for BuiltIn<'_> {
    fn block_on<F: Future>(&self, future: F) -> Result<F::Output, Interrupted> {
        match self.deadline {
            None => Ok(self.block_on_unlimited(future)),
            Some(deadline) => poll_loop(future, || match deadline.remaining() {
                Some(left) => {
                    thread::park_timeout(left);
                    Ok(())
                }
                None => Err(Interrupted),
            }),
        }
    }

    fn block_on_unlimited<F: Future>(&self, future: F) -> F::Output {
        match poll_loop(future, || {
            thread::park();
            Ok(())
        }) {
            Ok(value) => value,
            // The wait above never interrupts.
            Err(Interrupted) => unreachable!("an unlimited wait was interrupted"),
        }
    }

    fn deadline(&self) -> Option<&dyn Deadline> {
        self.deadline
    }

    fn without_tokio(&self) -> bool {
        true
    }
}

/// A panic payload caught while polling.
pub type Panic = Box<dyn Any + Send>;

/// Wrap a future so that a panic while polling it becomes its output, and
/// the quiet panic hook stays silent (spec 60.2: an async panic fails its
/// example exactly as a sync one does).
pub fn catch_future<F: Future>(future: F) -> impl Future<Output = Result<F::Output, Panic>> {
    CatchUnwind {
        future: Box::pin(future),
    }
}

struct CatchUnwind<F> {
    future: Pin<Box<F>>,
}

impl<F: Future> Future for CatchUnwind<F> {
    type Output = Result<F::Output, Panic>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let future = self.future.as_mut();
        match quiet::while_in_step(|| catch_unwind(AssertUnwindSafe(|| future.poll(cx)))) {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(value)) => Poll::Ready(Ok(value)),
            Err(payload) => Poll::Ready(Err(payload)),
        }
    }
}

/// Call `f` quietly, turning a panic into its message.
pub fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    quiet::while_in_step(|| catch_unwind(AssertUnwindSafe(f)))
        .map_err(|payload| panic_message(payload.as_ref()))
}

/// The message of a panic payload: the text of `panic!("…")`, or a fixed
/// fallback for payloads that are not text.
pub fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&'static str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "handler panicked".to_string()
    }
}

/// What tokio says when a future needs its reactor and there is none.
const TOKIO_CONTEXT: &str = "must be called from the context of a Tokio";

/// Explain tokio's "no reactor" panic when futures run on the built-in
/// executor: the fix is one Cargo feature (spec 60.3).
pub fn explain_panic(message: String, without_tokio: bool) -> String {
    if without_tokio && message.contains(TOKIO_CONTEXT) {
        format!(
            "this step needs a Tokio runtime: enable the \"tokio\" feature of varar \
             (features = [\"tokio\"] on the varar dependency); tokio said: {message}"
        )
    } else {
        message
    }
}

/// The `timed out` message of spec 60.7.
pub fn timed_out(limit: &str, step_text: &str) -> String {
    format!("timed out after {limit} in step \"{step_text}\"")
}
