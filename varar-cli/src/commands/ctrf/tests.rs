use std::collections::BTreeMap;

use varar_core::hash::source_hash;
use varar_core::record::{Outcome, ProcessRecord, RunRecord};
use varar_core::results::{Anchor, ExampleResult, OathResults, ResultFailure, Status as Result};
use varar_core::verdict::evidence::OathEvidence;
use varar_core::verdict::records::Code;
use varar_core::verdict::run_evidence::RunEvidence;
use varar_core::verdict::testing::{evidence_of, item, process, project, vouched};

use super::*;

const A: &str = "# A\n\nI add 2. The total is 3.\n\nI add 1. The total is 1.\n";
const B: &str = "# B\n\nI add 5. The total is 5.\n";
const SCHEMA: &str = include_str!("../../../tests/ctrf/ctrf-schema-0.0.json");
const AT: Generated<'static> = Generated {
    at_ms: 1_795_937_232_345,
    by: "cargo varar ctrf (test)",
    prefix: "",
};

/// The evidence of `oath` whose examples (name, first line, failed) are
/// `examples`.
fn oath(path: &str, text: &str, examples: &[(&str, u32, bool)]) -> OathEvidence {
    let examples = examples
        .iter()
        .map(|&(name, line, failed)| ExampleResult {
            name: name.into(),
            status: if failed {
                Result::Failed
            } else {
                Result::Passed
            },
            lines: vec![line],
            failure: failed.then(|| ResultFailure {
                line,
                message: "boom\nsecond line".into(),
                stack: String::new(),
                cells: Vec::new(),
                anchor: Some(Anchor { from: 5, to: 10 }),
                doc_path: None,
            }),
        })
        .collect();
    OathEvidence {
        oath_path: path.into(),
        result_path: format!(".varar/{path}.json"),
        text: Ok(text.into()),
        results: Ok(Some(OathResults {
            version: 1,
            oath_path: path.into(),
            source_hash: source_hash(text),
            documents: Vec::new(),
            examples,
        })),
        documents: BTreeMap::new(),
        absent_because: None,
        vouched: vouched(&[(path, text)]),
    }
}

/// The problems the published schema finds in `json` (formats checked).
fn problems(json: &serde_json::Value) -> Vec<String> {
    let schema: serde_json::Value = serde_json::from_str(SCHEMA).unwrap_or_else(|e| panic!("{e}"));
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap_or_else(|e| panic!("{e}"));
    validator.iter_errors(json).map(|e| e.to_string()).collect()
}

/// `report` as JSON, after checking it against the published schema.
fn valid(report: &Ctrf) -> serde_json::Value {
    let json = serde_json::to_value(report).unwrap_or_else(|e| panic!("{e}"));
    let problems = problems(&json);
    assert!(problems.is_empty(), "{problems:#?}\n{json:#}");
    json
}

/// One process of run `r` that ran `items` as attempt `n`.
fn attempt(pid: &str, at: &str, n: u32, items: &[(&str, &str, u32, Outcome)]) -> ProcessRecord {
    let docs = [("varar/a.md", A), ("varar/b.md", B)];
    let items = items
        .iter()
        .map(|&(name, oath, line, outcome)| {
            let message = (outcome == Outcome::Failed).then_some("boom");
            item(name, oath, line, n, Some(outcome), message)
        })
        .collect();
    process("r", pid, at, &docs, items)
}

#[test]
fn issue38_attempts_flaky_location_and_failure_of_each_test() {
    let run = evidence_of(vec![
        attempt(
            "p1",
            "07:00:00",
            1,
            &[
                ("varar/a.md::A::I add 2", "varar/a.md", 3, Outcome::Failed),
                ("varar/a.md::A::I add 1", "varar/a.md", 5, Outcome::Failed),
                (
                    "varar/a.md::varar:drift:9",
                    "varar/a.md",
                    9,
                    Outcome::Failed,
                ),
            ],
        ),
        attempt(
            "p2",
            "07:00:01",
            2,
            &[
                ("varar/a.md::A::I add 2", "varar/a.md", 3, Outcome::Passed),
                ("varar/a.md::A::I add 1", "varar/a.md", 5, Outcome::Failed),
            ],
        ),
    ]);
    let examples = [("I add 2", 3, false), ("I add 1", 5, true)];
    let ctrf = build(&project(vec![oath("varar/a.md", A, &examples)], run), AT)
        .unwrap_or_else(|e| panic!("{e:?}"));
    assert!(ctrf.warnings.is_empty(), "{:?}", ctrf.warnings);
    let json = valid(&ctrf.report);
    assert_eq!(json["reportFormat"], "CTRF");
    assert_eq!(json["specVersion"], SPEC_VERSION);
    assert_eq!(json["runId"], "r");
    assert_eq!(json["timestamp"], "2026-11-29T07:27:12.345Z");
    assert_eq!(json["results"]["tool"]["name"], "varar");
    assert_eq!(json["results"]["tool"]["version"], "0.1.0");
    let summary = &json["results"]["summary"];
    assert_eq!(
        ["tests", "passed", "failed", "flaky"].map(|k| summary[k].as_u64()),
        [3, 1, 2, 1].map(Some)
    );
    // `testing::process` runs 07:00:00.000 → 07:00:00.500, then 07:00:01.
    assert_eq!(summary["start"], 1_795_935_600_000_i64 + 2 * 86_400_000);
    assert_eq!(summary["stop"], 1_795_935_601_500_i64 + 2 * 86_400_000);
    let tests = json["results"]["tests"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let flaky = &tests[0];
    assert_eq!(flaky["name"], "varar/a.md::A::I add 2");
    assert_eq!(flaky["status"], "passed");
    assert_eq!(
        (flaky["flaky"].as_bool(), flaky["retries"].as_u64()),
        (Some(true), Some(1))
    );
    assert_eq!(
        flaky["retryAttempts"],
        serde_json::json!([{"attempt": 1, "status": "failed", "duration": 1, "message": "boom"}])
    );
    assert_eq!(
        (flaky["filePath"].as_str(), flaky["line"].as_u64()),
        (Some("varar/a.md"), Some(3))
    );
    assert_eq!(flaky["suite"], serde_json::json!(["varar/a.md"]));
    assert!(flaky.get("message").is_none() && flaky.get("tags").is_none());
    let failing = &tests[1];
    assert_eq!(
        (failing["status"].as_str(), failing["flaky"].as_bool()),
        (Some("failed"), Some(false))
    );
    assert_eq!(failing["message"], "boom");
    // The trace is the failure as `junit` renders it, excerpt included.
    let trace = failing["trace"].as_str().unwrap_or_default();
    assert!(trace.starts_with("varar/a.md:3:1: boom\n"), "{trace}");
    assert!(trace.contains("in example \"I add 1\""), "{trace}");
    let drift = &tests[2];
    assert_eq!(drift["name"], "varar/a.md::varar:drift:9");
    assert_eq!(
        (drift["type"].as_str(), drift["status"].as_str()),
        (Some("drift"), Some("failed"))
    );
    assert_eq!(
        (drift["retries"].as_u64(), drift.get("retryAttempts")),
        (Some(0), None)
    );
}

#[test]
fn issue38_two_merged_shards_are_one_report_with_one_run_id_and_every_example() {
    // What `cargo varar merge` leaves: the records of both shards of run
    // `r` side by side; each shard ran one oath.
    let shards = vec![
        attempt(
            "shard-1",
            "07:00:00",
            1,
            &[("varar/a.md::A::I add 2", "varar/a.md", 3, Outcome::Passed)],
        ),
        attempt(
            "shard-2",
            "07:00:02",
            1,
            &[("varar/b.md::B::I add 5", "varar/b.md", 3, Outcome::Passed)],
        ),
    ];
    let oaths = vec![
        oath("varar/a.md", A, &[("I add 2", 3, false)]),
        oath("varar/b.md", B, &[("I add 5", 3, false)]),
    ];
    let ctrf = build(&project(oaths, evidence_of(shards)), AT).unwrap_or_else(|e| panic!("{e:?}"));
    let json = valid(&ctrf.report);
    assert_eq!(json["runId"], "r");
    let names: Vec<&str> = json["results"]["tests"]
        .as_array()
        .map(|t| t.iter().filter_map(|t| t["name"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(names, ["varar/a.md::A::I add 2", "varar/b.md::B::I add 5"]);
    let summary = &json["results"]["summary"];
    assert_eq!(
        (summary["tests"].as_u64(), summary["suites"].as_u64()),
        (Some(2), Some(2))
    );
    assert_eq!(
        summary["stop"].as_i64().unwrap_or(0) - summary["start"].as_i64().unwrap_or(0),
        2_500,
        "from the first shard's start to the last one's end"
    );
}

#[test]
fn issue38_a_run_the_gate_cannot_judge_is_refused_with_its_records() {
    let mut exited = process("r", "p", "07:00:00", &[], vec![]);
    exited.complete = false;
    let cut = project(
        vec![oath("varar/a.md", A, &[("I add 2", 3, false)])],
        RunEvidence::of_runs(".varar/.runs", RunRecord::combine(vec![exited])),
    );
    let errors = build(&cut, AT).err().unwrap_or_default();
    assert_eq!(errors, cut.standing().problems, "the gate's own records");
    assert_eq!(errors[0].code, Code::IncompleteRun);
    // Without any run record: the results, with junit's warning, no runId.
    let bare = project(
        vec![oath("varar/a.md", A, &[("I add 2", 3, false)])],
        RunEvidence::none(),
    );
    let ctrf = build(&bare, AT).unwrap_or_else(|e| panic!("{e:?}"));
    let json = valid(&ctrf.report);
    assert!(json.get("runId").is_none());
    assert_eq!(json["results"]["tests"][0]["name"], "I add 2");
    assert_eq!(ctrf.warnings.len(), 1, "{:?}", ctrf.warnings);
}

#[test]
fn the_report_id_is_a_uuid_of_the_content() {
    let report = |at_ms| {
        let bare = project(
            vec![oath("varar/b.md", B, &[("I add 5", 3, false)])],
            RunEvidence::none(),
        );
        build(
            &bare,
            Generated {
                at_ms,
                by: "x",
                prefix: "",
            },
        )
        .map(|c| c.report.report_id)
        .unwrap_or_default()
    };
    let id = report(0);
    assert_eq!(id, report(0), "the same content, the same id");
    assert_ne!(id, report(1));
    let parts: Vec<usize> = id.split('-').map(str::len).collect();
    assert_eq!(parts, [8, 4, 4, 4, 12], "{id}");
    assert_eq!(&id[14..15], "8", "version 8: {id}");
    // The schema checks formats: a `timestamp` that is not RFC 3339 is
    // refused. (`uuid` is not a draft-07 format: the schema cannot check
    // the id; the lengths above and the version and variant below do.)
    let mut json = serde_json::json!({"reportFormat": "CTRF", "specVersion": "0.0.0",
        "reportId": id, "results": {"tool": {"name": "varar"}, "tests": [],
        "summary": {"tests": 0, "passed": 0, "failed": 0, "skipped": 0, "pending": 0,
        "other": 0, "start": 0, "stop": 0}}});
    json["timestamp"] = varar_core::time::rfc3339_millis(0).into();
    assert_eq!(problems(&json), Vec::<String>::new());
    json["timestamp"] = "yesterday".into();
    assert_eq!(problems(&json).len(), 1);
    assert!(
        matches!(&id[19..20], "8" | "9" | "a" | "b"),
        "RFC 9562 variant: {id}"
    );
}

#[test]
fn issue38_tags_and_the_repository_path_of_each_test() {
    // Line 4: tagged by the section (`@money`) and by its own comment.
    const TAGGED: &str = "<!-- @money -->\n# T\n\n<!-- @smoke @slow -->\nI add 2. The total is 2.\n\nI add 1. The total is 1.\n";
    let docs = [("varar/t.md", TAGGED)];
    let items = vec![
        item(
            "varar/t.md::T::I add 2",
            "varar/t.md",
            5,
            1,
            Some(Outcome::Passed),
            None,
        ),
        item(
            "varar/t.md::T::I add 1",
            "varar/t.md",
            7,
            1,
            Some(Outcome::Passed),
            None,
        ),
    ];
    let run = evidence_of(vec![process("r", "p1", "07:00:00", &docs, items)]);
    let examples = [("I add 2", 5, false), ("I add 1", 7, false)];
    let generated = Generated {
        prefix: "examples/bakery",
        ..AT
    };
    let ctrf = build(
        &project(vec![oath("varar/t.md", TAGGED, &examples)], run),
        generated,
    )
    .unwrap_or_else(|e| panic!("{e:?}"));
    let json = valid(&ctrf.report);
    let tests = &json["results"]["tests"];
    assert_eq!(
        tests[0]["tags"],
        serde_json::json!(["@money", "@smoke", "@slow"])
    );
    assert_eq!(tests[1]["tags"], serde_json::json!(["@money"]));
    assert_eq!(tests[0]["filePath"], "examples/bakery/varar/t.md");
}
