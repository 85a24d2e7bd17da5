use varar_cli::commands::merge::*;
use varar_cli::tree::{Tree, TreeFile};
use varar_core::results::{DocumentHash, ExampleResult, OathResults, Status};
use varar_core::verdict::records::Code;

use crate::support::example;

fn file(tree: &str, oath: &str, hash: &str, examples: Vec<ExampleResult>) -> TreeFile {
    TreeFile {
        oath_path: oath.into(),
        shown: format!("{tree}/{oath}.json"),
        results: OathResults {
            version: 1,
            oath_path: oath.into(),
            source_hash: hash.into(),
            documents: Vec::new(),
            examples,
        },
    }
}

fn tree(name: &str, files: Vec<TreeFile>) -> Tree {
    Tree {
        shown: name.into(),
        files,
        records: Vec::new(),
        absent: Vec::new(),
        unreadable: Vec::new(),
        run: Default::default(),
    }
}

fn names(r: &OathResults) -> Vec<&str> {
    r.examples.iter().map(|e| e.name.as_str()).collect()
}

#[test]
fn shards_become_one_file_per_oath_in_document_order() {
    let one = tree(
        "s1",
        vec![
            file("s1", "b.md", "h", vec![example("b1", &[3], None)]),
            file(
                "s1",
                "a.md",
                "h",
                vec![example("a1", &[1], None), example("a3", &[9], Some("boom"))],
            ),
        ],
    );
    let two = tree(
        "s2",
        vec![file(
            "s2",
            "a.md",
            "h",
            vec![example("a2", &[5, 6], None), example("a4", &[12], None)],
        )],
    );
    let merged = merge(&[one, two], MergeOptions::default()).unwrap_or_else(|e| panic!("{e:?}"));
    let oaths: Vec<&str> = merged.iter().map(|r| r.oath_path.as_str()).collect();
    assert_eq!(oaths, ["a.md", "b.md"]);
    assert_eq!(names(&merged[0]), ["a1", "a2", "a3", "a4"]);
    assert_eq!(merged[0].source_hash, "h");
    assert_eq!(names(&merged[1]), ["b1"]);
}

#[test]
fn an_example_recorded_identically_twice_is_kept_once() {
    let a = || file("s", "a.md", "h", vec![example("x", &[3], Some("boom"))]);
    let merged = merge(
        &[tree("s1", vec![a()]), tree("s2", vec![a()])],
        MergeOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(names(&merged[0]), ["x"]);
}

#[test]
fn different_sources_of_one_oath_are_refused() {
    let v2 = {
        let mut f = file("s3", "a.md", "h", vec![]);
        f.results.version = 2;
        f
    };
    let with_docs = |hash: &str| {
        let mut f = file("s", "a.md", "h", vec![]);
        f.results.version = 2;
        f.results.documents.push(DocumentHash {
            path: "shared.md".into(),
            source_hash: hash.into(),
        });
        f
    };
    for (first, second, what) in [
        (
            file("s1", "a.md", "h", vec![]),
            file("s2", "a.md", "other", vec![]),
            "sourceHash h and other",
        ),
        (
            file("s1", "a.md", "h", vec![]),
            v2,
            "version 1 and version 2",
        ),
        (
            with_docs("d1"),
            with_docs("d2"),
            "documents [shared.md d1] and [shared.md d2]",
        ),
    ] {
        let errors = merge(
            &[tree("s1", vec![first]), tree("s2", vec![second])],
            MergeOptions {
                prefer_failed: true,
            },
        )
        .err()
        .unwrap_or_default();
        assert_eq!(errors.len(), 1, "{what}");
        assert_eq!(errors[0].code, Code::SourceMismatch);
        assert_eq!(errors[0].oath_path.as_deref(), Some("a.md"));
        assert!(errors[0].message.contains(what), "{}", errors[0].message);
    }
}

#[test]
fn different_outcomes_conflict_unless_failures_are_preferred() {
    let passed = || {
        tree(
            "s1",
            vec![file("s1", "a.md", "h", vec![example("x", &[3], None)])],
        )
    };
    let failed = |m: &str| {
        tree(
            "s2",
            vec![file("s2", "a.md", "h", vec![example("x", &[3], Some(m))])],
        )
    };
    let errors = merge(&[passed(), failed("boom")], MergeOptions::default())
        .err()
        .unwrap_or_default();
    assert_eq!(errors.len(), 1);
    let e = &errors[0];
    assert_eq!(e.code, Code::ConflictingResult);
    assert_eq!((e.example.as_deref(), e.line), (Some("x"), Some(3)));
    assert_eq!(
        e.message,
        "example \"x\" of `a.md` passed in `s1/a.md.json` but failed in `s2/a.md.json`; \
         pass --prefer-failed to keep the failure"
    );
    let prefer = MergeOptions {
        prefer_failed: true,
    };
    // Either order: the failure wins.
    for trees in [[passed(), failed("boom")], [failed("boom"), passed()]] {
        let merged = merge(&trees, prefer).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(merged[0].examples[0].status, Status::Failed);
    }
    // Two different failures: a conflict, or the earlier tree's with the flag.
    let two = [failed("one"), failed("two")];
    let errors = merge(&two, MergeOptions::default())
        .err()
        .unwrap_or_default();
    assert!(
        errors[0].message.contains("failed differently in"),
        "{errors:?}"
    );
    let merged = merge(&two, prefer).unwrap_or_else(|e| panic!("{e:?}"));
    let kept = merged[0].examples[0]
        .failure
        .as_ref()
        .map(|f| f.message.as_str());
    assert_eq!(kept, Some("one"));
}

#[test]
fn same_name_on_another_line_is_another_example() {
    let merged = merge(
        &[
            tree(
                "s1",
                vec![file("s1", "a.md", "h", vec![example("x", &[3], None)])],
            ),
            tree(
                "s2",
                vec![file(
                    "s2",
                    "a.md",
                    "h",
                    vec![example("x", &[7], Some("boom"))],
                )],
            ),
        ],
        MergeOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(merged[0].examples.len(), 2);
}

#[test]
fn examples_without_lines_stay_after_their_neighbour_in_their_own_file() {
    // Version 2: "spliced" has no own lines; in shard 1 it followed "a5".
    let one = tree(
        "s1",
        vec![file(
            "s1",
            "a.md",
            "h",
            vec![
                example("a5", &[5], None),
                example("spliced", &[], None),
                example("a20", &[20], None),
            ],
        )],
    );
    let two = tree(
        "s2",
        vec![file(
            "s2",
            "a.md",
            "h",
            vec![
                example("first", &[], None),
                example("a3", &[3], None),
                example("a30", &[30], None),
            ],
        )],
    );
    let merged = merge(&[one, two], MergeOptions::default()).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(
        names(&merged[0]),
        ["first", "a3", "a5", "spliced", "a20", "a30"]
    );
}
