use std::collections::BTreeMap;

use varar_core::hash::source_hash;
use varar_core::results::{Anchor, ExampleResult, OathResults, ResultFailure, Status};

use super::*;
use crate::records::Code;

const OATH: &str = "# A\n\nI add 2. The total is 3.\n";

fn evidence(text: &str, examples: Option<Vec<ExampleResult>>) -> OathEvidence {
    OathEvidence {
        oath_path: "varar/a.md".into(),
        result_path: ".varar/varar/a.md.json".into(),
        text: Ok(text.into()),
        results: Ok(examples.map(|examples| OathResults {
            version: 1,
            oath_path: "varar/a.md".into(),
            source_hash: source_hash(OATH),
            documents: Vec::new(),
            examples,
        })),
        documents: BTreeMap::new(),
    }
}

fn failed(name: &str) -> ExampleResult {
    let from = OATH.find("3.").unwrap_or(0) as u32;
    ExampleResult {
        name: name.into(),
        status: Status::Failed,
        lines: vec![3],
        failure: Some(ResultFailure {
            line: 3,
            message: "boom\nsecond line".into(),
            stack: "boom\n    at The total is {int} (varar/a.md:3:23)".into(),
            cells: Vec::new(),
            anchor: Some(Anchor { from, to: from + 1 }),
            doc_path: None,
        }),
    }
}

fn passed(name: &str) -> ExampleResult {
    ExampleResult {
        name: name.into(),
        status: Status::Passed,
        lines: vec![3],
        failure: None,
    }
}

#[test]
fn one_suite_per_oath_one_case_per_example_and_counts_that_agree() {
    let junit = build(&[evidence(
        OATH,
        Some(vec![failed("x"), passed("x"), passed("y")]),
    )])
    .unwrap_or_else(|e| panic!("{e:?}"));
    let r = &junit.report;
    assert_eq!((r.tests, r.failures, r.errors, r.skipped), (3, 1, 0, 0));
    let suite = &r.test_suites[0];
    assert_eq!(suite.name.as_str(), "varar/a.md");
    let cases: Vec<&str> = suite.test_cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(cases, ["x", "x[1]", "y"]);
    let xml = r.to_string().unwrap_or_default();
    assert!(
        xml.contains("<failure message=\"boom\">varar/a.md:3:23: boom\n  second line\n"),
        "{xml}"
    );
    assert!(junit.warnings.is_empty());
}

#[test]
fn stale_results_are_converted_without_excerpts_and_missing_ones_left_out() {
    let stale = evidence("# A, edited\n", Some(vec![failed("x")]));
    let missing = evidence(OATH, None);
    let junit = build(&[stale, missing]).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(junit.report.test_suites.len(), 1);
    let xml = junit.report.to_string().unwrap_or_default();
    assert!(xml.contains("varar/a.md:3: boom"), "{xml}");
    assert!(
        xml.contains("at The total is {int} (varar/a.md:3:23)"),
        "{xml}"
    );
    assert_eq!(junit.warnings.len(), 2, "{:?}", junit.warnings);
    assert!(junit.warnings[0].contains("is stale"));
    assert!(junit.warnings[1].contains("did not run and is left out"));
}

#[test]
fn unusable_evidence_refuses_the_whole_conversion() {
    let mut invalid = evidence(OATH, None);
    invalid.results = Err(ErrorRecord::new(Code::InvalidResult, "refused"));
    let errors = build(&[evidence(OATH, Some(vec![passed("x")])), invalid])
        .err()
        .unwrap_or_default();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].code, Code::InvalidResult);
}
