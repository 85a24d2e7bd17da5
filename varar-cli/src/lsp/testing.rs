//! Shared fixtures of the language server's unit tests: the bakery
//! sample's step files, read as the server reads them.

use std::path::PathBuf;

use varar_runner::internal::lock::Lock;

use super::analysis::{Analysis, Workspace, plan_document, plan_documents, reuses};
use super::index::StepIndex;
use super::oaths::Oaths;

/// The bakery sample's step files: (path, label, text).
pub fn bakery_files() -> Vec<(PathBuf, String, String)> {
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
    })
    .collect()
}

/// The bakery's step index.
pub fn bakery() -> StepIndex {
    StepIndex::load(bakery_files())
}

/// `text` planned as `varar/x.md` against `index`.
pub fn plan(index: &StepIndex, text: &str) -> Analysis {
    plan_with_lock(index, None, text)
}

/// `text` planned as `varar/x.md` with a lock.
pub fn plan_with_lock(index: &StepIndex, lock: Option<&Lock>, text: &str) -> Analysis {
    let oaths = Oaths::from_disk([("varar/x.md".to_string(), text.to_string())]);
    plan_document(
        &Workspace {
            index,
            lock,
            oaths: &oaths,
        },
        "varar/x.md",
    )
    .unwrap_or_else(|| panic!("varar/x.md is an oath"))
}

/// Every oath of `texts` (`(oathPath, text)`) planned among the others,
/// each given what the others' plans find in it, as the server does.
pub fn plan_all(index: &StepIndex, texts: &[(&str, &str)]) -> Vec<Analysis> {
    let oaths = Oaths::from_disk(texts.iter().map(|(p, t)| (p.to_string(), t.to_string())));
    let workspace = Workspace {
        index,
        lock: None,
        oaths: &oaths,
    };
    let paths: Vec<&str> = texts.iter().map(|(p, _)| *p).collect();
    let mut analyses = plan_documents(&workspace, &paths);
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
