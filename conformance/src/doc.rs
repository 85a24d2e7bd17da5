//! The `doc` artifact (spec 10 §11): the parsed document model as JSON.

use std::path::Path;

use serde_json::Value;
use varar_core::parse::parse;
use varar_core::source::Source;

use crate::error::ArtifactError;
use crate::input::read_oath;

/// The `doc` artifact of the Markdown file at `path`. The document's `path`
/// is the file's name (`example.md` for every corpus bundle, as the goldens
/// expect).
pub fn artifact(path: &Path) -> Result<Value, ArtifactError> {
    let name = path
        .file_name()
        .map_or_else(|| path.to_string_lossy(), |n| n.to_string_lossy());
    artifact_named(path, &name)
}

/// The `doc` artifact of the file at `path`, recording `doc_path` as its path.
pub fn artifact_named(path: &Path, doc_path: &str) -> Result<Value, ArtifactError> {
    let text = read_oath(path)?;
    let source = Source::new(&text);
    let doc = parse(doc_path, &source);
    serde_json::to_value(&doc).map_err(|source| ArtifactError::Json {
        kind: "doc",
        source,
    })
}
