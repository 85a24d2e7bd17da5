//! The project's scratch directory `.varar/` (spec 40 §6): run results and
//! the sidecar locks live there, and it is never committed.

use std::path::{Path, PathBuf};

use super::atomic::create_ignored_dir;
use super::errors::StoreError;

/// The scratch directory for run results and lock sidecars (spec 40 §6).
pub const SCRATCH_DIR: &str = ".varar";

/// Create `<root>/.varar/` if needed (with its `.gitignore`); returns its
/// path.
pub fn ensure_scratch_dir(root: &Path) -> Result<PathBuf, StoreError> {
    let dir = root.join(SCRATCH_DIR);
    create_ignored_dir(&dir)?;
    Ok(dir)
}
