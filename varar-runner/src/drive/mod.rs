//! Calling into a step's code safely (spec 60.2–60.3, 60.7): futures driven
//! on the example's own thread ([`Driver`], [`BuiltIn`] without the `tokio`
//! feature), every call under `catch_unwind` with the panic's message and
//! site kept ([`guarded`], [`catch_future`]), panics kept quiet while a step
//! runs ([`in_step`]), and the deadline an example must meet. The executor
//! and the run-wide resources both call through here.

mod futures;
mod quiet;
#[cfg(test)]
mod tests;

pub use futures::{
    BuiltIn, Deadline, Driver, Interrupted, catch_future, explain_panic, guarded, panic_message,
    timed_out,
};
pub use quiet::{in_step, record_panic, take_panic_site, trim_backtrace, while_in_step};
