//! A plan made through the memo is the plan made afresh (issue 39): after
//! every edit of a series (a step's text, a heading, a table, a link's
//! target, the steps themselves), the analysis, the diagnostics and the
//! semantic tokens are those of a fresh plan.

use std::path::PathBuf;

use super::BlockMemo;
use crate::analysis::oaths::Oaths;
use crate::analysis::step_index::StepIndex;
use crate::analysis::{Analysis, PlanContext, plan_document, plan_documents_with};
use crate::handlers::diagnostics::oath_diagnostics;
use crate::handlers::tokens::semantic_tokens;
use crate::tests::support::{bakery, bakery_files};

const SHELF: &str = include_str!("../../../../examples/bakery/varar/shelf.md");

const SHARED: &str = "# Shared\n\n## Fill\n\nIn the morning the baker puts 2 buns on the shelf.\n";

/// Every field of two analyses, their diagnostics and their tokens.
fn assert_same(memoised: &Analysis, fresh: &Analysis, index: &StepIndex, step: &str) {
    assert_eq!(memoised.oath_path, fresh.oath_path, "{step}");
    assert_eq!(memoised.text, fresh.text, "{step}");
    assert_eq!(memoised.doc, fresh.doc, "{step}: the model");
    assert_eq!(memoised.plan, fresh.plan, "{step}: the plan");
    assert_eq!(memoised.drifts, fresh.drifts, "{step}");
    assert_eq!(memoised.removed, fresh.removed, "{step}");
    assert_eq!(memoised.notices, fresh.notices, "{step}");
    assert_eq!(memoised.steps, fresh.steps, "{step}: the steps");
    assert_eq!(memoised.spliced, fresh.spliced, "{step}");
    assert_eq!(memoised.links, fresh.links, "{step}");
    assert_eq!(memoised.reuses, fresh.reuses, "{step}");
    assert_eq!(memoised.sentences, fresh.sentences, "{step}: the sentences");
    assert_eq!(memoised.deps, fresh.deps, "{step}");
    assert_eq!(
        oath_diagnostics(memoised, &[]),
        oath_diagnostics(fresh, &[]),
        "{step}: the diagnostics"
    );
    assert_eq!(
        semantic_tokens(memoised, index),
        semantic_tokens(fresh, index),
        "{step}: the tokens"
    );
}

/// Plan `varar/x.md` through `memo` and afresh, and hold them equal.
fn check(oaths: &Oaths, index: &StepIndex, memo: &BlockMemo, step: &str) -> Analysis {
    let context = PlanContext {
        index,
        lock: None,
        oaths,
    };
    let mut memoised = plan_documents_with(&context, &["varar/x.md"], memo);
    let fresh = plan_document(&context, "varar/x.md").unwrap_or_else(|| panic!("an oath"));
    assert_eq!(memoised.len(), 1, "{step}");
    let memoised = memoised.remove(0);
    assert_same(&memoised, &fresh, index, step);
    memoised
}

#[test]
fn a_series_of_edits_plans_through_the_memo_as_afresh() {
    let mut index = bakery();
    let memo = BlockMemo::default();
    let mut oaths = Oaths::from_disk([
        ("varar/x.md".to_string(), SHELF.to_string()),
        ("varar/shared.md".to_string(), SHARED.to_string()),
    ]);
    let mut text = SHELF.to_string();
    oaths.open("varar/x.md", &text);
    let opened = check(&oaths, &index, &memo, "opened");
    assert!(!opened.steps.is_empty() && !memo.is_empty());
    let edits: [(&str, &str, &str); 10] = [
        ("a number typed in a step", "puts 12 buns", "puts 125 buns"),
        ("a step made prose", "I sell 5 buns", "I sold 5 buns"),
        ("prose made a step", "I sold 5 buns", "I sell 5 buns"),
        ("a heading renamed", "## Selling", "## Selling bread"),
        (
            "a heading added",
            "The shop assistant",
            "## Empty\n\nThe shop assistant",
        ),
        (
            "a table's header edited",
            "| opening | baked",
            "| opening | made",
        ),
        ("a table's row edited", "| 5       | 30", "| 5       | 31"),
        ("a fence closed early", "```error\n", "```error\n```\n"),
        (
            "a link to another oath's section",
            "Unsold bread goes",
            "[Fill](shared.md#fill)\n\nUnsold bread goes",
        ),
        (
            "a sentence split in two",
            "on the shelf. I sell",
            "on the shelf.\n\nI sell",
        ),
    ];
    for (step, from, to) in edits {
        assert!(text.contains(from), "{step}: {from:?}");
        text = text.replacen(from, to, 1);
        oaths.edit("varar/x.md", &text);
        check(&oaths, &index, &memo, step);
    }
    // The section another oath splices changes under the linking oath.
    let shared = SHARED.replace("puts 2 buns", "puts 3 buns");
    oaths.disk("varar/shared.md", Some(shared));
    let linked = check(&oaths, &index, &memo, "the linked section edited");
    assert!(
        linked
            .spliced
            .iter()
            .any(|s| s.step.text.contains("3 buns"))
    );

    // The steps change: a step's expression is rewritten, so what the
    // memo kept for the old registry must not answer.
    let (path, label, steps) = bakery_files()
        .into_iter()
        .find(|(p, _, _)| p.ends_with("shelf.rs"))
        .unwrap_or_else(|| panic!("shelf.rs"));
    let renamed = steps.replace("I sell {int} {word} from the shelf", "I sell {int} {word}");
    assert_ne!(renamed, steps);
    index.update(path.clone(), label.clone(), &renamed);
    let after = check(&oaths, &index, &memo, "a step's expression changed");
    assert!(after.steps.iter().any(|s| &*s.text == "I sell 5 buns"));
    index.update(path, label, &steps);
    check(&oaths, &index, &memo, "the expression changed back");
}

#[test]
fn a_plan_under_older_steps_neither_reads_nor_fills_the_memo() {
    let old = bakery();
    let mut new = old.clone();
    let (path, label, steps) = bakery_files()
        .into_iter()
        .find(|(p, _, _)| p.ends_with("shelf.rs"))
        .unwrap_or_else(|| panic!("shelf.rs"));
    new.update(
        PathBuf::from(&path),
        label,
        &steps.replace("from the shelf", "off the shelf"),
    );
    assert!(new.generation() > old.generation());
    let memo = BlockMemo::default();
    let mut oaths = Oaths::from_disk([("varar/x.md".to_string(), SHELF.to_string())]);
    oaths.open("varar/x.md", SHELF);
    check(&oaths, &new, &memo, "planned under the new steps");
    let kept = memo.len();
    // A planning thread still holding the old index finishes late, on a
    // text with a block the memo has not seen.
    let edited = format!("{SHELF}\nI sell 2 buns from the shelf.\n");
    oaths.edit("varar/x.md", &edited);
    check(&oaths, &old, &memo, "planned under the old steps");
    assert_eq!(memo.len(), kept);
    check(&oaths, &new, &memo, "the new steps again");
    assert_eq!(memo.len(), kept + 1);
}

#[test]
fn the_memo_stays_within_its_budget_and_plans_the_same() {
    let index = bakery();
    // Distinct paragraphs, far more than the budget holds.
    let text: String = (0..2_000)
        .map(|i| format!("In the morning the baker puts {i} buns on the shelf. Prose {i}.\n\n"))
        .collect();
    let mut oaths = Oaths::from_disk([("varar/x.md".to_string(), text.clone())]);
    oaths.open("varar/x.md", &text);
    let budget = 64 << 10;
    let memo = BlockMemo::with_budget(budget);
    check(&oaths, &index, &memo, "a big oath");
    assert!(memo.weight() <= budget, "{} > {budget}", memo.weight());
    assert!(!memo.is_empty());
    let edited = text.replacen("puts 7 buns", "puts 8 buns", 1);
    oaths.edit("varar/x.md", &edited);
    check(&oaths, &index, &memo, "the big oath edited");
    assert!(memo.weight() <= budget);
    // A block heavier than the whole budget is never kept.
    let tiny = BlockMemo::with_budget(16);
    check(&oaths, &index, &tiny, "with no room at all");
    assert!(tiny.is_empty());
}
