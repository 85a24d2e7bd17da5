//! Every conformance bundle planned through the language server's own step
//! discovery: the bundle's Rust step file read with `syn` (no compiling,
//! no `inventory`), the registry built from what was read, the bundle's
//! oath planned by `plan_document`, compared with the bundle's plan golden
//! as parsed JSON (spec 20 §20.11).

use std::path::{Path, PathBuf};

use varar_conformance::bundles::BUNDLES;
use varar_lsp::analysis::oaths::Oaths;
use varar_lsp::analysis::step_index::StepIndex;
use varar_lsp::analysis::{PlanContext, plan_document};

fn conformance() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../conformance")
}

/// `01-roman-numerals` → `src/bundles/b01_roman_numerals/`.
fn steps_dir(bundle: &str) -> PathBuf {
    conformance()
        .join("src/bundles")
        .join(format!("b{}", bundle.replace('-', "_")))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_bundle_plans_as_its_golden_through_the_servers_discovery() {
    assert_eq!(BUNDLES.len(), 16);
    let mut failures = Vec::new();
    for bundle in BUNDLES {
        let dir = steps_dir(bundle);
        let files: Vec<(PathBuf, String, String)> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap_or_else(|e| panic!("{e}")).path())
            .filter(|p| p.extension().is_some_and(|x| x == "rs"))
            .map(|p| {
                let label = p
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let text = read(&p);
                (p, label, text)
            })
            .collect();
        assert_eq!(files.len(), 1, "{bundle}: one step file");
        let index = StepIndex::load(files);
        assert!(
            index.problems().is_empty(),
            "{bundle}: {:?}",
            index.problems()
        );
        assert!(!index.registry().steps.is_empty(), "{bundle}: no step read");
        let corpus = conformance().join("corpus/bundles").join(bundle);
        let text = read(&corpus.join("example.md"));
        let oaths = Oaths::from_disk([("example.md".to_string(), text)]);
        let context = PlanContext {
            index: &index,
            lock: None,
            oaths: &oaths,
        };
        let analysis = plan_document(&context, "example.md")
            .unwrap_or_else(|| panic!("{bundle}: example.md is an oath"));
        let golden: serde_json::Value =
            serde_json::from_str(&read(&corpus.join("golden/plan.json")))
                .unwrap_or_else(|e| panic!("{bundle}: {e}"));
        if analysis.plan.to_json() != golden {
            failures.push(format!(
                "{bundle}:\n  got    {}\n  golden {golden}",
                analysis.plan.to_json()
            ));
        }
        let registry: serde_json::Value =
            serde_json::from_str(&read(&corpus.join("golden/registry.json")))
                .unwrap_or_else(|e| panic!("{e}"));
        if index.registry().to_json() != registry {
            failures.push(format!("{bundle}: registry differs from its golden"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
