//! **The conformance harness of Varar for Rust**: the bundle step definitions
//! and the builders of the four cross-port artifacts (`doc`, `registry`,
//! `plan`, `trace`) that `tests/conformance` compares with the corpus goldens
//! and that the `varar-conformance` binary prints.
//!
//! ```no_run
//! use std::path::Path;
//! let doc = varar_conformance::artifact("doc", Path::new("conformance/corpus/bundles/01-roman-numerals/example.md"))?;
//! assert_eq!(doc["path"], "example.md");
//! # Ok::<(), varar_conformance::ArtifactError>(())
//! ```

use std::path::Path;

use serde_json::Value;

pub mod bundles;
pub mod doc;
mod error;
mod input;
pub mod plan;
pub mod registry;
pub mod results;
pub mod trace;
pub mod workspace;

pub use error::ArtifactError;
pub use input::{load_bundle, read_oath};

/// The artifact kinds, in the order the harness runs them.
pub const KINDS: [&str; 4] = ["doc", "registry", "plan", "trace"];

/// Build the artifact `kind` (`doc`, `registry`, `plan` or `trace`) for the
/// input at `path`, as JSON.
pub fn artifact(kind: &str, path: &Path) -> Result<Value, ArtifactError> {
    match kind {
        "doc" => doc::artifact(path),
        "registry" => registry::artifact(path),
        "plan" => plan::artifact(path),
        "trace" => trace::artifact(path),
        other => Err(ArtifactError::UnknownKind(other.to_owned())),
    }
}
