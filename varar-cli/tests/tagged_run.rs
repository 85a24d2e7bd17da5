//! Selection by tags (issue 38), end to end: a copy of the bakery whose
//! basket oath gains tag comments, run by the real `cargo test` and `cargo
//! nextest run` under `VARAR_TAGS`, then the real `cargo varar history`
//! and `gate` on what the run left behind. Only the matching examples run
//! (nextest's listing honours the variable too), the run is `filtered`,
//! the lock is left alone, and a bad expression stops the run at once.
//! The nextest case fails, never skips, when cargo-nextest is missing:
//! `.ci/run` installs it.

#[path = "../../tests/tests/support/mod.rs"]
mod support;

mod common;

use std::process::Command;

use serde_json::Value;
use support::{Run, Sample};

const BASKET: &str = "varar/basket.md";

/// A copy of the bakery whose *Paying* section is `@money`, whose first
/// example is `@smoke`, and whose *Market day* section is `@slow @money`.
fn tagged() -> Sample {
    let sample = Sample::copy();
    sample.edit(BASKET, "## Paying\n", "<!-- @money -->\n## Paying\n");
    sample.edit(
        BASKET,
        "I put 2 croissants in the basket. I put 1 baguette in the basket. Now",
        "<!-- @smoke -->\nI put 2 croissants in the basket. I put 1 baguette in the basket. Now",
    );
    sample.edit(
        BASKET,
        "## Market day\n",
        "<!-- @slow @money -->\n## Market day\n",
    );
    sample
}

/// `cargo varar <args>` in the copy, seeing the history `history`.
fn varar(sample: &Sample, history: &str, args: &[&str]) -> (Option<i32>, String) {
    let args: Vec<&str> = std::iter::once("varar")
        .chain(args.iter().copied())
        .collect();
    let (code, out, err) = sample.output_with(
        env!("CARGO_BIN_EXE_cargo-varar"),
        &args,
        &[("VARAR_HISTORY", history)],
    );
    (code, out + &err)
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// The sections of the examples `run` executed, sorted (`Paying` for
/// `varar/basket.md::The basket::Paying::…`).
fn sections(items: &[String]) -> Vec<String> {
    let mut out: Vec<String> = items
        .iter()
        .map(|name| {
            let parts: Vec<&str> = name.split("::").collect();
            assert_eq!(parts.first(), Some(&BASKET), "only the basket runs: {name}");
            parts.get(2).copied().unwrap_or_default().to_owned()
        })
        .collect();
    out.sort();
    out
}

#[test]
fn issue38_cargo_test_runs_only_the_tagged_examples_and_the_run_is_filtered() {
    let sample = tagged();
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let history = dir.path().join("history").display().to_string();

    let env = [
        ("VARAR_HISTORY", history.as_str()),
        ("VARAR_TAGS", "@money and not @slow"),
    ];
    let run = sample.cargo_test(&["--test", "oaths"], &env);
    run.assert_code(0, "cargo test under VARAR_TAGS");
    assert_eq!(
        sections(&run.executed_items()),
        ["Paying", "Paying"],
        "{}",
        run.combined()
    );
    assert!(
        run.stderr
            .contains("varar: VARAR_TAGS=(@money and not @slow): 11 of 13 items left out"),
        "{}",
        run.combined()
    );
    sample.assert_lock_pristine("a run selecting by tags", Some(&run));

    // History and the gate read it as a filtered run, 11 not selected.
    let (code, text) = varar(&sample, &history, &["history"]);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("  filtered    fresh    2 passed, 0 failed, 0 recovered, 11 not selected"),
        "{text}"
    );
    let (code, gate) = varar(&sample, &history, &["gate", "--format", "json"]);
    assert_eq!(code, Some(2), "{gate}");
    let gate = json(&gate);
    assert_eq!(gate["standing"], "filtered", "{gate:#}");
    assert_eq!(gate["run"]["counts"]["notSelected"], 11, "{gate:#}");

    // Section and example tags add up: `@smoke` is one example, `@slow`
    // the whole *Market day* section.
    let env = [
        ("VARAR_HISTORY", history.as_str()),
        ("VARAR_TAGS", "@smoke or @slow"),
    ];
    let run = sample.cargo_test(&["--test", "oaths"], &env);
    run.assert_code(0, "cargo test under VARAR_TAGS");
    assert_eq!(
        sections(&run.executed_items()),
        ["Counting", "Market day"],
        "{}",
        run.combined()
    );
    // Listing honours it too.
    let list = sample.cargo_test(&["--test", "oaths", "--", "--list"], &env);
    list.assert_code(0, "cargo test -- --list under VARAR_TAGS");
    assert_eq!(
        sections(&list.listed_items()),
        ["Counting", "Market day"],
        "{}",
        list.combined()
    );
    sample.assert_lock_pristine("a run selecting by tags", Some(&run));
}

#[test]
fn issue38_a_bad_tag_expression_stops_the_run_naming_the_variable_and_where() {
    let sample = tagged();
    let run = sample.cargo_test(&["--test", "oaths"], &[("VARAR_TAGS", "@smoke and (slow")]);
    run.assert_code(101, "an invalid VARAR_TAGS");
    assert!(
        run.stderr.contains(
            "VARAR_TAGS=\"@smoke and (slow\" is not a tag expression: at column 13: `slow` is \
             not a tag: tags start with `@` (write `@slow`)"
        ),
        "{}",
        run.combined()
    );
    assert!(run.executed_items().is_empty(), "{}", run.combined());
    sample.assert_lock_pristine("a run that did not start", Some(&run));
}

#[test]
fn issue38_junit_gives_each_case_its_tags_inside_the_common_profile() {
    let sample = tagged();
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let history = dir.path().join("history").display().to_string();
    let run = sample.cargo_test(&["--test", "oaths"], &[("VARAR_HISTORY", history.as_str())]);
    run.assert_code(0, "a full run of the tagged bakery");
    // The overlay: the lock a full run records is the shipped one but for
    // the basket's `sourceHash` and lines (its text gained three lines).
    let lock = |bytes: &[u8]| -> Value {
        serde_json::from_slice(bytes).unwrap_or_else(|e| panic!("not a lock ({e})"))
    };
    let (mut before, mut after) = (lock(sample.pristine_lock()), lock(&sample.lock_bytes()));
    let names = |lock: &mut Value| -> Vec<Value> {
        let basket = lock["oaths"][BASKET].take();
        basket["examples"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|e| e["name"].clone())
            .collect()
    };
    let shipped = names(&mut before);
    assert_eq!(shipped.len(), 7, "{before:#}");
    assert_eq!(names(&mut after), shipped);
    assert_eq!(after, before, "the other oaths' entries are untouched");
    let (code, xml) = {
        let out = Command::new(env!("CARGO_BIN_EXE_cargo-varar"))
            .args(["varar", "junit"])
            .current_dir(sample.root())
            .env("VARAR_HISTORY", &history)
            .output()
            .unwrap_or_else(|e| panic!("cannot run cargo-varar: {e}"));
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    assert_eq!(code, Some(0), "{xml}");
    common::verdicts::check_profile(&xml);
    let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}"));
    let tags: Vec<(String, Vec<String>)> = doc
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .filter(|n| n.attribute("classname") == Some(BASKET))
        .map(|case| {
            let tags = case
                .descendants()
                .filter(|p| p.has_tag_name("property") && p.attribute("name") == Some("tag"))
                .filter_map(|p| p.attribute("value").map(str::to_owned))
                .collect();
            (case.attribute("line").unwrap_or_default().to_owned(), tags)
        })
        .filter(|(_, tags): &(String, Vec<String>)| !tags.is_empty())
        .collect();
    // *Market day*'s one example opens with the menu paragraph; the
    // receipt and the pretzel have no tag.
    let text = sample.read(BASKET);
    let line_of = |words: &str| {
        let at = text.find(words).unwrap_or_else(|| panic!("{words}"));
        (text[..at].lines().count() + 1).to_string()
    };
    let owned = |tags: &[&str]| tags.iter().map(|t| (*t).to_owned()).collect::<Vec<_>>();
    assert_eq!(
        tags,
        [
            (
                line_of("I put 2 croissants in the basket. I put 1 baguette in the basket. Now"),
                owned(&["@smoke"])
            ),
            (
                line_of("I put 2 croissants in the basket, so"),
                owned(&["@money"])
            ),
            (
                line_of("I put 1 baguette in the basket. I pay"),
                owned(&["@money"])
            ),
            (line_of("On market days"), owned(&["@slow", "@money"])),
        ],
        "{xml}"
    );
}

/// The basket's example names `run` (nextest's output) passed.
fn nextest_passed(run: &Run) -> Vec<String> {
    run.stderr
        .lines()
        .chain(run.stdout.lines())
        .filter(|l| l.trim_start().starts_with("PASS ["))
        .filter_map(|l| l.find(BASKET).map(|at| l[at..].trim().to_owned()))
        .collect()
}

#[test]
fn issue38_cargo_nextest_lists_and_runs_only_the_tagged_examples() {
    let sample = tagged();
    let env = [("VARAR_TAGS", "@money and not @slow")];
    let list = sample.run(&["nextest", "list", "--test", "oaths"], &env);
    list.assert_code(0, "cargo nextest list under VARAR_TAGS");
    let listed: Vec<String> = list
        .stdout
        .lines()
        .filter_map(|l| l.find(BASKET).map(|at| l[at..].trim().to_owned()))
        .collect();
    assert_eq!(
        sections(&listed),
        ["Paying", "Paying"],
        "{}",
        list.combined()
    );
    assert!(
        !list.stdout.contains("varar/shelf.md"),
        "the other oaths' examples are left out: {}",
        list.combined()
    );

    let run = sample.run(&["nextest", "run", "--test", "oaths"], &env);
    run.assert_code(0, "cargo nextest run under VARAR_TAGS");
    assert_eq!(
        sections(&nextest_passed(&run)),
        ["Paying", "Paying"],
        "{}",
        run.combined()
    );
    assert!(
        run.combined().contains("2 tests run: 2 passed"),
        "{}",
        run.combined()
    );
    sample.assert_lock_pristine("nextest selecting by tags", Some(&run));
}
