//! `merge` and `diff` through the real binary, in a fresh directory per
//! test: what they write and print, that inputs are never written, and one
//! test per error code (with nothing written when reading fails).

mod common;

use common::*;
use serde_json::Value;
use varar_core::hash::source_hash;

// ---- merge -----------------------------------------------------------------

fn shards(p: &Project) {
    result(
        p,
        "s1",
        "varar/basket.md",
        BASKET,
        r#"[{"name": "I add 1. The total is 1", "status": "passed", "lines": [5]}]"#,
    );
    result(
        p,
        "s2",
        "varar/basket.md",
        BASKET,
        r#"[{"name": "I add 2. The total is 3", "status": "passed", "lines": [3]}]"#,
    );
    result(p, "s2", "varar/shelf.md", SHELF, PASSED_SHELF);
    // One nextest run, its processes split between the shards.
    let items = passed_items();
    let first = Process {
        documents: &["varar/basket.md"],
        ..Process::of("nextest-1")
    };
    write_record(p, "s1", &first, &items[1..2]);
    let second = Process {
        id: "p2",
        started: "07:00:01",
        ..Process::of("nextest-1")
    };
    write_record(p, "s2", &second, &[items[0].clone(), items[2].clone()]);
}

#[test]
fn merge_writes_one_tree_in_the_harness_format_and_leaves_inputs_alone() {
    let p = Project::new();
    shards(&p);
    p.write("s1/.locks/varar/basket.md.json.lock", "");
    let before = (
        snapshot(&p.root().join("s1")),
        snapshot(&p.root().join("s2")),
    );
    let out = p.run(&["merge", ".varar", "s1", "s2"]);
    assert_eq!(code(&out), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "merged 2 result file(s) (3 example(s)) and 2 run record(s) from 2 tree(s) into \
         `.varar`\n"
    );
    assert_eq!(
        before,
        (
            snapshot(&p.root().join("s1")),
            snapshot(&p.root().join("s2"))
        )
    );
    // Byte for byte what the harness's writer writes for the union.
    let union = serde_json::json!({
        "version": 1, "oathPath": "varar/basket.md", "sourceHash": source_hash(BASKET),
        "examples": serde_json::from_str::<Value>(PASSED_BASKET).unwrap_or_default()
    });
    let expected = varar_core::results::parse_run_result(union.to_string().as_bytes())
        .map_err(|e| e.to_string())
        .and_then(|r| r.to_text().map_err(|e| e.to_string()))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(p.read(".varar/varar/basket.md.json"), expected);
    assert_eq!(p.read(".varar/.gitignore"), "*\n");
    let written: Vec<_> = files_under(&p.root().join(".varar"));
    // Two results, two run records, the `.gitignore` and the merge's marker.
    assert_eq!(written.len(), 6, "{written:?}");
    // The run records are copied as they are.
    for (shard, process) in [("s1", "p1"), ("s2", "p2")] {
        let name = format!(".runs/nextest-1/{process}.run");
        assert_eq!(
            p.read(&format!(".varar/{name}")),
            p.read(&format!("{shard}/{name}"))
        );
    }
    // Now the gate sees the merged evidence: one run, complete.
    let out = p.run(&["gate", "--format", "json"]);
    assert_eq!(code(&out), Some(0), "{}", text(&out.stdout));
    let json: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    assert_eq!(json["run"]["processes"], 2);
}

#[test]
fn issue19_merge_conflicting_run() {
    let p = Project::new();
    shards(&p);
    // The same process's record in two shards, with different bytes.
    let copy = p
        .read("s1/.runs/nextest-1/p1.run")
        .replace("\"passed\"", "\"failed\"");
    p.write("s3/.runs/nextest-1/p1.run", &copy);
    merge_refuses(&p, &["merge", "out", "s1", "s2", "s3"], "conflicting_run");
    // The same bytes twice are one record.
    p.write(
        "s3/.runs/nextest-1/p1.run",
        &p.read("s1/.runs/nextest-1/p1.run"),
    );
    let out = p.run(&["merge", "out", "s1", "s2", "s3"]);
    assert_eq!(code(&out), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        files_under(&p.root().join("out/.runs")),
        [
            std::path::PathBuf::from("nextest-1/p1.run"),
            std::path::PathBuf::from("nextest-1/p2.run"),
        ]
    );
}

#[test]
fn issue19_merge_invalid_run() {
    let p = Project::new();
    shards(&p);
    p.write("s2/.runs/nextest-1/p9.run", "{}");
    merge_refuses(&p, &["merge", "out", "s1", "s2"], "invalid_run");
}

/// Run `merge out s1 s2 …`: exit 2 with `code_name` on stderr, and `out`
/// exactly as it was.
fn merge_refuses(p: &Project, args: &[&str], code_name: &str) {
    let out_dir = p.root().join(args[1]);
    let before = snapshot(&out_dir);
    let existed = out_dir.exists();
    let out = p.run(args);
    assert_eq!(code(&out), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains(&format!("error[{code_name}]: ")),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(out_dir.exists(), existed);
    assert_eq!(snapshot(&out_dir), before);
}

#[test]
fn merge_source_mismatch() {
    let p = Project::new();
    shards(&p);
    result(
        &p,
        "s3",
        "varar/shelf.md",
        "# An older shelf\n",
        PASSED_SHELF,
    );
    merge_refuses(&p, &["merge", "out", "s1", "s2", "s3"], "source_mismatch");
}

#[test]
fn merge_conflicting_result() {
    let p = Project::new();
    shards(&p);
    result(
        &p,
        "s3",
        "varar/basket.md",
        BASKET,
        r#"[{"name": "I add 1. The total is 1", "status": "failed", "lines": [5],
        "failure": {"line": 5, "message": "flaky", "stack": ""}}]"#,
    );
    merge_refuses(
        &p,
        &["merge", "out", "s1", "s2", "s3"],
        "conflicting_result",
    );
    let out = p.run(&["merge", "--prefer-failed", "out", "s1", "s2", "s3"]);
    assert_eq!(code(&out), Some(0), "{}", text(&out.stderr));
    assert!(
        p.read("out/varar/basket.md.json")
            .contains("\"message\": \"flaky\"")
    );
}

#[test]
fn merge_invalid_result() {
    let p = Project::new();
    shards(&p);
    // A previous merge output, which the merge would replace: kept as it
    // is when an input is refused.
    p.write("out/.varar-merge", "a previous merge\n");
    p.write("out/varar/basket.md.json", "kept\n");
    p.write("s2/varar/shelf.md.json", r#"{"version": 1, "version": 1}"#);
    merge_refuses(&p, &["merge", "out", "s1", "s2"], "invalid_result");
}

#[test]
fn merge_input_error() {
    let p = Project::new();
    shards(&p);
    merge_refuses(&p, &["merge", "out", "s1", "s9"], "input_error");
}

#[test]
fn merge_invalid_arguments() {
    let p = Project::new();
    shards(&p);
    for args in [
        &["merge", "s1", "s1", "s2"][..],
        &["merge", "s1/nested", "s1", "s2"][..],
        &["merge", ".", "s1", "s2"][..],
    ] {
        merge_refuses(&p, args, "invalid_arguments");
    }
}

#[test]
fn merge_output_error() {
    let p = Project::new();
    shards(&p);
    p.write("blocker", "a file\n");
    let out = p.run(&["merge", "blocker/out", "s1", "s2"]);
    assert_eq!(code(&out), Some(2));
    assert!(
        text(&out.stderr).contains("error[output_error]: cannot write `blocker/out`"),
        "{}",
        text(&out.stderr)
    );
}

// ---- diff ------------------------------------------------------------------

#[test]
fn diff_reports_a_regression_as_markdown_and_json_and_exits_1() {
    let p = Project::new();
    result(&p, "old", "varar/basket.md", BASKET, PASSED_BASKET);
    p.basket_results();
    let out = p.run(&["diff", "old", ".varar"]);
    assert_eq!(code(&out), Some(1));
    assert_eq!(
        text(&out.stdout),
        "### varar: 1 regressed, 0 fixed, 0 added, 0 removed, 0 still failing\n\n\
         #### `varar/basket.md`\n\n\
         - **regressed**, line 3: I add 2. The total is 3: `cell 1: expected 3 but was 2`\n\
         \n1 other example(s) passed in both runs.\n"
    );
    let out = p.run(&["diff", "--format", "json", ".varar", "old"]);
    assert_eq!(code(&out), Some(0));
    let json: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    assert_eq!(json["version"], 1);
    assert_eq!(json["status"], "changed");
    assert_eq!(json["summary"]["fixed"], 1);
    assert_eq!(json["oaths"][0]["changes"][0]["kind"], "fixed");
}

fn diff_refuses(p: &Project, code_name: &str) -> Value {
    let out = p.run(&["diff", "--format", "json", "old", ".varar"]);
    assert_eq!(code(&out), Some(2));
    let json: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    assert_eq!(json["status"], "error");
    assert_eq!(json["exitCode"], 2);
    assert_eq!(codes(&json), [code_name]);
    let plain = p.run(&["diff", "old", ".varar"]);
    assert_eq!(code(&plain), Some(2));
    assert!(text(&plain.stdout).contains(&format!("error[{code_name}]: ")));
    json
}

#[test]
fn diff_invalid_result() {
    let p = Project::new();
    p.basket_results();
    p.write("old/varar/basket.md.json", "[]");
    let json = diff_refuses(&p, "invalid_result");
    assert_eq!(json["errors"][0]["path"], "old/varar/basket.md.json");
}

#[test]
fn diff_input_error() {
    let p = Project::new();
    p.basket_results();
    let json = diff_refuses(&p, "input_error");
    assert_eq!(
        json["errors"][0]["message"],
        "results directory `old` does not exist"
    );
}

#[test]
fn issue19_diff_compares_drift_and_diagnostic_items_of_the_latest_runs() {
    let p = Project::new();
    for tree in ["old", "new"] {
        result(&p, tree, "varar/basket.md", BASKET, PASSED_BASKET);
        result(&p, tree, "varar/shelf.md", SHELF, PASSED_SHELF);
    }
    let drift = |outcome: &str| {
        item(
            "varar/shelf.md::varar:drift:3",
            "varar/shelf.md",
            3,
            1,
            Some(outcome),
            (outcome == "failed").then_some("no step matches this any more"),
        )
    };
    let cycle = item(
        "varar/basket.md::varar:diagnostic:reference-cycle:5",
        "varar/basket.md",
        5,
        1,
        Some("failed"),
        Some("a reference cycle"),
    );
    let mut old = passed_items();
    old.push(drift("passed"));
    write_record(&p, "old", &Process::of("run-old"), &old);
    // An earlier run of NEW's tree, which the latest one replaces.
    write_record(&p, "new", &Process::of("run-0"), &old);
    let mut new = passed_items();
    new.push(drift("failed"));
    new.push(cycle);
    let latest = Process {
        started: "08:00:00",
        ..Process::of("run-new")
    };
    write_record(&p, "new", &latest, &new);
    let out = p.run(&["diff", "old", "new"]);
    assert_eq!(code(&out), Some(1), "{}", text(&out.stdout));
    assert_eq!(
        text(&out.stdout),
        "### varar: 1 regressed, 0 fixed, 1 added, 0 removed, 0 still failing\n\n\
         #### `varar/basket.md`\n\n\
         - **added**, line 5: varar/basket.md::varar:diagnostic:reference-cycle:5, **fails**: \
         `a reference cycle`\n\n\
         #### `varar/shelf.md`\n\n\
         - **regressed**, line 3: varar/shelf.md::varar:drift:3: `no step matches this any more`\n\
         \n3 other example(s) passed in both runs.\n"
    );
    let out = p.run(&["diff", "--format", "json", "new", "old"]);
    assert_eq!(code(&out), Some(0));
    let json: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    assert_eq!(json["summary"]["fixed"], 1);
    assert_eq!(json["summary"]["removed"], 1);
    assert_eq!(
        json["oaths"][1]["changes"][0]["example"],
        "varar/shelf.md::varar:drift:3"
    );
    assert_eq!(json["oaths"][1]["changes"][0]["old"]["line"], 3);
}

#[test]
fn issue19_diff_invalid_run() {
    let p = Project::new();
    p.basket_results();
    result(&p, "old", "varar/basket.md", BASKET, PASSED_BASKET);
    p.write("old/.runs/r/p.run", "[]");
    let json = diff_refuses(&p, "invalid_run");
    assert_eq!(json["errors"][0]["path"], "old/.runs/r/p.run");
}
