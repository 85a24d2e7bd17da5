//! Keeping caught step panics out of the test output.
//!
//! A panicking step is an ordinary failure, reported once with its message
//! in the example's result; the default hook would also print it (and a
//! backtrace note) while the step runs. The hook installed here stays silent
//! while the current thread is inside a step call and defers to the previous
//! hook otherwise, so panics of the harness itself still print.

use std::cell::Cell;
use std::sync::Once;

thread_local! {
    static IN_STEP: Cell<bool> = const { Cell::new(false) };
}

static INSTALL: Once = Once::new();

/// Wrap the current panic hook so that panics raised inside a step call are
/// not printed. Call it once before running examples; later calls do nothing.
pub fn install_quiet_panic_hook() {
    INSTALL.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !IN_STEP.with(Cell::get) {
                previous(info);
            }
        }));
    });
}

/// Run `f` with the "inside a step" flag set, restoring the previous value
/// afterwards (so nested calls behave).
pub(super) fn while_in_step<T>(f: impl FnOnce() -> T) -> T {
    let before = IN_STEP.with(|flag| flag.replace(true));
    let out = f();
    IN_STEP.with(|flag| flag.set(before));
    out
}

/// Whether the current thread is inside a step call.
#[cfg(test)]
pub(super) fn in_step() -> bool {
    IN_STEP.with(Cell::get)
}
