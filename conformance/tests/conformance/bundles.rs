//! `<artifact>::<bundle>`: each artifact of each bundle against its golden.
//!
//! - `doc`: the parsed `example.md` (its `path` recorded as `example.md`);
//! - `registry`, `plan`: the bundle's steps (written with the `varar` API in
//!   `conformance/src/bundles/`) and the plan of its oath;
//! - `trace`: every example executed against those steps.

use libtest_mimic::Trial;
use serde_json::Value;
use varar_conformance::{ArtifactError, KINDS};

use crate::{Bundle, Corpus, golden};

/// One trial per artifact and bundle, artifact by artifact.
pub fn trials(corpus: &Corpus) -> Vec<Trial> {
    KINDS
        .iter()
        .flat_map(|&kind| corpus.bundles.iter().map(move |b| trial(kind, b.clone())))
        .collect()
}

fn trial(kind: &'static str, bundle: Bundle) -> Trial {
    Trial::test(format!("{kind}::{}", bundle.name), move || {
        let actual = artifact(kind, &bundle).map_err(|e| e.to_string())?;
        golden::check(&bundle, kind, &actual)
    })
}

fn artifact(kind: &str, bundle: &Bundle) -> Result<Value, ArtifactError> {
    match kind {
        "doc" => varar_conformance::doc::artifact_named(&bundle.example(), "example.md"),
        _ => varar_conformance::artifact(kind, &bundle.dir),
    }
}
