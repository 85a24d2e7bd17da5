//! Reading a bundle: its oath text and the steps of its own module.

use std::path::Path;

use crate::bundles;
use crate::error::ArtifactError;

/// Read an oath as spec 40 §2.4 says: bytes first, then strict UTF-8, so an
/// unreadable file and a file that is not UTF-8 are different errors. The
/// text is unchanged (a BOM and CRs stay).
pub fn read_oath(path: &Path) -> Result<String, ArtifactError> {
    let bytes = std::fs::read(path).map_err(|source| ArtifactError::Unreadable {
        path: path.to_owned(),
        source,
    })?;
    String::from_utf8(bytes).map_err(|e| ArtifactError::NotUtf8 {
        path: path.to_owned(),
        valid_up_to: e.utf8_error().valid_up_to(),
    })
}

/// A bundle's oath text and the registry of its own steps. `path` is the
/// bundle directory or its `example.md`; the directory's name selects the
/// step definitions.
pub fn load_bundle(path: &Path) -> Result<(String, varar_runner::LinkedSteps), ArtifactError> {
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
    Ok((text, registry))
}
