//! **The run verdict** (feature `verdict`): what every consumer of a
//! run's evidence judges by, decided once (STYLE §2.9, "one verdict for
//! every consumer"), so that `cargo varar gate`, `junit`, `report`,
//! `attest`, `diff`, `history`, `flaky` and the language server never
//! disagree on a run. Pure: the files are read by `varar-project`'s
//! `evidence` module, and every format's bytes beyond the error records
//! are the consumers'.
//!
//! | rule | module | spec |
//! |---|---|---|
//! | a problem with the evidence, its stable code and exit code | [`records`] | issues 19, 34 |
//! | what the run records say of the latest run: fresh, complete, failed, recovered items | [`run_evidence`] | issue 19 |
//! | the latest run's standing (complete, stale, incomplete, unreadable, unrecorded, missing) and what it vouches for | [`standing`] | issue 34 |
//! | whether a result is drawn as current (the text by SHA-256, the run's vouching) | [`current`] | 30 §30.8, 40 §3, issue 34 |
//! | a project's evidence: each oath's result against its text now | [`evidence`] | 30 §30.8, 70 §70.4.5 |
//! | the gate's judgement: may this change merge? | [`gate`] | issue 19 |
//! | the located findings every CI output renders (annotations, SARIF) | [`findings`] | issue 38 |
//! | the kept runs (the run history, downloaded trees) combined; run directories without a readable record | [`kept`] | issues 20, 34 |
//! | which items both passed and failed over the kept runs; each item's outcome per run | [`flaky`] | issue 20 |
//!
//! The feature is off in a user's test build (the harness judges
//! nothing); `cargo varar` turns it on.

pub mod current;
pub mod evidence;
pub mod findings;
pub mod flaky;
pub mod gate;
pub mod kept;
pub mod records;
pub mod run_evidence;
pub mod standing;
#[cfg(any(test, feature = "test-support"))]
#[doc(hidden)]
pub mod testing;
