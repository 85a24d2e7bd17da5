//! Properties: any web of links plans, and a workspace parses each
//! document once however many links reach it.

use proptest::prelude::*;
use proptest::test_runner::Config;

use super::*;

/// Lines for workspaces full of links: cycles, self-links, whole files,
/// missing targets, duplicated headings.
const LINKED: &[&str] = &[
    "## Fill the basket",
    "## Twice",
    "# Top",
    "I add 1.",
    "Then the total is 2.",
    "Prose.",
    "```error\nboom\n```",
    "[Fill](a.md#fill-the-basket)",
    "[Fill](b.md#fill-the-basket)",
    "[Twice](a.md#twice)",
    "[Self](#fill-the-basket)",
    "[All](#)",
    "[A](a.md)",
    "[Gone](gone.md)",
    "- [B](b.md#top)",
];

fn linked_document() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(LINKED), 0..10)
        .prop_map(|lines| lines.join("\n\n") + "\n")
}

proptest! {
    #![proptest_config(Config { cases: 128, ..Config::default() })]

    /// Any web of links plans (no endless recursion, no panic), and no step
    /// or diagnostic ever names the running oath as its document.
    #[test]
    fn any_web_of_links_plans(a in linked_document(), b in linked_document()) {
        let ws = Workspace::build([("varar/a.md", a.as_str()), ("varar/b.md", b.as_str())]);
        for oath in ["varar/a.md", "varar/b.md"] {
            let plan = plan_oath(&ws, oath, &steps());
            prop_assert!(plan.is_ok());
            let plan = plan.unwrap_or_default();
            for step in plan.examples.iter().flat_map(|e| &e.steps) {
                prop_assert_ne!(step.doc_path.as_deref(), Some(oath));
            }
            for d in &plan.diagnostics {
                prop_assert_ne!(d.doc_path.as_deref(), Some(oath));
                prop_assert!(d.doc_path.as_deref().is_none_or(|p| ws.contains(p)));
            }
        }
    }
}

/// N oaths that each link to one shared section.
fn corpus(n: usize) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = (0..n)
        .map(|i| {
            let text = format!(
                "# Oath {i}\n\n## Pay\n\nI add {i}.\n\n\
                 [Fill the basket](shared.md#fill-the-basket)\n\nThen the total is {}.\n",
                i + 2
            );
            (format!("varar/oath-{i:04}.md"), text)
        })
        .collect();
    files.push((
        "varar/shared.md".into(),
        "# Shared\n\n## Fill the basket\n\nI add 2.\n".into(),
    ));
    files
}

#[test]
fn every_document_is_parsed_once_however_many_links_reach_it() {
    let files = corpus(200);
    let ws = Workspace::build(files.iter().map(|(p, t)| (p.as_str(), t.as_str())));
    // Every oath holds a link, so each is parsed to collect it; shared.md
    // has none and waits until a link reaches it.
    assert_eq!(ws.parsed_count(), 200);
    let registry = steps();
    for _ in 0..2 {
        for (path, _) in &files {
            let plan = match plan_oath(&ws, path, &registry) {
                Ok(plan) => plan,
                Err(e) => panic!("{e}"),
            };
            if path != "varar/shared.md" {
                assert_eq!(
                    plan.examples[0].steps[1].doc_path.as_deref(),
                    Some("varar/shared.md")
                );
            }
        }
        assert_eq!(ws.parsed_count(), 201);
    }
    let first = ws.document("varar/shared.md").map(|d| d as *const _);
    let again = ws.document("varar/shared.md").map(|d| d as *const _);
    assert_eq!(first, again);
}

#[test]
fn documents_without_links_are_parsed_only_when_planned() {
    let ws = Workspace::build([
        ("varar/a.md", "I add 1.\n"),
        ("varar/b.md", "I add 2.\n"),
        ("varar/c.md", "See [a](a.md) for more.\n"),
    ]);
    // c.md holds `](` (though no reference block): parsed to find out.
    assert_eq!(ws.parsed_count(), 1);
    assert!(ws.referenced_keys().next().is_none());
    let plan = plan_oath(&ws, "varar/a.md", &steps()).ok();
    assert_eq!(plan.map(|p| p.examples.len()), Some(1));
    assert_eq!(ws.parsed_count(), 2);
}
