use varar_core::hash::source_hash;
use varar_core::results::{Anchor, CellFailure, DocumentHash, ExampleResult, OathResults};

use super::*;
use crate::analysis::step_index::StepIndex;
use crate::tests::support::{at, bakery, plan};
use varar_core::verdict::evidence::DocumentText;
use varar_core::verdict::testing::vouched;

fn codes(diagnostics: &[Diagnostic]) -> Vec<(String, u32)> {
    diagnostics
        .iter()
        .map(|d| match &d.code {
            Some(NumberOrString::String(c)) => (c.clone(), d.range.start.line),
            _ => (String::new(), d.range.start.line),
        })
        .collect()
}

#[test]
fn plan_diagnostics_have_the_harness_codes_and_texts() {
    let index = StepIndex::load([(
        std::path::PathBuf::from("/p/c.rs"),
        "c.rs".to_string(),
        "#[stimulus(\"I have {int} cukes\")] fn a(n: i64) {}\n#[stimulus(\"I have 5 cukes\")] fn b() {}\n".to_string(),
    )]);
    let text = "# C\n\nI have 5 cukes.\n\nNothing here.\n\n```error\nboom\n```\n";
    let a = plan(&index, text);
    let d = oath_diagnostics(&a, &[]);
    assert_eq!(
        codes(&d),
        [
            ("ambiguous-match".to_string(), 2),
            ("error-fence-without-step".to_string(), 6)
        ]
    );
    assert_eq!(
        d[0].message,
        "Ambiguous step: \"I have 5 cukes\"\nMatched by:\n  'I have {int} cukes'    at c.rs:1\n  'I have 5 cukes'    at c.rs:2"
    );
    assert_eq!(d[0].source.as_deref(), Some("varar"));
    assert_eq!(d[0].severity, Some(DiagnosticSeverity::ERROR));
}

fn failed(name: &str, failure: ResultFailure) -> ExampleResult {
    ExampleResult {
        name: name.into(),
        status: Status::Failed,
        lines: vec![failure.line],
        failure: Some(failure),
    }
}

fn evidence(oath: &str, text: &str, examples: Vec<ExampleResult>) -> OathEvidence {
    OathEvidence {
        oath_path: oath.into(),
        result_path: format!(".varar/{oath}.json"),
        text: Ok(text.into()),
        results: Ok(Some(OathResults {
            version: 1,
            oath_path: oath.into(),
            source_hash: source_hash(text),
            documents: Vec::new(),
            examples,
        })),
        documents: Default::default(),
        absent_because: None,
        vouched: vouched(&[(oath, text)]),
    }
}

#[test]
fn fresh_failures_at_their_cells_anchor_or_line_and_none_when_stale() {
    let index = bakery();
    let text = "# B\n\nI put 2 buns in the basket. Now the basket holds 3 items.\n\nI put 1 pretzel in the basket.\n";
    let three = at(text, "3 items", 0);
    let cell = ResultFailure {
        line: 3,
        message: "cell 1: expected 3 but was 2".into(),
        stack: String::new(),
        cells: vec![CellFailure {
            from: three,
            to: three + 1,
            actual: "2".into(),
        }],
        anchor: Some(Anchor {
            from: three,
            to: three + 1,
        }),
        doc_path: None,
    };
    let pretzel = at(text, "I put 1 pretzel", 0);
    let thrown = ResultFailure {
        line: 5,
        message: "the menu has no pretzel".into(),
        stack: String::new(),
        cells: Vec::new(),
        anchor: Some(Anchor {
            from: pretzel,
            to: pretzel + 29,
        }),
        doc_path: None,
    };
    let lined = ResultFailure {
        anchor: None,
        line: 1,
        ..thrown.clone()
    };
    let e = evidence(
        "varar/x.md",
        text,
        vec![failed("a", cell), failed("b", thrown), failed("c", lined)],
    );
    let recorded = recorded_failures("varar/x.md", &[e], Latest::default());
    assert_eq!(recorded.len(), 3);
    let d = oath_diagnostics(&plan(&index, text), &recorded);
    assert_eq!(
        codes(&d),
        [
            ("example-failed".to_string(), 2),
            ("example-failed".to_string(), 4),
            ("example-failed".to_string(), 0)
        ]
    );
    assert_eq!(d[0].message.lines().next(), Some("expected 3 but was 2"));
    // The latest run's failed value carries the quick fix's data (issue 37);
    // the other failures have no value to write.
    assert_eq!(
        d[0].data,
        Some(crate::handlers::actions::review::observed_data("3", "2"))
    );
    assert_eq!((d[1].data.as_ref(), d[2].data.as_ref()), (None, None));
    let mut earlier = recorded.clone();
    earlier[0].earlier = Some("an earlier run".into());
    assert_eq!(
        oath_diagnostics(&plan(&index, text), &earlier)[0].data,
        None
    );
    assert_eq!(
        (d[0].range.start.character, d[0].range.end.character),
        (49, 50)
    );
    assert!(
        d[1].message
            .starts_with("the menu has no pretzel\nin example \"b\"")
    );
    assert_eq!(
        (d[2].range.start.character, d[2].range.end.character),
        (0, 3)
    );
    // Edited since the run: stale, nothing shown.
    let stale = evidence("varar/x.md", text, vec![]);
    let mut stale = stale;
    stale.text = Ok(format!("{text}\nmore\n"));
    if let Ok(Some(r)) = &mut stale.results {
        r.examples.push(failed(
            "a",
            ResultFailure {
                doc_path: None,
                ..recorded[0].failure.clone()
            },
        ));
    }
    assert!(recorded_failures("varar/x.md", &[stale], Latest::default()).is_empty());
}

#[test]
fn a_doc_path_failure_belongs_to_the_document_it_names() {
    let shared = "# Shared\n\nNow the basket holds 9 items.\n";
    let nine = at(shared, "9", 0);
    let mut e = evidence(
        "varar/main.md",
        "# Main\n\n[Fill](shared.md)\n",
        vec![failed(
            "Fill",
            ResultFailure {
                line: 3,
                message: "cell 1: expected 9 but was 1".into(),
                stack: String::new(),
                cells: vec![CellFailure {
                    from: nine,
                    to: nine + 1,
                    actual: "1".into(),
                }],
                anchor: Some(Anchor {
                    from: nine,
                    to: nine + 1,
                }),
                doc_path: Some("varar/shared.md".into()),
            },
        )],
    );
    if let Ok(Some(r)) = &mut e.results {
        r.version = 2;
        r.documents.push(DocumentHash {
            path: "varar/shared.md".into(),
            source_hash: source_hash(shared),
        });
    }
    e.documents
        .insert("varar/shared.md".into(), DocumentText::Text(shared.into()));
    e.vouched = vouched(&[
        ("varar/main.md", "# Main\n\n[Fill](shared.md)\n"),
        ("varar/shared.md", shared),
    ]);
    assert!(
        recorded_failures("varar/main.md", std::slice::from_ref(&e), Latest::default()).is_empty()
    );
    let recorded = recorded_failures(
        "varar/shared.md",
        std::slice::from_ref(&e),
        Latest::default(),
    );
    assert_eq!(recorded.len(), 1);
    assert_eq!(recorded[0].oath_path, "varar/main.md");
    // The shared document changed: the result is stale everywhere.
    e.documents.insert(
        "varar/shared.md".into(),
        DocumentText::Text(format!("{shared}x")),
    );
    assert!(recorded_failures("varar/shared.md", &[e], Latest::default()).is_empty());
}

#[test]
fn rust_files_report_a_parse_error_once_and_refused_steps() {
    let mut index = bakery();
    let (path, label, text) = crate::tests::support::bakery_files().remove(1);
    index.update(path.clone(), label, &format!("{text}\nfn broken( {{\n"));
    let file = index.file(&path).unwrap_or_else(|| panic!("file"));
    let d = rust_diagnostics(file, index.problems());
    assert_eq!(d.len(), 1);
    assert_eq!(codes(&d)[0].0, "rust-syntax");
    assert!(
        d[0].message.contains("keeps the 7 definition(s)"),
        "{}",
        d[0].message
    );
}

#[test]
fn issue34_a_key_written_twice_is_a_warning_over_the_key_as_written() {
    let config = varar_core::config::parse_config(
        std::path::Path::new("/p/varar.config.json"),
        "{\"snippets\": {\"é\": \"1\",\n  \"\\u00e9\": \"2\"}}".as_bytes(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let d = config_diagnostics(&config.warnings);
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].severity, Some(DiagnosticSeverity::WARNING));
    assert_eq!(
        d[0].code,
        Some(NumberOrString::String("duplicate-key".into()))
    );
    // Line 2, the escaped key's eight characters from column 3.
    assert_eq!(
        d[0].range,
        lsp_types::Range::new(
            lsp_types::Position::new(1, 2),
            lsp_types::Position::new(1, 10)
        )
    );
    assert!(
        d[0].message
            .starts_with("the key \"snippets.é\" is written twice"),
        "{}",
        d[0].message
    );
    assert!(config_diagnostics(&[]).is_empty());
}

#[test]
fn issue34_a_buffer_whose_source_hash_collides_shows_no_recorded_failure() {
    use varar_core::verdict::testing::{AFTER, BEFORE};
    let two = at(BEFORE, "2 times", 0);
    let failure = ResultFailure {
        line: 3,
        message: "cell 1: expected 2 but was 1".into(),
        stack: String::new(),
        cells: vec![CellFailure {
            from: two,
            to: two + 1,
            actual: "1".into(),
        }],
        anchor: None,
        doc_path: None,
    };
    let mut e = evidence("varar/x.md", BEFORE, vec![failed("Rises", failure)]);
    assert_eq!(
        recorded_failures("varar/x.md", std::slice::from_ref(&e), Latest::default()).len(),
        1
    );
    // The buffer now holds the edit; the run read the text before it.
    e.text = Ok(AFTER.into());
    assert!(recorded_failures("varar/x.md", &[e], Latest::default()).is_empty());
}

#[test]
fn issue37_notices_are_warnings_and_an_example_that_checks_nothing_a_hint() {
    let index = StepIndex::load([(
        std::path::PathBuf::from("/p/c.rs"),
        "c.rs".to_string(),
        "#[stimulus(\"I add {int}\")] fn a(n: i64) {}\n\
         #[sensor(\"the sum of a and b is c\")] fn b() {}\n"
            .to_string(),
    )]);
    let text = "# C\n\nI add 2.\n\nI add 1. Then the sum of a and b is c.\n\n\
                | a | b | c |\n|---|---|---|\n| 1 | 2 | 3 |\n";
    let d = oath_diagnostics(&plan(&index, text), &[]);
    let found: Vec<(String, u32, u32, Option<DiagnosticSeverity>)> = d
        .iter()
        .map(|d| match &d.code {
            Some(NumberOrString::String(c)) => (
                c.clone(),
                d.range.start.line,
                d.range.start.character,
                d.severity,
            ),
            _ => (String::new(), 0, 0, None),
        })
        .collect();
    assert_eq!(
        found,
        [
            (
                "checks-nothing".to_string(),
                2,
                0,
                Some(DiagnosticSeverity::HINT)
            ),
            (
                "dropped-steps".to_string(),
                4,
                0,
                Some(DiagnosticSeverity::WARNING)
            ),
        ]
    );
    assert!(d[1].message.contains("\nfix: "), "{}", d[1].message);
}
