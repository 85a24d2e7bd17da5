use std::collections::BTreeMap;

use super::*;
use crate::hash::source_hash;
use crate::record::{Outcome, RemovedExample};
use crate::results::{Anchor, OathResults, Status};
use crate::source::utf16_len;
use crate::verdict::records::{Code, ErrorRecord};
use crate::verdict::run_evidence::RunEvidence;
use crate::verdict::testing::{evidence_of, item, process, project, vouched};

/// An oath whose failing cell sits after a character of two UTF-16 code
/// units (😀) and two of three UTF-8 bytes (£): its column differs in
/// bytes, chars and code units.
const OATH: &str = "# A\n\n😀 I pay £5. The total is 3.\n";
const PATH: &str = "varar/a.md";

fn oath(text: &str, examples: Vec<ExampleResult>) -> OathEvidence {
    OathEvidence {
        oath_path: PATH.into(),
        result_path: ".varar/varar/a.md.json".into(),
        text: Ok(text.into()),
        results: Ok(Some(OathResults {
            version: 1,
            oath_path: PATH.into(),
            source_hash: source_hash(OATH),
            documents: Vec::new(),
            examples,
        })),
        documents: BTreeMap::new(),
        absent_because: None,
        vouched: vouched(&[(PATH, OATH)]),
    }
}

/// The UTF-16 range of `needle` in [`OATH`].
fn utf16_range(needle: &str) -> (u32, u32) {
    let byte = OATH.find(needle).unwrap_or_else(|| panic!("{needle:?}"));
    let from = utf16_len(&OATH[..byte]);
    (from, from + utf16_len(needle))
}

fn failed(name: &str, message: &str) -> ExampleResult {
    let (from, to) = utf16_range("3.");
    ExampleResult {
        name: name.into(),
        status: Status::Failed,
        lines: vec![3],
        failure: Some(ResultFailure {
            line: 3,
            message: message.into(),
            stack: String::new(),
            cells: Vec::new(),
            anchor: Some(Anchor { from, to: to - 1 }),
            doc_path: None,
        }),
    }
}

/// A complete run that read the oath, with `items`.
fn run(items: Vec<crate::record::Item>) -> RunEvidence {
    evidence_of(vec![process("r", "p", "07:00:00", &[(PATH, OATH)], items)])
}

fn example_item(outcome: Outcome, attempt: u32, message: Option<&str>) -> crate::record::Item {
    item("varar/a.md::A::x", PATH, 3, attempt, Some(outcome), message)
}

fn ok(project: &ProjectEvidence) -> Findings {
    findings(project).unwrap_or_else(|e| panic!("{e:?}"))
}

#[test]
fn a_failed_example_is_an_error_at_its_anchor_in_utf16_columns() {
    let found = ok(&project(
        vec![oath(OATH, vec![failed("x", "expected 3 but was 4")])],
        run(vec![example_item(Outcome::Failed, 1, Some("expected 3"))]),
    ));
    assert_eq!(found.warnings, Vec::<String>::new());
    let [f] = &found.findings[..] else {
        panic!("{:?}", found.findings)
    };
    // "😀 I pay £5. The total is " is 25 chars, 26 UTF-16 code units.
    let region = Region {
        start_line: 3,
        span: Some(Columns {
            start_column: 27,
            end_line: 3,
            end_column: 28,
        }),
    };
    assert_eq!(f.region, Some(region));
    assert_eq!((f.level, f.kind), (Level::Error, Kind::FailedExample));
    assert_eq!(f.oath_path, PATH);
    assert_eq!(f.title, "failed: x");
    assert_eq!(f.message, "expected 3 but was 4");
    assert_eq!(f.item, "varar/a.md::A::x", "the run's item name");
    assert_eq!(f.fingerprint.len(), 32);
    // The header `cargo test` prints for it points at the same place.
    let (from, to) = utf16_range("3");
    let source = Source::new(OATH);
    let header = crate::render::header(PATH, Some(source.span(from, to)), 3, "boom");
    assert_eq!(header, "varar/a.md:3:27: boom");
}

#[test]
fn a_result_of_another_text_gets_its_line_only_and_says_why() {
    let edited = OATH.replace("# A", "# A title");
    let found = ok(&project(
        vec![oath(&edited, vec![failed("x", "boom")])],
        run(vec![example_item(Outcome::Failed, 1, Some("boom"))]),
    ));
    let [f] = &found.findings[..] else {
        panic!("{:?}", found.findings)
    };
    assert_eq!(
        f.region,
        Some(Region {
            start_line: 3,
            span: None
        })
    );
    assert!(
        f.message
            .starts_with("boom\n(placed on its recorded line only"),
        "{}",
        f.message
    );
    assert!(
        found
            .warnings
            .iter()
            .any(|w| w.contains("recorded lines only")),
        "{:?}",
        found.warnings
    );
}

#[test]
fn drift_diagnostics_read_errors_recovered_and_removed_examples_of_the_latest_run() {
    let mut record = process(
        "r",
        "p",
        "07:00:00",
        &[(PATH, OATH)],
        vec![
            example_item(Outcome::Failed, 1, Some("first try")),
            example_item(Outcome::Passed, 2, None),
            item(
                "varar/a.md::varar:drift:9",
                PATH,
                9,
                1,
                Some(Outcome::Failed),
                Some("drifted"),
            ),
            item(
                "varar/shared.md::varar:diagnostic:reference-cycle:5",
                "varar/shared.md",
                5,
                1,
                Some(Outcome::Failed),
                Some("a cycle"),
            ),
            item(
                "varar/x.md::varar:read-error",
                "varar/x.md",
                0,
                1,
                Some(Outcome::Failed),
                Some("cannot read"),
            ),
        ],
    );
    record.removed.push(RemovedExample {
        oath_path: PATH.into(),
        name: "A loaf costs 3 pounds".into(),
        line: 7,
    });
    let mut passed = failed("x", "");
    passed.status = Status::Passed;
    passed.failure = None;
    let found = ok(&project(
        vec![oath(OATH, vec![passed])],
        evidence_of(vec![record]),
    ));
    let seen: Vec<(Level, &str, &str, Option<u32>)> = found
        .findings
        .iter()
        .map(|f| {
            (
                f.level,
                f.kind.rule_id(),
                f.oath_path.as_str(),
                f.region.map(|r| r.start_line),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            (Level::Error, "varar/drift", PATH, Some(9)),
            (Level::Error, "varar/diagnostic", "varar/shared.md", Some(5)),
            (Level::Error, "varar/read-error", "varar/x.md", None),
            (Level::Warning, "varar/recovered", PATH, Some(3)),
            (Level::Warning, "varar/removed-example", PATH, Some(7)),
        ]
    );
    assert_eq!(
        found.findings[3].message,
        "passed on attempt 2 after 1 earlier attempt that did not pass: first try"
    );
    assert!(
        found.findings[4]
            .message
            .contains("varar.lock.json lists it")
    );
}

#[test]
fn a_run_the_gate_cannot_judge_is_refused_with_the_gates_records() {
    let mut exited = process("r", "p", "07:00:00", &[(PATH, OATH)], vec![]);
    exited.complete = false;
    let cut = project(
        vec![oath(OATH, vec![failed("x", "boom")])],
        evidence_of(vec![exited]),
    );
    let errors = findings(&cut).err().unwrap_or_default();
    assert_eq!(errors, cut.standing().problems);
    assert_eq!(errors[0].code, Code::IncompleteRun);

    let mut unusable = oath(OATH, vec![]);
    unusable.results = Err(ErrorRecord::new(Code::InvalidResult, "bad"));
    let errors = findings(&project(
        vec![unusable],
        run(vec![example_item(Outcome::Failed, 1, Some("a"))]),
    ))
    .err()
    .unwrap_or_default();
    assert_eq!(errors[0].code, Code::InvalidResult);

    // No run record at all: nothing names the text the results were made
    // of by SHA-256, so they are placed without columns, with a warning.
    let mut unrecorded = oath(OATH, vec![failed("x", "boom")]);
    unrecorded.vouched = Default::default();
    let found = ok(&project(vec![unrecorded], RunEvidence::none()));
    assert_eq!(found.findings.len(), 1);
    assert_eq!(found.findings[0].region.and_then(|r| r.span), None);
    assert!(
        found
            .warnings
            .iter()
            .any(|w| w.starts_with("there is no run record")),
        "{:?}",
        found.warnings
    );
}

#[test]
fn hostile_text_is_escaped_and_bounded() {
    let hostile = "a\u{1b}[2Jb\r\n::error file=x::forged\u{202e}\u{7}";
    let long = "x".repeat(MESSAGE_LIMIT * 4);
    let found = ok(&project(
        vec![oath(
            OATH,
            vec![failed(hostile, hostile), failed("long", &long)],
        )],
        run(vec![example_item(Outcome::Failed, 1, Some("a"))]),
    ));
    let f = &found.findings[0];
    assert_eq!(
        f.message, "a\\u{001B}[2Jb\\u{000D}\n::error file=x::forged\\u{202E}\\u{0007}",
        "controls escaped, the line break kept (each format encodes it)"
    );
    assert!(!f.title.contains('\n') && !f.title.contains('\u{1b}'));
    assert!(found.findings[1].message.len() <= MESSAGE_LIMIT + 64);
    assert!(found.findings[1].message.contains("bytes cut"));
}

#[test]
fn fingerprints_survive_a_move_and_tell_repeats_apart() {
    let first = ok(&project(
        vec![oath(OATH, vec![failed("x", "a"), failed("x", "b")])],
        run(vec![example_item(Outcome::Failed, 1, Some("a"))]),
    ));
    let [a, b] = &first.findings[..] else {
        panic!("{:?}", first.findings)
    };
    assert_ne!(a.fingerprint, b.fingerprint, "a repeated name");
    // The same failure on another line: the same finding.
    let mut moved = failed("x", "a");
    if let Some(f) = moved.failure.as_mut() {
        f.line = 30;
    }
    let again = ok(&project(
        vec![oath(OATH, vec![moved])],
        run(vec![example_item(Outcome::Failed, 1, Some("a"))]),
    ));
    assert_eq!(again.findings[0].fingerprint, a.fingerprint);
    assert_eq!(
        fingerprint(Kind::FailedExample, PATH, "varar/a.md::A::x", 0),
        a.fingerprint,
        "rule, document, item, repeat"
    );
}

#[test]
fn every_kind_has_a_distinct_rule_id() {
    let ids: std::collections::BTreeSet<&str> = Kind::ALL.iter().map(|k| k.rule_id()).collect();
    assert_eq!(ids.len(), Kind::ALL.len());
    assert!(ids.iter().all(|id| id.starts_with("varar/")));
}
