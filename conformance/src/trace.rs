//! The `trace` artifact (spec 30 §30.7): a bundle's `example.md` parsed,
//! planned against the bundle's own step definitions, every example
//! executed, and each step's outcome recorded.

use std::path::Path;

use serde_json::Value;
use varar_core::outcome::ExampleRun;
use varar_core::parse::parse;
use varar_core::plan::plan;
use varar_core::source::Source;
use varar_runner::execute;
use varar_runner::install_quiet_panic_hook;

use crate::error::ArtifactError;

/// The `trace` artifact of a bundle. `path` is the bundle directory (or its
/// `example.md`); the directory's name selects the step definitions.
pub fn artifact(path: &Path) -> Result<Value, ArtifactError> {
    let (text, steps) = crate::input::load_bundle(path)?;
    install_quiet_panic_hook();
    let source = Source::new(&text);
    let doc = parse("example.md", &source);
    let plan = plan(&doc, &source, steps.registry());
    let runs: Vec<ExampleRun> = plan
        .examples
        .iter()
        .map(|example| execute(example, &steps))
        .collect();
    Ok(varar_core::trace::trace(&plan, &runs, steps.registry()))
}
