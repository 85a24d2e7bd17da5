//! Where a project's steps are (shell: reads `Cargo.toml` files and lists
//! directories).
//!
//! A project is a directory with `varar.config.json` (found at or above an
//! opened oath, as every `cargo varar` command finds it). Its steps are in
//! the Rust files of the package next to the config, the way `cargo test`
//! links them into the oaths' test binary:
//! - its library and test targets: every `.rs` file under `src/` and
//!   `tests/`;
//! - the library (`src/`) of every path dependency its `Cargo.toml` names
//!   in `[dependencies]`, `[dev-dependencies]` or a `[target.*]` table,
//!   directly or through `workspace = true` (the cross-crate pattern of
//!   spec 50 §50.1); Varar's own crates are skipped.
//!
//! Each file is labelled as `file!()` labels it in the harness: relative
//! to the Cargo workspace root (the nearest `Cargo.toml` with a
//! `[workspace]` table at or above the package), `/`-separated.

use std::path::{Path, PathBuf};

use walkdir::WalkDir;

/// The directories holding a project's Rust sources.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sources {
    /// Directories scanned for `.rs` files.
    pub dirs: Vec<PathBuf>,
    /// What labels are relative to.
    pub workspace_root: PathBuf,
    /// Problems with the manifests, for the editor's log.
    pub warnings: Vec<String>,
}

/// The crates of Varar for Rust, by their published package names: a path
/// dependency on them (a checkout of this repository) declares no step.
const VARAR_CRATES: [&str; 4] = [
    "oathmark",
    "oathmark-runner",
    "oathmark-macros",
    "oathmark-core",
];

/// The source directories of the package at `root`.
pub fn sources(root: &Path) -> Sources {
    let mut out = Sources {
        workspace_root: workspace_root(root),
        ..Sources::default()
    };
    for dir in ["src", "tests"] {
        let dir = root.join(dir);
        if dir.is_dir() {
            out.dirs.push(dir);
        }
    }
    let manifest = root.join("Cargo.toml");
    let table = match read_toml(&manifest) {
        Ok(Some(t)) => t,
        Ok(None) => {
            out.warnings.push(format!(
                "{} does not exist: only src/ and tests/ are read for steps",
                manifest.display()
            ));
            return out;
        }
        Err(e) => {
            out.warnings.push(e);
            return out;
        }
    };
    let workspace_deps = read_toml(&out.workspace_root.join("Cargo.toml"))
        .ok()
        .flatten()
        .and_then(|t| t.get("workspace")?.get("dependencies")?.as_table().cloned());
    for (name, spec) in dependency_specs(&table) {
        let Some(path) = dependency_path(
            root,
            &out.workspace_root,
            workspace_deps.as_ref(),
            &name,
            &spec,
        ) else {
            continue;
        };
        let package = read_toml(&path.join("Cargo.toml"))
            .ok()
            .flatten()
            .and_then(|t| t.get("package")?.get("name")?.as_str().map(str::to_string))
            .unwrap_or(name);
        if VARAR_CRATES.contains(&package.as_str()) {
            continue;
        }
        let src = normalize(&path.join("src"));
        if src.is_dir() && !out.dirs.contains(&src) {
            out.dirs.push(src);
        }
    }
    out
}

/// The directory of a path dependency: its own `path`, or through
/// `workspace = true` the workspace's; `None` for any other dependency.
fn dependency_path(
    root: &Path,
    workspace_root: &Path,
    workspace_deps: Option<&toml::Table>,
    name: &str,
    spec: &toml::Table,
) -> Option<PathBuf> {
    match spec.get("path").and_then(toml::Value::as_str) {
        Some(p) => Some(normalize(&root.join(p))),
        None if spec.get("workspace").and_then(toml::Value::as_bool) == Some(true) => {
            let p = workspace_deps?
                .get(name)?
                .get("path")
                .and_then(toml::Value::as_str)?;
            Some(normalize(&workspace_root.join(p)))
        }
        None => None,
    }
}

/// Why the package at a root has no target that runs its oaths.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TargetError {
    /// The manifest could not be read or is not TOML.
    #[error("{0}")]
    Manifest(String),
    /// No `harness = false` test target's `main` calls `varar::run`.
    #[error(
        "no test target of {manifest} runs the oaths: add a `[[test]]` with `harness = false` whose `main` calls `varar::run()`"
    )]
    None {
        /// The manifest read.
        manifest: String,
    },
}

/// The test targets of the package at `root` that run its oaths: every
/// `[[test]]` with `harness = false` whose file (its `path`, else
/// `tests/<name>.rs` or `tests/<name>/main.rs`) has a `main` calling
/// `varar::run` ([`super::syntax::calls_varar_run`]), in manifest order.
pub fn oath_targets(root: &Path) -> Result<Vec<String>, TargetError> {
    let manifest = root.join("Cargo.toml");
    let table = read_toml(&manifest)
        .map_err(TargetError::Manifest)?
        .ok_or_else(|| TargetError::Manifest(format!("{} does not exist", manifest.display())))?;
    let tests = table
        .get("test")
        .and_then(toml::Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let mut out = Vec::new();
    for test in tests.iter().filter_map(toml::Value::as_table) {
        let Some(name) = test.get("name").and_then(toml::Value::as_str) else {
            continue;
        };
        if test.get("harness").and_then(toml::Value::as_bool) != Some(false) {
            continue;
        }
        let files = match test.get("path").and_then(toml::Value::as_str) {
            Some(path) => vec![root.join(path)],
            None => vec![
                root.join("tests").join(format!("{name}.rs")),
                root.join("tests").join(name).join("main.rs"),
            ],
        };
        let runs = files.iter().any(|f| {
            varar_project::files::read_to_string(f)
                .is_ok_and(|text| super::syntax::calls_varar_run(&text))
        });
        if runs {
            out.push(name.to_string());
        }
    }
    if out.is_empty() {
        return Err(TargetError::None {
            manifest: manifest.display().to_string(),
        });
    }
    Ok(out)
}

/// `path` with `.` and `..` components resolved lexically (symbolic
/// links are not followed), so that the paths of watched-file events,
/// which never hold `..`, compare equal.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// Every dependency table entry that is a table (`name = { … }`).
fn dependency_specs(manifest: &toml::Table) -> Vec<(String, toml::Table)> {
    let mut tables: Vec<&toml::Table> = Vec::new();
    for key in ["dependencies", "dev-dependencies"] {
        if let Some(t) = manifest.get(key).and_then(toml::Value::as_table) {
            tables.push(t);
        }
    }
    if let Some(targets) = manifest.get("target").and_then(toml::Value::as_table) {
        for target in targets.values().filter_map(toml::Value::as_table) {
            for key in ["dependencies", "dev-dependencies"] {
                if let Some(t) = target.get(key).and_then(toml::Value::as_table) {
                    tables.push(t);
                }
            }
        }
    }
    tables
        .into_iter()
        .flat_map(|t| t.iter())
        .filter_map(|(name, spec)| Some((name.clone(), spec.as_table()?.clone())))
        .collect()
}

fn read_toml(path: &Path) -> Result<Option<toml::Table>, String> {
    let text = match varar_project::files::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    text.parse::<toml::Table>()
        .map(Some)
        .map_err(|e| format!("{} is not valid TOML: {e}", path.display()))
}

/// The nearest directory at or above `root` whose `Cargo.toml` has a
/// `[workspace]` table; `root` itself when there is none.
pub fn workspace_root(root: &Path) -> PathBuf {
    root.ancestors()
        .find(|dir| {
            read_toml(&dir.join("Cargo.toml"))
                .ok()
                .flatten()
                .is_some_and(|t| t.contains_key("workspace"))
        })
        .unwrap_or(root)
        .to_path_buf()
}

/// Every `.rs` file under the source directories, sorted, skipping
/// `target/` and hidden directories.
pub fn rust_files(sources: &Sources) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in &sources.dirs {
        let walk = WalkDir::new(dir).into_iter().filter_entry(|e| {
            let name = e.file_name().to_string_lossy();
            e.depth() == 0
                || !(name.starts_with('.') || (e.file_type().is_dir() && name == "target"))
        });
        for entry in walk.flatten() {
            if entry.file_type().is_file() && entry.path().extension().is_some_and(|x| x == "rs") {
                files.push(entry.into_path());
            }
        }
    }
    files.sort();
    files.dedup();
    files
}

/// Whether `path` is a Rust file the project reads.
pub fn is_source(sources: &Sources, path: &Path) -> bool {
    path.extension().is_some_and(|x| x == "rs")
        && sources.dirs.iter().any(|d| {
            path.strip_prefix(d).is_ok_and(|rel| {
                !rel.components().any(|c| {
                    let c = c.as_os_str().to_string_lossy();
                    c == "target" || c.starts_with('.')
                })
            })
        })
}

/// A file's label: relative to the workspace root with `/`, else as is.
pub fn label(sources: &Sources, path: &Path) -> String {
    match path.strip_prefix(&sources.workspace_root) {
        Ok(rel) => rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/"),
        Err(_) => path.display().to_string(),
    }
}

/// The oathPath of a file under the project root (`/`-separated).
pub fn oath_path(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    let parts: Vec<String> = rel
        .components()
        .map(|c| match c {
            std::path::Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect::<Option<_>>()?;
    (!parts.is_empty()).then(|| parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(root: &Path, rel: &str, text: &str) {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap_or(root)).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(path, text).unwrap_or_else(|e| panic!("{e}"));
    }

    #[test]
    fn the_package_and_its_path_dependencies_but_not_varar() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let top = dir.path();
        write(
            top,
            "Cargo.toml",
            "[workspace]\nmembers = [\"app\", \"steps\"]\n[workspace.dependencies]\noathmark = { path = \"varar\" }\nshared = { path = \"shared\" }\n",
        );
        write(
            top,
            "app/Cargo.toml",
            "[package]\nname = \"app\"\n[dev-dependencies]\noathmark = { workspace = true }\nshop-steps = { path = \"../steps\" }\nshared = { workspace = true }\nserde = \"1\"\n",
        );
        write(top, "app/tests/oaths.rs", "fn main() {}\n");
        write(top, "app/tests/steps/a.rs", "\n");
        write(top, "app/target/debug/x.rs", "\n");
        write(
            top,
            "steps/Cargo.toml",
            "[package]\nname = \"shop-steps\"\n",
        );
        write(top, "steps/src/lib.rs", "\n");
        write(top, "shared/Cargo.toml", "[package]\nname = \"shared\"\n");
        write(top, "shared/src/lib.rs", "\n");
        write(top, "varar/Cargo.toml", "[package]\nname = \"oathmark\"\n");
        write(top, "varar/src/lib.rs", "\n");
        let sources = sources(&top.join("app"));
        assert_eq!(sources.workspace_root, top);
        assert_eq!(
            sources.dirs,
            [
                top.join("app/tests"),
                top.join("shared/src"),
                top.join("steps/src")
            ]
        );
        let labels: Vec<String> = rust_files(&sources)
            .iter()
            .map(|p| label(&sources, p))
            .collect();
        assert_eq!(
            labels,
            [
                "app/tests/oaths.rs",
                "app/tests/steps/a.rs",
                "shared/src/lib.rs",
                "steps/src/lib.rs"
            ]
        );
        assert!(is_source(&sources, &top.join("app/tests/steps/a.rs")));
        assert!(!is_source(&sources, &top.join("app/Cargo.toml")));
        assert!(!is_source(&sources, &top.join("varar/src/lib.rs")));
        assert_eq!(
            oath_path(&top.join("app"), &top.join("app/varar/a b.md")).as_deref(),
            Some("varar/a b.md")
        );
    }

    #[test]
    fn the_oaths_run_in_the_harness_false_targets_that_call_varar_run() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let root = dir.path();
        write(
            root,
            "Cargo.toml",
            "[package]\nname = \"p\"\n[[test]]\nname = \"plain\"\n[[test]]\nname = \"other\"\nharness = false\n[[test]]\nname = \"oaths\"\nharness = false\n[[test]]\nname = \"docs\"\nharness = false\npath = \"checks/docs.rs\"\n",
        );
        write(root, "tests/plain.rs", "fn main() { varar::run(); }\n");
        write(root, "tests/other.rs", "fn main() {}\n");
        write(
            root,
            "tests/oaths.rs",
            "mod steps;\nfn main() -> std::process::ExitCode {\n    varar::run()\n}\n",
        );
        write(
            root,
            "checks/docs.rs",
            "fn main() -> std::process::ExitCode {\n    varar::run()\n}\n",
        );
        let found = oath_targets(root).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(found, ["oaths", "docs"]);
        write(root, "Cargo.toml", "[package]\nname = \"p\"\n");
        assert!(matches!(oath_targets(root), Err(TargetError::None { .. })));
    }

    #[test]
    fn a_broken_manifest_is_a_warning_not_a_failure() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        write(dir.path(), "Cargo.toml", "[package\n");
        write(dir.path(), "src/lib.rs", "\n");
        let sources = sources(dir.path());
        assert_eq!(sources.dirs, [dir.path().join("src")]);
        assert!(
            sources.warnings[0].contains("is not valid TOML"),
            "{:?}",
            sources.warnings
        );
    }
}
