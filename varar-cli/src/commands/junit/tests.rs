use std::collections::BTreeMap;

use varar_core::hash::source_hash;
use varar_core::results::{Anchor, ExampleResult, OathResults, ResultFailure, Status};

use super::*;
use varar_core::verdict::records::Code;
use varar_core::verdict::testing::vouched;

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
        absent_because: None,
        vouched: vouched(&[("varar/a.md", OATH)]),
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
fn issue38_an_examples_tags_are_its_cases_properties() {
    const TAGGED: &str =
        "<!-- @shop -->\n# A\n\n<!-- @slow @db -->\nI add 2. The total is 3.\n\nI add 3.\n";
    let mut oath = evidence(TAGGED, Some(vec![passed("x"), passed("y")]));
    oath.vouched = vouched(&[("varar/a.md", TAGGED)]);
    if let Ok(Some(results)) = &mut oath.results {
        results.source_hash = source_hash(TAGGED);
        results.examples[0].lines = vec![5];
        results.examples[1].lines = vec![7];
    }
    let junit = build(&[oath]).unwrap_or_else(|e| panic!("{e:?}"));
    let xml = junit.report.to_string().unwrap_or_default();
    assert!(
        xml.contains(
            "<testcase name=\"x\" classname=\"varar/a.md\" file=\"varar/a.md\" line=\"5\">\n            \
             <properties>\n                <property name=\"tag\" value=\"@shop\"/>\n                \
             <property name=\"tag\" value=\"@slow\"/>\n                \
             <property name=\"tag\" value=\"@db\"/>\n            </properties>"
        ),
        "{xml}"
    );
    let y = &junit.report.test_suites[0].test_cases[1];
    let tags: Vec<&str> = y.properties.iter().map(|p| p.value.as_str()).collect();
    assert_eq!(
        tags,
        ["@shop"],
        "a section's tag reaches every example in it"
    );
    // A stale result's lines may point anywhere: no tags then.
    let stale = evidence(TAGGED, Some(vec![passed("x")]));
    let junit = build(&[stale]).unwrap_or_else(|e| panic!("{e:?}"));
    assert!(
        junit.report.test_suites[0].test_cases[0]
            .properties
            .is_empty()
    );
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

mod issue19 {
    use varar_core::record::{Outcome, RunRecord};

    use super::*;
    use varar_core::verdict::run_evidence::RunEvidence;
    use varar_core::verdict::testing::{evidence_of, item, process, project};

    #[test]
    fn issue19_drift_diagnostics_and_read_errors_are_failing_cases_of_their_oath() {
        let docs = [("varar/a.md", OATH)];
        let run = evidence_of(vec![process(
            "r",
            "p",
            "07:00:00",
            &docs,
            vec![
                item(
                    "varar/a.md::x",
                    "varar/a.md",
                    3,
                    1,
                    Some(Outcome::Passed),
                    None,
                ),
                item(
                    "varar/a.md::varar:drift:9",
                    "varar/a.md",
                    9,
                    1,
                    Some(Outcome::Failed),
                    Some("varar/a.md:9:1: drifted\n  |\n9 | text\n"),
                ),
                item(
                    "varar/shared.md::varar:diagnostic:reference-cycle:5",
                    "varar/shared.md",
                    5,
                    1,
                    Some(Outcome::Failed),
                    Some("varar/shared.md:5:1: a cycle"),
                ),
                item(
                    "varar/x.md::varar:read-error",
                    "varar/x.md",
                    0,
                    1,
                    Some(Outcome::Failed),
                    Some("cannot read `varar/x.md`: invalid UTF-8"),
                ),
            ],
        )]);
        let junit = build_project(
            &project(vec![evidence(OATH, Some(vec![passed("x")]))], run),
            Profile::Common,
        )
        .unwrap_or_else(|e| panic!("{e:?}"));
        assert!(junit.warnings.is_empty(), "{:?}", junit.warnings);
        let r = &junit.report;
        assert_eq!((r.tests, r.failures), (4, 3));
        let suites: Vec<(&str, Vec<&str>)> = r
            .test_suites
            .iter()
            .map(|s| {
                let cases = s.test_cases.iter().map(|c| c.name.as_str()).collect();
                (s.name.as_str(), cases)
            })
            .collect();
        assert_eq!(
            suites,
            [
                ("varar/a.md", vec!["x", "varar/a.md::varar:drift:9"]),
                (
                    "varar/shared.md",
                    vec!["varar/shared.md::varar:diagnostic:reference-cycle:5"]
                ),
                ("varar/x.md", vec!["varar/x.md::varar:read-error"]),
            ]
        );
        let xml = r.to_string().unwrap_or_default();
        assert!(
            xml.contains(
                "<failure message=\"varar/a.md:9:1: drifted\" type=\"drift\">varar/a.md:9:1: \
                 drifted\n  |\n9 | text\n</failure>"
            ),
            "{xml}"
        );
        assert!(xml.contains("line=\"9\""), "{xml}");
    }

    #[test]
    fn issue19_a_recovered_example_passes_and_says_so() {
        let docs = [("varar/a.md", OATH)];
        let run = evidence_of(vec![
            process(
                "r",
                "p1",
                "07:00:00",
                &docs,
                vec![item(
                    "varar/a.md::A::x",
                    "varar/a.md",
                    3,
                    1,
                    Some(Outcome::Failed),
                    Some("flaky"),
                )],
            ),
            process(
                "r",
                "p2",
                "07:00:01",
                &docs,
                vec![item(
                    "varar/a.md::A::x",
                    "varar/a.md",
                    3,
                    2,
                    Some(Outcome::Passed),
                    None,
                )],
            ),
        ]);
        let junit = build_project(
            &project(vec![evidence(OATH, Some(vec![passed("x")]))], run),
            Profile::Common,
        )
        .unwrap_or_else(|e| panic!("{e:?}"));
        let r = &junit.report;
        assert_eq!((r.tests, r.failures), (1, 0));
        let xml = r.to_string().unwrap_or_default();
        assert!(
            xml.contains(
                "<system-out>recovered: passed on attempt 2 after 1 earlier attempt that did not \
                 pass\nattempt 1: failed: flaky\n</system-out>"
            ),
            "{xml}"
        );
        assert!(!xml.contains("flakyFailure") && !xml.contains("rerunFailure"));
    }

    /// Two attempts of `x` (its first line 3): `first`, then `second`.
    fn twice(first: Outcome, second: Outcome) -> RunEvidence {
        let docs = [("varar/a.md", OATH)];
        let attempt = |pid: &str, at: &str, n: u32, outcome: Outcome| {
            let message = (outcome == Outcome::Failed).then_some("boom");
            let item = item(
                "varar/a.md::A::x",
                "varar/a.md",
                3,
                n,
                Some(outcome),
                message,
            );
            process("r", pid, at, &docs, vec![item])
        };
        evidence_of(vec![
            attempt("p1", "07:00:00", 1, first),
            attempt("p2", "07:00:01", 2, second),
        ])
    }

    #[test]
    fn issue38_the_nextest_profile_writes_earlier_attempts_as_nextest_does() {
        let recovered = project(
            vec![evidence(OATH, Some(vec![passed("x")]))],
            twice(Outcome::Failed, Outcome::Passed),
        );
        let xml = build_project(&recovered, Profile::Nextest)
            .unwrap_or_else(|e| panic!("{e:?}"))
            .report
            .to_string()
            .unwrap_or_default();
        assert!(
            xml.contains(
                "timestamp=\"2026-12-01T07:00:01.000+00:00\" time=\"0.001\" file=\"varar/a.md\" \
                 line=\"3\">\n            <flakyFailure timestamp=\"2026-12-01T07:00:00.000+00:00\" \
                 time=\"0.001\" type=\"test failure\">\n                \
                 <system-out>boom</system-out>\n                <system-err></system-err>\n            \
                 </flakyFailure>\n        </testcase>"
            ),
            "{xml}"
        );
        assert!(
            !xml.contains("recovered:") && !xml.contains("rerunFailure"),
            "{xml}"
        );
        let failing = project(
            vec![evidence(OATH, Some(vec![failed("x")]))],
            twice(Outcome::Failed, Outcome::Failed),
        );
        let junit = build_project(&failing, Profile::Nextest).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!((junit.report.tests, junit.report.failures), (1, 1));
        let xml = junit.report.to_string().unwrap_or_default();
        assert!(
            xml.contains("<failure message=\"boom\" type=\"test failure\">varar/a.md:3:23: boom"),
            "{xml}"
        );
        assert_eq!(xml.matches("<rerunFailure ").count(), 1, "{xml}");
        assert!(!xml.contains("flakyFailure"), "{xml}");
        // The common profile keeps seed 003's elements, whatever the run.
        let common = build_project(&failing, Profile::Common)
            .unwrap_or_else(|e| panic!("{e:?}"))
            .report
            .to_string()
            .unwrap_or_default();
        assert!(
            !common.contains("rerunFailure") && !common.contains("time="),
            "{common}"
        );
    }

    #[test]
    fn issue34_an_incomplete_run_refuses_the_conversion_as_the_gate_does() {
        // Issue 19 converted it with a warning; issue 34: JUnit judges the
        // run the gate judges, and refuses with its records. Without any
        // run record, the results are converted with a warning, as before.
        let oaths = || vec![evidence(OATH, Some(vec![passed("x")]))];
        let junit = build_project(&project(oaths(), RunEvidence::none()), Profile::Common)
            .unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(junit.warnings.len(), 1);
        assert!(junit.warnings[0].starts_with("there is no run record in `.varar/.runs`"));
        let mut exited = process("r", "p", "07:00:00", &[], vec![]);
        exited.complete = false;
        let cut = project(
            oaths(),
            RunEvidence::of_runs(".varar/.runs", RunRecord::combine(vec![exited])),
        );
        let errors = build_project(&cut, Profile::Common)
            .err()
            .unwrap_or_default();
        assert_eq!(errors, cut.standing().problems, "the gate's own records");
        assert_eq!(errors[0].code, Code::IncompleteRun);
        assert!(
            errors[0].message.contains("never reached its end"),
            "{errors:?}"
        );
        let mut invalid = RunEvidence::none();
        invalid
            .invalid
            .push(ErrorRecord::new(Code::InvalidRun, "bad record"));
        let errors = build_project(&project(oaths(), invalid), Profile::Common)
            .err()
            .unwrap_or_default();
        assert_eq!(errors[0].code, Code::InvalidRun);
    }
}

/// The characters of `range`, with how each must read back from the XML:
/// itself when XML 1.0's `Char` production holds it (DEL and the C1
/// controls excepted: quick-junit's ANSI filter would swallow them; and
/// the bidirectional controls and marks, which would reorder a CI page,
/// issue 34),
/// else `\u{XXXX}`.
fn class(range: std::ops::RangeInclusive<u32>) -> (String, String) {
    let (mut text, mut shown) = (String::new(), String::new());
    for c in range.filter_map(char::from_u32) {
        text.push(c);
        let bidi = matches!(
            u32::from(c),
            0x202A..=0x202E | 0x2066..=0x2069 | 0x200E | 0x200F | 0x061C
        );
        let allowed = (matches!(u32::from(c), 0x9 | 0xA | 0xD | 0x20..=0x7E | 0xA0..=0xD7FF | 0xE000..=0xFFFD)
            || u32::from(c) >= 0x10000)
            && !bidi;
        if allowed {
            shown.push(c);
        } else {
            shown.push_str(&format!("\\u{{{:04X}}}", u32::from(c)));
        }
    }
    (text, shown)
}

#[test]
fn issue21_junit_replaces_every_non_xml_char_visibly() {
    // Every code point class: C0 controls, tab/LF/CR, ASCII, DEL and the C1
    // controls, the rest of the BMP below the surrogates, the private use
    // area, U+FFFD..U+FFFF, and the supplementary planes' edges.
    let classes = [
        0x0..=0x1F,
        0x20..=0x7E,
        0x7F..=0x9F,
        0xA0..=0xD7FF,
        0xE000..=0xF8FF,
        0xF900..=0xFFFF,
        0x10000..=0x1FFFF,
        0x10F000..=0x10FFFF,
    ];
    for range in classes {
        let (text, shown) = class(range.clone());
        // Carriage returns are normalised by every XML parser: keep them
        // out of the comparison, not out of the file.
        let mut example = failed(&format!("[{text}]"));
        if let Some(f) = example.failure.as_mut() {
            f.message = format!("<{text}>");
        }
        let junit =
            build(&[evidence(OATH, Some(vec![example]))]).unwrap_or_else(|e| panic!("{e:?}"));
        let xml = junit.report.to_string().unwrap_or_default();
        let doc = roxmltree::Document::parse(&xml)
            .unwrap_or_else(|e| panic!("{range:X?}: a strict parser refuses the XML: {e}"));
        let case = doc
            .descendants()
            .find(|n| n.has_tag_name("testcase"))
            .unwrap_or_else(|| panic!("{range:X?}: no testcase"));
        let failure = case
            .children()
            .find(|n| n.has_tag_name("failure"))
            .unwrap_or_else(|| panic!("{range:X?}: no failure"));
        // XML parsers normalise line ends (and attributes their white
        // space), and the body indents continuation lines: compare without
        // white space.
        let squeeze = |s: &str| s.replace(['\t', '\n', '\r', ' '], "");
        let name = case.attribute("name").unwrap_or_default();
        assert!(
            squeeze(name) == squeeze(&format!("[{shown}]")),
            "{range:X?}: the name differs"
        );
        let message = failure.attribute("message").unwrap_or_default();
        let whole = format!("<{shown}>");
        let expected = whole.lines().next().unwrap_or("");
        assert!(
            squeeze(message) == squeeze(expected),
            "{range:X?}: the message differs"
        );
        let body = squeeze(failure.text().unwrap_or_default());
        assert!(
            body.contains(&squeeze(&format!("<{shown}>"))),
            "{range:X?}: the body lost text"
        );
    }
}
