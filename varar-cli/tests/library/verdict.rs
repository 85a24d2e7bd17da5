use std::collections::BTreeMap;

use serde_json::Value;
use varar_core::hash::{sha256_hex, source_hash};
use varar_core::record::DocumentDigest;
use varar_core::results::{ExampleResult, OathResults};

use crate::support::{example, item, record};
use varar_cli::commands::gate::SCHEMA;
use varar_core::record::RunRecord;
use varar_core::verdict::evidence::OathEvidence;
use varar_core::verdict::gate::*;
use varar_core::verdict::records::{Code, ErrorRecord};
use varar_core::verdict::run_evidence::RunEvidence;
use varar_core::verdict::testing::project;

const OATH: &str = "# A\n\nI add 2. The total is 3.\n\nI add 1. The total is 1.\n";

fn oath(path: &str, text: &str, examples: Option<Vec<ExampleResult>>) -> OathEvidence {
    OathEvidence {
        oath_path: path.into(),
        result_path: format!(".varar/{path}.json"),
        text: Ok(text.into()),
        results: Ok(examples.map(|examples| OathResults {
            version: 1,
            oath_path: path.into(),
            source_hash: source_hash(text),
            documents: Vec::new(),
            examples,
        })),
        documents: BTreeMap::new(),
        absent_because: None,
        // As the run that wrote the result read the oath.
        vouched: [(
            path.to_owned(),
            DocumentDigest {
                path: path.into(),
                sha256: sha256_hex(text.as_bytes()),
                source_hash: source_hash(text),
            },
        )]
        .into(),
    }
}

/// One complete run in which every example of the oaths' results ran
/// once, as recorded.
fn run_of(oaths: &[OathEvidence]) -> RunEvidence {
    let items = oaths
        .iter()
        .filter_map(|o| Some((o, o.results.as_ref().ok()?.as_ref()?)))
        .flat_map(|(o, r)| {
            r.examples.iter().map(|e| {
                let failed = e.failure.as_ref().map(|f| f.message.as_str());
                item(
                    &format!("{}::{}", o.oath_path, e.name),
                    &o.oath_path,
                    e.lines.first().copied().unwrap_or(0),
                    1,
                    Some(if failed.is_some() { "failed" } else { "passed" }),
                    failed,
                )
            })
        })
        .collect();
    runs(vec![record("run", "p1", "07:00:00", true, items)])
}

fn runs(records: Vec<varar_core::record::ProcessRecord>) -> RunEvidence {
    RunEvidence::of_runs(".varar/.runs", RunRecord::combine(records))
}

/// The verdict on `oaths` after a complete run of exactly their results.
fn evaluate(oaths: &[OathEvidence]) -> GateReport {
    let run = run_of(oaths);
    varar_core::verdict::gate::evaluate(&project(oaths.to_vec(), run), GateOptions::default())
}

/// Every report the tests build must fit the published schema.
fn checked(report: &GateReport) -> Value {
    let schema: Value = serde_json::from_str(SCHEMA).unwrap_or_else(|e| panic!("{e}"));
    let validator = jsonschema::validator_for(&schema).unwrap_or_else(|e| panic!("{e}"));
    let value = serde_json::to_value(report).unwrap_or_else(|e| panic!("{e}"));
    let errors: Vec<String> = validator
        .iter_errors(&value)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}\n{value:#}");
    value
}

#[test]
fn all_fresh_and_passed_is_exit_0() {
    let report = evaluate(&[
        oath("a.md", OATH, Some(vec![example("x", &[3], None)])),
        oath("b.md", "# B\n", Some(vec![example("y", &[5], None)])),
    ]);
    checked(&report);
    assert_eq!((report.status, report.exit_code), (GateStatus::Passed, 0));
    assert_eq!(report.oaths[0].status, OathStatus::Passed);
    assert!(report.oaths.iter().all(|o| o.fresh));
    assert_eq!(
        render_text(&report),
        "gate: passed: 2 examples in 2 oaths, all fresh and passed\n"
    );
}

#[test]
fn a_failed_example_is_exit_1_and_listed_with_path_line_name_and_message() {
    let report = evaluate(&[oath(
        "a.md",
        OATH,
        Some(vec![
            example(
                "I add 2. The total is 3",
                &[3],
                Some("cell 1: expected 3 but was 2"),
            ),
            example("I add 1. The total is 1", &[5], None),
        ]),
    )]);
    let json = checked(&report);
    assert_eq!((report.status, report.exit_code), (GateStatus::Failed, 1));
    assert_eq!(
        json["failures"][0],
        serde_json::json!({"oathPath": "a.md", "line": 3, "example": "I add 2. The total is 3",
                           "message": "cell 1: expected 3 but was 2"})
    );
    assert_eq!((report.oaths[0].passed, report.oaths[0].failed), (1, 1));
    assert_eq!(
        render_text(&report),
        "FAILED a.md:3: I add 2. The total is 3\n    cell 1: expected 3 but was 2\n\
         gate: failed: 1 of 2 examples failed in 1 oath\n"
    );
}

#[test]
fn missing_and_stale_evidence_is_exit_2_and_wins_over_failures() {
    let mut stale = oath(
        "b.md",
        "# B\n",
        Some(vec![example("y", &[2], Some("boom"))]),
    );
    stale.text = Ok("# B edited\n".into());
    let report = evaluate(&[
        oath("a.md", OATH, Some(vec![example("x", &[3], Some("boom"))])),
        stale,
        oath("c.md", "# C\n", None),
    ]);
    let json = checked(&report);
    assert_eq!((report.status, report.exit_code), (GateStatus::Error, 2));
    let codes: Vec<Code> = report.errors.iter().map(|e| e.code).collect();
    assert_eq!(codes, [Code::StaleResult, Code::MissingResult]);
    let statuses: Vec<OathStatus> = report.oaths.iter().map(|o| o.status).collect();
    assert_eq!(
        statuses,
        [OathStatus::Failed, OathStatus::Stale, OathStatus::Missing]
    );
    // The stale result's failure is not listed: its lines may be wrong.
    assert_eq!(report.failures.len(), 1);
    assert_eq!(json["errors"][1]["path"], ".varar/c.md.json");
    assert_eq!(json["errors"][1]["oathPath"], "c.md");
    assert!(report.errors[0].message.contains("changed after its run"));
    assert!(
        render_text(&report).ends_with(
            "gate: error: 2 problems with the evidence of 3 oaths; nothing was judged\n"
        )
    );
}

#[test]
fn unreadable_oaths_and_invalid_results_are_exit_2() {
    let mut unreadable = oath("a.md", OATH, None);
    unreadable.text = Err(ErrorRecord::new(Code::InputError, "cannot read `a.md`"));
    let mut invalid = oath("b.md", OATH, None);
    invalid.results = Err(ErrorRecord::new(Code::InvalidResult, "refused"));
    let report = evaluate(&[unreadable, invalid]);
    checked(&report);
    let statuses: Vec<OathStatus> = report.oaths.iter().map(|o| o.status).collect();
    assert_eq!(statuses, [OathStatus::Unreadable, OathStatus::Invalid]);
    assert_eq!(report.oaths[0].source_hash, None);
    assert_eq!(report.exit_code, 2);
}

#[test]
fn a_gate_without_oaths_is_an_error_that_fits_the_schema() {
    let report = GateReport::unusable(ErrorRecord::new(Code::NoOaths, "none"));
    let json = checked(&report);
    assert_eq!(json["status"], "error");
    assert_eq!(json["oaths"], serde_json::json!([]));
}

#[test]
fn the_schema_is_valid_and_not_vacuous() {
    let schema: Value = serde_json::from_str(SCHEMA).unwrap_or_else(|e| panic!("{e}"));
    assert!(jsonschema::meta::is_valid(&schema));
    let validator = jsonschema::validator_for(&schema).unwrap_or_else(|e| panic!("{e}"));
    let good = serde_json::json!({"version": 2, "status": "passed", "exitCode": 0,
        "denyRecovered": false, "denyRemoved": false,
        "run": {"runId": "r", "startedAt": "t", "endedAt": "t", "complete": true, "processes": 1,
                "counts": {"planned": 0, "passed": 0, "failed": 0, "ignored": 0, "notRun": 0,
                           "recovered": 0}},
        "oaths": [], "failures": [], "itemFailures": [], "recovered": [], "removed": [],
        "standing": "complete", "errors": [], "warnings": []});
    assert!(validator.is_valid(&good));
    // Issue 37: a removed example is listed by a passing gate unless denied.
    let mut listed = good.clone();
    listed["removed"] = serde_json::json!([{"oathPath": "a.md", "name": "I add 2", "line": 3}]);
    assert!(validator.is_valid(&listed));
    listed["denyRemoved"] = serde_json::json!(true);
    assert!(
        !validator.is_valid(&listed),
        "passed although a removal was denied"
    );
    listed["status"] = serde_json::json!("failed");
    listed["exitCode"] = serde_json::json!(1);
    assert!(validator.is_valid(&listed));
    let mut bad = Vec::new();
    for (pointer, value) in [
        ("/version", serde_json::json!(1)),
        ("/run/complete", serde_json::json!(false)),
        // Issue 34: a gate passes only on a complete run.
        ("/standing", serde_json::json!("incomplete")),
        ("/standing", serde_json::json!("whole")),
        ("/run/counts/notRun", serde_json::json!(-1)),
        (
            "/itemFailures",
            serde_json::json!([{"name": "a.md::varar:drift:3", "kind": "drift",
                                "oathPath": "a.md", "line": 3, "message": "m", "attempts": 1}]),
        ),
        (
            "/recovered",
            serde_json::json!([{"name": "a.md::x", "kind": "bench", "oathPath": "a.md",
                                "line": 3, "attempts": 2}]),
        ),
        ("/denyRecovered", serde_json::json!("yes")),
        ("/denyRemoved", serde_json::json!("yes")),
        (
            "/removed",
            serde_json::json!([{"oathPath": "a.md", "name": "I add 2", "line": "3"}]),
        ),
        ("/status", serde_json::json!("failed")),
        ("/exitCode", serde_json::json!(3)),
        ("/errors", serde_json::json!([{"code": "stale_result"}])),
        (
            "/errors",
            serde_json::json!([{"code": "nope", "message": "m"}]),
        ),
        ("/oaths", serde_json::json!([{"path": "a.md"}])),
        ("/extra", serde_json::json!(true)),
    ] {
        let mut v = good.clone();
        match v.pointer_mut(pointer) {
            Some(slot) => *slot = value,
            None => {
                v["extra"] = value;
            }
        }
        if validator.is_valid(&v) {
            bad.push(pointer);
        }
    }
    assert!(bad.is_empty(), "the schema accepted a wrong {bad:?}");
}

#[test]
fn issue11_an_oath_run_only_where_it_is_linked_needs_no_result() {
    let oaths = [
        oath("a.md", OATH, Some(vec![example("x", &[3], None)])),
        oath("shared.md", "## Setup\n\nI add 2.\n", None),
    ];
    let mut linked = project(oaths.to_vec(), run_of(&oaths));
    linked.linked_only = ["shared.md".to_string()].into();
    let report = varar_core::verdict::gate::evaluate(&linked, GateOptions::default());
    checked(&report);
    assert_eq!((report.status, report.exit_code), (GateStatus::Passed, 0));
    assert_eq!(report.oaths[1].status, OathStatus::Linked);
    // Not linked: the missing result is an error, as before.
    let report = evaluate(&oaths);
    assert_eq!(report.oaths[1].status, OathStatus::Missing);
    assert_ne!(report.exit_code, 0);
}

fn passed_a() -> Vec<OathEvidence> {
    vec![oath(
        "a.md",
        OATH,
        Some(vec![example("I add 1. The total is 1", &[5], None)]),
    )]
}

#[test]
fn issue19_without_a_run_record_the_gate_cannot_judge() {
    let report = varar_core::verdict::gate::evaluate(
        &project(passed_a(), RunEvidence::none()),
        GateOptions::default(),
    );
    let json = checked(&report);
    assert_eq!((report.status, report.exit_code), (GateStatus::Error, 2));
    let codes: Vec<Code> = report.errors.iter().map(|e| e.code).collect();
    assert_eq!(codes, [Code::MissingRun]);
    assert!(json.get("run").is_none());
}

#[test]
fn issue19_a_drift_item_that_failed_fails_the_gate_with_its_kind_and_line() {
    let oaths = passed_a();
    let mut run = run_of(&oaths);
    let drift = record(
        "run",
        "p2",
        "07:00:01",
        true,
        vec![item(
            "a.md::varar:drift:3",
            "a.md",
            3,
            1,
            Some("failed"),
            Some("a.md:3:1: This paragraph was an example and no longer matches any step (drift)"),
        )],
    );
    let mut records = run.latest.take().map(|r| r.processes).unwrap_or_default();
    records.push(drift);
    run = runs(records);
    let report = varar_core::verdict::gate::evaluate(&project(oaths, run), GateOptions::default());
    let json = checked(&report);
    assert_eq!((report.status, report.exit_code), (GateStatus::Failed, 1));
    assert!(report.failures.is_empty());
    assert_eq!(
        json["itemFailures"][0],
        serde_json::json!({"name": "a.md::varar:drift:3", "kind": "drift", "oathPath": "a.md",
            "line": 3, "attempts": 1,
            "message": "a.md:3:1: This paragraph was an example and no longer matches any step (drift)"})
    );
    assert_eq!(report.oaths[0].status, OathStatus::Failed);
    assert_eq!(json["run"]["counts"]["failed"], 1);
    assert_eq!(
        render_text(&report),
        "FAILED a.md:3: a.md::varar:drift:3 (drift)\n    a.md:3:1: This paragraph was an example \
         and no longer matches any step (drift)\ngate: failed: 1 other item failed (drift) in 1 oath\n"
    );
}

#[test]
fn issue19_a_failed_then_passed_example_is_recovered_and_denied_on_request() {
    let oaths = passed_a();
    let name = "a.md::I add 1. The total is 1";
    let run = runs(vec![
        record(
            "nextest-run",
            "p1",
            "07:00:00",
            true,
            vec![item(name, "a.md", 5, 1, Some("failed"), Some("flaky"))],
        ),
        record(
            "nextest-run",
            "p2",
            "07:00:01",
            true,
            vec![item(name, "a.md", 5, 2, Some("passed"), None)],
        ),
    ]);
    let passed = varar_core::verdict::gate::evaluate(
        &project(oaths.clone(), run.clone()),
        GateOptions::default(),
    );
    let json = checked(&passed);
    assert_eq!((passed.status, passed.exit_code), (GateStatus::Passed, 0));
    assert_eq!(
        json["recovered"],
        serde_json::json!([{"name": name, "kind": "example", "oathPath": "a.md", "line": 5,
                            "attempts": 2, "message": "flaky"}])
    );
    assert_eq!(
        render_text(&passed),
        "RECOVERED a.md:5: a.md::I add 1. The total is 1 (example, passed on attempt 2)\n    flaky\n\
         gate: passed: 1 example in 1 oath, all fresh and passed (1 item recovered after a retry)\n"
    );
    let denied = varar_core::verdict::gate::evaluate(
        &project(oaths, run),
        GateOptions {
            deny_recovered: true,
            ..GateOptions::default()
        },
    );
    let json = checked(&denied);
    assert_eq!((denied.status, denied.exit_code), (GateStatus::Failed, 1));
    assert_eq!(json["denyRecovered"], true);
    assert!(
        render_text(&denied).ends_with(
            "gate: failed: 1 item recovered after a retry (--deny-recovered) in 1 oath\n"
        )
    );
}

#[test]
fn issue37_a_removed_example_is_listed_and_denied_on_request() {
    let name = "a.md::I add 1. The total is 1";
    let mut process = record(
        "run",
        "p1",
        "07:00:00",
        true,
        vec![item(name, "a.md", 5, 1, Some("passed"), None)],
    );
    process.removed = vec![varar_core::record::RemovedExample {
        oath_path: "a.md".into(),
        name: "I add 9. The total is 9".into(),
        line: 3,
    }];
    let run = runs(vec![process]);
    let listed = varar_core::verdict::gate::evaluate(
        &project(passed_a(), run.clone()),
        GateOptions::default(),
    );
    let json = checked(&listed);
    assert_eq!((listed.status, listed.exit_code), (GateStatus::Passed, 0));
    assert_eq!(
        json["removed"],
        serde_json::json!([{"oathPath": "a.md", "name": "I add 9. The total is 9", "line": 3}])
    );
    assert_eq!(
        render_text(&listed),
        "REMOVED a.md:3: \"I add 9. The total is 9\" (an example the lock listed, no longer in \
         the oath)\ngate: passed: 1 example in 1 oath, all fresh and passed (1 example removed)\n"
    );
    let denied = varar_core::verdict::gate::evaluate(
        &project(passed_a(), run),
        GateOptions {
            deny_removed: true,
            ..GateOptions::default()
        },
    );
    let json = checked(&denied);
    assert_eq!((denied.status, denied.exit_code), (GateStatus::Failed, 1));
    assert_eq!(json["denyRemoved"], true);
    assert!(
        render_text(&denied)
            .ends_with("gate: failed: 1 example removed (--deny-removed) in 1 oath\n"),
        "{}",
        render_text(&denied)
    );
}

#[test]
fn issue19_an_incomplete_run_wins_over_a_failure() {
    let oaths = vec![oath(
        "a.md",
        OATH,
        Some(vec![example("I add 2. The total is 3", &[3], Some("boom"))]),
    )];
    let run = runs(vec![record(
        "run",
        "p1",
        "07:00:00",
        false,
        vec![item(
            "a.md::I add 2. The total is 3",
            "a.md",
            3,
            1,
            None,
            None,
        )],
    )]);
    let mut p = project(oaths, run);
    p.baselined = ["a.md".to_owned(), "b.md".to_owned()].into();
    let report = varar_core::verdict::gate::evaluate(&p, GateOptions::default());
    let json = checked(&report);
    assert_eq!((report.status, report.exit_code), (GateStatus::Error, 2));
    let codes: Vec<Code> = report.errors.iter().map(|e| e.code).collect();
    // b.md is not selected: only selected oaths must have items.
    assert_eq!(codes, [Code::IncompleteRun, Code::IncompleteRun]);
    assert_eq!(json["run"]["complete"], false);
    assert_eq!(json["run"]["counts"]["notRun"], 1);
    assert_eq!(report.failures.len(), 1);
}
