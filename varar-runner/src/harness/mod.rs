//! The `cargo test` harness (spec 40 §7): the shell that ties everything to
//! libtest-mimic.
//!
//! On the main thread, before libtest filters anything, it loads the config,
//! discovers every oath (the process of one example from the discovery
//! cache, `cache/discovery.rs`), reads the baseline (without locking it),
//! reads every oath **once** into the run's workspace (spec 70 §70.2: an
//! oath is planned among the others, whose sections it may link to; the
//! process of one example skips those known to hold no link,
//! `cache/links.rs`), and parses and plans each selected oath once,
//! detecting its drift. Each planned example becomes one trial whose
//! closure owns its example (plain `Send` data) and only executes it. A
//! run of one item (`--exact`, one nextest process) plans only that item's
//! oath (`read/select.rs`).
//!
//! After libtest has run the trials, the collected results are merged into
//! `.varar/`, and a run that records the baseline (not a listing, not a
//! filtered run unless `VARAR_UPDATE` is set) takes the baseline's advisory
//! lock, re-reads it, reconciles and writes it. So a run killed or hung
//! before its trials finished never rewrote the baseline, and the lock is
//! held only for that short read-modify-write, never while planning.
//!
//! The folders follow the run's pipeline, which `stages/` alone runs in
//! order: `setup/` (what the run was told), `read/` (what it reads and
//! plans), `trials/` (the planned oaths made items), `run/` (the libtest
//! run of those items), `finish/` (results, the baseline, the run record
//! and history); `cache/` holds every cache a stage takes from an earlier
//! process. `runner.rs` is the entry point, `error.rs` and `print.rs` what
//! every stage may fail with and print.

mod cache;
mod error;
mod finish;
mod print;
mod read;
mod run;
mod runner;
mod setup;
mod stages;
mod trials;

pub use run::panics::install_quiet_panic_hook;
pub use runner::{Runner, run};
