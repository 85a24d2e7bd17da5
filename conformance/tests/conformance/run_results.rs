//! The run-results fixture (spec 30 §30.8.5): read into the typed model,
//! written with the result writer, and compared with the fixture by content.
//! The fixture pins the wire shape: field names, optional members absent
//! rather than null, and that the writer keeps the order it is given.
//!
//! Then the strict reader against the writer: the fixture and every
//! bundle's run results, written to a `.varar/` tree by the harness's own
//! file writer, read back equal to the value that was written.

use std::path::Path;

use libtest_mimic::{Failed, Trial};
use serde_json::Value;
use varar_core::results::OathResults;
use varar_core::results::parse_run_result;
use varar_project::store::{read_run_result, replace_run_result};

use crate::Corpus;
use crate::golden::first_difference;

/// `run-results::expected`, `run-results::read-back::expected` and one
/// `run-results::read-back::<bundle>` per bundle.
pub fn trials(corpus: &Corpus) -> Vec<Trial> {
    let path = corpus.root.join("run-results").join("expected.json");
    let mut trials = vec![fixture_trial(path.clone())];
    trials.push(Trial::test("run-results::read-back::expected", move || {
        let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let value = parse_run_result(&bytes).map_err(|e| e.to_string())?;
        read_back(&value)
    }));
    for bundle in &corpus.bundles {
        let dir = bundle.dir.clone();
        trials.push(Trial::test(
            format!("run-results::read-back::{}", bundle.name),
            move || {
                let (_, value) =
                    varar_conformance::results::run_results(&dir).map_err(|e| e.to_string())?;
                read_back(&value)
            },
        ));
    }
    trials
}

/// Write `value` with the harness's writer into a fresh project root and
/// read it back with the strict reader.
fn read_back(value: &OathResults) -> Result<(), Failed> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let text = value.to_text().map_err(|e| e.to_string())?;
    replace_run_result(dir.path(), &value.oath_path, text.as_bytes()).map_err(|e| e.to_string())?;
    let written = Path::new(".varar").join(format!("{}.json", value.oath_path));
    let read = read_run_result(dir.path(), &value.oath_path)
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("{} was not written", written.display()))?;
    if &read == value {
        Ok(())
    } else {
        Err(format!("read back\n{read:#?}\nbut wrote\n{value:#?}").into())
    }
}

fn fixture_trial(path: std::path::PathBuf) -> Trial {
    Trial::test("run-results::expected", move || {
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
        let fixture: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
        let typed = parse_run_result(text.as_bytes())
            .map_err(|e| format!("the fixture does not fit the model: {e}"))?;
        let written = typed.to_text().map_err(|e| e.to_string())?;
        let reread: Value = serde_json::from_str(&written).map_err(|e| e.to_string())?;
        match first_difference(&fixture, &reread) {
            None => Ok(()),
            Some(m) => Err(Failed::from(format!(
                "written results differ from the fixture at `{}`: expected {:?}, got {:?}",
                m.pointer, m.expected, m.actual
            ))),
        }
    })
}
