//! What `#[stimulus]`, `#[sensor]` and `#[parameter]` register with
//! `inventory` (spec 50).

use super::call::Handler;
use super::hooks::StateParam;
use varar_core::registry::{Role, Trailing};

/// A step registered by `#[stimulus]` or `#[sensor]`, collected with `inventory`.
#[derive(Debug)]
pub struct StepDef {
    /// Stimulus or sensor.
    pub role: Role,
    /// The Cucumber Expression as written.
    pub expression: &'static str,
    /// The generated entry point.
    pub handler: Handler,
    /// What the function takes after its captures.
    pub trailing: Trailing,
    /// `file!()` of the step function.
    pub file: &'static str,
    /// `line!()` of the step function.
    pub line: u32,
    /// `column!()` of the step function.
    pub column: u32,
    /// `module_path!()` of the step function.
    pub module_path: &'static str,
    /// The state parameter (`&S`, `&mut S` or `S`), if the step takes one.
    pub state: Option<StateParam>,
}

inventory::collect!(StepDef);

/// A custom parameter type registered by `#[parameter]` (spec 20 §20.4).
#[derive(Debug)]
pub struct ParameterDef {
    /// The name used in expressions (`{money}`).
    pub name: &'static str,
    /// The regex, in `regex`-crate syntax.
    pub regex: &'static str,
    /// `file!()` of the declaration.
    pub file: &'static str,
    /// `line!()` of the declaration.
    pub line: u32,
    /// `module_path!()` of the declaration.
    pub module_path: &'static str,
}

inventory::collect!(ParameterDef);
