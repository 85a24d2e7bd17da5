//! `cargo varar merge` on real CI shards, end to end: a copy of the sample
//! project with one failing example is run as two `cargo nextest run
//! --partition count:K/2` shards, each leaving its own `.varar/` (moved
//! aside as `shard-1/` and `shard-2/`); then as one full `cargo test`
//! run. The merge of the two shards must equal the full run's results
//! tree, byte for byte, and hold every shard's run records as they are
//! (issue 19; each shard is a nextest run of its own, so the records, not
//! their runs, are what the trees share). The merged tree is one run for
//! the gate and one CTRF report (issue 38).
//!
//! The test fails, never skips, when cargo-nextest is missing: `.ci/run`
//! installs it.

#[path = "../../tests/tests/support/mod.rs"]
mod support;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use support::Sample;

/// Every file of a results tree but the harness's sidecar locks and the
/// run records, by relative path.
fn tree(dir: &Path) -> BTreeMap<String, String> {
    let mut all = files(dir);
    // The merge's own marker (issue 21) is no part of the results.
    all.retain(|rel, _| !rel.starts_with(".runs/") && rel != ".varar-merge");
    all
}

/// The run records of a results tree, by relative path.
fn runs(dir: &Path) -> BTreeMap<String, String> {
    let mut all = files(dir);
    all.retain(|rel, _| rel.starts_with(".runs/"));
    all
}

/// Every file of a results tree but the harness's sidecar locks and
/// caches, by relative path.
fn files(dir: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let path = entry.unwrap_or_else(|e| panic!("{e}")).path();
            let rel = path
                .strip_prefix(dir)
                .unwrap_or(&path)
                .to_string_lossy()
                .replace('\\', "/");
            if rel == ".locks" || rel == ".cache" {
                continue;
            }
            if path.is_dir() {
                stack.push(path);
            } else {
                let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{rel}: {e}"));
                out.insert(rel, text);
            }
        }
    }
    out
}

/// The example names of each oath of a tree.
fn examples(tree: &BTreeMap<String, String>) -> BTreeMap<String, Vec<String>> {
    tree.iter()
        .filter(|(rel, _)| rel.ends_with(".json"))
        .map(|(rel, text)| {
            let value: serde_json::Value =
                serde_json::from_str(text).unwrap_or_else(|e| panic!("{rel}: {e}"));
            let names = value["examples"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|e| e["name"].as_str().unwrap_or("").to_owned())
                .collect();
            (rel.clone(), names)
        })
        .collect()
}

#[test]
fn two_nextest_partitions_merge_into_the_full_run_s_tree() {
    let sample = Sample::copy();
    let version = sample.run(&["nextest", "--version"], &[]);
    assert_eq!(
        version.code,
        Some(0),
        "cargo-nextest is needed for this test (.ci/run installs it with \
         `cargo install --locked cargo-nextest`):\n{}",
        version.combined()
    );
    // One failing example, so failure records are merged too.
    let basket = sample.root().join("varar/basket.md");
    let text = sample.read("varar/basket.md");
    assert!(text.contains("the total is £2.40"));
    std::fs::write(
        &basket,
        text.replacen("the total is £2.40", "the total is £2.50", 1),
    )
    .unwrap_or_else(|e| panic!("{e}"));

    for k in 1..=2 {
        let partition = format!("count:{k}/2");
        let run = sample.run(
            &[
                "nextest",
                "run",
                "--no-fail-fast",
                "--partition",
                &partition,
            ],
            // What the README's shard recipe sets: one run for all shards.
            &[("VARAR_RUN_ID", "pipeline-7")],
        );
        assert!(
            matches!(run.code, Some(0) | Some(100)),
            "nextest --partition {partition}\n{}",
            run.combined()
        );
        std::fs::rename(
            sample.root().join(".varar"),
            sample.root().join(format!("shard-{k}")),
        )
        .unwrap_or_else(|e| panic!("partition {k} left no .varar/: {e}\n{}", run.combined()));
    }
    let full = sample.cargo_test(&["--test", "oaths"], &[]);
    full.assert_code(101, "the full run (one example fails on purpose)");

    let merge = Command::new(env!("CARGO_BIN_EXE_cargo-varar"))
        .args(["merge", "merged", "shard-1", "shard-2"])
        .current_dir(sample.root())
        .output()
        .unwrap_or_else(|e| panic!("cannot run cargo-varar: {e}"));
    assert_eq!(
        merge.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&merge.stderr)
    );

    let (one, two) = (
        tree(&sample.root().join("shard-1")),
        tree(&sample.root().join("shard-2")),
    );
    let (merged, single) = (
        tree(&sample.root().join("merged")),
        tree(&sample.root().join(".varar")),
    );
    // The partitions really split the oaths' examples between them.
    let (ex1, ex2, all) = (examples(&one), examples(&two), examples(&single));
    let split = all.keys().any(|oath| {
        ex1.get(oath).is_some_and(|e| !e.is_empty()) && ex2.get(oath).is_some_and(|e| !e.is_empty())
    });
    assert!(
        split,
        "no oath has examples in both shards: {ex1:?} / {ex2:?}"
    );
    for (oath, names) in &all {
        let shards = ex1.get(oath).map_or(0, Vec::len) + ex2.get(oath).map_or(0, Vec::len);
        assert_eq!(
            shards,
            names.len(),
            "{oath}: every example ran in exactly one shard"
        );
    }
    assert!(
        single
            .values()
            .any(|t| t.contains("\"status\": \"failed\"")),
        "the failing example is in the full run's results"
    );
    assert_eq!(
        merged, single,
        "the merged shards differ from the single run"
    );
    let mut shard_runs = runs(&sample.root().join("shard-1"));
    let two = runs(&sample.root().join("shard-2"));
    assert!(
        !shard_runs.is_empty() && !two.is_empty(),
        "each shard records its run"
    );
    shard_runs.extend(two);
    assert_eq!(
        runs(&sample.root().join("merged")),
        shard_runs,
        "the merge holds every shard's run records as they are"
    );

    // The shards share a run id, so the merged tree is one complete run
    // holding every item: the gate judges it as it would the full run (1:
    // the failing example), not as an incomplete one (2).
    std::fs::rename(sample.root().join(".varar"), sample.root().join("full"))
        .unwrap_or_else(|e| panic!("{e}"));
    std::fs::rename(sample.root().join("merged"), sample.root().join(".varar"))
        .unwrap_or_else(|e| panic!("{e}"));
    let gate = Command::new(env!("CARGO_BIN_EXE_cargo-varar"))
        .args(["gate"])
        .current_dir(sample.root())
        .output()
        .unwrap_or_else(|e| panic!("cannot run cargo-varar: {e}"));
    let text =
        String::from_utf8_lossy(&gate.stdout).into_owned() + &String::from_utf8_lossy(&gate.stderr);
    assert_eq!(gate.status.code(), Some(1), "{text}");
    assert!(!text.contains("incomplete_run"), "{text}");

    // Issue 38: one CTRF report of the merged tree, one run id, every
    // shard's examples, valid against the published schema.
    let ctrf = Command::new(env!("CARGO_BIN_EXE_cargo-varar"))
        .args(["ctrf"])
        .current_dir(sample.root())
        .output()
        .unwrap_or_else(|e| panic!("cannot run cargo-varar: {e}"));
    assert_eq!(
        ctrf.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&ctrf.stderr)
    );
    let report: serde_json::Value =
        serde_json::from_slice(&ctrf.stdout).unwrap_or_else(|e| panic!("{e}"));
    let schema: serde_json::Value = serde_json::from_str(include_str!("ctrf/ctrf-schema-0.0.json"))
        .unwrap_or_else(|e| panic!("{e}"));
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap_or_else(|e| panic!("{e}"));
    let problems: Vec<String> = validator
        .iter_errors(&report)
        .map(|e| e.to_string())
        .collect();
    assert!(problems.is_empty(), "{problems:#?}\n{report:#}");
    assert_eq!(report["runId"], "pipeline-7");
    let mut listed: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for test in report["results"]["tests"].as_array().into_iter().flatten() {
        if test["type"] == "example" {
            let file = format!("{}.json", test["filePath"].as_str().unwrap_or(""));
            let name = test["name"].as_str().unwrap_or("").to_owned();
            listed.entry(file).or_default().push(name);
        }
    }
    for (oath, names) in &all {
        let tests = listed.get(oath).cloned().unwrap_or_default();
        assert_eq!(tests.len(), names.len(), "{oath}: {tests:?} / {names:?}");
        for (test, name) in tests.iter().zip(names) {
            assert!(test.ends_with(&format!("::{name}")), "{test} is not {name}");
        }
    }
    assert_eq!(report["results"]["summary"]["failed"], 1, "{report:#}");
    // `--out`: the same report in a file, and a note of what it holds.
    let out = Command::new(env!("CARGO_BIN_EXE_cargo-varar"))
        .args(["ctrf", "--out", "ci/ctrf.json"])
        .current_dir(sample.root())
        .output()
        .unwrap_or_else(|e| panic!("cannot run cargo-varar: {e}"));
    let note = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        (out.status.code(), out.stdout.len()),
        (Some(0), 0),
        "{note}"
    );
    let tests = report["results"]["summary"]["tests"].as_u64().unwrap_or(0);
    assert_eq!(
        note,
        format!("cargo varar: wrote `ci/ctrf.json`: {tests} test(s), 1 failed, 0 flaky\n")
    );
    let written: serde_json::Value =
        serde_json::from_str(&sample.read("ci/ctrf.json")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(written["results"]["tests"], report["results"]["tests"]);
}
