//! `gate` and `junit` through the real binary, in a fresh project per
//! test: exit codes, what they print and write, and one test per error
//! code. Every JSON output of `gate` is validated against the committed
//! schema; the JUnit XML is read back with readers other than its writer
//! (junit-parser, roxmltree) and checked against seed 003's profile.

mod common;

use std::path::Path;

use common::verdicts::{check_profile, gate_json, junit_refuses};
use common::*;
use varar_core::hash::source_hash;

#[test]
fn gate_passes_when_every_result_is_fresh_and_passed() {
    let p = Project::new();
    all_passed(&p);
    passing_run(&p);
    let out = p.run(&["varar", "gate"]);
    assert_eq!(code(&out), Some(0), "{}", text(&out.stdout));
    assert_eq!(
        text(&out.stdout),
        "gate: passed: 3 examples in 2 oaths, all fresh and passed\n"
    );
    let json = gate_json(&p, &[]);
    assert_eq!(json["status"], "passed");
    assert_eq!(json["version"], 2);
    assert_eq!(json["oaths"][0]["sourceHash"], source_hash(BASKET));
    assert_eq!(json["run"]["runId"], "run-1");
    assert_eq!(json["run"]["counts"]["passed"], 3);
}

/// The items of [`Project::basket_results`]: its first example failed.
fn basket_failed_items() -> Vec<String> {
    let mut items = passed_items();
    items[0] = item(
        "varar/basket.md::The basket::I add 2. The total is 3",
        "varar/basket.md",
        3,
        1,
        Some("failed"),
        Some("cell 1: expected 3 but was 2"),
    );
    items
}

#[test]
fn gate_exits_1_and_lists_each_failure() {
    let p = Project::new();
    p.basket_results();
    result(&p, ".varar", "varar/shelf.md", SHELF, PASSED_SHELF);
    write_record(&p, ".varar", &Process::of("run-1"), &basket_failed_items());
    let out = p.run(&["gate"]);
    assert_eq!(code(&out), Some(1));
    assert_eq!(
        text(&out.stdout),
        "FAILED varar/basket.md:3: I add 2. The total is 3\n    cell 1: expected 3 but was 2\n\
         gate: failed: 1 of 3 examples failed in 2 oaths\n"
    );
    let json = gate_json(&p, &[]);
    assert_eq!(json["failures"][0]["oathPath"], "varar/basket.md");
    assert_eq!(json["failures"][0]["line"], 3);
}

#[test]
fn gate_missing_result() {
    let p = Project::new();
    p.basket_results();
    write_record(
        &p,
        ".varar",
        &Process::of("run-1"),
        &basket_failed_items()[..2],
    );
    let json = gate_json(&p, &[]);
    assert_eq!(codes(&json), ["missing_result"]);
    assert_eq!(json["errors"][0]["path"], ".varar/varar/shelf.md.json");
    assert_eq!(json["errors"][0]["oathPath"], "varar/shelf.md");
    // 2 wins over the basket's failure.
    assert_eq!(json["status"], "error");
    assert_eq!(code(&p.run(&["gate"])), Some(2));
}

#[test]
fn gate_stale_result() {
    let p = Project::new();
    all_passed(&p);
    passing_run(&p);
    p.write("varar/shelf.md", "# The shelf\n\nI stock 4 buns.\n");
    let json = gate_json(&p, &[]);
    // The run read the shelf as it was, too.
    assert_eq!(codes(&json), ["stale_result", "stale_run"]);
    assert_eq!(json["errors"][1]["path"], "varar/shelf.md");
    assert_eq!(json["oaths"][1]["fresh"], false);
    assert_eq!(json["oaths"][1]["status"], "stale");
    let message = json["errors"][0]["message"].as_str().unwrap_or("");
    assert!(
        message.contains("`varar/shelf.md` changed after its run"),
        "{message}"
    );
}

#[test]
fn gate_invalid_result() {
    let shelf = source_hash(SHELF);
    for (content, reason) in [
        (
            // A newer whole-number version is absent instead (issue 21).
            r#"{"version": 0, "oathPath": "varar/shelf.md", "sourceHash": "", "examples": []}"#
                .to_owned(),
            "unsupported version 0",
        ),
        (
            format!(
                r#"{{"version": 1, "oathPath": "varar/shelf.md", "sourceHash": "{shelf}", "sourceHash": "{shelf}", "examples": []}}"#
            ),
            "the top level has the key \"sourceHash\" twice",
        ),
        (
            format!(
                r#"{{"version": 1, "oathPath": "varar/shelf.md", "sourceHash": "{shelf}", "examples": [{{"name": "x", "status": "failed", "lines": [3]}}]}}"#
            ),
            "examples[0].failure is missing",
        ),
        ("{ not json".to_owned(), "invalid JSON"),
    ] {
        let p = Project::new();
        all_passed(&p);
        passing_run(&p);
        p.write(".varar/varar/shelf.md.json", &content);
        let json = gate_json(&p, &[]);
        assert_eq!(codes(&json), ["invalid_result"], "{content}");
        let message = json["errors"][0]["message"].as_str().unwrap_or("");
        assert!(
            message.starts_with("`.varar/varar/shelf.md.json` is not a valid run result: ")
                && message.contains(reason),
            "{message}"
        );
        assert_eq!(json["oaths"][1]["status"], "invalid");
    }
}

#[test]
fn gate_invalid_config() {
    let p = Project::new();
    all_passed(&p);
    p.write("varar.config.json", "{\"docs\": [");
    let json = gate_json(&p, &[]);
    assert_eq!(codes(&json), ["invalid_config"]);
    let message = json["errors"][0]["message"].as_str().unwrap_or("");
    assert!(
        message.starts_with("varar.config.json: invalid JSON"),
        "{message}"
    );
    // No config at --root at all.
    let json = gate_json(&p, &["--root", "varar"]);
    assert_eq!(codes(&json), ["invalid_config"]);
}

#[test]
fn gate_input_error() {
    let p = Project::new();
    all_passed(&p);
    passing_run(&p);
    std::fs::write(p.root().join("varar/shelf.md"), b"# The shelf \xff\n")
        .unwrap_or_else(|e| panic!("{e}"));
    let json = gate_json(&p, &[]);
    assert_eq!(codes(&json), ["input_error", "stale_run"]);
    assert_eq!(json["errors"][0]["oathPath"], "varar/shelf.md");
    assert_eq!(json["oaths"][1]["status"], "unreadable");
}

#[test]
fn gate_no_oaths() {
    let p = Project::new();
    p.write(
        "varar.config.json",
        r#"{"docs": {"include": ["docs/**/*.md"]}}"#,
    );
    let json = gate_json(&p, &[]);
    assert_eq!(codes(&json), ["no_oaths"]);
}

#[test]
fn gate_schema_prints_the_committed_schema() {
    let p = Project::new();
    let out = p.run(&["gate", "--schema"]);
    assert_eq!(code(&out), Some(0));
    let committed =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/gate.schema.json"))
            .unwrap_or_default();
    assert_eq!(out.stdout, committed);
}

// ---- gate: the run (issue 19) ----------------------------------------------

// ---- junit -----------------------------------------------------------------

#[test]
fn junit_reads_back_with_an_independent_reader_inside_the_common_profile() {
    let p = Project::new();
    p.basket_results();
    result(&p, ".varar", "varar/shelf.md", SHELF, PASSED_SHELF);
    // The run that wrote them: it names the texts by SHA-256 (issue 34).
    write_record(&p, ".varar", &Process::of("run-1"), &basket_failed_items());
    let out = p.run(&["junit"]);
    assert_eq!(code(&out), Some(0), "{}", text(&out.stderr));
    let xml = text(&out.stdout);
    check_profile(&xml);
    let read = junit_parser::from_reader(xml.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((read.tests, read.failures, read.errors), (3, 1, 0));
    let suites: Vec<&str> = read.suites.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(suites, ["varar/basket.md", "varar/shelf.md"]);
    let basket = &read.suites[0];
    assert_eq!((basket.tests, basket.failures), (2, 1));
    let case = &basket.cases[0];
    assert_eq!(case.original_name, "I add 2. The total is 3");
    assert_eq!(case.classname.as_deref(), Some("varar/basket.md"));
    assert_eq!(case.file.as_deref(), Some("varar/basket.md"));
    assert_eq!(case.line, Some(3));
    let junit_parser::TestStatus::Failure(failure) = &case.status else {
        panic!("not a failure: {:?}", case.status);
    };
    assert_eq!(failure.message, "cell 1: expected 3 but was 2");
    let body = "varar/basket.md:3:23: cell 1: expected 3 but was 2\n  |\n3 | I add 2. The total is 3.\n  |                       ^ expected here\n  - expected: 3\n  + actual:   2\n  in example \"I add 2. The total is 3\"\n";
    // junit-parser 1.7 splits text at entity references (`&quot;` comes
    // back as a line break), so the whole body is compared as roxmltree
    // decodes it.
    assert!(
        failure
            .text
            .starts_with(&body[..body.find("  in example").unwrap_or(0)])
    );
    let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}"));
    let decoded = doc
        .descendants()
        .find(|n| n.has_tag_name("failure"))
        .and_then(|n| n.text());
    assert_eq!(decoded, Some(body));
    assert!(matches!(
        basket.cases[1].status,
        junit_parser::TestStatus::Success
    ));
}

#[test]
fn junit_out_writes_the_same_xml_to_a_file() {
    let p = Project::new();
    all_passed(&p);
    let to_stdout = p.run(&["junit"]);
    let out = p.run(&["junit", "--out", "target/ci/junit.xml"]);
    assert_eq!(code(&out), Some(0));
    assert!(out.stdout.is_empty());
    assert_eq!(p.read("target/ci/junit.xml").into_bytes(), to_stdout.stdout);
    assert!(
        text(&out.stderr)
            .contains("wrote `target/ci/junit.xml`: 2 test suite(s), 3 test case(s), 0 failure(s)")
    );
    let dir: Vec<_> = files_under(&p.root().join("target/ci"));
    assert_eq!(dir, [Path::new("junit.xml")], "temporary files left behind");
}

#[test]
fn junit_invalid_result() {
    let p = Project::new();
    all_passed(&p);
    p.write(".varar/varar/shelf.md.json", r#"{"version": "9"}"#);
    junit_refuses(&p, "invalid_result");
}

#[test]
fn junit_invalid_config() {
    let p = Project::new();
    all_passed(&p);
    p.write(
        "varar.config.json",
        r#"{"docs": {"include": "varar/*.md"}}"#,
    );
    junit_refuses(&p, "invalid_config");
}

#[test]
fn junit_input_error() {
    let p = Project::new();
    all_passed(&p);
    std::fs::write(p.root().join("varar/basket.md"), b"\xfe\xff").unwrap_or_else(|e| panic!("{e}"));
    junit_refuses(&p, "input_error");
}

#[test]
fn junit_no_oaths() {
    let p = Project::new();
    p.write("varar.config.json", r#"{"docs": {"include": []}}"#);
    junit_refuses(&p, "no_oaths");
}

#[test]
fn junit_output_error() {
    let p = Project::new();
    all_passed(&p);
    p.write("blocker", "a file, not a directory\n");
    let out = p.run(&["junit", "--out", "blocker/junit.xml"]);
    assert_eq!(code(&out), Some(2));
    assert!(text(&out.stderr).contains("error[output_error]: cannot write `blocker/junit.xml`"));
    assert_eq!(p.read("blocker"), "a file, not a directory\n");
}
