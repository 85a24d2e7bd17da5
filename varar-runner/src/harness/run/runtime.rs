//! The run's async runtime (spec 60.3) and the per-example [`Driver`].
//!
//! With the `tokio` feature, one multi-threaded tokio runtime lives for the
//! whole run: built before the first example, shut down after the last
//! resource teardown *without* waiting for work a timed-out example left
//! behind. Each example drives its futures with `Handle::block_on` on its
//! own (libtest) thread, inside the runtime's context, so a client created in
//! one example keeps working in every other one and no runtime worker is
//! ever blocked. Without the feature, the built-in executor drives them.

use std::future::Future;
use std::time::{Duration, Instant};

use crate::drive::{BuiltIn, Deadline, Driver, Interrupted};
use crate::harness::setup::timeout::Limit;

/// The end of one example's time.
pub(crate) struct Clock {
    end: Instant,
    limit: String,
}

impl Clock {
    /// The limit, starting now.
    pub(crate) fn start(limit: &Limit) -> Clock {
        Clock {
            end: Instant::now() + limit.duration,
            limit: limit.written.clone(),
        }
    }
}

impl Deadline for Clock {
    fn remaining(&self) -> Option<Duration> {
        self.end
            .checked_duration_since(Instant::now())
            .filter(|d| !d.is_zero())
    }

    fn limit(&self) -> &str {
        &self.limit
    }
}

/// The runtime of a run.
pub(crate) struct Runtime {
    #[cfg(feature = "tokio")]
    runtime: Option<tokio::runtime::Runtime>,
}

/// What an example needs of the runtime (cheap to clone, `Send`).
#[derive(Clone)]
pub(crate) struct RuntimeHandle {
    #[cfg(feature = "tokio")]
    handle: Option<tokio::runtime::Handle>,
}

impl Runtime {
    /// Start the runtime (a no-op without the `tokio` feature, or when
    /// `start` is false, e.g. for `--list`).
    pub(crate) fn start(start: bool) -> Result<Runtime, std::io::Error> {
        #[cfg(feature = "tokio")]
        {
            let runtime = if start {
                Some(
                    tokio::runtime::Builder::new_multi_thread()
                        .enable_all()
                        .thread_name("varar-runtime")
                        .build()?,
                )
            } else {
                None
            };
            Ok(Runtime { runtime })
        }
        #[cfg(not(feature = "tokio"))]
        {
            let _ = start;
            Ok(Runtime {})
        }
    }

    /// A handle for examples.
    pub(crate) fn handle(&self) -> RuntimeHandle {
        RuntimeHandle {
            #[cfg(feature = "tokio")]
            handle: self.runtime.as_ref().map(|r| r.handle().clone()),
        }
    }

    /// Shut down without waiting for tasks or blocking work a timed-out
    /// example left behind.
    pub(crate) fn shut_down(self) {
        #[cfg(feature = "tokio")]
        if let Some(runtime) = self.runtime {
            runtime.shutdown_background();
        }
    }
}

impl RuntimeHandle {
    /// Run `f` with this example's driver, inside the runtime's context.
    pub(crate) fn with_driver<T>(
        &self,
        clock: Option<&Clock>,
        f: impl FnOnce(&RunDriver<'_>) -> T,
    ) -> T {
        let deadline = clock.map(|c| c as &dyn Deadline);
        #[cfg(feature = "tokio")]
        if let Some(handle) = &self.handle {
            let _context = handle.enter();
            return f(&RunDriver::Tokio { handle, deadline });
        }
        f(&RunDriver::BuiltIn(BuiltIn::with_deadline(deadline)))
    }
}

/// The driver of one example.
pub(crate) enum RunDriver<'a> {
    /// The built-in executor.
    BuiltIn(BuiltIn<'a>),
    /// The run's tokio runtime.
    #[cfg(feature = "tokio")]
    Tokio {
        handle: &'a tokio::runtime::Handle,
        deadline: Option<&'a dyn Deadline>,
    },
}

impl Driver for RunDriver<'_> {
    fn block_on<F: Future>(&self, future: F) -> Result<F::Output, Interrupted> {
        match self {
            RunDriver::BuiltIn(b) => b.block_on(future),
            #[cfg(feature = "tokio")]
            RunDriver::Tokio { handle, deadline } => match deadline.and_then(|d| d.remaining()) {
                None if deadline.is_some() => Err(Interrupted),
                None => Ok(handle.block_on(future)),
                Some(left) => handle
                    .block_on(tokio::time::timeout(left, future))
                    .map_err(|_| Interrupted),
            },
        }
    }

    fn block_on_unlimited<F: Future>(&self, future: F) -> F::Output {
        match self {
            RunDriver::BuiltIn(b) => b.block_on_unlimited(future),
            #[cfg(feature = "tokio")]
            RunDriver::Tokio { handle, .. } => handle.block_on(future),
        }
    }

    fn deadline(&self) -> Option<&dyn Deadline> {
        match self {
            RunDriver::BuiltIn(b) => b.deadline(),
            #[cfg(feature = "tokio")]
            RunDriver::Tokio { deadline, .. } => *deadline,
        }
    }

    fn without_tokio(&self) -> bool {
        match self {
            RunDriver::BuiltIn(_) => true,
            #[cfg(feature = "tokio")]
            RunDriver::Tokio { .. } => false,
        }
    }
}
