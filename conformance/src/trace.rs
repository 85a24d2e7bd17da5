//! The `trace` artifact (spec 30 §30.7): a bundle's `example.md` parsed,
//! planned against the bundle's own step definitions, every example
//! executed, and each step's outcome recorded.

use std::path::Path;

use serde_json::Value;
use varar_runner::internal::execute::{ExampleRun, execute};
use varar_runner::internal::harness::install_quiet_panic_hook;
use varar_runner::internal::parse::parse;
use varar_runner::internal::plan::plan;
use varar_runner::internal::source::Source;

use crate::ArtifactError;

/// The `trace` artifact of a bundle. `path` is the bundle directory (or its
/// `example.md`); the directory's name selects the step definitions.
pub fn artifact(path: &Path) -> Result<Value, ArtifactError> {
    let (text, registry) = crate::load_bundle(path)?;
    install_quiet_panic_hook();
    let source = Source::new(&text);
    let doc = parse("example.md", &source);
    let plan = plan(&doc, &source, &registry);
    let runs: Vec<ExampleRun> = plan
        .examples
        .iter()
        .map(|example| execute(example, &registry))
        .collect();
    Ok(varar_runner::internal::trace::trace(
        &plan, &runs, &registry,
    ))
}
