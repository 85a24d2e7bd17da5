//! The step index of one package (pure): the items of every Rust source
//! file read so far, and the engine's [`Registry`] built from them exactly
//! as the harness builds it from `inventory` (spec 20 §20.1): custom types
//! by (file, line, name), steps by (file, line, column), no handlers.
//!
//! A file is re-read on its own ([`StepIndex::update`]); the registry is
//! rebuilt only when a file's items changed. A file that stops parsing
//! keeps its last good items and records the error. A definition the
//! registry refuses (a duplicate, a bad expression, an unknown type) is
//! left out, so the rest still plans, and becomes a [`RefusedDefinition`] shown on
//! the Rust file.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use varar_core::registry::{ParamSpec, Registry, RegistryErrors, StepSpec};
use varar_core::source::{Source, Span};

use super::syntax::{self, FileItems, ParameterItem, StepItem, SyntaxError};

/// One Rust source file of the package.
#[derive(Clone, Debug, PartialEq)]
pub struct StepFile {
    /// Its path on disk.
    pub path: PathBuf,
    /// Its name as `file!()` gives it (relative to the Cargo workspace
    /// root): the registry's sort key and the file ambiguity messages name.
    pub label: String,
    /// The items of the last text that parsed.
    pub items: FileItems,
    /// Why the last text read did not parse, if it did not.
    pub error: Option<SyntaxError>,
    /// Where a new function is appended: the end of the text (0-based
    /// line, UTF-16 column).
    pub end: (u32, u32),
    /// Whether the text ends with a newline.
    pub ends_with_newline: bool,
}

/// A registry entry's origin: which file and which of its steps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    /// The file's path.
    pub path: PathBuf,
    /// Index into its `items.steps` (or `items.parameters`).
    pub index: usize,
}

/// A definition the registry refused, at its place in a Rust file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefusedDefinition {
    /// The file.
    pub path: PathBuf,
    /// The expression literal or the parameter name literal.
    pub span: Span,
    /// The registry's message (with `file:line:` removed).
    pub message: String,
}

/// Every step file of a package and the registry built from them.
#[derive(Clone, Debug)]
pub struct StepIndex {
    files: BTreeMap<PathBuf, StepFile>,
    registry: Registry,
    steps: Vec<Origin>,
    parameters: Vec<Origin>,
    problems: Vec<RefusedDefinition>,
    generation: u64,
}

impl Default for StepIndex {
    fn default() -> Self {
        StepIndex {
            files: BTreeMap::new(),
            registry: empty_registry(),
            steps: Vec::new(),
            parameters: Vec::new(),
            problems: Vec::new(),
            generation: 0,
        }
    }
}

fn empty_registry() -> Registry {
    // An empty registry cannot fail to build.
    Registry::build(Vec::new(), Vec::new()).unwrap_or_else(|_| unreachable!())
}

impl StepIndex {
    /// Read many files at once and build the registry once.
    pub fn load(files: impl IntoIterator<Item = (PathBuf, String, String)>) -> StepIndex {
        let mut index = StepIndex::default();
        for (path, label, text) in files {
            index.read(path, label, &text);
        }
        index.rebuild();
        index
    }

    /// Re-read one file's text. Returns whether the registry changed (its
    /// items changed; a new parse error alone changes nothing but the
    /// file's diagnostic).
    pub fn update(&mut self, path: PathBuf, label: String, text: &str) -> bool {
        let before = self.files.get(&path).map(|f| f.items.clone());
        self.read(path.clone(), label, text);
        let after = self.files.get(&path).map(|f| &f.items);
        let changed = before.as_ref() != after;
        if changed {
            self.rebuild();
        }
        changed
    }

    /// Forget a deleted file. Returns whether the registry changed.
    pub fn remove(&mut self, path: &Path) -> bool {
        match self.files.remove(path) {
            Some(file) if !file.items.is_empty() => {
                self.rebuild();
                true
            }
            _ => false,
        }
    }

    fn read(&mut self, path: PathBuf, label: String, text: &str) {
        let source = Source::new(text);
        let last = source.line_count().saturating_sub(1);
        let last_start = source.line_start(last + 1).unwrap_or(0);
        let end = (last, source.len_utf16() - last_start);
        let (items, error) = match syntax::collect(text) {
            Ok(items) => (items, None),
            Err(e) => {
                let kept = self
                    .files
                    .get(&path)
                    .map(|f| f.items.clone())
                    .unwrap_or_default();
                (kept, Some(e))
            }
        };
        self.files.insert(
            path.clone(),
            StepFile {
                path,
                label,
                items,
                error,
                end,
                ends_with_newline: text.ends_with('\n'),
            },
        );
    }

    /// Build the registry from every file, leaving out what it refuses.
    fn rebuild(&mut self) {
        self.generation += 1;
        let (params, steps) = definitions(&self.files);
        let built = build_registry(&params, &steps);
        self.steps = built.steps;
        self.parameters = built.parameters;
        self.registry = built.registry;
        self.problems = built.problems;
    }

    /// The registry the oaths are planned against.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// Increases with every rebuild of the registry.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The step behind registry entry `step`, with its file.
    pub fn step(&self, step: usize) -> Option<(&StepFile, &StepItem)> {
        let origin = self.steps.get(step)?;
        let file = self.files.get(&origin.path)?;
        Some((file, file.items.steps.get(origin.index)?))
    }

    /// The registry index of the step whose head (attribute to signature)
    /// covers `line` (0-based) of `path`.
    pub fn step_at_line(&self, path: &Path, line: u32) -> Option<usize> {
        self.steps.iter().position(|o| {
            o.path == path
                && self
                    .files
                    .get(path)
                    .and_then(|f| f.items.steps.get(o.index))
                    .is_some_and(|s| {
                        let head = s.function.head_span;
                        head.start_line <= line + 1 && line < head.end_line
                    })
        })
    }

    /// The steps of the file `path` in the registry: (registry index, step).
    pub fn steps_in<'a>(&'a self, path: &'a Path) -> impl Iterator<Item = (usize, &'a StepItem)> {
        self.steps.iter().enumerate().filter_map(move |(i, o)| {
            if o.path != path {
                return None;
            }
            Some((i, self.files.get(path)?.items.steps.get(o.index)?))
        })
    }

    /// The custom parameter types of the file `path` in the registry.
    pub fn parameters_in<'a>(&'a self, path: &'a Path) -> impl Iterator<Item = &'a ParameterItem> {
        self.parameters.iter().filter_map(move |o| {
            if o.path != path {
                return None;
            }
            self.files.get(path)?.items.parameters.get(o.index)
        })
    }

    /// The registry index of the step whose expression literal holds the
    /// position (0-based line, UTF-16 column) of `path`.
    pub fn step_at_literal(&self, path: &Path, line: u32, character: u32) -> Option<usize> {
        let (line, column) = (line + 1, character + 1);
        self.steps_in(path)
            .find(|(_, s)| {
                let span = s.expression_span;
                (span.start_line, span.start_col) <= (line, column)
                    && (line, column) <= (span.end_line, span.end_col)
            })
            .map(|(i, _)| i)
    }

    /// This index with the expression of registry step `step` replaced, as
    /// a rename would leave it; `None` when there is no such step. The
    /// registry may refuse the new expression: see [`Self::problems`].
    pub fn with_expression(&self, step: usize, expression: &str) -> Option<StepIndex> {
        let origin = self.steps.get(step)?.clone();
        let mut index = self.clone();
        let item = index
            .files
            .get_mut(&origin.path)?
            .items
            .steps
            .get_mut(origin.index)?;
        item.expression = expression.to_string();
        index.rebuild();
        Some(index)
    }

    /// The custom parameter type `name`, with its file.
    pub fn parameter(&self, name: &str) -> Option<(&StepFile, &ParameterItem)> {
        self.parameters.iter().find_map(|o| {
            let file = self.files.get(&o.path)?;
            let p = file.items.parameters.get(o.index)?;
            (p.name == name).then_some((file, p))
        })
    }

    /// Every custom parameter type in the registry, in registry order.
    pub fn parameters(&self) -> impl Iterator<Item = &ParameterItem> {
        self.parameters.iter().filter_map(|o| {
            self.files
                .get(&o.path)
                .and_then(|f| f.items.parameters.get(o.index))
        })
    }

    /// Every file read, by path.
    pub fn files(&self) -> impl Iterator<Item = &StepFile> {
        self.files.values()
    }

    /// One file.
    pub fn file(&self, path: &Path) -> Option<&StepFile> {
        self.files.get(path)
    }

    /// The definitions the registry refused.
    pub fn problems(&self) -> &[RefusedDefinition] {
        &self.problems
    }
}

/// A definition: its file, its index among the file's items, the item.
type Definition<'a, T> = (&'a StepFile, usize, &'a T);

/// Every custom parameter type and every step of `files`, in the order the
/// harness registers them: parameter types by (file, line, name), steps by
/// (file, line, column).
fn definitions(
    files: &BTreeMap<PathBuf, StepFile>,
) -> (
    Vec<Definition<'_, ParameterItem>>,
    Vec<Definition<'_, StepItem>>,
) {
    let mut params: Vec<Definition<'_, ParameterItem>> = Vec::new();
    let mut steps: Vec<Definition<'_, StepItem>> = Vec::new();
    for file in files.values() {
        params.extend(
            file.items
                .parameters
                .iter()
                .enumerate()
                .map(|(i, p)| (file, i, p)),
        );
        steps.extend(
            file.items
                .steps
                .iter()
                .enumerate()
                .map(|(i, s)| (file, i, s)),
        );
    }
    params.sort_by(|a, b| {
        (&a.0.label, a.2.function.line, &a.2.name).cmp(&(&b.0.label, b.2.function.line, &b.2.name))
    });
    steps.sort_by(|a, b| {
        (&a.0.label, a.2.function.line, a.2.function.column).cmp(&(
            &b.0.label,
            b.2.function.line,
            b.2.function.column,
        ))
    });
    (params, steps)
}

/// The registry built from what it accepts, with where each entry came
/// from and what it refused.
struct Built {
    registry: Registry,
    steps: Vec<Origin>,
    parameters: Vec<Origin>,
    problems: Vec<RefusedDefinition>,
}

/// The definitions the registry refused so far, by (file label, line).
#[derive(Default)]
struct Refused {
    params: BTreeSet<(String, u32)>,
    steps: BTreeSet<(String, u32)>,
}

/// Build the registry, leaving out what it refuses. Each round leaves out
/// what the last one refused; a type left out can make its steps fail in
/// the next round, so this ends after at most a few rounds (never more
/// than once per definition).
fn build_registry(
    params: &[Definition<'_, ParameterItem>],
    steps: &[Definition<'_, StepItem>],
) -> Built {
    let mut refused = Refused::default();
    let mut problems = Vec::new();
    loop {
        let kept_params: Vec<_> = params
            .iter()
            .filter(|(f, _, p)| !refused.params.contains(&(f.label.clone(), p.function.line)))
            .collect();
        let kept_steps: Vec<_> = steps
            .iter()
            .filter(|(f, _, s)| !refused.steps.contains(&(f.label.clone(), s.function.line)))
            .collect();
        let specs = kept_params
            .iter()
            .map(|(f, _, p)| {
                ParamSpec::new(
                    p.name.clone(),
                    p.regex.clone(),
                    f.label.clone(),
                    p.function.line,
                )
            })
            .collect();
        let step_specs = kept_steps.iter().map(|(f, _, s)| step_spec(f, s)).collect();
        match Registry::build(specs, step_specs) {
            Ok(registry) => {
                return Built {
                    registry,
                    steps: origins(&kept_steps),
                    parameters: origins(&kept_params),
                    problems,
                };
            }
            Err(errors) => {
                if !refuse(&errors, params, steps, &mut refused, &mut problems) {
                    // Cannot happen: every error names a definition.
                    return Built {
                        registry: empty_registry(),
                        steps: Vec::new(),
                        parameters: Vec::new(),
                        problems,
                    };
                }
            }
        }
    }
}

/// Where each kept definition came from.
fn origins<T>(kept: &[&Definition<'_, T>]) -> Vec<Origin> {
    kept.iter()
        .map(|(f, i, _)| Origin {
            path: f.path.clone(),
            index: *i,
        })
        .collect()
}

/// Leave out every definition `errors` names that was not left out yet,
/// each becoming a problem at its literal; returns whether any was.
fn refuse(
    errors: &RegistryErrors,
    params: &[Definition<'_, ParameterItem>],
    steps: &[Definition<'_, StepItem>],
    refused: &mut Refused,
    problems: &mut Vec<RefusedDefinition>,
) -> bool {
    let mut progress = false;
    for error in &errors.errors {
        let key = (error.file.clone(), error.line);
        let message = error.kind.to_string();
        if let Some((f, _, p)) = params
            .iter()
            .find(|(f, _, p)| f.label == error.file && p.function.line == error.line)
            && refused.params.insert(key.clone())
        {
            progress = true;
            problems.push(RefusedDefinition {
                path: f.path.clone(),
                span: p.name_span,
                message,
            });
        } else if let Some((f, _, s)) = steps
            .iter()
            .find(|(f, _, s)| f.label == error.file && s.function.line == error.line)
            && refused.steps.insert(key)
        {
            progress = true;
            problems.push(RefusedDefinition {
                path: f.path.clone(),
                span: s.expression_span,
                message,
            });
        }
    }
    progress
}

/// The one place a discovered step becomes the engine's [`StepSpec`].
fn step_spec(file: &StepFile, step: &StepItem) -> StepSpec {
    StepSpec::new(
        step.expression.clone(),
        step.role,
        file.label.clone(),
        step.function.line,
        step.trailing,
    )
}

#[cfg(test)]
mod tests;
