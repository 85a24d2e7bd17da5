//! Spec 70 §70.2.1: a document without reference blocks plans, alone or in
//! a workspace (even one whose other oaths hold links), exactly as planning
//! without reuse by link does ([`super::plan_with`], the planner before
//! links, is the oracle).

use proptest::prelude::*;
use proptest::test_runner::Config;

use super::{plan_with, registry};
use crate::plan::split::split;
use crate::plan::{plan, plan_oath};
use crate::registry::{Registry, Role};
use crate::source::Source;
use crate::workspace::Workspace;

/// Lines of every kind planning cares about, links that are not reference
/// blocks included (they must stay prose).
const LINES: &[&str] = &[
    "# Top",
    "## Fill the basket",
    "### Deeper",
    "## Fill the basket",
    "I add 1.",
    "I add 3.",
    "I add 1. Then the total is 1.",
    "Then the total is 2.",
    "something explodes.",
    "Some prose.",
    "- I add 2.",
    "> Then the total is 4.",
    "1. something explodes and I add 5.",
    "I add amount:",
    "| amount |\n|---|\n| 7 |",
    "| a | b |\n|---|---|\n| 1 | 2 |",
    "```error\nboom\n```",
    "```\nhello\n```",
    "---",
    "See [Fill](shared.md#fill).",
    "[Fill](https://example.com/shared.md#fill)",
    "**[Fill](shared.md#fill)**",
    "![Fill](shared.md#fill)",
    "[A](a.md) [B](b.md)",
    "[Fill](shared.txt)",
];

/// The worked examples' steps plus `I add 3`, which ties with `I add {int}`.
fn tied_steps() -> Registry {
    registry(&[
        ("I add {int}", Role::Stimulus),
        ("the total is {int}", Role::Sensor),
        ("something explodes", Role::Stimulus),
        ("I add 3", Role::Stimulus),
        ("something explodes by amount", Role::Stimulus),
    ])
}

fn document() -> impl Strategy<Value = String> {
    let line = prop::sample::select(LINES);
    let gap = prop::sample::select(&["\n", "\n\n", "\n\n\n"][..]);
    prop::collection::vec((line, gap), 0..14).prop_map(|parts| {
        parts
            .into_iter()
            .flat_map(|(line, gap)| [line, gap])
            .collect::<String>()
    })
}

proptest! {
    #![proptest_config(Config { cases: 256, ..Config::default() })]

    /// Spec 70 §70.2.1: a document without reference blocks plans, alone or
    /// in a workspace (even one whose other oaths hold links), exactly as
    /// planning without reuse by link does.
    #[test]
    fn without_links_planning_is_unchanged(text in document()) {
        let registry = tied_steps();
        let source = Source::new(&text);
        let doc = crate::parse::parse("varar/doc.md", &source);
        let today = plan_with(&doc, &source, &registry, &split);
        prop_assert_eq!(&plan(&doc, &source, &registry), &today);
        let other = "# Other\n\n[Fill](shared.md#fill)\n\n[Gone](gone.md)\n";
        let ws = Workspace::build([("varar/doc.md", text.as_str()), ("varar/other.md", other)]);
        let in_workspace = plan_oath(&ws, "varar/doc.md", &registry).ok();
        prop_assert_eq!(in_workspace, Some(today));
    }
}

/// A long oath's candidates are planned on two threads: the plan is the
/// one planning them in turn makes (diagnostics and notices in order).
#[test]
fn a_long_oath_plans_on_two_threads_as_in_turn() {
    let gaps = ["\n", "\n\n", "\n\n\n"];
    let mut text = String::new();
    // Enough blocks for more than `TWO_THREADS_FROM` candidates, every
    // kind of line in ever-changing neighbourhoods.
    for i in 0..9_000usize {
        text.push_str(LINES[(i * 7 + i / LINES.len()) % LINES.len()]);
        text.push_str(gaps[(i * 5) % gaps.len()]);
    }
    let registry = tied_steps();
    let source = Source::new(&text);
    let doc = crate::parse::parse("varar/doc.md", &source);
    assert!(doc.examples.len() > 2 * 2048, "{}", doc.examples.len());
    let in_turn = plan_with(&doc, &source, &registry, &split);
    assert!(
        !in_turn.diagnostics.is_empty(),
        "{} notices",
        in_turn.notices.len()
    );
    assert_eq!(plan(&doc, &source, &registry), in_turn);
}
