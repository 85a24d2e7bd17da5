//! Fixtures shared by the library's tests: example results, and the
//! bakery sample's steps as the language server reads them.

use std::path::PathBuf;

use varar_cli::language_server::analysis::{Analysis, PlanContext, plan_documents, reuses};
use varar_cli::language_server::oaths::Oaths;
use varar_cli::language_server::step_index::StepIndex;
use varar_core::results::{ExampleResult, ResultFailure, Status};

/// An example on `lines`, failed with `failed` as its message when given.
pub fn example(name: &str, lines: &[u32], failed: Option<&str>) -> ExampleResult {
    ExampleResult {
        name: name.into(),
        status: if failed.is_some() {
            Status::Failed
        } else {
            Status::Passed
        },
        lines: lines.to_vec(),
        failure: failed.map(|m| ResultFailure {
            line: lines.first().copied().unwrap_or(0),
            message: m.into(),
            stack: m.into(),
            cells: Vec::new(),
            anchor: None,
            doc_path: None,
        }),
    }
}

/// The bakery sample's step index, its files read as the server reads them.
pub fn bakery() -> StepIndex {
    StepIndex::load(
        [
            (
                "tests/steps/mod.rs",
                include_str!("../../../examples/bakery/tests/steps/mod.rs"),
            ),
            (
                "tests/steps/basket.rs",
                include_str!("../../../examples/bakery/tests/steps/basket.rs"),
            ),
            (
                "tests/steps/shelf.rs",
                include_str!("../../../examples/bakery/tests/steps/shelf.rs"),
            ),
        ]
        .into_iter()
        .map(|(label, text)| {
            (
                PathBuf::from("/bakery").join(label),
                label.to_string(),
                text.to_string(),
            )
        }),
    )
}

/// Every oath of `texts` (`(oathPath, text)`) planned among the others,
/// each given what the others' plans find in it, as the server does.
pub fn plan_all(index: &StepIndex, texts: &[(&str, &str)]) -> Vec<Analysis> {
    let oaths = Oaths::from_disk(texts.iter().map(|(p, t)| (p.to_string(), t.to_string())));
    let context = PlanContext {
        index,
        lock: None,
        oaths: &oaths,
    };
    let paths: Vec<&str> = texts.iter().map(|(p, _)| *p).collect();
    let mut analyses = plan_documents(&context, &paths);
    let given: Vec<_> = analyses
        .iter()
        .map(|a| {
            let others: Vec<&Analysis> = analyses.iter().collect();
            reuses(&a.oath_path, &others)
        })
        .collect();
    for (analysis, reuses) in analyses.iter_mut().zip(given) {
        analysis.set_reuses(reuses);
    }
    analyses
}

/// The UTF-16 offset of the first `needle` in `text`, plus `extra` units.
pub fn at(text: &str, needle: &str, extra: u32) -> u32 {
    let byte = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} not in text"));
    text[..byte].encode_utf16().count() as u32 + extra
}
