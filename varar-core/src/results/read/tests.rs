use proptest::prelude::*;

use super::*;
use crate::results::model::{Anchor, CellFailure, ExampleResult, ResultFailure, Status};

/// What the quick path (`quick.rs`) reads of `text`, or `None`.
fn quick_read(text: &str) -> Option<OathResults> {
    quick_path(text.as_bytes())
}

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

// The quick path (`quick.rs`) against the strict reader.

/// The contract: what the quick path reads, the strict reader reads
/// the same; what the strict reader refuses, the quick path declines.
fn agrees(text: &str) -> Result<(), TestCaseError> {
    let (quick, strict) = (quick_read(text), strict(text.as_bytes()));
    match (quick, strict) {
        (None, _) => Ok(()),
        (Some(quick), Ok(strict)) => {
            prop_assert_eq!(quick, strict, "{}", text);
            Ok(())
        }
        (Some(quick), Err(e)) => Err(TestCaseError::fail(format!(
            "read quickly as {quick:?}, refused by the strict reader ({e}): {text}"
        ))),
    }
}

#[test]
fn what_the_strict_reader_refuses_or_reads_otherwise_is_declined() {
    let file = |examples: &str| {
        format!(
            r#"{{"version": 2, "oathPath": "a.md", "sourceHash": "h", "examples": [{examples}]}}"#
        )
    };
    let failed = |failure: &str| {
        file(&format!(
            r#"{{"name": "n", "status": "failed", "lines": [3], "failure": {{{failure}}}}}"#
        ))
    };
    let declined = [
        r#"{"version": 3, "oathPath": "a.md", "sourceHash": "h", "examples": []}"#.to_owned(),
        r#"{"version": 1.0, "oathPath": "a.md", "sourceHash": "h", "examples": []}"#.to_owned(),
        r#"{"version": 1, "version": 1, "oathPath": "a.md", "sourceHash": "h", "examples": []}"#
            .to_owned(),
        r#"{"version": 1, "oathPath": "a.md", "sourceHash": "h", "examples": [], "extra": 1}"#
            .to_owned(),
        r#"{"version": 1, "oathPath": "a.md", "sourceHash": "h"}"#.to_owned(),
        r#"{"version": 1, "oathPath": null, "sourceHash": "h", "examples": []}"#.to_owned(),
        r#"{"version": 1, "oathPath": "a.md", "sourceHash": "h", "examples": [], "documents": []}"#
            .to_owned(),
        r#"{"version": 1, "oathPath": "a.md", "sourceHash": "h", "examples": []} x"#.to_owned(),
        "\u{feff}{\"version\": 1, \"oathPath\": \"a.md\", \"sourceHash\": \"h\", \"examples\": []}"
            .to_owned(),
        file(
            r#"{"name": "n", "status": "passed", "lines": [3], "failure": {"line": 3, "message": "m", "stack": ""}}"#,
        ),
        file(r#"{"name": "n", "status": "failed", "lines": [3]}"#),
        file(r#"{"name": "n", "status": "skipped", "lines": [3]}"#),
        file(r#"{"name": "n", "status": "passed", "lines": [3.0]}"#),
        file(r#"{"name": "n", "status": "passed", "lines": [4294967296]}"#),
        file(r#"{"name": "n", "name": "m", "status": "passed", "lines": []}"#),
        failed(
            r#""line": 3, "message": "m", "stack": "", "cells": [{"from": 5, "to": 4, "actual": "x"}]"#,
        ),
        failed(
            r#""line": 3, "message": "m", "stack": "", "cells": [{"from": 1, "from": 1, "to": 4, "actual": "x"}]"#,
        ),
        failed(r#""line": 3, "message": "m", "stack": "", "cells": [{"from": 1, "to": 4}]"#),
        failed(
            r#""line": 3, "message": "m", "stack": "", "cells": [{"from": 1, "to": 4, "actual": "x", "more": 1}]"#,
        ),
        failed(
            r#""line": 3, "message": "m", "stack": "", "anchor": {"from": 1, "to": 4, "actual": "x"}"#,
        ),
        failed(r#""line": 3, "message": "m", "stack": "", "anchor": {"from": 9, "to": 4}"#),
        failed(r#""line": 3, "message": "m""#),
        failed(r#""line": 3, "message": "m", "stack": "", "docPath": null"#),
        failed(r#""line": 3, "message": "m", "message": "m", "stack": """#),
    ];
    for text in &declined {
        assert_eq!(quick_read(text), None, "{text}");
    }
    // A docPath in a version-1 file: the strict reader's refusal.
    let v1 = failed(r#""line": 3, "message": "m", "stack": "", "docPath": "b.md""#).replacen(
        "\"version\": 2",
        "\"version\": 1",
        1,
    );
    assert_eq!(quick_read(&v1), None, "{v1}");
    assert!(strict(v1.as_bytes()).is_err());
}

#[test]
fn a_long_message_is_cut_as_the_strict_reader_cuts_it() {
    let long = "x".repeat(crate::untrusted::TEXT_LIMIT + 10);
    let text = format!(
        r#"{{"version": 1, "oathPath": "a.md", "sourceHash": "h", "examples": [{{"name": "n", "status": "failed", "lines": [], "failure": {{"line": 0, "message": "{long}", "stack": "{long}", "cells": [{{"from": 0, "to": 1, "actual": "{long}"}}]}}}}]}}"#
    );
    let quick = quick_read(&text).unwrap_or_else(|| panic!("declined"));
    assert_eq!(Some(&quick), strict(text.as_bytes()).ok().as_ref());
    let failure = quick.examples[0].failure.as_ref();
    assert!(failure.is_some_and(|f| f.message.len() < long.len()));
}

/// A string as the generator makes them: plain, or holding what the
/// writer escapes.
const TEXT: &str = "[a-z .:/\"\\\\é\t\u{1}]{0,8}";

fn any_failure(version: u32) -> impl Strategy<Value = ResultFailure> {
    let cell = (0u32..50, 0u32..50, TEXT).prop_map(|(a, b, actual)| CellFailure {
        from: a.min(b),
        to: a.max(b),
        actual,
    });
    let anchor = prop::option::of((0u32..50, 0u32..50)).prop_map(|a| {
        a.map(|(a, b)| Anchor {
            from: a.min(b),
            to: a.max(b),
        })
    });
    let doc_path = if version == 2 {
        prop::option::of(TEXT).boxed()
    } else {
        Just(None).boxed()
    };
    (
        any::<u32>(),
        TEXT,
        TEXT,
        prop::collection::vec(cell, 0..3),
        anchor,
        doc_path,
    )
        .prop_map(
            |(line, message, stack, cells, anchor, doc_path)| ResultFailure {
                line,
                message,
                stack,
                cells,
                anchor,
                doc_path,
            },
        )
}

fn any_example(version: u32) -> impl Strategy<Value = ExampleResult> {
    (
        TEXT,
        prop::collection::vec(any::<u32>(), 0..4),
        prop::option::of(any_failure(version)),
    )
        .prop_map(|(name, lines, failure)| ExampleResult {
            name,
            status: if failure.is_some() {
                Status::Failed
            } else {
                Status::Passed
            },
            lines,
            failure,
        })
}

fn any_results() -> impl Strategy<Value = OathResults> {
    (1u32..=2).prop_flat_map(|version| {
        let documents = if version == 2 {
            prop::collection::vec(
                (TEXT, TEXT).prop_map(|(path, source_hash)| DocumentHash { path, source_hash }),
                0..3,
            )
            .boxed()
        } else {
            Just(Vec::new()).boxed()
        };
        (
            TEXT,
            TEXT,
            documents,
            prop::collection::vec(any_example(version), 0..6),
        )
            .prop_map(
                move |(oath_path, source_hash, documents, examples)| OathResults {
                    version,
                    oath_path,
                    source_hash,
                    documents,
                    examples,
                },
            )
    })
}

fn written(results: &OathResults) -> String {
    results.to_text().unwrap_or_else(|e| panic!("{e}"))
}

proptest! {
    #[test]
    fn every_written_file_is_read_as_the_strict_reader_reads_it(r in any_results()) {
        let text = written(&r);
        agrees(&text)?;
        prop_assert_eq!(strict(text.as_bytes()).ok(), Some(r));
    }

    #[test]
    fn every_written_file_is_read_quickly(r in any_results()) {
        // Escapes included: every file the writer writes takes the
        // quick path (the point of it).
        prop_assert_eq!(quick_read(&written(&r)), Some(r));
    }

    #[test]
    fn a_damaged_file_is_declined_or_read_as_the_strict_reader_reads_it(
        r in any_results(),
        at in any::<prop::sample::Index>(),
        with in prop::sample::select(vec![
            "", "\"", "\\", ",", ":", "{", "}", "[", "]", "0", "-", "1.5", "e", " ", "null",
            "\"version\": 3,", "\"x\": 1,", "\"name\": \"n\",", "\"from\": 99,",
            "\"failure\": {},", "\"docPath\": \"d\",", "\"status\": \"passed\",",
        ]),
        replace in any::<bool>(),
    ) {
        let text = written(&r);
        agrees(&crate::json::damaged(&text, at.index(text.len() + 1), with, replace))?;
    }
}
