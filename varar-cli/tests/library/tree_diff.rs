use crate::support::example;
use varar_cli::commands::diff::*;
use varar_cli::tree::{Tree, TreeFile};
use varar_core::results::{ExampleResult, OathResults};

fn tree(name: &str, files: Vec<(&str, &str, Vec<ExampleResult>)>) -> Tree {
    Tree {
        shown: name.into(),
        files: files
            .into_iter()
            .map(|(oath, hash, examples)| TreeFile {
                oath_path: oath.into(),
                shown: format!("{name}/{oath}.json"),
                results: OathResults {
                    version: 1,
                    oath_path: oath.into(),
                    source_hash: hash.into(),
                    documents: Vec::new(),
                    examples,
                },
            })
            .collect(),
        records: Vec::new(),
        absent: Vec::new(),
        unreadable: Vec::new(),
        run: Default::default(),
    }
}

fn kinds(report: &DiffReport) -> Vec<(String, ChangeKind)> {
    report
        .oaths
        .iter()
        .flat_map(|o| o.changes.iter().map(|c| (c.example.clone(), c.kind)))
        .collect()
}

#[test]
fn every_kind_of_change_is_found_and_a_regression_exits_1() {
    let old = tree(
        "old",
        vec![(
            "a.md",
            "h1",
            vec![
                example("kept", &[1], None),
                example("breaks", &[3], None),
                example("heals", &[5], Some("was broken")),
                example("same", &[7], Some("same message")),
                example("moves", &[9], Some("before")),
                example("gone", &[11], None),
            ],
        )],
    );
    let new = tree(
        "new",
        vec![(
            "a.md",
            "h2",
            vec![
                example("kept", &[1], None),
                example("breaks", &[3], Some("cell 1: expected 3 but was 2")),
                example("heals", &[5], None),
                example("same", &[7], Some("same message")),
                example("moves", &[9], Some("after")),
                example("new", &[13], None),
            ],
        )],
    );
    let report = compare(&old, &new);
    assert_eq!(
        (report.status, report.exit_code),
        (DiffStatus::Regressed, 1)
    );
    assert_eq!(
        kinds(&report),
        [
            ("breaks".to_owned(), ChangeKind::Regressed),
            ("heals".to_owned(), ChangeKind::Fixed),
            ("same".to_owned(), ChangeKind::StillFailing),
            ("moves".to_owned(), ChangeKind::StillFailing),
            ("new".to_owned(), ChangeKind::Added),
            ("gone".to_owned(), ChangeKind::Removed),
        ]
    );
    let changed: Vec<_> = report.oaths[0]
        .changes
        .iter()
        .map(|c| c.message_changed)
        .collect();
    assert_eq!(changed, [None, None, Some(false), Some(true), None, None]);
    assert_eq!(report.oaths[0].source_changed, Some(true));
    assert_eq!(
        report.summary,
        Summary {
            regressed: 1,
            fixed: 1,
            added: 1,
            removed: 1,
            still_failing: 2,
            unchanged: 1
        }
    );
    let json = serde_json::to_value(&report).unwrap_or_default();
    assert_eq!(json["version"], 1);
    assert_eq!(json["summary"]["stillFailing"], 2);
    assert_eq!(
        json["oaths"][0]["changes"][0],
        serde_json::json!({"kind": "regressed", "example": "breaks",
            "old": {"status": "passed", "line": 3},
            "new": {"status": "failed", "line": 3, "message": "cell 1: expected 3 but was 2"}})
    );
    let text = text::render(&report);
    assert_eq!(
        text,
        "### varar: 1 regressed, 1 fixed, 1 added, 1 removed, 2 still failing\n\
         \n\
         #### `a.md` (edited between the runs)\n\
         \n\
         - **regressed**, line 3: breaks: `cell 1: expected 3 but was 2`\n\
         - **fixed**, line 5: heals\n\
         - **still failing**, line 7: same: `same message`\n\
         - **still failing**, line 9: moves, message changed: `before` → `after`\n\
         - **added**, line 13: new\n\
         - **removed**, line 11: gone\n\
         \n\
         1 other example(s) passed in both runs.\n"
    );
}

#[test]
fn fixes_additions_and_removals_alone_exit_0_but_a_new_failure_exits_1() {
    let old = tree(
        "old",
        vec![("a.md", "h", vec![example("x", &[1], Some("boom"))])],
    );
    let new = tree(
        "new",
        vec![
            ("a.md", "h", vec![example("x", &[1], None)]),
            ("b.md", "h", vec![example("y", &[2], None)]),
        ],
    );
    let report = compare(&old, &new);
    assert_eq!((report.status, report.exit_code), (DiffStatus::Changed, 0));
    assert_eq!(report.oaths[0].source_changed, Some(false));
    assert_eq!(report.oaths[1].source_changed, None);
    assert!(text::render(&report).contains("#### `b.md` (new)\n"));
    let failing = tree(
        "new",
        vec![("b.md", "h", vec![example("y", &[2], Some("boom"))])],
    );
    let report = compare(&tree("old", vec![]), &failing);
    assert_eq!(
        (report.status, report.exit_code),
        (DiffStatus::Regressed, 1)
    );
    assert!(text::render(&report).contains("- **added**, line 2: y, **fails**: `boom`"));
}

#[test]
fn repeated_names_pair_in_document_order_and_nothing_changed_says_so() {
    let old = tree(
        "old",
        vec![(
            "a.md",
            "h",
            vec![example("x", &[1], None), example("x", &[5], Some("boom"))],
        )],
    );
    let new = tree(
        "new",
        vec![(
            "a.md",
            "h",
            vec![example("x", &[1], None), example("x", &[5], Some("boom"))],
        )],
    );
    let report = compare(&old, &new);
    assert_eq!(kinds(&report), [("x".to_owned(), ChangeKind::StillFailing)]);
    let same = compare(
        &tree("old", vec![("a.md", "h", vec![example("x", &[1], None)])]),
        &tree("new", vec![("a.md", "h", vec![example("x", &[1], None)])]),
    );
    assert_eq!((same.status, same.exit_code), (DiffStatus::Unchanged, 0));
    assert_eq!(
        text::render(&same),
        "### varar: no changes (1 example(s) passed in both runs)\n"
    );
}
