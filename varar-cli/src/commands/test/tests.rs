use std::path::PathBuf;

use varar_lsp::analysis::oaths::Oaths;
use varar_lsp::analysis::step_index::StepIndex;
use varar_lsp::analysis::{Analysis, PlanContext, plan_documents};

use super::selector::{Place, parse, select};
use super::since::{Decision, FileChange, Project, StepFn, decide, parse_diff, unquote};
use super::*;

const STEPS: &str = r#"
#[varar::stimulus("I put {int} {word} in the basket")]
fn put(basket: &mut Basket, n: i64, item: String) {
    basket.put(n, item);
}

#[varar::sensor("the total is {int}")]
fn total(basket: &Basket) -> i64 {
    basket.total()
}

#[varar::stimulus("the menu is")]
fn menu(basket: &mut Basket, table: varar::Table) {}

#[varar::sensor("the price of {word} is")]
fn price(basket: &Basket, item: String, row: varar::Row) -> String { String::new() }
"#;

const BASKET: &str = "# Basket

## Counting

I put 2 buns in the basket. Now the total is 2.

## Paying

I put 1 bun in the basket.

---

I put 3 buns in the basket. Now the total is 3.

## Prices

the price of bread is:

| price |
| ----- |
| 1     |
| 2     |
";

const SHARED: &str = "# Shared

## Fill

I put 5 buns in the basket.
";

const USES: &str = "# Uses

I put 1 bun in the basket. Now the total is 1.

[Fill](shared.md#fill)

Now the total is 5.
";

fn analyses() -> (Vec<Analysis>, StepIndex) {
    let index = StepIndex::load([(
        PathBuf::from("/p/steps.rs"),
        "steps.rs".to_owned(),
        STEPS.to_owned(),
    )]);
    let oaths = Oaths::from_disk([
        ("varar/basket.md".to_owned(), BASKET.to_owned()),
        ("varar/shared.md".to_owned(), SHARED.to_owned()),
        ("varar/uses.md".to_owned(), USES.to_owned()),
    ]);
    let context = PlanContext {
        index: &index,
        lock: None,
        oaths: &oaths,
    };
    let analyses = plan_documents(
        &context,
        &["varar/basket.md", "varar/shared.md", "varar/uses.md"],
    );
    (analyses, index)
}

fn names(targets: &[Target], picked: &Picked) -> Vec<String> {
    picked.keys().map(|&i| targets[i].name.clone()).collect()
}

#[test]
fn selectors_read_an_oath_a_line_and_a_section() {
    let paths = ["varar/basket.md", "a.md:3"];
    assert_eq!(
        parse("varar/basket.md", &paths),
        Ok(Place::Oath("varar/basket.md".into()))
    );
    assert_eq!(
        parse("./varar/basket.md:13", &paths),
        Ok(Place::Line("varar/basket.md".into(), 13))
    );
    assert_eq!(
        parse("varar/basket.md#Paying%20Up", &paths),
        Ok(Place::Section(
            "varar/basket.md".into(),
            "paying20up".into()
        ))
    );
    // A file named like a selector is that file.
    assert_eq!(parse("a.md:3", &paths), Ok(Place::Oath("a.md:3".into())));
    for bad in [
        "varar/basket.md:0",
        "varar/basket.md:x",
        "varar/nope.md",
        "varar/nope.md:3",
    ] {
        assert!(parse(bad, &paths).is_err(), "{bad}");
    }
    let err = parse("varar/\u{1b}[2Jx.md", &paths)
        .err()
        .unwrap_or_default();
    assert!(
        !err.contains('\u{1b}'),
        "an error shows a hostile selector escaped: {err}"
    );
}

#[test]
fn a_line_selects_the_examples_written_on_it() {
    let (analyses, _) = analyses();
    let targets = targets(&analyses);
    let pick = |s: &str| select(&[s.to_owned()], &analyses, &targets).map(|p| names(&targets, &p));
    assert_eq!(
        pick("varar/basket.md:5"),
        Ok(vec![
            "varar/basket.md::Basket::Counting::I put 2 buns in the basket. Now the total is 2"
                .to_owned()
        ])
    );
    // A row: its own line; the header above it selects every row.
    let row = pick("varar/basket.md:21").unwrap_or_default();
    assert_eq!(row.len(), 1, "{row:?}");
    assert!(row[0].ends_with("::1"), "{row:?}");
    assert_eq!(pick("varar/basket.md:17").map(|n| n.len()), Ok(2));
    assert_eq!(pick("varar/basket.md:20").map(|n| n.len()), Ok(2));
    // A blank line, a heading: no example, an error naming where they are.
    let err = pick("varar/basket.md:6").err().unwrap_or_default();
    assert!(
        err.contains(
            "no example of varar/basket.md is written on line 6 (its items start at lines 5, 9, 13"
        ),
        "{err}"
    );
    // A section, by its slug.
    assert_eq!(pick("varar/basket.md#paying").map(|n| n.len()), Ok(2));
    assert!(pick("varar/basket.md#nowhere").is_err());
    // The section other oaths run selects the examples that run it.
    let fill = pick("varar/shared.md#fill").unwrap_or_default();
    assert_eq!(fill.len(), 1, "{fill:?}");
    assert!(fill[0].starts_with("varar/uses.md::"), "{fill:?}");
    assert_eq!(pick("varar/basket.md").map(|n| n.len()), Ok(5));
}

#[test]
fn a_zero_context_diff_is_read_with_renames_deletions_and_quoted_paths() {
    let diff = "diff --git a/varar/basket.md b/varar/basket.md
index 1..2 100644
--- a/varar/basket.md
+++ b/varar/basket.md
@@ -5 +5 @@ a
-I put 2 buns
+I put 3 buns
@@ -9,0 +10,2 @@
+++ b/not a header
+-- also content
@@ -20,2 +21,0 @@
-x
-y
diff --git a/old.md b/new.md
similarity index 100%
rename from old.md
rename to new.md
diff --git a/gone.rs b/gone.rs
deleted file mode 100644
--- a/gone.rs
+++ /dev/null
@@ -1 +0,0 @@
-fn x() {}
diff --git \"a/t\\303\\251st\\tx.md\" \"b/t\\303\\251st\\tx.md\"
new file mode 100644
--- /dev/null
+++ \"b/t\\303\\251st\\tx.md\"
@@ -0,0 +1 @@
+hi
diff --git a/my file.md b/my file.md
--- a/my file.md\t
+++ b/my file.md\t
@@ -1 +1 @@
-a
+b
";
    let files = parse_diff(diff).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(files.len(), 5);
    assert_eq!(files[4].new.as_deref(), Some("my file.md"));
    assert_eq!(files[4].hunks, [(1, 1)]);
    assert_eq!(files[0].old.as_deref(), Some("varar/basket.md"));
    assert_eq!(files[0].hunks, [(5, 5), (10, 11), (21, 22)]);
    assert_eq!(
        (files[1].old.as_deref(), files[1].new.as_deref()),
        (Some("old.md"), Some("new.md"))
    );
    assert_eq!(
        (files[2].old.as_deref(), files[2].new.as_deref()),
        (Some("gone.rs"), None)
    );
    assert_eq!(files[3].old, None);
    assert_eq!(files[3].new.as_deref(), Some("t\u{e9}st\tx.md"));
    assert_eq!(unquote("\"a\\\"b\\\\c\""), "a\"b\\c");
    for bad in [
        "garbage\n",
        "diff --git a/x b/x\n@@ -1 +1 @@\n-only\n",
        "diff --git a/x b/x\n@@ -1 +1 @@\n-a\n b\n",
    ] {
        assert!(parse_diff(bad).is_err(), "{bad:?}");
    }
}

fn steps_of(index: &StepIndex) -> Vec<StepFn> {
    (0..index.registry().steps.len())
        .filter_map(|i| {
            let (_, item) = index.step(i)?;
            Some(StepFn {
                file: "steps.rs".to_owned(),
                start: item.function.span.start_line,
                end: item.function.span.end_line,
                step: i,
                name: item.function.name.clone(),
            })
        })
        .collect()
}

#[test]
fn changes_select_paragraphs_linked_sections_and_step_users_or_everything() {
    let (analyses, index) = analyses();
    let targets = targets(&analyses);
    let steps = steps_of(&index);
    let oaths = ["varar/basket.md", "varar/shared.md", "varar/uses.md"];
    let project = Project {
        prefix: "pkg/",
        oaths: &oaths,
        steps: &steps,
    };
    let change = |path: &str, hunks: &[(u32, u32)]| FileChange {
        old: Some(path.to_owned()),
        new: Some(path.to_owned()),
        hunks: hunks.to_vec(),
    };
    let picked = |changes: &[FileChange]| match decide(changes, project, &targets) {
        Decision::Picked(p) => p
            .iter()
            .map(|(&i, why)| (targets[i].name.clone(), why.clone()))
            .collect::<Vec<_>>(),
        Decision::Everything(why) => panic!("everything: {why}"),
    };
    let one = picked(&[change("pkg/varar/basket.md", &[(13, 13)])]);
    assert_eq!(one.len(), 1, "{one:?}");
    assert!(
        one[0]
            .0
            .ends_with("I put 3 buns in the basket. Now the total is 3"),
        "{one:?}"
    );
    assert_eq!(one[0].1, Why::Paragraph);
    // The linked section changed: the example running it.
    let linked = picked(&[change("pkg/varar/shared.md", &[(5, 5)])]);
    assert_eq!(linked.len(), 1, "{linked:?}");
    assert_eq!(linked[0].1, Why::Linked("varar/shared.md".to_owned()));
    // The body of `total`: every example calling it, and no other.
    let total = steps
        .iter()
        .find(|s| s.name == "total")
        .map(|s| s.end)
        .unwrap_or(0);
    let users = picked(&[change("steps.rs", &[(total - 1, total - 1)])]);
    assert!(
        users
            .iter()
            .all(|(_, why)| *why == Why::Step("total".to_owned())),
        "{users:?}"
    );
    assert_eq!(users.len(), 3, "{users:?}");
    // A prose file, the project's results: nothing.
    assert!(
        picked(&[
            change("README.md", &[(1, 1)]),
            change("pkg/.varar/x.json", &[(1, 1)])
        ])
        .is_empty()
    );
    // An untracked oath: all of it.
    assert_eq!(
        picked(&[FileChange::untracked("pkg/varar/basket.md")]).len(),
        5
    );
    // When unsure, everything.
    for (changes, why) in [
        (
            vec![change("steps.rs", &[(1, 1)])],
            "`steps.rs:1` changed outside any step function",
        ),
        (
            vec![change("Cargo.toml", &[(3, 3)])],
            "`Cargo.toml` changed",
        ),
        (
            vec![change("pkg/varar.config.json", &[(1, 1)])],
            "`pkg/varar.config.json` changed",
        ),
        (
            vec![FileChange {
                old: Some("pkg/varar/a.md".into()),
                new: None,
                hunks: vec![],
            }],
            "`pkg/varar/a.md` was deleted or renamed",
        ),
        (
            vec![FileChange::untracked("src/new.rs")],
            "the Rust source `src/new.rs` was added, deleted or renamed",
        ),
    ] {
        assert_eq!(
            decide(&changes, project, &targets),
            Decision::Everything(why.to_owned())
        );
    }
}

#[test]
fn the_selection_is_said_with_why_and_hostile_names_escaped() {
    let targets = vec![Target {
        name: "varar/a.md::H::I pay \u{1b}[31m\u{202e}2".to_owned(),
        kind: ItemKind::Example,
        document: "varar/a.md".to_owned(),
        line: 3,
        own: vec![],
        reaches: vec![],
        steps: vec![],
    }];
    let picked: Picked = [(0, Why::Named("varar/a.md:3".to_owned()))].into();
    let text = selected_text(&targets, &picked);
    assert_eq!(text[0], "selected 1 of 1 items (1 examples):");
    assert!(text[1].starts_with("  varar/a.md:3 \"I pay "), "{text:?}");
    assert!(
        text[1].ends_with("(named on the command line: varar/a.md:3)"),
        "{text:?}"
    );
    assert!(
        !text[1].contains('\u{1b}') && !text[1].contains('\u{202e}'),
        "{text:?}"
    );
}

#[test]
fn the_names_travel_one_a_line_within_the_limit() {
    assert_eq!(
        select_value(&["a.md::x", "b.md::y"]),
        Ok("a.md::x\nb.md::y\n".to_owned())
    );
    let long = "n".repeat(1000);
    let many: Vec<&str> = std::iter::repeat_n(long.as_str(), 131).collect();
    let err = select_value(&many).err().unwrap_or_default();
    assert!(
        err.starts_with("the 131 selected items' names take 131131 bytes, more than the 131072"),
        "{err}"
    );
    let err = select_value(&["a.md\nb.md::x"]).err().unwrap_or_default();
    assert!(err.contains("has a line break in its name"), "{err}");
}
