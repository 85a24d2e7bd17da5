//! The run results of a bundle (spec 30 §30.8): its `example.md` parsed,
//! planned against the bundle's steps and every example executed, collected
//! exactly as the harness collects them (oathPath `example.md`).

use std::path::Path;

use varar_core::hash::source_hash;
use varar_core::parse::parse;
use varar_core::plan::plan;
use varar_core::results::{OathResults, example_result, oath_results};
use varar_core::source::Source;
use varar_runner::execute;
use varar_runner::install_quiet_panic_hook;

use crate::error::ArtifactError;

/// A bundle's oath text and the run results the harness would record for it.
pub fn run_results(bundle_dir: &Path) -> Result<(String, OathResults), ArtifactError> {
    let (text, steps) = crate::input::load_bundle(bundle_dir)?;
    install_quiet_panic_hook();
    let source = Source::new(&text);
    let doc = parse("example.md", &source);
    let plan = plan(&doc, &source, steps.registry());
    let examples = plan
        .examples
        .iter()
        .map(|example| example_result(example, &execute(example, &steps), "example.md"))
        .collect();
    let results = oath_results("example.md", &source_hash(&text), examples);
    Ok((text, results))
}
