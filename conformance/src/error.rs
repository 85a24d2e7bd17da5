//! Why an artifact could not be built.

use std::io;
use std::path::PathBuf;

/// Why an artifact could not be built.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ArtifactError {
    /// The kind is not one of [`KINDS`](crate::KINDS).
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
    Workspace(#[from] varar_core::workspace::WorkspaceError),
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
