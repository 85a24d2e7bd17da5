//! Panics inside a step: kept out of the test output, remembered with
//! where they happened.
//!
//! A panicking step is an ordinary failure, reported once with its message
//! in the example's result. The panic hook (installed by the shell, which
//! alone may change process-wide state) asks [`in_step`] whether the panic
//! comes from a step call on this thread; if so it prints nothing and
//! records the panic's location, and its backtrace when `RUST_BACKTRACE`
//! asks for one, with [`record_panic`]. The executor takes that record
//! right after catching the unwind, so the failure can say
//! `panicked at tests/steps/basket.rs:42:9`. Everything here is per
//! thread: a step's panic is caught on the thread it ran on.

use std::cell::{Cell, RefCell};

use varar_core::failure::PanicSite;

thread_local! {
    static IN_STEP: Cell<bool> = const { Cell::new(false) };
    static LAST_PANIC: RefCell<Option<PanicSite>> = const { RefCell::new(None) };
}

/// Whether the current thread is inside a step call: its panics are the
/// step's failure, not the harness's.
pub fn in_step() -> bool {
    IN_STEP.with(Cell::get)
}

/// Remember where the current thread's step panicked (called by the panic
/// hook while [`in_step`] holds).
pub fn record_panic(site: PanicSite) {
    LAST_PANIC.with(|last| *last.borrow_mut() = Some(site));
}

/// Take what [`record_panic`] remembered since the last step call began.
pub fn take_panic_site() -> Option<PanicSite> {
    LAST_PANIC.with(|last| last.borrow_mut().take())
}

/// Run `f` with the "inside a step" flag set, restoring the previous value
/// afterwards (so nested calls behave). A panic site left over from an
/// earlier call is forgotten first.
pub fn while_in_step<T>(f: impl FnOnce() -> T) -> T {
    let before = IN_STEP.with(|flag| flag.replace(true));
    if !before {
        LAST_PANIC.with(|last| last.borrow_mut().take());
    }
    let out = f();
    IN_STEP.with(|flag| flag.set(before));
    out
}

/// The step's own frames of a backtrace as `std::backtrace::Backtrace`
/// prints them: the frames of the panic machinery above the step's code
/// and the frames of Varar and the test runner below it are cut, so what
/// is left starts where the step panicked and ends in the step function.
/// `None` when no frame is left (a backtrace without symbols).
pub fn trim_backtrace(text: &str) -> Option<String> {
    let frames = split_frames(text);
    let is_machinery = |symbol: &str| {
        [
            "std::",
            "core::",
            "alloc::",
            "rust_begin_unwind",
            "__rustc::",
            "varar_runner::",
        ]
        .iter()
        .any(|p| symbol.starts_with(p) || symbol.starts_with(&format!("<{p}")))
    };
    // The panic machinery (and the hook that captured the trace) comes first.
    let start = frames.iter().position(|f| !is_machinery(&f.symbol))?;
    // The generated handler calls the step; everything below it is Varar's.
    let end = frames[start..]
        .iter()
        .position(|f| f.symbol.contains("__varar_") || f.symbol.starts_with("varar_runner::"))
        .map_or(frames.len(), |i| start + i);
    let kept = &frames[start..end];
    if kept.is_empty() {
        return None;
    }
    let mut out = String::new();
    for frame in kept {
        out.push_str(&frame.text);
    }
    Some(out)
}

/// One frame of a printed backtrace: its symbol and its lines.
struct Frame {
    symbol: String,
    text: String,
}

/// Split a printed backtrace into frames: a frame starts with `N: symbol`,
/// and its `at file:line:col` lines follow.
fn split_frames(text: &str) -> Vec<Frame> {
    let mut frames: Vec<Frame> = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        let header = trimmed
            .split_once(": ")
            .filter(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        match (header, frames.last_mut()) {
            (Some((_, symbol)), _) => frames.push(Frame {
                symbol: symbol.trim().to_string(),
                text: format!("{line}\n"),
            }),
            (None, Some(frame)) => {
                frame.text.push_str(line);
                frame.text.push('\n');
            }
            (None, None) => {}
        }
    }
    frames
}

#[cfg(test)]
mod tests {
    use super::*;

    const TRACE: &str = "   0: std::backtrace_rs::backtrace::libunwind::trace
             at /rustc/x/library/std/src/../../backtrace/src/backtrace/libunwind.rs:117:9
   1: std::backtrace::Backtrace::create
   2: varar_runner::harness::run::panics::install::{{closure}}
             at ./src/harness/run/panics.rs:40:21
   3: std::panicking::rust_panic_with_hook
   4: core::panicking::panic_fmt
   5: core::option::unwrap_failed
   6: oaths::steps::basket::total
             at ./tests/steps/basket.rs:42:9
   7: oaths::steps::basket::helper
             at ./tests/steps/basket.rs:30:5
   8: oaths::steps::basket::_::__varar_handler
             at ./tests/steps/basket.rs:40:1
   9: varar_runner::execute::call
  10: std::thread::local::LocalKey<T>::with
";

    #[test]
    fn issue10_7_backtrace_keeps_only_the_steps_frames() {
        let kept = trim_backtrace(TRACE).unwrap_or_default();
        assert_eq!(
            kept,
            "   6: oaths::steps::basket::total
             at ./tests/steps/basket.rs:42:9
   7: oaths::steps::basket::helper
             at ./tests/steps/basket.rs:30:5
"
        );
        assert_eq!(trim_backtrace("   0: std::panicking::begin\n"), None);
        assert_eq!(trim_backtrace("disabled backtrace"), None);
    }

    #[test]
    fn issue10_7_a_site_is_taken_once_and_forgotten_by_the_next_step() {
        let site = PanicSite {
            location: "a.rs:1:1".into(),
            backtrace: None,
        };
        assert!(!in_step());
        while_in_step(|| {
            assert!(in_step());
            record_panic(site.clone());
        });
        assert_eq!(take_panic_site(), Some(site.clone()));
        assert_eq!(take_panic_site(), None);
        record_panic(site);
        while_in_step(|| assert_eq!(take_panic_site(), None));
    }
}
