//! **The shell of Varar for Rust: the `cargo test` harness, the project's
//! files, and the code that calls step functions.**
//!
//! Users depend on the `varar` facade crate, which re-exports [`run`],
//! [`Runner`] and the step macros. The pure pipeline (parse → plan → drift
//! → results → rendering) is `varar-core`; this crate is the imperative
//! shell around it, and the only place with side effects:
//!
//! - [`config`]: `varar.config.json` and `VARAR_UPDATE` (spec 40 §1);
//! - [`discovery`]: which files are oaths, read strictly (spec 40 §2);
//! - [`store`]: the files of a project on disk: the baseline
//!   `varar.lock.json` and the `.varar/` tree of run results, written
//!   atomically (spec 40 §4, §6);
//! - [`LinkedSteps`] and [`execute`]: the step functions `inventory`
//!   collected, and running a planned example against them (spec 30 §30.1,
//!   spec 60), with panics caught and kept quiet
//!   ([`install_quiet_panic_hook`]);
//! - the harness itself ([`run`], [`Runner`]): one libtest-mimic trial per
//!   example, results and baseline written after the trials (spec 40 §7);
//! - `__private`: the contract with the code the macros generate.
//!
//! `cargo varar` reads projects through [`config`], [`discovery`] and
//! [`store`], so every consumer of a run finds the same files the same way.
#![deny(missing_docs)]
#![cfg_attr(
    not(test),
    warn(
        clippy::print_stdout,
        clippy::print_stderr,
        clippy::unwrap_used,
        clippy::expect_used
    )
)]

mod compare;
pub mod config;
pub mod discovery;
mod drive;
mod execute;
mod harness;
mod lifecycle;
mod linked;
mod step;
pub mod store;
mod values;

pub use execute::execute_linked as execute;
pub use harness::{Runner, install_quiet_panic_hook, run};
pub use linked::LinkedSteps;
pub use step::Parameter;
pub use varar_core::data::{DocString, Row, Table};

/// What the code the `varar` macros generate calls, re-exported by the
/// facade as `varar::__private`. Not a public API: it changes with the
/// macros.
#[doc(hidden)]
pub mod __private {
    pub use crate::step::{
        Access, ArgValue, BoxFuture, Built, DefaultCtor, ExampleState, Handler, Invocation, JsType,
        Lent, Need, NoDefault, Observed, ObservedRow, Parameter, ParameterDef, Probe,
        ResourceBuild, ResourceDef, Returned, Role, SharedResource, StateBuild, StateDef,
        StateParam, StepDef, StepError, StepResult, Stored, TeardownCall, TeardownDef, Trailing,
        TrailingData, ViaDefault, World, a_state_must_be_send, fail_text, own, share, take,
        unwrap_resource, unwrap_shared,
    };
    pub use crate::values::*;
    pub use varar_core::data::{DocString, Row, Table};
}
