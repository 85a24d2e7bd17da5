//! `config::<case>` trials over `corpus/config/cases` (spec 40 §1.4): a case
//! with `expect-error.txt` must fail to load; any other is loaded (a missing
//! file is the empty config), projected to `{docs, steps, snippets}` and
//! compared with `golden.json` by parsed content, then by bytes of the
//! canonical writer (which §1.4 allows, and which keeps the writer honest).

use std::path::{Path, PathBuf};

use libtest_mimic::{Failed, Trial};
use serde_json::Value;

use crate::{Corpus, golden};

/// One trial per case directory, sorted by name. A corpus without cases is
/// one failing trial, so the check cannot pass by finding nothing.
pub fn trials(corpus: &Corpus) -> Vec<Trial> {
    let dir = corpus.root.join("config").join("cases");
    let cases = match case_dirs(&dir) {
        Ok(cases) if !cases.is_empty() => cases,
        Ok(_) => {
            return vec![failing(
                "config::cases",
                format!("`{}` has no cases", dir.display()),
            )];
        }
        Err(e) => return vec![failing("config::cases", e)],
    };
    cases
        .into_iter()
        .map(|(name, case)| Trial::test(format!("config::{name}"), move || check(&case)))
        .collect()
}

fn failing(name: &str, message: String) -> Trial {
    Trial::test(name, move || Err(Failed::from(message)))
}

fn case_dirs(dir: &Path) -> Result<Vec<(String, PathBuf)>, String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read `{}`: {e}", dir.display()))?;
    let mut cases = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot read `{}`: {e}", dir.display()))?;
        if entry.path().is_dir() {
            cases.push((
                entry.file_name().to_string_lossy().into_owned(),
                entry.path(),
            ));
        }
    }
    cases.sort();
    Ok(cases)
}

fn check(case: &Path) -> Result<(), Failed> {
    let loaded = varar_project::config::load_config(case);
    if case.join("expect-error.txt").is_file() {
        return match loaded {
            Err(e) => {
                // §1.3: whatever the reason, the message names the file first.
                let prefix = format!("{}: ", case.join("varar.config.json").display());
                if e.to_string().starts_with(&prefix) {
                    Ok(())
                } else {
                    Err(format!("the error does not start with `{prefix}`: {e}").into())
                }
            }
            Ok(config) => Err(format!("loading succeeded but must fail: {config:?}").into()),
        };
    }
    let config = loaded.map_err(|e| e.to_string())?;
    let golden_path = case.join("golden.json");
    let golden_text = std::fs::read_to_string(&golden_path)
        .map_err(|e| format!("cannot read golden `{}`: {e}", golden_path.display()))?;
    let expected: Value = serde_json::from_str(&golden_text)
        .map_err(|e| format!("golden `{}` is not JSON: {e}", golden_path.display()))?;
    let canonical = config.to_canonical_json();
    let actual: Value = serde_json::from_str(&canonical)
        .map_err(|e| format!("the canonical projection is not JSON: {e}\n{canonical}"))?;
    if let Some(m) = golden::first_difference(&expected, &actual) {
        return Err(format!(
            "config differs from its golden at `{}`\n  expected: {:?}\n    actual: {:?}",
            if m.pointer.is_empty() {
                "/"
            } else {
                &m.pointer
            },
            m.expected,
            m.actual
        )
        .into());
    }
    if canonical != golden_text {
        return Err(format!(
            "same content, different bytes from the canonical writer:\n--- golden\n{golden_text}--- actual\n{canonical}"
        )
        .into());
    }
    Ok(())
}
