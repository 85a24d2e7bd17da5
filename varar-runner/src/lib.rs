//! **The `cargo test` harness of Varar for Rust, and the code that calls
//! step functions.**
//!
//! Users depend on the `varar` facade crate, which re-exports [`run`],
//! [`Runner`] and the step macros. The pure pipeline (parse → plan → drift
//! → results → rendering) is `varar-core`; the project's files (config,
//! discovery, the lock and the `.varar/` tree) are `varar-project`. This
//! crate binds them to libtest:
//!
//! - [`LinkedSteps`] and [`execute`]: the step functions `inventory`
//!   collected, and running a planned example against them (spec 30 §30.1,
//!   spec 60), with panics caught and kept quiet
//!   ([`install_quiet_panic_hook`]);
//! - the harness itself ([`run`], [`Runner`]): one libtest-mimic trial per
//!   example, results and baseline written after the trials (spec 40 §7);
//! - `__private`: the contract with the code the macros generate.
//!
//! [`LinkedSteps`], [`execute`] and [`install_quiet_panic_hook`] are public
//! for the conformance suite and the bench, which run steps without the
//! harness.
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
mod drive;
mod execute;
mod harness;
mod lifecycle;
mod linked;
mod step;
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
        Access, ArgValue, Args, BoxFuture, Built, DefaultCtor, ExampleState, Handler, Invocation,
        JsType, Lent, Need, NoDefault, Observed, ObservedRow, Parameter, ParameterDef, Probe,
        ResourceBuild, ResourceDef, Returned, Role, SharedResource, StateBuild, StateDef,
        StateParam, StepDef, StepError, StepResult, Stored, TeardownCall, TeardownDef, Trailing,
        TrailingData, ViaDefault, World, a_state_must_be_send, fail_text, own, share, take,
        unwrap_resource, unwrap_shared,
    };
    pub use crate::values::*;
    pub use varar_core::data::{DocString, Row, Table};
}
