//! Which project a command works on (shell: reads the file system).
//!
//! The project root is the directory holding `varar.config.json`,
//! `varar.lock.json` and `.varar/` (spec 40 §0). With `--root DIR` it is
//! `DIR`, which must hold a `varar.config.json`. Without it, it is the
//! nearest directory **at or above the current one** that holds a
//! `varar.config.json`, so `cargo varar report` works from anywhere inside
//! a package, as `cargo` itself finds `Cargo.toml`. (The harness itself
//! uses `CARGO_MANIFEST_DIR`, the package of the test binary; in a package
//! with its own config the two are the same directory.)

use std::path::{Path, PathBuf};

use crate::config::CONFIG_FILE_NAME;

/// Why no project root was found.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RootError {
    /// No `varar.config.json` at or above the starting directory.
    #[error(
        "no {CONFIG_FILE_NAME} in `{}` or any directory above it; run the command inside a \
         package that has one, or pass --root DIR",
        start.display()
    )]
    NotFound {
        /// Where the search started.
        start: PathBuf,
    },
    /// `--root` names a directory without a config.
    #[error("--root `{}` has no {CONFIG_FILE_NAME}", root.display())]
    NoConfig {
        /// The directory given.
        root: PathBuf,
    },
    /// The current directory could not be determined.
    #[error("cannot determine the current directory: {source}")]
    CurrentDir {
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
}

/// Where a command looks for its project: the `--root` it was given, or
/// up from the current directory. It is resolved ([`ProjectRoot::resolve`])
/// when the project is read, so that a command that reports its problems
/// in its own format (`gate --format json`) reports this one there too.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProjectRoot {
    /// `--root DIR`, as given (relative to `cwd`).
    pub explicit: Option<PathBuf>,
    /// The current directory.
    pub cwd: PathBuf,
}

impl ProjectRoot {
    /// The project root ([`resolve`]).
    pub fn resolve(&self) -> Result<PathBuf, RootError> {
        resolve(self.explicit.as_deref(), &self.cwd)
    }
}

/// The project root: `explicit` (checked), else the nearest ancestor of
/// `cwd` (itself included) with a config.
pub fn resolve(explicit: Option<&Path>, cwd: &Path) -> Result<PathBuf, RootError> {
    if let Some(root) = explicit {
        let root = cwd.join(root);
        if holds_config(&root) {
            return Ok(root);
        }
        return Err(RootError::NoConfig { root });
    }
    cwd.ancestors()
        .find(|dir| holds_config(dir))
        .map(Path::to_path_buf)
        .ok_or_else(|| RootError::NotFound {
            start: cwd.to_path_buf(),
        })
}

/// Whether `dir` holds a config: an entry of that name that is not a
/// directory. A FIFO or a link to a device there is the project's config
/// all the same, and reading it says what is wrong (`crate::files`), rather
/// than the search going on above as if there were none.
fn holds_config(dir: &Path) -> bool {
    std::fs::metadata(dir.join(CONFIG_FILE_NAME)).is_ok_and(|m| !m.is_dir())
}

/// The current directory, as a [`RootError`] when it cannot be read.
pub fn current_dir() -> Result<PathBuf, RootError> {
    std::env::current_dir().map_err(|source| RootError::CurrentDir { source })
}

/// Where the project at `root` is inside its repository, for the paths
/// CI servers want (issue 38: GitHub and GitLab take them relative to the
/// repository root): the project's directory relative to the nearest
/// directory at or above it that holds `.git` (a directory, or the file a
/// worktree or submodule has), `/`-separated, `""` at the root; `None`
/// outside any repository. No git process runs: a `.git` entry is enough.
pub fn repository_prefix(root: &Path) -> Option<String> {
    let root = std::fs::canonicalize(root).ok()?;
    let repository = root
        .ancestors()
        .find(|dir| dir.join(".git").symlink_metadata().is_ok())?;
    let inside = root.strip_prefix(repository).ok()?;
    let parts: Vec<String> = inside
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    Some(parts.join("/"))
}

/// The prefix of the paths a CI report writes: `given` (`--path-prefix`),
/// else [`repository_prefix`], else none.
pub fn path_prefix(given: Option<&str>, root: &Path) -> String {
    match given {
        Some(prefix) => prefix.to_owned(),
        None => repository_prefix(root).unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issue38_the_project_path_inside_the_enclosing_repository() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let top = dir.path();
        let project = top.join("examples/bakery");
        std::fs::create_dir_all(&project).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(repository_prefix(&project), None, "no repository above");
        // A worktree's `.git` is a file.
        std::fs::write(top.join(".git"), "gitdir: /elsewhere\n").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            repository_prefix(&project).as_deref(),
            Some("examples/bakery")
        );
        assert_eq!(
            repository_prefix(&project.join("../bakery/.")).as_deref(),
            Some("examples/bakery"),
            "`..` and `.` resolved"
        );
        std::fs::create_dir(project.join(".git")).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(repository_prefix(&project).as_deref(), Some(""));
    }

    #[test]
    fn the_nearest_config_at_or_above_wins() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let top = dir.path();
        let pkg = top.join("pkg");
        let deep = pkg.join("src/deeper");
        std::fs::create_dir_all(&deep).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(top.join(CONFIG_FILE_NAME), "{}").unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(pkg.join(CONFIG_FILE_NAME), "{}").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(resolve(None, &deep).ok(), Some(pkg.clone()));
        assert_eq!(resolve(None, &pkg).ok(), Some(pkg.clone()));
        assert_eq!(resolve(None, top).ok(), Some(top.to_path_buf()));
        assert_eq!(
            resolve(Some(Path::new("..")), &pkg).ok(),
            Some(pkg.join(".."))
        );
        let err = resolve(Some(Path::new("src")), &pkg)
            .err()
            .map(|e| e.to_string());
        assert!(err.is_some_and(|e| e.ends_with("/pkg/src` has no varar.config.json")));
    }
}
