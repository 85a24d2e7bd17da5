//! `plan` and `trace` of an oath among other documents (spec 70 §70.2):
//! the command line's multi-document form, so that a case of reuse by link
//! spread over several files can be checked.
//!
//! ```text
//! varar-conformance <plan|trace> <path> [--steps <bundle>] [--root <dir>] [<document.md>...]
//! ```
//!
//! * `<path>` is a bundle directory (its `example.md` is the oath) or the
//!   oath's Markdown file.
//! * `--steps <bundle>` names the bundle whose step definitions are used
//!   (default: the bundle directory's name, as in the single-path form).
//! * `--root <dir>` is the project root: every document's oathPath is its
//!   path relative to it, `/`-separated (default: the oath's directory, so
//!   a bundle's oath is `example.md` as always).
//! * Each `<document.md>` joins the workspace, with the oath itself. With a
//!   document or `--root`, the oath is planned against that workspace
//!   (sections other documents reference are consumed, links to them
//!   resolve); otherwise alone, against the empty workspace, exactly as the
//!   single-path form does.

use std::path::{Component, Path, PathBuf};

use serde_json::Value;
use varar_core::outcome::ExampleRun;
use varar_core::parse::parse;
use varar_core::plan::{Plan, plan, plan_oath};
use varar_core::source::Source;
use varar_core::workspace::Workspace;
use varar_runner::LinkedSteps;
use varar_runner::execute;
use varar_runner::install_quiet_panic_hook;

use crate::bundles::registry_for;
use crate::error::ArtifactError;
use crate::input::read_oath;

/// What a multi-document `plan` or `trace` is asked for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Inputs {
    /// The bundle directory or the oath's file.
    pub oath: PathBuf,
    /// The bundle whose steps are used, when not the oath's directory.
    pub steps: Option<String>,
    /// The project root, when not the oath's directory.
    pub root: Option<PathBuf>,
    /// The other documents of the workspace.
    pub documents: Vec<PathBuf>,
}

/// A command line that does not say what to build.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum UsageError {
    /// An option without its value.
    #[error("`{0}` needs a value")]
    MissingValue(String),
    /// An option this command does not have.
    #[error("unknown option `{0}`")]
    UnknownOption(String),
    /// No oath path.
    #[error("missing the oath path")]
    MissingPath,
}

impl Inputs {
    /// Read the arguments after the artifact kind.
    pub fn parse(args: &[String]) -> Result<Inputs, UsageError> {
        let mut inputs = Inputs::default();
        let mut oath = None;
        let mut args = args.iter();
        while let Some(arg) = args.next() {
            let mut value = || {
                args.next()
                    .cloned()
                    .ok_or_else(|| UsageError::MissingValue(arg.clone()))
            };
            match arg.as_str() {
                "--steps" => inputs.steps = Some(value()?),
                "--root" => inputs.root = Some(PathBuf::from(value()?)),
                flag if flag.starts_with("--") => {
                    return Err(UsageError::UnknownOption(flag.to_owned()));
                }
                path if oath.is_none() => oath = Some(PathBuf::from(path)),
                path => inputs.documents.push(PathBuf::from(path)),
            }
        }
        inputs.oath = oath.ok_or(UsageError::MissingPath)?;
        Ok(inputs)
    }

    /// Whether the oath is planned against a workspace of documents.
    pub fn is_workspace(&self) -> bool {
        self.root.is_some() || !self.documents.is_empty()
    }
}

/// The `plan` or `trace` artifact of `inputs`.
pub fn artifact(kind: &str, inputs: &Inputs) -> Result<Value, ArtifactError> {
    let (oath, bundle_dir) = if inputs.oath.is_dir() {
        (inputs.oath.join("example.md"), inputs.oath.clone())
    } else {
        let dir = inputs.oath.parent().unwrap_or(Path::new(".")).to_owned();
        (inputs.oath.clone(), dir)
    };
    let bundle = match &inputs.steps {
        Some(bundle) => bundle.clone(),
        None => name_of(&bundle_dir),
    };
    let registry = registry_for(&bundle).map_err(|message| ArtifactError::Steps {
        bundle: bundle.clone(),
        message,
    })?;
    let root = match &inputs.root {
        Some(root) => root.clone(),
        None => oath.parent().unwrap_or(Path::new(".")).to_owned(),
    };
    let oath_path = oath_path_of(&root, &oath)?;
    let text = read_oath(&oath)?;
    let mut others = Vec::with_capacity(inputs.documents.len());
    for document in &inputs.documents {
        others.push((oath_path_of(&root, document)?, read_oath(document)?));
    }
    let plan = if inputs.is_workspace() {
        let documents = others
            .iter()
            .map(|(path, text)| (path.as_str(), text.as_str()))
            .chain([(oath_path.as_str(), text.as_str())]);
        let workspace = Workspace::build(documents);
        plan_oath(&workspace, &oath_path, registry.registry())?
    } else {
        let source = Source::new(&text);
        plan(&parse(&oath_path, &source), &source, registry.registry())
    };
    match kind {
        "plan" => Ok(plan.to_json()),
        "trace" => Ok(trace(&plan, &registry)),
        _ => Err(ArtifactError::UnknownKind(kind.to_owned())),
    }
}

/// Every example executed, and the trace of the runs.
fn trace(plan: &Plan, steps: &LinkedSteps) -> Value {
    install_quiet_panic_hook();
    let runs: Vec<ExampleRun> = plan
        .examples
        .iter()
        .map(|example| execute(example, steps))
        .collect();
    varar_core::trace::trace(plan, &runs, steps.registry())
}

/// The last component of `dir` (`.` and `..` resolved first).
fn name_of(dir: &Path) -> String {
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_owned());
    dir.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// `file`'s path relative to `root`, `/`-separated: its oathPath.
fn oath_path_of(root: &Path, file: &Path) -> Result<String, ArtifactError> {
    let outside = || ArtifactError::OutsideRoot {
        path: file.to_owned(),
        root: root.to_owned(),
    };
    // Canonical paths, so that `./a.md` and `../bundle/a.md` agree; a file
    // that does not exist is reported when it is read.
    let canonical = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_owned());
    let (root_abs, file_abs) = (canonical(root), canonical(file));
    let relative = file_abs.strip_prefix(&root_abs).map_err(|_| outside())?;
    let mut segments = Vec::new();
    for component in relative.components() {
        match component {
            Component::Normal(segment) => segments.push(segment.to_string_lossy().into_owned()),
            _ => return Err(outside()),
        }
    }
    if segments.is_empty() {
        return Err(outside());
    }
    Ok(segments.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn arguments_are_the_oath_options_and_documents() {
        let inputs = Inputs::parse(&args(&[
            "case/varar/checkout.md",
            "--steps",
            "02-context-isolation",
            "--root",
            "case",
            "case/varar/shared.md",
            "case/varar/other.md",
        ]));
        assert_eq!(
            inputs,
            Ok(Inputs {
                oath: "case/varar/checkout.md".into(),
                steps: Some("02-context-isolation".into()),
                root: Some("case".into()),
                documents: vec!["case/varar/shared.md".into(), "case/varar/other.md".into()],
            })
        );
        assert!(inputs.is_ok_and(|i| i.is_workspace()));
        let alone = Inputs::parse(&args(&["x", "--steps", "y"]));
        assert!(alone.is_ok_and(|i| !i.is_workspace()));
    }

    #[test]
    fn bad_arguments_are_usage_errors() {
        assert_eq!(Inputs::parse(&args(&[])), Err(UsageError::MissingPath));
        assert_eq!(
            Inputs::parse(&args(&["x", "--root"])),
            Err(UsageError::MissingValue("--root".into()))
        );
        assert_eq!(
            Inputs::parse(&args(&["x", "--rot", "y"])),
            Err(UsageError::UnknownOption("--rot".into()))
        );
    }

    #[test]
    fn oath_paths_are_relative_to_the_root() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
        let file = root.join("bundles/01-roman-numerals/example.md");
        assert_eq!(
            oath_path_of(&root, &file).ok().as_deref(),
            Some("bundles/01-roman-numerals/example.md")
        );
        let outside = oath_path_of(&root.join("bundles"), &root.join("config"));
        assert!(matches!(outside, Err(ArtifactError::OutsideRoot { .. })));
    }
}
