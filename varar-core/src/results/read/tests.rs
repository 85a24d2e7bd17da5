use super::*;

const FIXTURE: &str = include_str!("../../../../conformance/corpus/run-results/expected.json");

fn read(text: &str) -> Result<OathResults, ResultsError> {
    parse_run_result(text.as_bytes())
}

/// A minimal valid file with `examples` replaced.
fn with_examples(version: u32, examples: &str) -> String {
    format!(
        r#"{{"version": {version}, "oathPath": "a.md", "sourceHash": "fnv1a:00000000", "examples": {examples}}}"#
    )
}

#[test]
fn the_fixture_reads_and_an_absent_anchor_stays_absent() {
    let strict = read(FIXTURE).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(strict.examples.len(), 3);
    assert_eq!(
        strict.examples[2].failure.as_ref().and_then(|f| f.anchor),
        None
    );
}

#[test]
fn version_2_reads_documents_and_doc_path() {
    // Spec 70 §70.7 case 01, with a failure pointing into shared.md.
    let text = r#"{"version": 2, "oathPath": "varar/checkout.md", "sourceHash": "fnv1a:c4c1e860",
        "documents": [{"path": "varar/shared.md", "sourceHash": "fnv1a:d3586c0a"}],
        "examples": [{"name": "I add 1", "status": "failed", "lines": [5, 9],
            "failure": {"line": 7, "message": "m", "stack": "s",
                "anchor": {"from": 30, "to": 37}, "docPath": "varar/shared.md"}}]}"#;
    let r = read(text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.version, 2);
    assert_eq!(
        r.documents,
        [DocumentHash {
            path: "varar/shared.md".into(),
            source_hash: "fnv1a:d3586c0a".into()
        }]
    );
    let f = r.examples[0]
        .failure
        .clone()
        .unwrap_or_else(|| panic!("failure"));
    assert_eq!(f.doc_path.as_deref(), Some("varar/shared.md"));
    assert_eq!(f.anchor, Some(Anchor { from: 30, to: 37 }));
    // A version-2 file without links is just as valid (the reference writes
    // version 2 for every file).
    assert!(read(&with_examples(2, "[]")).is_ok());
}

#[test]
fn unknown_members_are_ignored_and_integral_floats_count() {
    let text = r#"{"version": 1.0, "oathPath": "a.md", "sourceHash": "h", "future": {"x": [1, 1]},
        "examples": [{"name": "n", "status": "passed", "lines": [3.0], "extra": null}]}"#;
    let r = read(text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((r.version, r.examples[0].lines.clone()), (1, vec![3]));
}

/// Every refusal, with the message it gives.
#[test]
fn refusals_name_the_place_and_the_reason() {
    let failed = |failure: &str| {
        with_examples(
            1,
            &format!(
                r#"[{{"name": "n", "status": "failed", "lines": [1], "failure": {failure}}}]"#
            ),
        )
    };
    let cases: Vec<(String, &str)> = vec![
        ("[1]".into(), "the top level must be an object"),
        ("{".into(), "invalid JSON: EOF while parsing an object at line 1 column 1"),
        (
            r#"{"version": 1, "version": 1, "oathPath": "a", "sourceHash": "", "examples": []}"#.into(),
            "the top level has the key \"version\" twice",
        ),
        (
            r#"{"version": 1, "\u0076ersion": 2, "oathPath": "a", "sourceHash": "", "examples": []}"#
                .into(),
            "the top level has the key \"version\" twice",
        ),
        (
            with_examples(1, r#"[{"name": "a", "name": "b", "status": "passed", "lines": []}]"#),
            "examples[0] has the key \"name\" twice",
        ),
        (
            failed(r#"{"line": 1, "message": "m", "stack": "s", "anchor": {"from": 1, "to": 2, "to": 3}}"#),
            "examples[0].failure.anchor has the key \"to\" twice",
        ),
        (with_examples(3, "[]"), "unsupported version 3 (this reader knows versions 1 and 2)"),
        (with_examples(0, "[]"), "unsupported version 0 (this reader knows versions 1 and 2)"),
        (
            r#"{"version": 1.5, "oathPath": "a", "sourceHash": "", "examples": []}"#.into(),
            "unsupported version 1.5 (this reader knows versions 1 and 2)",
        ),
        (
            r#"{"version": "1", "oathPath": "a", "sourceHash": "", "examples": []}"#.into(),
            "version must be a number",
        ),
        (
            r#"{"oathPath": "a", "sourceHash": "", "examples": []}"#.into(),
            "version is missing",
        ),
        (
            r#"{"version": 1, "sourceHash": "", "examples": []}"#.into(),
            "oathPath is missing",
        ),
        (
            r#"{"version": 1, "oathPath": null, "sourceHash": "", "examples": []}"#.into(),
            "oathPath must be a string",
        ),
        (
            r#"{"version": 1, "oathPath": "a", "sourceHash": "", "examples": {}}"#.into(),
            "examples must be an array",
        ),
        (
            with_examples(1, r#"[{"name": "n", "status": "ok", "lines": []}]"#),
            "examples[0].status must be \"passed\" or \"failed\"",
        ),
        (
            with_examples(1, r#"[{"name": "n", "status": "passed", "lines": [-1]}]"#),
            "examples[0].lines[0] must be an integer from 0 to 4294967295",
        ),
        (
            with_examples(1, r#"[{"name": "n", "status": "passed", "lines": [2.5]}]"#),
            "examples[0].lines[0] must be an integer from 0 to 4294967295",
        ),
        (
            with_examples(
                1,
                r#"[{"name": "n", "status": "passed", "lines": [], "failure": {"line": 1, "message": "m", "stack": "s"}}]"#,
            ),
            "examples[0].failure must be absent when the status is passed",
        ),
        (
            with_examples(1, r#"[{"name": "n", "status": "failed", "lines": []}]"#),
            "examples[0].failure is missing (the status is failed)",
        ),
        (
            failed(r#"{"line": 1, "message": "m", "stack": "s", "anchor": null}"#),
            "examples[0].failure.anchor must be an object",
        ),
        (
            failed(r#"{"line": 1, "message": "m", "stack": "s", "anchor": {"from": 5, "to": 4}}"#),
            "examples[0].failure.anchor.to must not be smaller than from",
        ),
        (
            failed(r#"{"line": 1, "message": "m", "stack": "s", "cells": [{"from": 1, "to": 2}]}"#),
            "examples[0].failure.cells[0].actual is missing",
        ),
        (
            failed(r#"{"line": 1, "message": 7, "stack": "s"}"#),
            "examples[0].failure.message must be a string",
        ),
        (
            failed(r#"{"line": 1, "message": "m", "stack": "s", "docPath": "b.md"}"#),
            "examples[0].failure.docPath exists only in version 2, but the file says version 1",
        ),
        (
            r#"{"version": 1, "oathPath": "a", "sourceHash": "", "documents": [], "examples": []}"#
                .into(),
            "documents exists only in version 2, but the file says version 1",
        ),
        (
            r#"{"version": 2, "oathPath": "a", "sourceHash": "", "documents": [{"path": "b"}], "examples": []}"#
                .into(),
            "documents[0].sourceHash is missing",
        ),
    ];
    for (text, want) in cases {
        match read(&text) {
            Ok(r) => panic!("accepted {text}: {r:?}"),
            Err(e) => assert_eq!(e.to_string(), want, "for {text}"),
        }
    }
}

#[test]
fn bytes_that_are_not_utf8_are_refused_as_such() {
    let err = parse_run_result(b"{\"version\": \xff}").err();
    assert!(
        matches!(
            err,
            Some(ResultsError::Read(crate::json::ReadError::NotUtf8 { .. }))
        ),
        "{err:?}"
    );
}

#[test]
fn what_the_writer_writes_reads_back_equal() {
    let mut r = read(FIXTURE).unwrap_or_else(|e| panic!("{e}"));
    let text = r.to_text().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(read(&text).ok(), Some(r.clone()));
    // And a version-2 value, written by the same serde model.
    r.version = 2;
    r.documents.push(DocumentHash {
        path: "varar/shared.md".into(),
        source_hash: "fnv1a:d3586c0a".into(),
    });
    if let Some(f) = r.examples[1].failure.as_mut() {
        f.doc_path = Some("varar/shared.md".into());
    }
    let text = r.to_text().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(read(&text).ok(), Some(r));
}

#[test]
fn issue21_only_a_whole_version_above_the_known_ones_is_unknown() {
    let version = |v: &str| {
        let text = format!(r#"{{"version": {v}, "oathPath": "a.md", "whatever": [1]}}"#);
        parse_run_result(text.as_bytes())
            .err()
            .map(|e| e.unknown_version())
    };
    assert_eq!(version("3"), Some(Some(3)));
    assert_eq!(version("3.0"), Some(Some(3)));
    assert_eq!(version("1000"), Some(Some(1000)));
    for malformed in ["0", "-1", "2.5", "\"3\"", "1e300"] {
        assert_eq!(version(malformed), Some(None), "{malformed}");
    }
}
