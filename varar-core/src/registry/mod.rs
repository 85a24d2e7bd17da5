//! The registry (spec 20 §20.1, §20.10): step definitions in registration
//! order with their compiled expressions, and the parameter types.
//!
//! Building it defines every custom parameter type first, then compiles each
//! step expression, and collects every problem (bad custom types, duplicate
//! expressions, compile errors, unknown types) instead of stopping at the
//! first, each naming the file and line it is about.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use varar_expression::{CompiledExpression, ExpressionError, ParameterTypeError, ParameterTypes};

mod prefilter;

pub(crate) use prefilter::Prefilter;

/// Whether a step drives the system or observes it (spec 20 §20.12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// Drives the system and evolves the state.
    Stimulus,
    /// Returns what the system did, compared with the document.
    Sensor,
}

/// What a step function takes after its captured parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trailing {
    /// Nothing.
    None,
    /// A [`Table`](crate::data::Table).
    Table,
    /// A [`DocString`](crate::data::DocString).
    DocString,
    /// A header-bound [`Row`](crate::data::Row).
    Row,
}

/// A step definition to register: what planning needs to know of a step
/// function (the harness takes it from `inventory`, the language server
/// from the Rust source).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct StepSpec {
    /// The Cucumber Expression as written (shared by every step planned
    /// from it).
    pub expression: Arc<str>,
    /// Stimulus or sensor (§20.12).
    pub role: Role,
    /// Source file of the definition.
    pub file: String,
    /// Source line of the definition.
    pub line: u32,
    /// What the step function takes after its captures.
    pub trailing: Trailing,
}

/// A custom parameter type to define (§20.4).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParamSpec {
    /// The name used in expressions.
    pub name: String,
    /// The pattern, in `regex`-crate syntax.
    pub regex: String,
    /// Source file of the declaration.
    pub file: String,
    /// Source line of the declaration.
    pub line: u32,
}

impl StepSpec {
    /// A step definition.
    pub fn new(
        expression: impl Into<String>,
        role: Role,
        file: impl Into<String>,
        line: u32,
        trailing: Trailing,
    ) -> StepSpec {
        StepSpec {
            expression: Arc::from(expression.into()),
            role,
            file: file.into(),
            line,
            trailing,
        }
    }
}

impl ParamSpec {
    /// A custom parameter type.
    pub fn new(
        name: impl Into<String>,
        regex: impl Into<String>,
        file: impl Into<String>,
        line: u32,
    ) -> ParamSpec {
        ParamSpec {
            name: name.into(),
            regex: regex.into(),
            file: file.into(),
            line,
        }
    }
}

/// A step definition with its compiled expression.
#[derive(Clone, Debug)]
pub struct RegisteredStep {
    /// The definition as registered.
    pub spec: StepSpec,
    /// The compiled expression.
    pub expression: CompiledExpression,
    /// Parameter type names in order (§20.2.5), for `registry.json` and the
    /// plan's `args[].parameterType`.
    pub parameter_type_names: Vec<String>,
}

/// Step definitions in registry order, and the parameter types.
#[derive(Clone, Debug)]
pub struct Registry {
    /// The step definitions, in registration order (§20.1). Planning
    /// indexes them on first use; build a new registry rather than changing
    /// them afterwards.
    pub steps: Vec<RegisteredStep>,
    types: ParameterTypes,
    /// The literal index of `steps`, built on first use by planning.
    prefilter: std::sync::OnceLock<Prefilter>,
}

/// What is wrong with one definition.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RegistryErrorKind {
    /// The same expression text is registered twice; the earlier definition
    /// is at `first_file:first_line`.
    #[error(
        "duplicate step definition for \"{expression}\" at {first_file}:{first_line} and {file}:{line}"
    )]
    Duplicate {
        /// The expression.
        expression: String,
        /// File of the earlier definition.
        first_file: String,
        /// Line of the earlier definition.
        first_line: u32,
        /// File of this definition.
        file: String,
        /// Line of this definition.
        line: u32,
    },
    /// The step expression does not compile (including unknown types).
    #[error("step expression \"{}\" has a problem at column {}: {}", .0.expression, .0.column, .0.message())]
    Expression(ExpressionError),
    /// A custom parameter type cannot be defined.
    #[error("{error}")]
    ParameterType {
        /// The type's name.
        name: String,
        /// Why it cannot be defined.
        error: ParameterTypeError,
    },
}

/// One registry-build problem and the definition it is about.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: {kind}")]
pub struct RegistryError {
    /// File of the offending definition.
    pub file: String,
    /// Line of the offending definition.
    pub line: u32,
    /// What is wrong.
    pub kind: RegistryErrorKind,
}

/// Every problem found while building a registry, in definition order
/// (parameter types first). `Display` gives one problem per line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegistryErrors {
    /// The problems; never empty.
    pub errors: Vec<RegistryError>,
}

impl fmt::Display for RegistryErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, error) in self.errors.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{error}")?;
        }
        Ok(())
    }
}

impl std::error::Error for RegistryErrors {}

impl Registry {
    /// Define `params` (in order), then register `steps` (in order).
    pub fn build(params: Vec<ParamSpec>, steps: Vec<StepSpec>) -> Result<Registry, RegistryErrors> {
        let mut errors = Vec::new();
        let mut types = ParameterTypes::new();
        for param in params {
            if let Err(error) = types.define(&param.name, &param.regex) {
                errors.push(RegistryError {
                    file: param.file,
                    line: param.line,
                    kind: RegistryErrorKind::ParameterType {
                        name: param.name,
                        error,
                    },
                });
            }
        }
        let mut seen: HashMap<Arc<str>, (String, u32)> = HashMap::new();
        let mut registered = Vec::with_capacity(steps.len());
        for spec in steps {
            if let Some((first_file, first_line)) = seen.get(&spec.expression) {
                errors.push(RegistryError {
                    file: spec.file.clone(),
                    line: spec.line,
                    kind: RegistryErrorKind::Duplicate {
                        expression: spec.expression.to_string(),
                        first_file: first_file.clone(),
                        first_line: *first_line,
                        file: spec.file,
                        line: spec.line,
                    },
                });
                continue;
            }
            seen.insert(Arc::clone(&spec.expression), (spec.file.clone(), spec.line));
            match CompiledExpression::from_source(&spec.expression, &types) {
                Ok(expression) => {
                    let parameter_type_names = expression
                        .parameter_type_names()
                        .into_iter()
                        .map(str::to_string)
                        .collect();
                    registered.push(RegisteredStep {
                        spec,
                        expression,
                        parameter_type_names,
                    });
                }
                Err(error) => errors.push(RegistryError {
                    file: spec.file,
                    line: spec.line,
                    kind: RegistryErrorKind::Expression(error),
                }),
            }
        }
        if errors.is_empty() {
            Ok(Registry {
                steps: registered,
                types,
                prefilter: std::sync::OnceLock::new(),
            })
        } else {
            Err(RegistryErrors { errors })
        }
    }

    /// The index that tells planning which steps may match a sentence.
    pub(crate) fn prefilter(&self) -> &Prefilter {
        self.prefilter.get_or_init(|| {
            Prefilter::new(
                self.steps
                    .iter()
                    .map(|s| s.expression.required_literals().iter().map(String::as_str)),
            )
        })
    }

    /// The registry of the steps at `keep` (ascending registry indices),
    /// in that order, with its own literal index: cloning a registry and
    /// removing steps from `steps` would keep the index of all of them,
    /// and planning then scans every step in every sentence (issue 21).
    pub fn subset(&self, keep: &[usize]) -> Registry {
        Registry {
            steps: keep
                .iter()
                .filter_map(|&i| self.steps.get(i).cloned())
                .collect(),
            types: self.types.clone(),
            prefilter: std::sync::OnceLock::new(),
        }
    }

    /// The parameter types, built-in and custom.
    pub fn types(&self) -> &ParameterTypes {
        &self.types
    }

    /// The `registry.json` artifact (§20.10): custom types in declaration
    /// order, then every step in registry order.
    pub fn to_json(&self) -> serde_json::Value {
        let parameter_types: Vec<serde_json::Value> = self
            .types
            .custom()
            .map(|(name, regex)| serde_json::json!({ "name": name, "regexp": regex }))
            .collect();
        let steps: Vec<serde_json::Value> = self
            .steps
            .iter()
            .map(|step| {
                serde_json::json!({
                    "expression": &*step.spec.expression,
                    "parameterTypeNames": step.parameter_type_names,
                })
            })
            .collect();
        serde_json::json!({ "parameterTypes": parameter_types, "steps": steps })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(expression: &str, file: &str, line: u32) -> StepSpec {
        StepSpec {
            expression: expression.into(),
            role: Role::Stimulus,
            file: file.to_string(),
            line,
            trailing: Trailing::None,
        }
    }

    fn param(name: &str, regex: &str, file: &str, line: u32) -> ParamSpec {
        ParamSpec {
            name: name.to_string(),
            regex: regex.to_string(),
            file: file.to_string(),
            line,
        }
    }

    fn built(params: Vec<ParamSpec>, steps: Vec<StepSpec>) -> Registry {
        match Registry::build(params, steps) {
            Ok(registry) => registry,
            Err(errors) => panic!("{errors}"),
        }
    }

    fn failed(params: Vec<ParamSpec>, steps: Vec<StepSpec>) -> RegistryErrors {
        match Registry::build(params, steps) {
            Ok(_) => panic!("the build should fail"),
            Err(errors) => errors,
        }
    }

    fn golden(text: &str) -> serde_json::Value {
        match serde_json::from_str(text) {
            Ok(value) => value,
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn registry_json_of_bundle_13() {
        let registry = built(
            vec![param("airport", "[A-Z]{3}", "airports.steps", 1)],
            vec![
                step("I fly to {airport}", "airports.steps", 3),
                step("The destination code is {word}.", "airports.steps", 4),
            ],
        );
        assert_eq!(
            registry.to_json(),
            golden(include_str!(
                "../../../conformance/corpus/bundles/13-custom-parameter-type/golden/registry.json"
            ))
        );
    }

    #[test]
    fn registry_json_of_bundles_15_18_and_05() {
        let registry = built(
            vec![param("money", "£\\d+\\.\\d{2}", "money.steps", 1)],
            vec![step("The late fee is {money}", "money.steps", 2)],
        );
        assert_eq!(
            registry.to_json(),
            golden(include_str!(
                "../../../conformance/corpus/bundles/15-custom-parameter-format/golden/registry.json"
            ))
        );
        let registry = built(
            vec![],
            vec![
                step("the following users have been imported", "basket.steps", 1),
                step("the following assets have been imported", "basket.steps", 2),
                step(
                    "the basket contains {int} user(s) and {int} asset(s)",
                    "basket.steps",
                    3,
                ),
            ],
        );
        assert_eq!(
            registry.to_json(),
            golden(include_str!(
                "../../../conformance/corpus/bundles/18-multi-table-example/golden/registry.json"
            ))
        );
        // Same sentences, different text: both allowed (bundle 05).
        let registry = built(
            vec![],
            vec![
                step("I have {int} cukes", "cukes.steps", 1),
                step("I have 5 cukes", "cukes.steps", 2),
            ],
        );
        assert_eq!(
            registry.to_json(),
            golden(include_str!(
                "../../../conformance/corpus/bundles/05-ambiguous-match/golden/registry.json"
            ))
        );
    }

    #[test]
    fn steps_keep_registration_order_and_names() {
        let registry = built(
            vec![],
            vec![step("b {int}", "b.rs", 9), step("a {word} {}", "a.rs", 1)],
        );
        let summary: Vec<(&str, Vec<String>)> = registry
            .steps
            .iter()
            .map(|s| (&*s.spec.expression, s.parameter_type_names.clone()))
            .collect();
        assert_eq!(
            summary,
            vec![
                ("b {int}", vec!["int".to_string()]),
                ("a {word} {}", vec!["word".to_string(), String::new()]),
            ]
        );
        assert_eq!(
            registry.steps[0].expression.regex_source(),
            "^b (-?[0-9]+)$"
        );
        assert_eq!(registry.types().custom().count(), 0);
    }

    #[test]
    fn duplicate_expressions_name_both_locations() {
        let errors = failed(
            vec![],
            vec![
                step("I have {int} cukes", "a.steps.rs", 3),
                step("I have {int} cukes", "b.steps.rs", 7),
            ],
        );
        assert_eq!(
            errors.to_string(),
            "b.steps.rs:7: duplicate step definition for \"I have {int} cukes\" at a.steps.rs:3 and b.steps.rs:7"
        );
    }

    #[test]
    fn every_problem_is_collected_in_definition_order() {
        let errors = failed(
            vec![
                param("int", "x", "p.rs", 1),
                param("a.b", "x", "p.rs", 2),
                param("ok", "[a-z]+", "p.rs", 3),
                param("bad", "(", "p.rs", 4),
            ],
            vec![
                step("I use {ok}", "s.rs", 10),
                step("I use {bad}", "s.rs", 11),
                step("I use {ok}", "s.rs", 12),
                step("optional ()", "s.rs", 13),
                step("I use {ok}", "s.rs", 14),
            ],
        );
        let lines: Vec<String> = errors.to_string().lines().map(str::to_string).collect();
        assert_eq!(
            lines,
            vec![
                "p.rs:1: There is already a parameter type with name int",
                "p.rs:2: Illegal character in parameter name {a.b}. Parameter names may not contain '{', '}', '(', ')', '\\' or '/'",
                "p.rs:4: The regular expression of parameter type bad is invalid: unclosed group",
                "s.rs:11: step expression \"I use {bad}\" has a problem at column 7: Undefined parameter type 'bad'",
                "s.rs:12: duplicate step definition for \"I use {ok}\" at s.rs:10 and s.rs:12",
                "s.rs:13: step expression \"optional ()\" has a problem at column 10: An optional must contain some text",
                "s.rs:14: duplicate step definition for \"I use {ok}\" at s.rs:10 and s.rs:14",
            ]
        );
        assert_eq!(errors.errors.len(), 7);
        assert!(matches!(
            &errors.errors[3].kind,
            RegistryErrorKind::Expression(e) if e.column == 7
        ));
    }
}
