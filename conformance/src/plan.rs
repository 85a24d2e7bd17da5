//! The `plan` artifact (spec 20 §20.11): a bundle's `example.md` parsed and
//! planned against the bundle's own step registry.

use std::path::Path;

use serde_json::Value;
use varar_core::parse::parse;
use varar_core::plan::plan;
use varar_core::source::Source;

use crate::error::ArtifactError;
use crate::input::read_oath;
use crate::registry::bundle_registry;

/// The `plan` artifact of the bundle directory at `path`: its `example.md`
/// against the steps of the bundle named by the directory.
pub fn artifact(path: &Path) -> Result<Value, ArtifactError> {
    let registry = bundle_registry(path)?;
    let text = read_oath(&path.join("example.md"))?;
    let source = Source::new(&text);
    let doc = parse("example.md", &source);
    Ok(plan(&doc, &source, registry.registry()).to_json())
}

#[cfg(test)]
mod tests {
    use super::*;
    use varar_core::drift::candidates;
    use varar_core::stored;

    #[test]
    fn every_bundles_plan_and_candidates_read_back_from_their_stored_bytes() {
        let mut planned = 0;
        let bundles = std::fs::read_dir("corpus/bundles").unwrap_or_else(|e| panic!("{e}"));
        for dir in bundles.flatten().map(|e| e.path()) {
            let Ok(text) = read_oath(&dir.join("example.md")) else {
                continue;
            };
            let registry = bundle_registry(&dir).unwrap_or_else(|e| panic!("{e}"));
            let source = Source::new(&text);
            let doc = parse("example.md", &source);
            let plan = plan(&doc, &source, registry.registry());
            let candidates = candidates(&doc, &plan);
            let back = stored::decode(&stored::encode(&plan, &candidates));
            assert_eq!(back, Some((plan, candidates)), "{}", dir.display());
            planned += 1;
        }
        assert!(planned >= 15, "only {planned} bundles planned");
    }

    #[test]
    fn a_bundle_without_example_is_unreadable() {
        let err = artifact(Path::new("corpus/01-roman-numerals")).err();
        assert!(
            matches!(err, Some(ArtifactError::Unreadable { .. })),
            "{err:?}"
        );
    }
}
