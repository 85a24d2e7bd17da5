//! The step functions linked into this test binary (spec 20 §20.1, spec
//! 50): the `#[parameter]`, `#[stimulus]` and `#[sensor]` definitions that
//! `inventory` collected, as the engine's [`Registry`] of expressions (what
//! planning matches sentences against) beside the code that runs each step
//! (its entry point and where its state comes from).

use varar_core::registry::{ParamSpec, Registry, RegistryErrors, StepSpec};

use crate::step::{Handler, ParameterDef, StateParam, StepDef};

/// The registry of the linked steps and their code, index for index.
///
/// ```no_run
/// let steps = varar_runner::LinkedSteps::from_inventory(|module| module.starts_with("oaths::"))
///     .expect("the steps compile");
/// assert!(steps.registry().steps.len() <= steps.len());
/// ```
#[derive(Debug)]
pub struct LinkedSteps {
    registry: Registry,
    code: Vec<StepCode>,
}

/// How one linked step runs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StepCode {
    /// The generated entry point.
    pub(crate) handler: Handler,
    /// The state parameter (`&S`, `&mut S` or `S`), if the step takes one.
    pub(crate) state: Option<StateParam>,
}

impl LinkedSteps {
    /// The definitions whose module path passes `include`, ordered by file
    /// name, then position in the file (§20.1). Every problem (a bad
    /// custom type, a duplicate expression, one that does not compile) is
    /// collected.
    pub fn from_inventory(include: impl Fn(&str) -> bool) -> Result<LinkedSteps, RegistryErrors> {
        let mut params: Vec<&ParameterDef> = inventory::iter::<ParameterDef>
            .into_iter()
            .filter(|def| include(def.module_path))
            .collect();
        params.sort_by_key(|def| (def.file, def.line, def.name));
        let mut steps: Vec<&StepDef> = inventory::iter::<StepDef>
            .into_iter()
            .filter(|def| include(def.module_path))
            .collect();
        steps.sort_by_key(|def| (def.file, def.line, def.column));
        let registry = Registry::build(
            params
                .into_iter()
                .map(|def| ParamSpec::new(def.name, def.regex, def.file, def.line))
                .collect(),
            steps
                .iter()
                .map(|def| {
                    StepSpec::new(def.expression, def.role, def.file, def.line, def.trailing)
                })
                .collect(),
        )?;
        // A registry that builds keeps every step, in the order given.
        let code = steps
            .iter()
            .map(|def| StepCode {
                handler: def.handler,
                state: def.state,
            })
            .collect();
        Ok(LinkedSteps { registry, code })
    }

    /// Steps whose code is known some other way than `inventory` (tests):
    /// `code[i]` runs `registry.steps[i]`.
    #[cfg(test)]
    pub(crate) fn from_parts(registry: Registry, code: Vec<StepCode>) -> LinkedSteps {
        LinkedSteps { registry, code }
    }

    /// The steps' expressions, for planning.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// How many steps are linked.
    pub fn len(&self) -> usize {
        self.code.len()
    }

    /// Whether no step is linked.
    pub fn is_empty(&self) -> bool {
        self.code.is_empty()
    }

    /// The code of the step at registry index `index`.
    pub(crate) fn code(&self, index: usize) -> Option<&StepCode> {
        self.code.get(index)
    }
}
