//! `gate` and `junit` judging the run record (issue 19), through the real
//! binary, in a fresh project per test with records written in the real
//! format: drift, diagnostics, incomplete and stale runs, recovered
//! examples. Every JSON output of `gate` is validated against the
//! committed schema, the JUnit XML against seed 003's profile.

mod common;

use common::verdicts::{check_profile, gate_json, junit_refuses};
use common::*;
use varar_core::hash::source_hash;

#[test]
fn issue19_gate_missing_run() {
    let p = Project::new();
    all_passed(&p);
    let json = gate_json(&p, &[]);
    assert_eq!(codes(&json), ["missing_run"]);
    assert_eq!(json["errors"][0]["path"], ".varar/.runs");
    assert!(json.get("run").is_none());
    let out = p.run(&["gate"]);
    assert_eq!(code(&out), Some(2));
    assert!(
        text(&out.stdout)
            .starts_with("error[missing_run]: there is no run record in `.varar/.runs`"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn issue19_gate_fails_on_drift_and_diagnostic_items_that_result_files_do_not_hold() {
    let p = Project::new();
    all_passed(&p);
    let mut items = passed_items();
    items.push(item(
        "varar/shelf.md::varar:drift:22",
        "varar/shelf.md",
        22,
        1,
        Some("failed"),
        Some("varar/shelf.md:22:1: This paragraph was an example and no longer matches any step (drift)"),
    ));
    items.push(item(
        "varar/basket.md::varar:diagnostic:reference-cycle:5",
        "varar/basket.md",
        5,
        1,
        Some("failed"),
        Some(
            "varar/basket.md:5:1: the reference cycles back to itself\n  |\n5 | [again](#again)\n",
        ),
    ));
    write_record(&p, ".varar", &Process::of("run-1"), &items);
    let out = p.run(&["gate"]);
    assert_eq!(code(&out), Some(1), "{}", text(&out.stdout));
    assert_eq!(
        text(&out.stdout),
        "FAILED varar/shelf.md:22: varar/shelf.md::varar:drift:22 (drift)\n    \
         varar/shelf.md:22:1: This paragraph was an example and no longer matches any step \
         (drift)\nFAILED varar/basket.md:5: varar/basket.md::varar:diagnostic:reference-cycle:5 \
         (diagnostic)\n    varar/basket.md:5:1: the reference cycles back to itself\n      |\n    \
         5 | [again](#again)\ngate: failed: 2 other items failed (diagnostic, drift) in 2 oaths\n"
    );
    let json = gate_json(&p, &[]);
    assert_eq!(json["status"], "failed");
    assert_eq!(json["failures"], serde_json::json!([]));
    let kinds: Vec<&str> = json["itemFailures"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|f| f["kind"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(kinds, ["drift", "diagnostic"]);
    assert_eq!(json["itemFailures"][0]["line"], 22);
    assert_eq!(json["itemFailures"][0]["oathPath"], "varar/shelf.md");
    assert_eq!(json["oaths"][1]["status"], "failed");
}

#[test]
fn issue19_gate_a_process_that_exited_early_leaves_the_run_incomplete() {
    // A step called std::process::exit(0): the old results stay, passed,
    // but the process never wrote its end.
    let p = Project::new();
    all_passed(&p);
    let mut items = passed_items();
    items[1] = item(
        "varar/basket.md::The basket::I add 1. The total is 1",
        "varar/basket.md",
        5,
        1,
        None,
        None,
    );
    items[2] = item(
        "varar/shelf.md::The shelf::I stock 3 buns",
        "varar/shelf.md",
        3,
        1,
        None,
        None,
    );
    let mut process = Process::of("run-1");
    process.complete = false;
    write_record(&p, ".varar", &process, &items);
    let json = gate_json(&p, &[]);
    assert_eq!(
        codes(&json),
        ["incomplete_run", "incomplete_run", "incomplete_run"]
    );
    assert_eq!(json["errors"][0]["path"], ".varar/.runs/run-1/p1.run");
    assert_eq!(json["errors"][1]["oathPath"], "varar/basket.md");
    assert_eq!(
        json["errors"][1]["example"],
        "varar/basket.md::The basket::I add 1. The total is 1"
    );
    assert_eq!(json["run"]["complete"], false);
    assert_eq!(json["run"]["counts"]["notRun"], 2);
}

#[test]
fn issue19_gate_an_oath_with_examples_but_no_item_in_the_run_is_incomplete() {
    let p = Project::new();
    all_passed(&p);
    // A run filtered to the basket: the shelf is not even planned.
    write_record(&p, ".varar", &Process::of("run-1"), &passed_items()[..2]);
    let json = gate_json(&p, &[]);
    assert_eq!(codes(&json), ["incomplete_run"]);
    assert_eq!(json["errors"][0]["oathPath"], "varar/shelf.md");
    // …also when only the lock says the shelf has examples.
    std::fs::remove_file(p.root().join(".varar/varar/shelf.md.json"))
        .unwrap_or_else(|e| panic!("{e}"));
    p.write(
        "varar.lock.json",
        &format!(
            r#"{{"version": 2, "oaths": {{"varar/shelf.md": {{"sourceHash": "{}", "examples": [{{"name": "I stock 3 buns", "line": 3}}]}}}}}}"#,
            source_hash(SHELF)
        ),
    );
    let json = gate_json(&p, &[]);
    assert_eq!(codes(&json), ["missing_result", "incomplete_run"]);
}

#[test]
fn issue19_gate_stale_run_when_the_config_changed() {
    let p = Project::new();
    all_passed(&p);
    passing_run(&p);
    p.write(
        "varar.config.json",
        r#"{"docs": {"include": ["varar/**/*.md", "more/**/*.md"]}}"#,
    );
    let json = gate_json(&p, &[]);
    assert_eq!(codes(&json), ["stale_run"]);
    assert_eq!(json["errors"][0]["path"], "varar.config.json");
    // A document the run read is gone.
    passing_run(&p);
    std::fs::remove_file(p.root().join("varar/shelf.md")).unwrap_or_else(|e| panic!("{e}"));
    let json = gate_json(&p, &[]);
    assert_eq!(codes(&json), ["stale_run"]);
    assert!(
        json["errors"][0]["message"]
            .as_str()
            .unwrap_or("")
            .starts_with("`varar/shelf.md`, which the latest run (`run-1`) read, no longer exists"),
        "{json:#}"
    );
}

#[test]
fn issue19_gate_invalid_run_and_unknown_versions_are_absent() {
    let p = Project::new();
    all_passed(&p);
    passing_run(&p);
    p.write(
        ".varar/.runs/run-0/p9.run",
        "{\"version\": 1, \"format\": \"varar-run-record\"",
    );
    let json = gate_json(&p, &[]);
    assert_eq!(codes(&json), ["invalid_run"]);
    assert_eq!(json["errors"][0]["path"], ".varar/.runs/run-0/p9.run");
    assert!(
        json["errors"][0]["message"]
            .as_str()
            .unwrap_or("")
            .starts_with("`.varar/.runs/run-0/p9.run` is not a valid run record: "),
        "{json:#}"
    );
    // A record of a later version is not an error: it is not there.
    let later = p
        .read(".varar/.runs/run-1/p1.run")
        .replacen("\"version\": 1", "\"version\": 2", 1)
        .replace("run-1", "run-9");
    p.write(".varar/.runs/run-0/p9.run", &later);
    assert_eq!(code(&p.run(&["gate"])), Some(0));
    std::fs::remove_dir_all(p.root().join(".varar/.runs/run-1")).unwrap_or_else(|e| panic!("{e}"));
    let json = gate_json(&p, &[]);
    assert_eq!(codes(&json), ["missing_run"]);
}

#[test]
fn issue19_gate_lists_a_recovered_example_and_denies_it_on_request() {
    let p = Project::new();
    all_passed(&p);
    // nextest --retries 1: the shelf's example failed, then passed.
    let mut first = passed_items();
    first[2] = item(
        "varar/shelf.md::The shelf::I stock 3 buns",
        "varar/shelf.md",
        3,
        1,
        Some("failed"),
        Some("the oven was cold"),
    );
    write_record(&p, ".varar", &Process::of("nextest-1"), &first);
    let retry = Process {
        id: "p2",
        started: "07:00:05",
        documents: &["varar/shelf.md"],
        ..Process::of("nextest-1")
    };
    write_record(
        &p,
        ".varar",
        &retry,
        &[item(
            "varar/shelf.md::The shelf::I stock 3 buns",
            "varar/shelf.md",
            3,
            2,
            Some("passed"),
            None,
        )],
    );
    let out = p.run(&["gate"]);
    assert_eq!(code(&out), Some(0), "{}", text(&out.stdout));
    assert_eq!(
        text(&out.stdout),
        "RECOVERED varar/shelf.md:3: varar/shelf.md::The shelf::I stock 3 buns (example, passed on \
         attempt 2)\n    the oven was cold\n\
         gate: passed: 3 examples in 2 oaths, all fresh and passed (1 item recovered after a retry)\n"
    );
    let json = gate_json(&p, &[]);
    assert_eq!(json["recovered"][0]["attempts"], 2);
    assert_eq!(json["recovered"][0]["message"], "the oven was cold");
    assert_eq!(json["run"]["processes"], 2);
    let json = gate_json(&p, &["--deny-recovered"]);
    assert_eq!(json["status"], "failed");
    assert_eq!(json["denyRecovered"], true);
    let out = p.run(&["gate", "--deny-recovered"]);
    assert_eq!(code(&out), Some(1));
    assert!(text(&out.stdout).contains(": denied by --deny-recovered\n"));
}

#[test]
fn issue19_junit_lists_drift_and_diagnostics_and_marks_a_recovered_case() {
    let p = Project::new();
    all_passed(&p);
    let mut items = passed_items();
    items[2] = item(
        "varar/shelf.md::The shelf::I stock 3 buns",
        "varar/shelf.md",
        3,
        1,
        Some("failed"),
        Some("the oven was cold"),
    );
    items.push(item(
        "varar/shelf.md::varar:drift:22",
        "varar/shelf.md",
        22,
        1,
        Some("failed"),
        Some(
            "varar/shelf.md:22:1: no step matches this any more (drift)\n  |\n22 | Unsold bread\n",
        ),
    ));
    items.push(item(
        "varar/linked.md::varar:diagnostic:reference-cycle:5",
        "varar/linked.md",
        5,
        1,
        Some("failed"),
        Some("varar/linked.md:5:1: \"a\" & <b> reference each other"),
    ));
    write_record(&p, ".varar", &Process::of("nextest-1"), &items);
    let retry = Process {
        id: "p2",
        started: "07:00:05",
        documents: &["varar/shelf.md"],
        ..Process::of("nextest-1")
    };
    write_record(
        &p,
        ".varar",
        &retry,
        &[item(
            "varar/shelf.md::The shelf::I stock 3 buns",
            "varar/shelf.md",
            3,
            2,
            Some("passed"),
            None,
        )],
    );
    let out = p.run(&["junit"]);
    assert_eq!(code(&out), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), "");
    let xml = text(&out.stdout);
    check_profile(&xml);
    let read = junit_parser::from_reader(xml.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((read.tests, read.failures, read.errors), (5, 2, 0));
    let suites: Vec<&str> = read.suites.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        suites,
        ["varar/basket.md", "varar/shelf.md", "varar/linked.md"]
    );
    let shelf = &read.suites[1];
    let drift = &shelf.cases[1];
    assert_eq!(drift.original_name, "varar/shelf.md::varar:drift:22");
    assert_eq!(drift.classname.as_deref(), Some("varar/shelf.md"));
    assert_eq!(drift.line, Some(22));
    let junit_parser::TestStatus::Failure(failure) = &drift.status else {
        panic!("not a failure: {:?}", drift.status);
    };
    assert_eq!(
        failure.message,
        "varar/shelf.md:22:1: no step matches this any more (drift)"
    );
    // The recovered example passes, and says why in its system-out.
    let recovered = &shelf.cases[0];
    assert!(matches!(
        recovered.status,
        junit_parser::TestStatus::Success
    ));
    let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}"));
    let out_text = doc
        .descendants()
        .find(|n| n.has_tag_name("system-out"))
        .and_then(|n| n.text());
    assert_eq!(
        out_text,
        Some(
            "recovered: passed on attempt 2 after 1 earlier attempt that did not pass\n\
             attempt 1: failed: the oven was cold\n"
        )
    );
    let diagnostic = doc
        .descendants()
        .filter(|n| n.has_tag_name("failure"))
        .nth(1)
        .and_then(|n| n.text());
    assert_eq!(
        diagnostic,
        Some("varar/linked.md:5:1: \"a\" & <b> reference each other")
    );
}

#[test]
fn issue19_junit_invalid_run() {
    let p = Project::new();
    all_passed(&p);
    p.write(".varar/.runs/r/p.run", "not json");
    junit_refuses(&p, "invalid_run");
}

#[test]
fn issue19_junit_without_a_run_record_warns_and_converts() {
    let p = Project::new();
    all_passed(&p);
    let out = p.run(&["junit"]);
    assert_eq!(code(&out), Some(0));
    assert!(
        text(&out.stderr).contains("warning: there is no run record in `.varar/.runs`"),
        "{}",
        text(&out.stderr)
    );
}
