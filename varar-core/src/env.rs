//! Every environment variable Varar reads or sets, named once.
//!
//! Names only: nothing here reads the environment. The shells read them
//! (`varar-project`'s config and run history, the harness), the language
//! server clears the ones a test run it starts must not inherit, and the
//! engine's own modules name them in what they decide and say
//! ([`crate::history`] judges the history's limits by these names). What
//! each value means is documented where it is read.
//!
//! | variable | read by | meaning |
//! | --- | --- | --- |
//! | [`VARAR_UPDATE`] | config (spec 40 §4.5) | `1`/`true` accepts drift; a closed set |
//! | [`VARAR_TIMEOUT`] | the harness (spec 60.7) | the per-example time limit |
//! | [`VARAR_RUN_ID`] | the harness (issue 19) | names the run its processes join |
//! | [`VARAR_RERUN`] | the harness (issue 19) | `failed` reruns what failed |
//! | [`VARAR_TAGS`] | the harness (issue 38); set by `cargo varar test --tags` | a tag expression selecting examples |
//! | [`VARAR_SELECT`] | the harness (issue 38); set by `cargo varar test` | the exact items to list and run, one name a line |
//! | [`VARAR_HISTORY`] | the run history (issue 20) | its directory, or `off` |
//! | [`VARAR_HISTORY_RUNS`], [`VARAR_HISTORY_SIZE`], [`VARAR_HISTORY_DAYS`] | the run history | its limits |
//! | [`CARGO_TARGET_DIR`] | the run history | cargo's target directory, where the history is by default |

/// Whether a run accepts drift and records the lock (spec 40 §4.5).
pub const VARAR_UPDATE: &str = "VARAR_UPDATE";
/// The per-example time limit (spec 60.7), e.g. `30s`.
pub const VARAR_TIMEOUT: &str = "VARAR_TIMEOUT";
/// The run the process belongs to, when set (the shards of one CI
/// pipeline, several test targets).
pub const VARAR_RUN_ID: &str = "VARAR_RUN_ID";
/// `failed`: run again what failed or did not run in the latest run.
pub const VARAR_RERUN: &str = "VARAR_RERUN";
/// The exact items a run lists and runs, one full item name a line (the
/// kind prefix optional); unset or empty selects by libtest's arguments
/// alone. `cargo varar test` sets it (issue 38).
pub const VARAR_SELECT: &str = "VARAR_SELECT";
/// The most bytes [`VARAR_SELECT`] may hold: Linux refuses a longer
/// environment string (`MAX_ARG_STRLEN`, 128 KiB), so `cargo varar test`
/// refuses to write one and the harness to read one.
pub const VARAR_SELECT_MAX_BYTES: usize = 128 * 1024;
/// A tag expression (`@smoke and not @slow`, [`crate::tags`]): a run
/// under `cargo test` or `cargo nextest run` selects only the examples
/// whose tags it matches (issue 38); `cargo varar test --tags` passes it
/// through.
pub const VARAR_TAGS: &str = "VARAR_TAGS";
/// The variable that moves the history (`off` turns it off).
pub const VARAR_HISTORY: &str = "VARAR_HISTORY";
/// The variable that bounds the number of runs kept.
pub const VARAR_HISTORY_RUNS: &str = "VARAR_HISTORY_RUNS";
/// The variable that bounds the bytes kept.
pub const VARAR_HISTORY_SIZE: &str = "VARAR_HISTORY_SIZE";
/// The variable that bounds the age of the runs kept.
pub const VARAR_HISTORY_DAYS: &str = "VARAR_HISTORY_DAYS";
/// Cargo's target directory, as cargo reads it: where the run history is
/// kept by default.
pub const CARGO_TARGET_DIR: &str = "CARGO_TARGET_DIR";
