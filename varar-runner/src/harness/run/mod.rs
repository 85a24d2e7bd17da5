//! The **libtest run** (spec 40 §7, spec 60.3, 60.6–60.7; `stages/`
//! starts it between the trials and the finish): the selected items run
//! and reported as libtest-mimic reports them (`libtest/`), one example
//! inside its trial (`trial.rs`), on a pooled thread when a time limit is
//! set (`pool.rs`), watched for the `SLOW` line, the timed-out step and the
//! step that never returned (`watch.rs`), its async steps driven by the
//! run's runtime (`runtime.rs`), and a step's panic made the step's quiet
//! failure by the process's panic hook (`panics.rs`).

pub(super) mod libtest;
pub(super) mod panics;
pub(super) mod pool;
pub(super) mod runtime;
pub(super) mod trial;
pub(super) mod watch;
