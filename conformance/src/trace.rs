//! The `trace` artifact (spec 30 §30.7): a bundle's `example.md` parsed,
//! planned against the bundle's own step definitions, every example
//! executed, and each step's outcome recorded.

use std::path::Path;

use serde_json::Value;
use varar_runner::execute::{ExampleRun, execute, install_quiet_panic_hook};
use varar_runner::parse::parse;
use varar_runner::plan::plan;
use varar_runner::source::Source;

use crate::{ArtifactError, bundles, read_oath};

/// The `trace` artifact of a bundle. `path` is the bundle directory (or its
/// `example.md`); the directory's name selects the step definitions.
pub fn artifact(path: &Path) -> Result<Value, ArtifactError> {
    let (dir, oath) = if path.is_dir() {
        (path.to_owned(), path.join("example.md"))
    } else {
        let dir = path.parent().unwrap_or(Path::new(".")).to_owned();
        (dir, path.to_owned())
    };
    // `canonicalize` so that `.` and `..` still name the bundle.
    let dir = dir.canonicalize().unwrap_or(dir);
    let bundle = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let text = read_oath(&oath)?;
    let registry = bundles::registry_for(&bundle).map_err(|message| ArtifactError::Steps {
        bundle: bundle.clone(),
        message,
    })?;
    install_quiet_panic_hook();
    let source = Source::new(&text);
    let doc = parse("example.md", &source);
    let plan = plan(&doc, &source, &registry);
    let runs: Vec<ExampleRun> = plan
        .examples
        .iter()
        .map(|example| execute(example, &registry))
        .collect();
    Ok(varar_runner::trace::trace(&plan, &runs, &registry))
}
