//! The run-results fixture (spec 30 §30.8.5): read into the typed model,
//! written with the result writer, and compared with the fixture by content.
//! The fixture pins the wire shape: field names, optional members absent
//! rather than null, and that the writer keeps the order it is given.

use libtest_mimic::{Failed, Trial};
use serde_json::Value;
use varar_runner::results::OathResults;

use crate::Corpus;
use crate::golden::first_difference;

/// One trial: `run-results::expected`.
pub fn trials(corpus: &Corpus) -> Vec<Trial> {
    let path = corpus.root.join("run-results").join("expected.json");
    vec![Trial::test("run-results::expected", move || {
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
        let fixture: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
        let typed: OathResults = serde_json::from_str(&text)
            .map_err(|e| format!("the fixture does not fit the model: {e}"))?;
        let written = typed.to_json_string().map_err(|e| e.to_string())?;
        let reread: Value = serde_json::from_str(&written).map_err(|e| e.to_string())?;
        match first_difference(&fixture, &reread) {
            None => Ok(()),
            Some(m) => Err(Failed::from(format!(
                "written results differ from the fixture at `{}`: expected {:?}, got {:?}",
                m.pointer, m.expected, m.actual
            ))),
        }
    })]
}
