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
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::io;
use std::path::{Path, PathBuf};

use serde_json::Value;

pub mod bundles;
pub mod doc;
pub mod plan;
pub mod registry;
pub mod results;
pub mod trace;
pub mod workspace;

/// The artifact kinds, in the order the harness runs them.
pub const KINDS: [&str; 4] = ["doc", "registry", "plan", "trace"];

/// Why an artifact could not be built.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ArtifactError {
    /// The kind is not one of [`KINDS`].
    #[error("unknown artifact `{0}` (expected one of: doc, registry, plan, trace)")]
    UnknownKind(String),
    /// The input file could not be read.
    #[error("cannot read `{}`: {source}", path.display())]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// The input file is not valid UTF-8.
    #[error("cannot read `{}`: invalid UTF-8 at byte {valid_up_to}", path.display())]
    NotUtf8 {
        /// The file.
        path: PathBuf,
        /// Length of the valid prefix, in bytes.
        valid_up_to: usize,
    },
    /// The bundle's step registry could not be built (unknown bundle,
    /// invalid definitions).
    #[error("cannot build the steps of bundle `{bundle}`: {message}")]
    Steps {
        /// The bundle directory name.
        bundle: String,
        /// Why.
        message: String,
    },
    /// A document of a multi-document `plan` or `trace` is not under the
    /// root its oathPath is taken from.
    #[error("`{}` is not under the root `{}`", path.display(), root.display())]
    OutsideRoot {
        /// The document.
        path: PathBuf,
        /// The root.
        root: PathBuf,
    },
    /// The oath is not in the workspace built for it.
    #[error(transparent)]
    Workspace(#[from] varar_runner::internal::workspace::WorkspaceError),
    /// This artifact has no builder yet.
    #[error("the `{kind}` artifact is not implemented yet")]
    NotImplemented {
        /// The artifact kind.
        kind: &'static str,
    },
    /// The artifact could not be turned into JSON.
    #[error("cannot serialise the `{kind}` artifact: {source}")]
    Json {
        /// The artifact kind.
        kind: &'static str,
        /// Why.
        #[source]
        source: serde_json::Error,
    },
}

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
pub fn load_bundle(
    path: &Path,
) -> Result<(String, varar_runner::internal::registry::Registry), ArtifactError> {
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
