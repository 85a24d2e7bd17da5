//! The process's panic hook (shell: it changes process-wide state, which
//! only the harness may do).
//!
//! Installed once per run, it wraps the hook in place. A panic raised
//! inside a step call is the step's failure: nothing is printed, and its
//! location, plus the step's own frames of a backtrace when
//! `RUST_BACKTRACE` (or `RUST_LIB_BACKTRACE`) asks for one, are handed to
//! the executor, which shows them in the failure. Every other panic goes to
//! the previous hook, so the harness's own panics still print.

use std::backtrace::{Backtrace, BacktraceStatus};
use std::sync::Once;

use crate::drive::{in_step, record_panic, trim_backtrace};
use varar_core::failure::PanicSite;

static INSTALL: Once = Once::new();

/// Wrap the current panic hook so that panics raised inside a step call
/// are recorded instead of printed. Later calls do nothing.
pub fn install_quiet_panic_hook() {
    INSTALL.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !in_step() {
                previous(info);
                return;
            }
            let location = info
                .location()
                .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()))
                .unwrap_or_default();
            // `capture` is cheap and empty unless the environment asks for
            // a backtrace, as it does for the default hook.
            let trace = Backtrace::capture();
            let backtrace = match trace.status() {
                BacktraceStatus::Captured => trim_backtrace(&trace.to_string()),
                _ => None,
            };
            record_panic(PanicSite {
                location,
                backtrace,
            });
        }));
    });
}
