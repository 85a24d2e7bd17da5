//! Where the bench finds the workspace it measures.

use std::path::PathBuf;

/// The workspace root: the parent of this package.
pub fn workspace_root() -> PathBuf {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    here.parent().map(PathBuf::from).unwrap_or(here)
}
