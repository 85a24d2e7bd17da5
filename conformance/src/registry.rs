//! The `registry` artifact (spec 20 §20.10): a bundle's parameter types and
//! step definitions, as `golden/registry.json` lists them.

use std::path::Path;

use serde_json::Value;
use varar_runner::LinkedSteps;

use crate::bundles::registry_for;
use crate::error::ArtifactError;

/// The `registry` artifact of the bundle directory at `path`; the bundle is
/// named by the directory's name (e.g. `01-roman-numerals`).
pub fn artifact(path: &Path) -> Result<Value, ArtifactError> {
    Ok(bundle_registry(path)?.registry().to_json())
}

/// The step registry of the bundle directory at `path`.
pub fn bundle_registry(path: &Path) -> Result<LinkedSteps, ArtifactError> {
    let bundle = bundle_name(path);
    registry_for(&bundle).map_err(|message| ArtifactError::Steps { bundle, message })
}

/// The bundle name of a bundle directory: its last path component.
fn bundle_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(|| path.to_string_lossy(), |n| n.to_string_lossy())
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundle_is_named_by_the_directory() {
        let dir = Path::new("corpus/bundles/05-ambiguous-match");
        let json = artifact(dir).unwrap_or_else(|e| panic!("{e}"));
        let expressions: Vec<&str> = json["steps"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|s| s["expression"].as_str())
            .collect();
        assert_eq!(expressions, ["I have {int} cukes", "I have 5 cukes"]);
    }

    #[test]
    fn an_unknown_bundle_is_a_steps_error() {
        let err = artifact(Path::new("somewhere/99-nothing")).err();
        assert!(
            matches!(&err, Some(ArtifactError::Steps { bundle, .. }) if bundle == "99-nothing"),
            "{err:?}"
        );
    }
}
