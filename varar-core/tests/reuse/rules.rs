//! The rules of spec 70 §70.1–§70.3 that the worked examples do not reach:
//! attachments of a link, skipped units, whole files, depth, the order of
//! diagnostics, the empty workspace.

use super::*;
use varar_core::plan::{DiagnosticCode, Expectation, plan};
use varar_core::registry::Role;
use varar_core::source::Source;
use varar_core::workspace::WorkspaceError;

/// Plan `text` alone (the empty workspace), as `path`.
fn alone(path: &str, text: &str) -> Plan {
    let source = Source::new(text);
    let doc = varar_core::parse::parse(path, &source);
    plan(&doc, &source, &steps())
}

#[test]
fn tables_and_fences_after_a_link_are_ignored_error_fence_included() {
    let shared = "# Shared\n\n## Fill\n\nI add 2.\n";
    let checkout = "# Pay\n\n[Fill](shared.md#fill)\n\n```error\nboom\n```\n\n\
        | a |\n|---|\n| 1 |\n\nThen the total is 2.\n";
    let files = [("varar/shared.md", shared), ("varar/checkout.md", checkout)];
    let plan = plan_in(&files, "varar/checkout.md");
    assert!(plan.diagnostics.is_empty());
    assert_eq!(plan.examples.len(), 1);
    assert_eq!(plan.examples[0].expected, Expectation::Pass);
    assert!(
        plan.examples[0]
            .steps
            .iter()
            .all(|s| s.data_table.is_none())
    );
}

#[test]
fn header_bound_tables_in_a_section_are_skipped() {
    // `something explodes` binds the table (its header is a word of the
    // sentence): one example per row, which a splice cannot carry.
    let rows = "something explodes by amount:\n\n| amount |\n|---|\n| 1 |\n";
    let shared = format!("# Shared\n\n## Rows\n\n{rows}\n## Mixed\n\n{rows}\nI add 5.\n");
    let checkout = "# Pay\n\n## A\n\n[Rows](shared.md#rows)\n\n## B\n\n[Mixed](shared.md#mixed)\n";
    let files = [
        ("varar/shared.md", shared.as_str()),
        ("varar/checkout.md", checkout),
    ];
    let plan = plan_in(&files, "varar/checkout.md");
    let codes: Vec<&str> = plan.diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["reference-empty"]);
    assert_eq!(plan.examples.len(), 1);
    let texts: Vec<&str> = plan.examples[0].steps.iter().map(|s| &*s.text).collect();
    assert_eq!(texts, ["I add 5"]);
    // Planned alone, the same sections do give row examples.
    let alone = alone("varar/shared.md", &shared);
    assert_eq!(alone.examples.iter().filter(|e| e.row.is_some()).count(), 2);
}

#[test]
fn a_whole_file_reference_takes_everything_before_the_first_heading_too() {
    let shared = "I add 1.\n\n# Later\n\nI add 2.\n\nProse.\n\nI add 3.\n";
    let checkout = "# Pay\n\n[Everything](shared.md)\n\nThen the total is 6.\n";
    let files = [("varar/shared.md", shared), ("varar/checkout.md", checkout)];
    let plan = plan_in(&files, "varar/checkout.md");
    let texts: Vec<&str> = plan.examples[0].steps.iter().map(|s| &*s.text).collect();
    assert_eq!(texts, ["I add 1", "I add 2", "I add 3", "the total is 6"]);
    assert_eq!(plan_in(&files, "varar/shared.md"), Plan::default());
}

#[test]
fn links_nest_to_any_depth() {
    let mut files: Vec<(String, String)> = (0..6)
        .map(|i| {
            let text = format!("# D{i}\n\n## S\n\nI add 1.\n\n[Next](d{}.md#s)\n", i + 1);
            (format!("varar/d{i}.md"), text)
        })
        .collect();
    files.push(("varar/d6.md".into(), "# D6\n\n## S\n\nI add 1.\n".into()));
    files.push((
        "varar/main.md".into(),
        "# Main\n\n[Start](d0.md#s)\n\nThen the total is 7.\n".into(),
    ));
    let borrowed: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    let plan = plan_in(&borrowed, "varar/main.md");
    let documents: Vec<&str> = plan.examples[0]
        .steps
        .iter()
        .map(|s| s.doc_path.as_deref().unwrap_or("-"))
        .collect();
    assert_eq!(
        documents,
        [
            "varar/d0.md",
            "varar/d1.md",
            "varar/d2.md",
            "varar/d3.md",
            "varar/d4.md",
            "varar/d5.md",
            "varar/d6.md",
            "-"
        ]
    );
}

#[test]
fn own_diagnostics_come_first_then_resolution_order_nested_before_empty() {
    let shared = "# Shared\n\n## Outer\n\n[Gone](gone.md)\n\nProse only.\n";
    // The link comes before the own `error` fence in the document, yet its
    // diagnostics follow the own one.
    let checkout = "# Pay\n\n[Outer](shared.md#outer)\n\nNo step.\n\n```error\n```\n";
    let files = [("varar/shared.md", shared), ("varar/checkout.md", checkout)];
    let plan = plan_in(&files, "varar/checkout.md");
    assert_eq!(
        diagnostics(&plan),
        [
            "error-fence-without-step @ - [43,55) 7:1-8:4",
            "reference-not-found @ varar/shared.md [20,35) 5:1-5:16",
            "reference-empty @ - [7,31) 3:1-3:25",
        ]
    );
}

#[test]
fn ambiguous_paragraphs_of_a_section_are_reported_in_their_document() {
    let shared = "# Shared\n\n## Both\n\nI add 1.\n\nI add 2.\n";
    let checkout = "# Pay\n\n[Both](shared.md#both)\n";
    let files = [("varar/shared.md", shared), ("varar/checkout.md", checkout)];
    let tied = registry(&[("I add {int}", Role::Stimulus), ("I add 1", Role::Stimulus)]);
    let plan = plan_in_with(&files, "varar/checkout.md", &tied);
    assert_eq!(
        diagnostics(&plan),
        ["ambiguous-match @ varar/shared.md [19,26) 5:1-5:8"]
    );
    assert!(
        plan.diagnostics[0]
            .message
            .starts_with("Ambiguous step: \"I add 1\"")
    );
    // The ambiguous paragraph contributes nothing and is no delimiter.
    assert_eq!(
        examples(&plan),
        [ex(
            "I add 2 | Pay | [7,29) 3:1-3:23",
            &["I add 2 @ varar/shared.md 7:1 [29,36)"]
        )]
    );
}

#[test]
fn a_second_link_continues_the_example_a_first_link_opened() {
    let shared = "# Shared\n\n## One\n\nI add 1.\n\n## Two\n\nI add 2.\n";
    let checkout = "# Pay\n\n## Both\n\n[One](shared.md#one)\n\n[Two](shared.md#two)\n\n\
        ## Then own\n\n[One](shared.md#one)\n\n[Two](shared.md#two)\n\nThen the total is 3.\n";
    let files = [("varar/shared.md", shared), ("varar/checkout.md", checkout)];
    let got = examples(&plan_in(&files, "varar/checkout.md"));
    // Named after the first spliced paragraph, spanning both links.
    assert_eq!(got[0].0, "I add 1 | Pay / Both | [16,58) 5:1-7:21");
    assert_eq!(got[0].1.len(), 2);
    // Renamed by the own paragraph that merges in.
    assert_eq!(
        got[1].0,
        "Then the total is 3 | Pay / Then own | [73,137) 11:1-15:21"
    );
    assert_eq!(got[1].1.len(), 3);
}

#[test]
fn a_section_linked_twice_is_spliced_twice() {
    let shared = "# Shared\n\n## One\n\nI add 1.\n";
    let checkout =
        "# Pay\n\n[One](shared.md#one)\n\n[One](shared.md#one)\n\nThen the total is 2.\n";
    let files = [("varar/shared.md", shared), ("varar/checkout.md", checkout)];
    let plan = plan_in(&files, "varar/checkout.md");
    assert_eq!(plan.examples.len(), 1);
    assert_eq!(plan.examples[0].steps.len(), 3);
}

#[test]
fn alone_same_file_links_resolve_other_files_are_not_found_nothing_is_consumed() {
    let text = "# Same\n\n## Setup\n\nI add 5.\n\n## Use\n\n[Setup](#setup)\n\n\
        Then the total is 5.\n\n## Elsewhere\n\n[Fill](shared.md#fill)\n";
    let plan = alone("varar/same.md", text);
    let names: Vec<&str> = plan.examples.iter().map(|e| e.name.as_str()).collect();
    // `Setup` still runs on its own: nothing is consumed.
    assert_eq!(names, ["I add 5", "Then the total is 5"]);
    assert_eq!(plan.examples[1].steps[0].doc_path, None);
    assert_eq!(plan.diagnostics.len(), 1);
    assert_eq!(plan.diagnostics[0].code, DiagnosticCode::ReferenceNotFound);
}

#[test]
fn multi_line_link_text_is_quoted_as_written() {
    let text = "# Pay\n\n[Fill\nthe basket](gone.md)\n";
    let plan = alone("varar/pay.md", text);
    assert!(
        plan.diagnostics[0]
            .message
            .starts_with("Reference to \"Fill\nthe basket\" points at \"varar/gone.md\"")
    );
}

#[test]
fn planning_an_oath_the_workspace_lacks_is_an_error() {
    let ws = Workspace::build([("varar/a.md", "I add 1.\n")]);
    let err = plan_oath(&ws, "varar/b.md", &steps()).err();
    assert!(
        matches!(&err, Some(WorkspaceError::NotInWorkspace { oath_path }) if oath_path == "varar/b.md"),
        "{err:?}"
    );
    assert_eq!(
        err.map(|e| e.to_string()).as_deref(),
        Some("`varar/b.md` is not an oath of this workspace")
    );
}
