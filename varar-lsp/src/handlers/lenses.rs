//! Code lenses (pure): what the editor draws above a line and runs when it
//! is clicked.
//!
//! - On an oath: `▶ Run` above every example (its first line; a row of a
//!   header-bound table is an example of its own), and `▶ Run oath` with
//!   `Report` above the title (the first heading, else the first line)
//!   when the oath has examples. Each names the test items it runs, as the
//!   harness names them (`varar_core::names::example_items`).
//! - On a Rust step file: `N uses in M oaths` above every step function
//!   (its attribute), whose command lists the sentences, and above every
//!   custom parameter type's function (its values in the sentences of any
//!   step); a step no oath uses reads `no uses in any oath` and also gets
//!   a hint diagnostic ([`unused_hints`]).
//!
//! The commands are run by the server itself (`workspace/executeCommand`,
//! see [`COMMANDS`]), so any editor that runs code-lens commands needs no
//! extension.

use lsp_types::{Diagnostic, DiagnosticSeverity, DiagnosticTag, NumberOrString};
use varar_core::names::example_items;
use varar_core::registry::Role;
use varar_core::source::Span;

use super::diagnostics::SOURCE;
use super::position::range;
use crate::analysis::Analysis;
use crate::analysis::step_index::StepIndex;
use crate::analysis::usages::{Usages, title};

/// Run examples: `[{"uri": …, "item": name}]` (no `item`: the whole oath).
pub const RUN: &str = "varar.run";
/// Open the oath's page of the HTML report: `[{"uri": …}]`.
pub const REPORT: &str = "varar.openReport";
/// List a step's sentences: `[uri, position, locations]`, the arguments of
/// VS Code's `editor.action.showReferences`.
pub const REFERENCES: &str = "varar.showReferences";

/// Every command the server runs.
pub const COMMANDS: [&str; 3] = [RUN, REPORT, REFERENCES];

/// What a lens does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Run one item, or every item of the oath (`None`).
    Run(Option<String>),
    /// Open the oath's report page.
    Report,
    /// List these sentences of the step whose function name is at `at`.
    References {
        /// The function's name.
        at: Span,
        /// (oathPath, span) of each sentence.
        places: Vec<(String, Span)>,
    },
}

/// One lens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lens {
    /// Where: the span of the line's start (the lens is drawn above it).
    pub at: Span,
    /// What it reads.
    pub title: String,
    /// What it does.
    pub action: Action,
}

/// The lenses of an oath.
pub fn oath_lenses(analysis: &Analysis) -> Vec<Lens> {
    let mut out = Vec::new();
    let examples = example_items(&analysis.oath_path, &analysis.plan);
    if examples.is_empty() {
        return out;
    }
    let title_at = analysis
        .doc
        .headings
        .first()
        .map_or_else(|| line_start(analysis, 1), |h| h.span);
    out.push(Lens {
        at: title_at,
        title: "▶ Run oath".to_string(),
        action: Action::Run(None),
    });
    out.push(Lens {
        at: title_at,
        title: "Report".to_string(),
        action: Action::Report,
    });
    for item in examples {
        out.push(Lens {
            at: line_start(analysis, item.line),
            title: "▶ Run".to_string(),
            action: Action::Run(Some(item.name.to_string())),
        });
    }
    out
}

/// The empty span at the start of 1-based `line`.
fn line_start(analysis: &Analysis, line: u32) -> Span {
    let source = analysis.source();
    let offset = source.line_start(line.max(1)).unwrap_or(0);
    source.span(offset, offset)
}

/// The lenses of the Rust file `path`: one per step function (its
/// sentences) and one per custom parameter type's function (every value of
/// that type in a matched sentence), in the file's order.
pub fn step_lenses(index: &StepIndex, path: &std::path::Path, usages: &Usages) -> Vec<Lens> {
    let steps = index.steps_in(path).map(|(step, item)| Lens {
        at: item.function.head_span,
        title: title(usages.of(step).len(), usages.documents(step)),
        action: Action::References {
            at: item.function.name_span,
            places: usages.places(step),
        },
    });
    let parameters = index.parameters_in(path).map(|item| {
        let (places, documents) = usages.parameter_places(&item.name);
        Lens {
            at: item.function.head_span,
            title: title(places.len(), documents),
            action: Action::References {
                at: item.function.name_span,
                places,
            },
        }
    });
    let mut lenses: Vec<Lens> = steps.chain(parameters).collect();
    lenses.sort_by_key(|l| l.at.start_offset);
    lenses
}

/// A hint on every step of the Rust file `path` that no oath uses, at its
/// expression, drawn faded.
pub fn unused_hints(index: &StepIndex, path: &std::path::Path, usages: &Usages) -> Vec<Diagnostic> {
    index
        .steps_in(path)
        .filter(|(step, _)| usages.of(*step).is_empty())
        .map(|(_, item)| {
            let role = match item.role {
                Role::Stimulus => "stimulus",
                Role::Sensor => "sensor",
            };
            Diagnostic {
                range: range(&item.expression_span),
                severity: Some(DiagnosticSeverity::HINT),
                code: Some(NumberOrString::String("unused-step".to_string())),
                source: Some(SOURCE.to_string()),
                message: format!(
                    "no oath uses this {role}: no sentence matches `{}`",
                    item.expression
                ),
                tags: Some(vec![DiagnosticTag::UNNECESSARY]),
                ..Diagnostic::default()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::path::Path;

    use super::*;
    use crate::analysis::PlanContext;
    use crate::analysis::oaths::Oaths;
    use crate::analysis::usages::project_uses;
    use crate::tests::support::{bakery, plan};

    #[test]
    fn run_lenses_above_the_title_and_every_example_with_the_harness_s_names() {
        let index = bakery();
        let text =
            "Intro.\n\n# Shop\n\nI put 1 bun in the basket.\n\n---\n\nI put 1 bun in the basket.\n";
        let a = plan(&index, text);
        let lenses = oath_lenses(&a);
        let shown: Vec<(u32, &str, &Action)> = lenses
            .iter()
            .map(|l| (l.at.start_line, l.title.as_str(), &l.action))
            .collect();
        assert_eq!(
            shown,
            [
                (3, "▶ Run oath", &Action::Run(None)),
                (3, "Report", &Action::Report),
                (
                    5,
                    "▶ Run",
                    &Action::Run(Some("varar/x.md::Shop::I put 1 bun in the basket".into()))
                ),
                (
                    9,
                    "▶ Run",
                    &Action::Run(Some(
                        "varar/x.md::Shop::I put 1 bun in the basket[1]".into()
                    ))
                ),
            ]
        );
        assert!(oath_lenses(&plan(&index, "# Prose\n\nOnly words.\n")).is_empty());
    }

    #[test]
    fn use_counts_above_every_step_and_a_hint_on_an_unused_one() {
        let index = bakery();
        let oaths = Oaths::from_disk([(
            "a.md".to_string(),
            "# A\n\nI put 2 buns in the basket. I put 1 bun in the basket.\n".to_string(),
        )]);
        let context = PlanContext {
            index: &index,
            lock: None,
            oaths: &oaths,
        };
        let per_oath = project_uses(&context, BTreeMap::new());
        let usages = Usages::gather(per_oath.values(), index.registry().steps.len());
        let basket = Path::new("/bakery/tests/steps/basket.rs");
        let lenses = step_lenses(&index, basket, &usages);
        let titles: Vec<&str> = lenses.iter().map(|l| l.title.as_str()).collect();
        assert_eq!(
            titles,
            [
                "no uses in any oath",
                "2 uses in 1 oath",
                "no uses in any oath",
                "no uses in any oath",
                "no uses in any oath",
                "no uses in any oath",
                "no uses in any oath"
            ]
        );
        let Action::References { places, .. } = &lenses[1].action else {
            panic!("references")
        };
        assert_eq!(places.len(), 2);
        let hints = unused_hints(&index, basket, &usages);
        assert_eq!(hints.len(), 6);
        assert_eq!(hints[0].severity, Some(DiagnosticSeverity::HINT));
        assert!(
            hints[0].message.contains("`the menu is`"),
            "{}",
            hints[0].message
        );
    }

    #[test]
    fn a_parameter_type_s_lens_counts_its_values_in_every_sentence() {
        let index = bakery();
        let oaths = Oaths::from_disk([
            (
                "a.md".to_string(),
                "# A\n\nI pay £5.00 and my change is £1.20.\n".to_string(),
            ),
            (
                "b.md".to_string(),
                "# B\n\nI put 1 bun in the basket. Now the total is £0.80.\n".to_string(),
            ),
        ]);
        let context = PlanContext {
            index: &index,
            lock: None,
            oaths: &oaths,
        };
        let per_oath = project_uses(&context, BTreeMap::new());
        let usages = Usages::gather(per_oath.values(), index.registry().steps.len());
        let module = Path::new("/bakery/tests/steps/mod.rs");
        let lenses = step_lenses(&index, module, &usages);
        let money: Vec<(&str, Vec<&str>)> = lenses
            .iter()
            .map(|l| {
                let Action::References { places, .. } = &l.action else {
                    panic!("references")
                };
                (
                    l.title.as_str(),
                    places.iter().map(|(doc, _)| doc.as_str()).collect(),
                )
            })
            .collect();
        assert_eq!(money, [("3 uses in 2 oaths", vec!["a.md", "a.md", "b.md"])]);
        assert!(unused_hints(&index, module, &usages).is_empty());
    }
}
