//! Shared fixtures of the language server's unit tests: the bakery
//! sample's step files, read as the server reads them.

use std::path::PathBuf;

use varar_core::lock::Lock;

use crate::analysis::oaths::Oaths;
use crate::analysis::step_index::StepIndex;
use crate::analysis::{Analysis, PlanContext, plan_document};

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
        &PlanContext {
            index,
            lock,
            oaths: &oaths,
        },
        "varar/x.md",
    )
    .unwrap_or_else(|| panic!("varar/x.md is an oath"))
}

/// The UTF-16 offset of the first `needle` in `text`, plus `extra` units.
pub fn at(text: &str, needle: &str, extra: u32) -> u32 {
    let byte = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} not in text"));
    text[..byte].encode_utf16().count() as u32 + extra
}
