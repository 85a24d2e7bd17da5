use varar_core::verdict::findings::{Columns, Finding, Kind, Region};

use super::*;

fn finding(kind: Kind, region: Option<Region>) -> Finding {
    Finding {
        level: kind.level(),
        kind,
        oath_path: "varar/a b#1?.md".into(),
        region,
        title: "failed: x".into(),
        message: "expected 3\nbut was 4".into(),
        item: "varar/a.md::x".into(),
        fingerprint: "0123456789abcdef0123456789abcdef".into(),
    }
}

#[test]
fn one_run_one_rule_per_kind_one_result_per_finding() {
    let findings = [
        finding(
            Kind::FailedExample,
            Some(Region {
                start_line: 13,
                span: Some(Columns {
                    start_column: 51,
                    end_line: 14,
                    end_column: 2,
                }),
            }),
        ),
        finding(
            Kind::Recovered,
            Some(Region {
                start_line: 7,
                span: None,
            }),
        ),
        finding(Kind::ReadError, None),
    ];
    let log = log(&findings, "examples/bakery", "9.9.9");
    assert_eq!(log["version"], "2.1.0");
    assert_eq!(log["$schema"], SCHEMA_URI);
    let run = &log["runs"][0];
    assert_eq!(log["runs"].as_array().map(Vec::len), Some(1));
    assert_eq!(run["tool"]["driver"]["name"], "varar");
    assert_eq!(run["tool"]["driver"]["version"], "9.9.9");
    let rules = run["tool"]["driver"]["rules"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let ids: Vec<&str> = rules.iter().filter_map(|r| r["id"].as_str()).collect();
    let expected: Vec<&str> = Kind::ALL.iter().map(|k| k.rule_id()).collect();
    assert_eq!(ids, expected);
    let results = run["results"].as_array().cloned().unwrap_or_default();
    assert_eq!(
        results[0],
        json!({
            "ruleId": "varar/failed-example",
            "ruleIndex": 0,
            "level": "error",
            "message": {"text": "expected 3\nbut was 4"},
            "locations": [{"physicalLocation": {
                "artifactLocation": {
                    "uri": "examples/bakery/varar/a%20b%231%3F.md",
                    "uriBaseId": "%SRCROOT%",
                },
                "region": {"startLine": 13, "startColumn": 51, "endLine": 14, "endColumn": 2},
            }}],
            "partialFingerprints": {"varar/v1": "0123456789abcdef0123456789abcdef"},
            "properties": {"item": "varar/a.md::x", "title": "failed: x"},
        })
    );
    // The rule a result names is the rule at its index.
    for r in &results {
        let index = r["ruleIndex"].as_u64().unwrap_or(99) as usize;
        assert_eq!(rules[index]["id"], r["ruleId"]);
    }
    assert_eq!(results[1]["level"], "warning");
    assert_eq!(
        results[1]["locations"][0]["physicalLocation"]["region"],
        json!({"startLine": 7})
    );
    assert!(
        results[2]["locations"][0]["physicalLocation"]
            .get("region")
            .is_none()
    );
}

#[test]
fn uri_references_keep_only_unreserved_characters_and_slashes() {
    assert_eq!(uri_reference("varar/basket.md"), "varar/basket.md");
    assert_eq!(uri_reference("a b/c%d:e"), "a%20b/c%25d%3Ae");
    assert_eq!(uri_reference("caf\u{e9}.md"), "caf%C3%A9.md");
}
