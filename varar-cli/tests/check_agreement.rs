//! `cargo varar check` agrees with `cargo test`: the drift and diagnostic
//! items `check` names are exactly those the harness fails, by name.
//!
//! - Every conformance bundle, as a project of its own (its `example.md`
//!   the one oath, its step file under `tests/` for `check`'s discovery):
//!   the harness runs in process with the bundle's linked steps and its
//!   libtest log is read back.
//! - A copy of the bakery with a drift, a typo and a broken link: the real
//!   `cargo test` is run in it (a shared target directory), and its output
//!   compared with the real `cargo-varar check --format json`.

#[path = "common/lsp_client.rs"]
mod lsp_client;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use varar_cli::commands::check::shell::report;
use varar_cli::commands::check::{CheckReport, Severity};
use varar_conformance::bundles::BUNDLES;
use varar_core::names::{ItemKind, ItemName};
use varar_project::root::ProjectRoot;

/// The drift and diagnostic items a libtest output reports as FAILED.
fn failed_items(output: &str) -> BTreeSet<String> {
    output
        .lines()
        .filter_map(|l| l.strip_prefix("test "))
        .filter_map(|l| l.rsplit_once(" ... "))
        .filter(|(_, outcome)| outcome.trim() == "FAILED")
        .map(|(name, _)| ItemName::parse(name.trim()).name.to_string())
        .filter(|name| {
            matches!(
                ItemName::parse(name).kind,
                ItemKind::Drift | ItemKind::Diagnostic
            )
        })
        .collect()
}

/// The items `check` says `cargo test` fails.
fn check_items(report: &CheckReport) -> BTreeSet<String> {
    report
        .problems
        .iter()
        .filter_map(|p| p.item.clone())
        .collect()
}

fn conformance() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../conformance")
}

#[test]
fn check_names_what_the_harness_fails_on_every_conformance_bundle() {
    let mut seen = BTreeSet::new();
    let mut disagree = Vec::new();
    for bundle in BUNDLES {
        let module = format!("b{}", bundle.replace('-', "_"));
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let root = dir.path();
        std::fs::write(
            root.join("varar.config.json"),
            r#"{"docs": {"include": ["*.md"]}}"#,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let corpus = conformance().join("corpus/bundles").join(bundle);
        std::fs::copy(corpus.join("example.md"), root.join("example.md"))
            .unwrap_or_else(|e| panic!("{e}"));
        std::fs::create_dir_all(root.join("tests")).unwrap_or_else(|e| panic!("{e}"));
        let steps = conformance().join("src/bundles").join(&module);
        for entry in std::fs::read_dir(&steps).unwrap_or_else(|e| panic!("{e}")) {
            let path = entry.unwrap_or_else(|e| panic!("{e}")).path();
            if let Some(name) = path.file_name() {
                std::fs::copy(&path, root.join("tests").join(name))
                    .unwrap_or_else(|e| panic!("{e}"));
            }
        }
        let log = root.join("libtest.log");
        let args = libtest_mimic::Arguments::from_iter([
            "oaths".to_string(),
            "--logfile".to_string(),
            log.display().to_string(),
            "--test-threads".to_string(),
            "1".to_string(),
        ]);
        let _ = varar_runner::Runner::new(root)
            .steps_from(&[&format!("varar_conformance::bundles::{module}")])
            .accept_drift(false)
            .run_with(args);
        let harness = failed_items(&std::fs::read_to_string(&log).unwrap_or_default());
        let check = report(&ProjectRoot {
            explicit: Some(root.to_path_buf()),
            cwd: root.to_path_buf(),
        });
        assert!(check.errors.is_empty(), "{bundle}: {:?}", check.errors);
        let named = check_items(&check);
        if named != harness {
            disagree.push(format!("{bundle}: check {named:?}, cargo test {harness:?}"));
        }
        seen.extend(harness);
    }
    assert!(disagree.is_empty(), "{}", disagree.join("\n"));
    // The bundles that fail before running do: an ambiguity, an error
    // fence without a step.
    assert!(
        seen.iter().any(|n| n.contains("ambiguous-match"))
            && seen.iter().any(|n| n.contains("error-fence-without-step")),
        "{seen:?}"
    );
}

#[test]
fn check_names_what_a_real_cargo_test_fails_on_the_bakery() {
    let dir = lsp_client::buildable_bakery();
    let root = dir.path();
    let edit = |rel: &str, from: &str, to: &str| {
        let path = root.join(rel);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
        assert!(text.contains(from), "{rel}: {from}");
        std::fs::write(&path, text.replace(from, to)).unwrap_or_else(|e| panic!("{e}"));
    };
    // Drift (a whole example reworded, its error fence left without a
    // step), a typo inside an example, and a link to a missing section.
    edit(
        "varar/shelf.md",
        "In the morning the baker puts 3 scones on the shelf. I sell 4 scones from the shelf.",
        "In the morning the baker stacks 3 scones. I sel 4 scones.",
    );
    edit("varar/shelf.md", "I sell 5 buns", "I sel 5 buns");
    edit(
        "varar/the-morning-rush.md",
        "#stocking-the-shelf",
        "#stocking-the-shelves",
    );
    let out = Command::new(env!("CARGO_BIN_EXE_cargo-varar"))
        .args(["varar", "check", "--format", "json"])
        .current_dir(root)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"));
    let named: BTreeSet<String> = json["problems"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|p| p["severity"] == "error")
        .filter_map(|p| p["item"].as_str().map(str::to_string))
        .collect();
    let warnings: Vec<&str> = json["problems"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|p| p["severity"] == "warning")
        .filter_map(|p| p["path"].as_str())
        .collect();
    assert!(warnings.contains(&"varar/shelf.md"), "the typo: {json:#}");

    let mut cargo = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    let run = lsp_client::cargo_env(&mut cargo)
        .args(["test", "--test", "oaths"])
        .current_dir(root)
        .output()
        .unwrap_or_else(|e| panic!("cannot run cargo test: {e}"));
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert_eq!(
        run.status.code(),
        Some(101),
        "{stdout}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let failed = failed_items(&stdout);
    assert_eq!(named, failed, "check and cargo test disagree\n{stdout}");
    assert_eq!(failed.len(), 4, "{failed:?}");
    // Nothing `check` calls a warning fails the run.
    let direct = report(&ProjectRoot {
        explicit: Some(root.to_path_buf()),
        cwd: root.to_path_buf(),
    });
    assert!(
        direct
            .problems
            .iter()
            .filter(|p| p.severity == Severity::Warning)
            .all(|p| p.item.is_none())
    );
}
