use std::collections::BTreeMap;

use serde_json::Value;
use varar_core::hash::source_hash;
use varar_core::results::{ExampleResult, OathResults};

use crate::support::example;
use varar_cli::evidence::OathEvidence;
use varar_cli::records::{Code, ErrorRecord};
use varar_cli::verdict::*;

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
    }
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
    let good = serde_json::json!({"version": 1, "status": "passed", "exitCode": 0,
        "oaths": [], "failures": [], "errors": []});
    assert!(validator.is_valid(&good));
    let mut bad = Vec::new();
    for (pointer, value) in [
        ("/version", serde_json::json!(2)),
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
    let linked: std::collections::BTreeSet<String> = ["shared.md".to_string()].into();
    let report = evaluate_with(&oaths, &linked);
    checked(&report);
    assert_eq!((report.status, report.exit_code), (GateStatus::Passed, 0));
    assert_eq!(report.oaths[1].status, OathStatus::Linked);
    // Not linked: the missing result is an error, as before.
    let report = evaluate(&oaths);
    assert_eq!(report.oaths[1].status, OathStatus::Missing);
    assert_ne!(report.exit_code, 0);
}
