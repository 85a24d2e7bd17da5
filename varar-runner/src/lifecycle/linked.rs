//! The resources, factories and teardowns `inventory` collected.

use super::errors::LifecycleErrors;
use super::model::{Lifecycle, ResourceSpec, StateSpec, StepUse, TeardownSpec};
use crate::step::{ResourceDef, StateDef, TeardownDef};

impl Lifecycle {
    /// Build from the `inventory` registrations whose module passes
    /// `include`, checked against `steps` (the registry's, in its order).
    pub fn from_inventory(
        include: impl Fn(&str) -> bool,
        steps: &[StepUse<'_>],
    ) -> Result<Lifecycle, LifecycleErrors> {
        let mut resources: Vec<&ResourceDef> = inventory::iter::<ResourceDef>
            .into_iter()
            .filter(|d| include(d.module_path))
            .collect();
        resources.sort_by_key(|d| (d.file, d.line));
        let mut states: Vec<&StateDef> = inventory::iter::<StateDef>
            .into_iter()
            .filter(|d| include(d.module_path))
            .collect();
        states.sort_by_key(|d| (d.file, d.line));
        let mut teardowns: Vec<&TeardownDef> = inventory::iter::<TeardownDef>
            .into_iter()
            .filter(|d| include(d.module_path))
            .collect();
        teardowns.sort_by_key(|d| (d.file, d.line));
        Lifecycle::build(
            resources
                .into_iter()
                .map(|d| ResourceSpec {
                    name: d.name.to_string(),
                    type_id: (d.type_id)(),
                    type_name: (d.type_name)(),
                    build: d.build,
                    unwrap: d.unwrap,
                    file: d.file.to_string(),
                    line: d.line,
                })
                .collect(),
            states
                .into_iter()
                .map(|d| StateSpec {
                    name: d.name.to_string(),
                    type_id: (d.type_id)(),
                    type_name: (d.type_name)(),
                    needs: d
                        .needs
                        .iter()
                        .map(|n| ((n.type_id)(), (n.type_name)()))
                        .collect(),
                    build: d.build,
                    file: d.file.to_string(),
                    line: d.line,
                })
                .collect(),
            teardowns
                .into_iter()
                .map(|d| TeardownSpec {
                    name: d.name.to_string(),
                    type_id: (d.type_id)(),
                    type_name: (d.type_name)(),
                    run: d.run,
                    file: d.file.to_string(),
                    line: d.line,
                })
                .collect(),
            steps,
        )
    }
}
