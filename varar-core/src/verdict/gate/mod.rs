//! The gate's judgement: may this change merge? (pure; `cargo varar gate`)
//!
//! The gate judges the **run**, not only the files (issue 19):
//!
//! - For every oath the config selects, a result file must exist, be fresh
//!   ([`crate::verdict::evidence`]) and record only passed examples, as before.
//! - The project's latest run ([`crate::verdict::run_evidence`]) must be recorded
//!   (`missing_run`), readable (`invalid_run`), of the sources as they are
//!   now (`stale_run`) and complete (`incomplete_run`).
//! - Every item of that run whose last attempt failed fails the gate:
//!   examples, and the drift, diagnostic and read-error items that result
//!   files do not hold. Items that failed and then passed on a retry are
//!   *recovered*: listed, and failing the gate under `--deny-recovered`.
//! - Every example the lock listed that the latest run found no more
//!   (issue 37; spec 40 §5.2: deleted or reworded past recognition, which
//!   `cargo test` does not fail) is *removed*: listed with its old name and
//!   line, and failing the gate under `--deny-removed`.
//!
//! The verdict is one [`GateReport`]: exit 0 when all is fresh, complete
//! and passed, 1 when some item failed (or recovered or removed, when
//! denied), 2 when
//! any evidence is unusable (`missing_result`, `stale_result`,
//! `invalid_result`, `invalid_config`, `input_error`, `no_oaths`,
//! `missing_run`, `incomplete_run`, `stale_run`, `invalid_run`). 2 wins
//! over 1: a gate never passes or fails on evidence it could not read or
//! trust. Its JSON form (version 2) is described by the JSON Schema that
//! `cargo varar gate --schema` prints (`varar-cli/schema/gate.schema.json`).

mod judge;
mod model;
mod text;

pub use judge::evaluate;
pub use model::{
    FailureRecord, GateOptions, GateReport, GateStatus, ItemFailure, OathGate, OathStatus,
    RecoveredItem, RunSummary, VERSION,
};
pub use text::render_text;
