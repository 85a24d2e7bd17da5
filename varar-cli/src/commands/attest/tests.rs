//! The statement of a run, and its check, on records built as the harness
//! writes them.

use std::collections::BTreeMap;

use varar_core::hash::sha256_hex;
use varar_core::record::{Outcome, RunRecord};

use super::*;
use varar_core::verdict::records::{Code, ErrorRecord};
use varar_core::verdict::run_evidence::FileNow;
use varar_core::verdict::testing::{item, process};

const A: &str = "# A\n\nI add 2.\n";
const B: &str = "# B\n\nI add 3.\n";

fn run(second: Option<Outcome>) -> RunRecord {
    let mut items = vec![
        item(
            "b.md::B::I add 3",
            "b.md",
            3,
            1,
            Some(Outcome::Passed),
            None,
        ),
        item(
            "a.md::A::I add 2",
            "a.md",
            3,
            1,
            Some(Outcome::Failed),
            Some("no"),
        ),
    ];
    if let Some(o) = second {
        items.push(item("a.md::A::I add 2", "a.md", 3, 2, Some(o), None));
    }
    let p = process("r", "p", "07:00:00", &[("b.md", B), ("a.md", A)], items);
    RunRecord::of("r".to_owned(), vec![p])
}

fn config() -> Vec<FileSha> {
    vec![FileSha {
        path: "varar.config.json".to_owned(),
        sha256: sha256_hex(b"{}"),
    }]
}

#[test]
fn a_run_that_recovered_is_warned_with_its_subjects_in_path_order() {
    let s = statement(&run(Some(Outcome::Passed)), &config());
    assert_eq!(s.predicate.result, ResultKind::Warned);
    assert_eq!(s.predicate.warned_tests, ["a.md::A::I add 2"]);
    assert_eq!(s.predicate.passed_tests, ["b.md::B::I add 3"]);
    let names: Vec<&str> = s.subject.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names, ["a.md", "b.md"]);
    assert_eq!(s.subject[0].digest.sha256, sha256_hex(A.as_bytes()));
    let text = s.to_text();
    assert!(
        text.starts_with("{\n  \"_type\": \"https://in-toto.io/Statement/v1\",\n  \"subject\": [")
    );
    assert!(
        text.contains("\"predicateType\": \"https://in-toto.io/attestation/test-result/v0.1\"")
    );
    assert!(text.contains("\"result\": \"WARNED\""), "{text}");
    assert_eq!(
        text,
        statement(&run(Some(Outcome::Passed)), &config()).to_text()
    );
}

#[test]
fn a_last_failure_is_failed_and_all_first_passes_is_passed() {
    let failed = statement(&run(None), &config());
    assert_eq!(failed.predicate.result, ResultKind::Failed);
    assert_eq!(failed.predicate.failed_tests, ["a.md::A::I add 2"]);
    let p = process(
        "r",
        "p",
        "07:00:00",
        &[("a.md", A)],
        vec![item(
            "a.md::A::I add 2",
            "a.md",
            3,
            1,
            Some(Outcome::Passed),
            None,
        )],
    );
    let passed = statement(&RunRecord::of("r".to_owned(), vec![p]), &[]);
    assert_eq!(passed.predicate.result, ResultKind::Passed);
    assert!(passed.predicate.configuration.is_empty());
}

fn now_of(files: &[(&str, &str)]) -> BTreeMap<String, FileNow> {
    files
        .iter()
        .map(|(n, t)| ((*n).to_owned(), FileNow::Sha256(sha256_hex(t.as_bytes()))))
        .collect()
}

#[test]
fn a_statement_reads_back_and_verifies_against_the_same_files() {
    let text = statement(&run(Some(Outcome::Passed)), &config()).to_text();
    let claimed = parse_statement(text.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(claimed.result, "WARNED");
    let now = now_of(&[("a.md", A), ("b.md", B), ("varar.config.json", "{}")]);
    let report = verify("att.json", Ok(claimed.clone()), &now);
    assert_eq!(
        (report.status, report.exit_code),
        (VerifyStatus::Verified, 0)
    );
    assert_eq!(report.checked.len(), 3);
    assert_eq!(report.checked[2].role, Role::Configuration);
    let mut edited = now_of(&[("a.md", "# A, edited\n"), ("varar.config.json", "{}")]);
    edited.insert("b.md".to_owned(), FileNow::Missing);
    let report = verify("att.json", Ok(claimed), &edited);
    assert_eq!(
        (report.status, report.exit_code),
        (VerifyStatus::Mismatch, 1)
    );
    let codes: Vec<(Code, Option<&str>)> = report
        .errors
        .iter()
        .map(|e| (e.code, e.path.as_deref()))
        .collect();
    assert_eq!(
        codes,
        [
            (Code::DigestMismatch, Some("a.md")),
            (Code::MissingSubject, Some("b.md"))
        ]
    );
    assert!(render_text(&report).contains("`a.md` changed since it was attested"));
}

#[test]
fn what_is_not_a_test_result_statement_is_refused_with_the_reason() {
    let good = statement(&run(None), &config()).to_text();
    let cases = [
        ("not json".to_owned(), "it is not JSON"),
        (
            good.replace("Statement/v1", "Statement/v0.1"),
            "its `_type` is",
        ),
        (
            good.replace("test-result/v0.1", "vsa/v1"),
            "its `predicateType` is",
        ),
        (
            good.replace("\"FAILED\"", "\"OK\""),
            "its `predicate.result` is \"OK\"",
        ),
        (
            good.replace("\"a.md\"", "\"../a.md\""),
            "its `subject[0].name` is not a path",
        ),
        (
            good.replacen(&sha256_hex(A.as_bytes()), "ABC", 1),
            "its `subject[0].digest.sha256` is not 64",
        ),
    ];
    for (text, why) in cases {
        let err = parse_statement(text.as_bytes()).err().unwrap_or_default();
        assert!(err.starts_with(why), "{why}: {err}");
    }
    let refused = ErrorRecord::new(Code::InvalidAttestation, "x");
    let report = verify("att.json", Err(refused), &BTreeMap::new());
    assert_eq!((report.status, report.exit_code), (VerifyStatus::Error, 2));
}

/// Issue 34: `attest` and `verify` agree on every oath path a run accepts,
/// and both refuse every path that could name a file outside the project.
mod oath_paths {
    use proptest::prelude::*;
    use varar_core::oath_path::is_oath_path;
    use varar_core::record::parse_process_record;
    use varar_project::Project;

    use super::*;
    use varar_project::evidence::{file_now, sources_now};

    const TEXT: &str = "# T\n\nI add 2.\n";

    /// One file name as a Unix file system takes it: anything but `/` and
    /// NUL, not `.` or `..`; half the time from the characters that broke
    /// or could break a reader (backslash, `%`, space, `#`, `?`, quotes,
    /// control characters, Unicode, a Windows drive's `:`).
    fn name() -> impl Strategy<Value = String> {
        prop_oneof![
            "[^/\u{0}]{1,8}",
            "[a\\\\%# ?\"'\t\n\u{1b}\u{202e}ü日:.*\\[{]{1,6}",
        ]
        .prop_filter("`.` and `..` are no file names", |s| s != "." && s != "..")
    }

    /// A path discovery can find under `**/*.md`.
    fn oath_path() -> impl Strategy<Value = String> {
        (prop::collection::vec(name(), 0..3), name()).prop_map(|(dirs, file)| {
            let mut path = dirs.join("/");
            if !path.is_empty() {
                path.push('/');
            }
            path.push_str(&file);
            path.push_str(".md");
            path
        })
    }

    /// A path outside the project, made from an oath path.
    fn outside() -> impl Strategy<Value = String> {
        (oath_path(), 0..9usize).prop_map(|(p, how)| match how {
            0 => format!("/{p}"),
            1 => format!("../{p}"),
            2 => format!("varar/../../{p}"),
            3 => format!("varar//{p}"),
            4 => format!("./{p}"),
            5 => format!("{p}/"),
            6 => format!("{p}\0"),
            7 => format!("varar/./{p}"),
            _ => ["", ".", ".."][p.len() % 3].to_owned(),
        })
    }

    fn run_of(path: &str) -> RunRecord {
        let p = process(
            "r",
            "p",
            "07:00:00",
            &[(path, TEXT)],
            vec![item(
                "x::T::I add 2",
                path,
                3,
                1,
                Some(Outcome::Passed),
                None,
            )],
        );
        // Through the record's own bytes, as the harness writes and the
        // gate reads them.
        let bytes = p.to_text().unwrap_or_else(|e| panic!("{e}"));
        let read = parse_process_record(bytes.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
        RunRecord::of("r".to_owned(), vec![read])
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 96,
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        #[cfg(unix)]
        #[test]
        fn issue34_every_path_discovery_accepts_is_attested_and_verified(path in oath_path()) {
            let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
            let root = dir.path();
            std::fs::write(root.join("varar.config.json"), r#"{"docs": {"include": ["**/*.md"]}}"#)
                .unwrap_or_else(|e| panic!("{e}"));
            let file = root.join(&path);
            if let Some(parent) = file.parent() {
                std::fs::create_dir_all(parent).unwrap_or_else(|e| panic!("{e}"));
            }
            std::fs::write(&file, TEXT).unwrap_or_else(|e| panic!("{path:?}: {e}"));
            let project = Project::open(root).unwrap_or_else(|e| panic!("{e}"));
            let found: Vec<String> = project
                .oath_files()
                .unwrap_or_else(|e| panic!("{e}"))
                .into_iter()
                .map(|o| o.oath_path)
                .collect();
            prop_assert_eq!(&found, std::slice::from_ref(&path));
            prop_assert!(is_oath_path(&path));

            let text = statement(&run_of(&path), &[]).to_text();
            let claimed = parse_statement(text.as_bytes());
            prop_assert!(claimed.is_ok(), "{:?} refused: {:?}", path, claimed);
            let claimed = claimed.unwrap_or_else(|e| panic!("{e}"));
            let names: Vec<&str> = claimed.files.iter().map(|(_, n, _)| n.as_str()).collect();
            prop_assert_eq!(names, [path.as_str()]);
            let now = BTreeMap::from([(path.clone(), file_now(root, &path))]);
            let report = verify("att.json", Ok(claimed), &now);
            prop_assert_eq!((report.status, report.exit_code), (VerifyStatus::Verified, 0), "{:?}", report);
        }

        #[test]
        fn issue34_a_path_outside_the_project_is_refused_by_attest_and_verify(path in outside()) {
            prop_assert!(!is_oath_path(&path));
            let run = run_of(&path);
            // attest: the gate's reading of the run refuses the document.
            let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
            let now = sources_now(dir.path(), std::slice::from_ref(&run));
            let refused = matches!(
                now.documents.get(&path),
                Some(FileNow::Unreadable(e)) if e.code == Code::InvalidRun
            );
            prop_assert!(refused, "{:?}: {:?}", path, now.documents);
            // verify: a statement naming it is no attestation.
            let text = statement(&run, &[]).to_text();
            let why = parse_statement(text.as_bytes()).err().unwrap_or_default();
            prop_assert!(
                why.starts_with("its `subject[0].name` is not a path inside the project"),
                "{:?}: {}", path, why
            );
        }
    }
}
