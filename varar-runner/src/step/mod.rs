//! The contract between generated step code and the engine (spec 50).
//!
//! `#[stimulus]`, `#[sensor]` and `#[parameter]` expand to code that only
//! talks to the engine through the items here: a type-erased [`Handler`] that
//! reads its arguments from an [`Invocation`], keeps its state in a [`World`],
//! and hands back what a sensor observed as [`Returned`]. Comparisons stay in
//! the engine (`compare`), so every port rule lives in one place.

mod call;
mod hooks;
mod observed;
mod parameter;
mod registration;
mod result;
mod support;
mod world;

pub use call::{Args, Handler, Invocation};
pub use hooks::{
    Access, Built, DefaultCtor, Lent, Need, ResourceBuild, ResourceDef, StateBuild, StateDef,
    StateParam, Stored, TeardownCall, TeardownDef, Unwrap, take, type_label, unwrap_resource,
};
pub use observed::{Observed, ObservedRow, Returned};
pub use parameter::{Parameter, TrailingData};
pub use registration::{ParameterDef, StepDef};
pub use result::{BoxFuture, StepError, StepResult};
pub use support::{
    ExampleState, NoDefault, Probe, SharedResource, ViaDefault, a_state_must_be_send, fail_text,
    own, share, unwrap_shared,
};
pub use varar_core::failure::JsType;
pub use varar_core::registry::{Role, Trailing};
pub use varar_expression::ArgValue;
pub use world::World;
