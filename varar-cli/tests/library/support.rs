//! Fixtures shared by the library's tests: example results, and the
//! bakery sample's steps as the language server reads them.

use std::path::PathBuf;

use varar_core::results::{ExampleResult, ResultFailure, Status};
use varar_lsp::analysis::oaths::Oaths;
use varar_lsp::analysis::step_index::StepIndex;
use varar_lsp::analysis::{Analysis, PlanContext, plan_documents, reuses};

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

/// A process record as the harness writes it (read back by the strict
/// reader): run `run`, started at `started` (`HH:MM:SS`), these items
/// (`serde_json` objects with name, kind, oathPath, line, attempt and,
/// when ended, outcome and message), no document in its manifest.
pub fn record(
    run: &str,
    process: &str,
    started: &str,
    complete: bool,
    items: Vec<serde_json::Value>,
) -> varar_core::record::ProcessRecord {
    let mut value = serde_json::json!({
        "version": 1, "format": "varar-run-record", "varar": "0.1.0",
        "runId": run, "processId": process, "complete": complete,
        "startedAt": format!("2026-12-01T{started}.000Z"),
        "arguments": [], "options": {"update": false, "runtime": "built-in"},
        "manifest": {"documents": [], "reproducible": false, "limitations": []},
        "items": items,
    });
    if complete {
        value["endedAt"] = format!("2026-12-01T{started}.900Z").into();
    }
    varar_core::record::parse_process_record(value.to_string().as_bytes())
        .unwrap_or_else(|e| panic!("{e}"))
}

/// An item of a record: its kind read from its name.
pub fn item(
    name: &str,
    oath: &str,
    line: u32,
    attempt: u32,
    outcome: Option<&str>,
    message: Option<&str>,
) -> serde_json::Value {
    let kind = varar_core::names::ItemName::parse(name).kind.as_str();
    let mut value = serde_json::json!({
        "name": name, "kind": kind, "oathPath": oath, "line": line, "attempt": attempt,
    });
    if let Some(outcome) = outcome {
        value["outcome"] = outcome.into();
        value["durationMs"] = 1.into();
    }
    if let Some(message) = message {
        value["message"] = message.into();
    }
    value
}
