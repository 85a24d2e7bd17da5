//! The `cargo test` harness (spec 40 §7): the shell that ties everything to
//! libtest-mimic.
//!
//! On the main thread, before libtest filters anything, it loads the config,
//! discovers every oath (the process of one example from the discovery
//! cache, `discovery_cache.rs`), reads the baseline (without locking it),
//! reads every oath **once** into the run's workspace (spec 70 §70.2: an
//! oath is planned among the others, whose sections it may link to; the
//! process of one example skips those known to hold no link,
//! `link_index.rs`), and parses and plans each selected oath once,
//! detecting its drift. Each planned example becomes one trial whose
//! closure owns its example (plain `Send` data) and only executes it. A
//! run of one item (`--exact`, one nextest process) plans only that item's
//! oath (`select.rs`).
//!
//! After libtest has run the trials, the collected results are merged into
//! `.varar/`, and a run that records the baseline (not a listing, not a
//! filtered run unless `VARAR_UPDATE` is set) takes the baseline's advisory
//! lock, re-reads it, reconciles and writes it. So a run killed or hung
//! before its trials finished never rewrote the baseline, and the lock is
//! held only for that short read-modify-write, never while planning.

mod arguments;
mod color;
mod digests;
mod discovery_cache;
mod documents;
mod enumerate;
mod error;
mod finish;
mod history;
mod items;
mod libtest;
mod link_index;
mod lock_save;
mod oath_run;
mod panics;
mod plan_cache;
mod pool;
mod print;
mod record;
mod rerun;
mod runner;
mod runtime;
mod select;
mod settings;
mod stages;
mod stamp;
mod timeout;
mod trial;
mod watch;

pub use panics::install_quiet_panic_hook;
pub use runner::{Runner, run};
