//! Reuse by link through the real harness (spec 70, issue 11): every worked
//! example of §70.7 as a project in a temp dir, run with `Runner::run_with`,
//! then the items, the exit code, the `.varar/` results and the lock. The
//! decisions of §70.6 are named where a test pins one.

use std::process::ExitCode;

use serde_json::{Value, json};
use varar::{sensor, stimulus};

mod support;

use support::{Project, failed};

#[derive(Default)]
struct Basket {
    total: i64,
}

#[stimulus("I add {int}")]
fn add(basket: &mut Basket, n: i64) {
    basket.total += n;
}

#[sensor("the total is {int}")]
fn total(basket: &Basket) -> i64 {
    basket.total
}

#[stimulus("something explodes")]
fn explodes() -> Result<(), String> {
    Err("kaboom".into())
}

/// Run on one thread, so libtest reports the items in listing order.
fn run(p: &Project, extra: &[&str]) -> (ExitCode, String) {
    let mut args = vec!["--test-threads", "1"];
    args.extend_from_slice(extra);
    p.run("reuse", &args)
}

fn run_update(p: &Project) -> (ExitCode, String) {
    p.run_with("reuse", &["--test-threads", "1"], |r| r.accept_drift(true))
}

/// The items libtest ran, with their outcome, in listing order.
fn outcomes(log: &str) -> Vec<String> {
    log.lines()
        .filter_map(|l| {
            let l = l.strip_prefix("test ")?;
            let l = l.trim_start_matches("[varar] ");
            let (name, outcome) = l.rsplit_once(" ... ")?;
            Some(format!("{}: {outcome}", name.trim_end()))
        })
        .collect()
}

fn listed(p: &Project) -> Vec<String> {
    let (code, log) = run(p, &["--list"]);
    assert_eq!(code, ExitCode::SUCCESS, "{log}");
    log.lines()
        .filter_map(|l| l.strip_suffix(": test"))
        .map(|l| l.trim_start_matches("[varar] ").to_string())
        .collect()
}

fn lock(p: &Project) -> Value {
    serde_json::from_str(&p.read("varar.lock.json").expect("lock written")).expect("lock JSON")
}

fn lock_examples(p: &Project, oath: &str) -> Value {
    lock(p)["oaths"][oath]["examples"].clone()
}

const SHARED_01: &str =
    "# Shared\n\n## Fill the basket\n\nThe basket starts with two.\n\nI add 2.\n";
const CHECKOUT_01: &str = "# Checkout\n\n## Pay\n\nI add 1.\n\n\
    [Fill the basket](shared.md#fill-the-basket)\n\nThen the total is 3.\n";

#[test]
fn worked_01_simple_splice() {
    let p = Project::new(&[
        ("varar/shared.md", SHARED_01),
        ("varar/checkout.md", CHECKOUT_01),
    ]);
    let (code, log) = run(&p, &[]);
    assert_eq!(code, ExitCode::SUCCESS, "{log}");
    assert_eq!(
        outcomes(&log),
        ["varar/checkout.md::Checkout::Pay::I add 1: ok"]
    );
    // The reference's own checkout.md text (its hash); `fnv1a:b272758b` is
    // the hash of SHARED_01 (spec 40 §3), whose prose differs from the
    // reference's shared.md.
    assert_eq!(
        p.results("varar/checkout.md"),
        json!({"version": 2, "oathPath": "varar/checkout.md", "sourceHash": "fnv1a:c4c1e860",
          "documents": [{"path": "varar/shared.md", "sourceHash": "fnv1a:b272758b"}],
          "examples": [{"name": "I add 1", "status": "passed", "lines": [5, 9]}]})
    );
    // The referenced file has no example of its own: no results file, and
    // its lock entry lists nothing.
    assert!(p.read(".varar/varar/shared.md.json").is_none());
    assert_eq!(lock_examples(&p, "varar/shared.md"), json!([]));
    assert_eq!(
        lock_examples(&p, "varar/checkout.md"),
        json!([{"name": "I add 1", "line": 5},
               {"name": "[Fill the basket](shared.md#fill-the-basket)", "line": 7},
               {"name": "Then the total is 3", "line": 9}])
    );
    // A second run changes nothing: no false drift from spliced steps.
    let before = p.read("varar.lock.json");
    let (code, log) = run(&p, &[]);
    assert_eq!(code, ExitCode::SUCCESS, "{log}");
    assert_eq!(p.read("varar.lock.json"), before);
}

#[test]
fn worked_02_a_section_of_several_paragraphs_stays_one_run() {
    let shared = "# Shared\n\n## Fill the basket\n\nI add 2.\n\nA paragraph of prose.\n\n\
        I add 3.\n\n### A sub-section\n\nI add 4.\n\n## Another section\n\nI add 100.\n";
    let checkout = "# Checkout\n\n## Pay\n\nI add 1.\n\n\
        [Fill the basket](shared.md#fill-the-basket)\n\nThen the total is 10.\n";
    let p = Project::new(&[("varar/shared.md", shared), ("varar/checkout.md", checkout)]);
    let (code, log) = run(&p, &[]);
    assert_eq!(code, ExitCode::SUCCESS, "{log}");
    assert_eq!(
        outcomes(&log),
        [
            "varar/checkout.md::Checkout::Pay::I add 1: ok",
            "varar/shared.md::Shared::Another section::I add 100: ok",
        ]
    );
    assert_eq!(
        p.results("varar/checkout.md")["examples"],
        json!([{"name": "I add 1", "status": "passed", "lines": [5, 9]}])
    );
    // shared.md runs its other section alone: a version-1 file.
    assert_eq!(
        p.results("varar/shared.md")["version"],
        1,
        "no link, no new key"
    );
    assert!(p.results("varar/shared.md").get("documents").is_none());
    assert_eq!(
        lock_examples(&p, "varar/shared.md"),
        json!([{"name": "I add 100", "line": 17}])
    );
}

#[test]
fn worked_03_a_reference_opens_the_example_and_sorts_where_it_stands() {
    let shared = "# Shared\n\n## Fill the basket\n\nI add 2.\n";
    let checkout = "# Checkout\n\n## Own paragraph follows\n\n\
        [Fill the basket](shared.md#fill-the-basket)\n\nThen the total is 2.\n\n\
        ## Reference alone\n\n[Fill the basket](shared.md#fill-the-basket)\n\n\
        ## After prose\n\nSome prose first.\n\n\
        [Fill the basket](shared.md#fill-the-basket)\n\nI add 5 and then the total is 7.\n";
    let p = Project::new(&[("varar/shared.md", shared), ("varar/checkout.md", checkout)]);
    let (code, log) = run(&p, &[]);
    assert_eq!(code, ExitCode::SUCCESS, "{log}");
    assert_eq!(
        listed(&p),
        [
            "varar/checkout.md::Checkout::Own paragraph follows::Then the total is 2",
            "varar/checkout.md::Checkout::Reference alone::I add 2",
            "varar/checkout.md::Checkout::After prose::I add 5 and then the total is 7",
        ]
    );
    // §70.6.3: `lines` as the reference computes it, but the link-only
    // example sorts by its link's line (11), after line 7.
    let names_lines: Vec<(Value, Value)> = p.results("varar/checkout.md")["examples"]
        .as_array()
        .expect("examples")
        .iter()
        .map(|e| (e["name"].clone(), e["lines"].clone()))
        .collect();
    assert_eq!(
        names_lines,
        [
            (json!("Then the total is 2"), json!([7])),
            (json!("I add 2"), json!([])),
            (json!("I add 5 and then the total is 7"), json!([19])),
        ]
    );
}

#[test]
fn worked_04_same_file_fragment_is_the_oaths_own() {
    let checkout = "# Same file\n\n## Setup\n\nI add 5.\n\n## Use it\n\n[Setup](#setup)\n\n\
        Then the total is 5.\n\n## Use it again\n\n[The setup, again](#SETUP)\n\n\
        Then the total is 5.\n";
    let p = Project::new(&[("varar/checkout.md", checkout)]);
    let (code, log) = run(&p, &[]);
    assert_eq!(code, ExitCode::SUCCESS, "{log}");
    assert_eq!(
        outcomes(&log),
        [
            "varar/checkout.md::Same file::Use it::Then the total is 5: ok",
            "varar/checkout.md::Same file::Use it again::Then the total is 5: ok",
        ]
    );
    let results = p.results("varar/checkout.md");
    assert_eq!(results["version"], 1, "same-file splices add no document");
    assert!(results.get("documents").is_none());
    let lines: Vec<Value> = results["examples"]
        .as_array()
        .expect("examples")
        .iter()
        .map(|e| e["lines"].clone())
        .collect();
    assert_eq!(lines, [json!([5, 11]), json!([5, 17])]);
}

#[test]
fn worked_05_missing_targets_are_failing_items_with_their_texts() {
    let shared = "# Shared\n\n## Prose only\n\nJust words.\n\n## Twice\n\nI add 1.\n\n\
        ## Twice\n\nI add 2.\n";
    let checkout = "# Checkout\n\n## Alone\n\n[No such heading](shared.md#no-such-heading)\n\n\
        ## Between\n\nI add 1.\n\n[No such heading](shared.md#no-such-heading)\n\n\
        Then the total is 1.\n\n## Others\n\n[Gone](gone.md#anything)\n\n\
        [Words](shared.md#prose-only)\n\n[Twice](shared.md#twice)\n\n\
        [Bonus](../outside/extra.md#bonus)\n";
    let p = Project::new(&[
        ("varar/shared.md", shared),
        ("varar/checkout.md", checkout),
        ("outside/extra.md", "## Bonus\n\nI add 9.\n"),
    ]);
    let (code, log) = run(&p, &[]);
    assert_eq!(code, failed(), "{log}");
    assert_eq!(
        outcomes(&log),
        [
            "varar/checkout.md::Checkout::Between::I add 1: ok",
            "varar/checkout.md::varar:diagnostic:reference-empty:5: FAILED",
            "varar/checkout.md::varar:diagnostic:reference-empty:11: FAILED",
            "varar/checkout.md::varar:diagnostic:reference-not-found:17: FAILED",
            "varar/checkout.md::varar:diagnostic:reference-empty:19: FAILED",
            "varar/checkout.md::varar:diagnostic:ambiguous-anchor:21: FAILED",
            "varar/checkout.md::varar:diagnostic:reference-not-found:23: FAILED",
        ]
    );
    for text in [
        "varar/checkout.md:5:1: Reference to \"No such heading\" resolves to \
         \"varar/shared.md#no-such-heading\", which contributes no steps.\n\
         Check the heading the anchor names, and that its section contains a matching paragraph.",
        "varar/checkout.md:17:1: Reference to \"Gone\" points at \"varar/gone.md\", which is not \
         an oath in this workspace.\nCheck the path, and that the file is matched by the `docs` \
         globs in varar.config.json.",
        "varar/checkout.md:21:1: Reference to \"Twice\" is ambiguous: \"varar/shared.md\" has 2 \
         headings with the anchor \"#twice\" (lines 7, 11).\nRename the headings so each has an \
         anchor of its own.",
        "Reference to \"Bonus\" points at \"outside/extra.md\", which is not an oath",
    ] {
        assert!(log.contains(text), "{text}\n---\n{log}");
    }
    // The example spans the broken link between its paragraphs; the link
    // alone under `Alone` is not live.
    assert_eq!(
        p.results("varar/checkout.md")["examples"],
        json!([{"name": "I add 1", "status": "passed", "lines": [9, 13]}])
    );
    assert_eq!(
        lock_examples(&p, "varar/checkout.md"),
        json!([{"name": "I add 1", "line": 9},
               {"name": "[No such heading](shared.md#no-such-heading)", "line": 11},
               {"name": "Then the total is 1", "line": 13}])
    );
    // Both `Twice` sections are consumed although the link is refused.
    assert_eq!(lock_examples(&p, "varar/shared.md"), json!([]));
}

#[test]
fn worked_06_a_cycle_is_reported_once_in_the_document_it_is_written_in() {
    let lib = "# Lib\n\n## Alpha\n\nI add 1.\n\n[Beta](#beta)\n\n## Beta\n\nI add 10.\n\n\
        [Alpha](#alpha)\n";
    let main = "# Main\n\n## Use\n\n[Alpha](lib.md#alpha)\n\nThen the total is 11.\n\n\
        ## Self reference\n\n[Self](#self-reference)\n\nI add 3.\n";
    let p = Project::new(&[("varar/lib.md", lib), ("varar/main.md", main)]);
    let (code, log) = run(&p, &[]);
    assert_eq!(code, failed(), "{log}");
    assert_eq!(
        outcomes(&log),
        // lib.md is discovered first: the cycle met while planning main.md
        // is an item of lib.md, where it is written (§70.6.6).
        [
            "varar/lib.md::varar:diagnostic:reference-cycle:13: FAILED",
            "varar/main.md::Main::Use::Then the total is 11: ok",
            "varar/main.md::varar:diagnostic:reference-cycle:11: FAILED",
        ]
    );
    assert!(
        log.contains(
            "varar/lib.md:13:1: Reference cycle: varar/lib.md#alpha → varar/lib.md#beta → \
             varar/lib.md#alpha."
        ),
        "{log}"
    );
    // §70.6.8: the self-referencing section plans nothing, and says so.
    assert!(
        log.contains(
            "varar/main.md:11:1: Reference cycle: varar/main.md#self-reference → \
             varar/main.md#self-reference."
        ),
        "{log}"
    );
}

const SHARED_07: &str = "# Shared\n\n## Check\n\nSome words.\n\n\
    Then the total is 99.\n\n## Boom\n\nWhen something explodes.\n";
const CHECKOUT_07: &str = "# Checkout\n\n## One\n\nI add 1.\n\n[Check](shared.md#check)\n\n\
    ## Two\n\nI add 1.\n\n[Boom](shared.md#boom)\n\nThen the total is 1.\n";

#[test]
fn worked_07_a_failing_spliced_step_is_reported_in_its_own_document() {
    let p = Project::new(&[
        ("varar/shared.md", SHARED_07),
        ("varar/checkout.md", CHECKOUT_07),
    ]);
    let (code, log) = run(&p, &[]);
    assert_eq!(code, failed(), "{log}");
    let results = p.results("varar/checkout.md");
    assert_eq!(results["version"], 2);
    // §70.6.4: line, anchor, cells, message and frame from shared.md.
    assert_eq!(
        results["examples"][0],
        json!({"name": "I add 1", "status": "failed", "lines": [5], "failure": {
            "line": 7, "message": "cell 1: expected 99 but was 1",
            "stack": "cell 1: expected 99 but was 1\n    at the total is 99 (varar/shared.md:7:19)",
            "cells": [{"from": 51, "to": 53, "actual": "1"}], "anchor": {"from": 51, "to": 53},
            "docPath": "varar/shared.md"}})
    );
    let second = &results["examples"][1]["failure"];
    assert_eq!(second["line"], 11);
    assert_eq!(second["docPath"], "varar/shared.md");
    assert_eq!(
        second["stack"],
        "kaboom\n    at something explodes (varar/shared.md:11:6)"
    );
    assert_eq!(results["examples"][1]["lines"], json!([11, 15]));
    // The terminal names shared.md and underlines its line, not the oath's
    // line 7 at shared.md's offsets.
    assert!(
        log.contains(
            "varar/shared.md:7:19: cell 1: expected 99 but was 1\n  |\n7 | Then the total is 99.\n  \
             |                   ^^ cell 1\n"
        ),
        "{log}"
    );
    assert!(log.contains("of varar/checkout.md, which reaches this step through a link"));
    assert!(log.contains("varar/shared.md:11:6: kaboom"), "{log}");
}

const SHARED_08: &str = "# Shared\n\n## Fill the basket\n\nI add 2. Then the total is 2.\n\n\
    ## Standalone check\n\nI add 4. Then the total is 4.\n";
const CHECKOUT_08: &str = "# Checkout\n\n## Pay\n\n[Fill](shared.md#fill-the-basket)\n";

#[test]
fn worked_08_a_consumed_section_has_no_item_also_in_filtered_runs() {
    let p = Project::new(&[
        ("varar/shared.md", SHARED_08),
        ("varar/checkout.md", CHECKOUT_08),
    ]);
    let (code, log) = run(&p, &[]);
    assert_eq!(code, ExitCode::SUCCESS, "{log}");
    assert_eq!(
        outcomes(&log),
        [
            "varar/checkout.md::Checkout::Pay::I add 2. Then the total is 2: ok",
            "varar/shared.md::Shared::Standalone check::I add 4. Then the total is 4: ok",
        ]
    );
    assert_eq!(
        lock_examples(&p, "varar/shared.md"),
        json!([{"name": "I add 4. Then the total is 4", "line": 9}])
    );
    assert_eq!(
        p.results("varar/shared.md")["examples"],
        json!([{"name": "I add 4. Then the total is 4", "status": "passed", "lines": [9]}])
    );
    // A filtered run and a run of one item (as nextest does) list the same.
    let (_, log) = run(&p, &["varar/shared.md"]);
    assert_eq!(
        outcomes(&log),
        ["varar/shared.md::Shared::Standalone check::I add 4. Then the total is 4: ok"]
    );
    let item = "varar/checkout.md::Checkout::Pay::I add 2. Then the total is 2";
    let (code, log) = run(&p, &["--exact", item]);
    assert_eq!(code, ExitCode::SUCCESS, "{log}");
    assert_eq!(outcomes(&log), [format!("{item}: ok")]);
}

#[test]
fn worked_12_nested_links_keep_each_step_in_its_document() {
    let main = "# Main\n\n## Go\n\nI add 20.\n\n[A](lib.md#a)\n";
    let lib = "# Lib\n\n## A\n\nI add 1.\n\n[B, elsewhere](other.md#b)\n\n[C](#c)\n\n\
        ## C\n\nI add 300. Then the total is 999.\n";
    let other = "# Other\n\n## B\n\nI add 0.\n";
    let p = Project::new(&[
        ("varar/main.md", main),
        ("varar/lib.md", lib),
        ("varar/other.md", other),
    ]);
    let (code, log) = run(&p, &[]);
    assert_eq!(code, failed(), "{log}");
    let results = p.results("varar/main.md");
    let documents: Vec<&str> = results["documents"]
        .as_array()
        .expect("documents")
        .iter()
        .map(|d| d["path"].as_str().expect("path"))
        .collect();
    assert_eq!(documents, ["varar/lib.md", "varar/other.md"]);
    let example = &results["examples"][0];
    assert_eq!(example["lines"], json!([5]), "own steps only (§70.6.3)");
    let failure = &example["failure"];
    assert_eq!(failure["docPath"], "varar/lib.md", "§70.6.2");
    assert_eq!(failure["line"], 13);
    assert_eq!(failure["message"], "cell 1: expected 999 but was 321");
}

#[test]
fn decision_70_6_5_a_section_that_becomes_referenced_is_not_drift() {
    let shared = "# Shared\n\n## Fill the basket\n\nI add 2. Then the total is 2.\n";
    let checkout = "# Checkout\n\n## Pay\n\nI add 1. Then the total is 1.\n";
    let p = Project::new(&[("varar/shared.md", shared), ("varar/checkout.md", checkout)]);
    let (code, log) = run(&p, &[]);
    assert_eq!(code, ExitCode::SUCCESS, "{log}");
    assert_eq!(
        lock_examples(&p, "varar/shared.md")
            .as_array()
            .map(Vec::len),
        Some(1)
    );
    // The section is now linked from checkout.md: it runs there, and its
    // old baseline entry is dropped without a drift item.
    let linked = format!("{checkout}\n## Filled\n\n[Fill](shared.md#fill-the-basket)\n");
    std::fs::write(p.path("varar/checkout.md"), &linked).expect("edit");
    let (code, log) = run(&p, &[]);
    assert_eq!(code, ExitCode::SUCCESS, "{log}");
    assert!(!log.contains("varar:drift"), "{log}");
    assert_eq!(lock_examples(&p, "varar/shared.md"), json!([]));
    let recorded = p.read("varar.lock.json");
    let _ = run_update(&p);
    assert_eq!(
        p.read("varar.lock.json"),
        recorded,
        "what update mode records"
    );
}

#[test]
fn worked_10_a_link_whose_section_disappears_drifts_in_the_referring_oath() {
    let p = Project::new(&[
        ("varar/shared.md", SHARED_08),
        ("varar/checkout.md", CHECKOUT_08),
    ]);
    let (code, _) = run(&p, &[]);
    assert_eq!(code, ExitCode::SUCCESS);
    let renamed = SHARED_08.replace("## Fill the basket", "## Fill the cart");
    std::fs::write(p.path("varar/shared.md"), renamed).expect("edit");
    let (code, log) = run(&p, &[]);
    assert_eq!(code, failed(), "{log}");
    let items = outcomes(&log);
    // The link is reported, and its paragraph, an example until now, drifts.
    for item in [
        "varar/checkout.md::varar:diagnostic:reference-empty:5: FAILED",
        "varar/checkout.md::varar:drift:5: FAILED",
    ] {
        assert!(items.contains(&item.to_string()), "{items:?}");
    }
    assert!(
        log.contains("(drift): \"[Fill](shared.md#fill-the-basket)\""),
        "{log}"
    );
    // The renamed section runs alone again.
    assert!(
        items.contains(
            &"varar/shared.md::Shared::Fill the cart::I add 2. Then the total is 2: ok".to_string()
        ),
        "{items:?}"
    );
}

#[test]
fn decision_70_6_6_a_diagnostic_reached_by_two_oaths_is_one_item_of_its_document() {
    let shared = "# Shared\n\n## Setup\n\nI add 2.\n\n[Nowhere](gone.md)\n";
    let a = "# A\n\n## Go\n\n[Setup](shared.md#setup)\n\nThen the total is 2.\n";
    let b = "# B\n\n## Go\n\n[Setup](shared.md#setup)\n\nThen the total is 2.\n";
    let p = Project::new(&[
        ("varar/a.md", a),
        ("varar/b.md", b),
        ("varar/shared.md", shared),
    ]);
    let (code, log) = run(&p, &[]);
    assert_eq!(code, failed(), "{log}");
    let item = "varar/shared.md::varar:diagnostic:reference-not-found:7";
    assert_eq!(
        outcomes(&log),
        [
            "varar/a.md::A::Go::Then the total is 2: ok".to_string(),
            "varar/b.md::B::Go::Then the total is 2: ok".to_string(),
            format!("{item}: FAILED"),
        ]
    );
    assert!(log.contains("varar/shared.md:7:1: Reference to \"Nowhere\""));
    // Run alone (as nextest runs every item), it still fails.
    let (code, log) = run(&p, &["--exact", item]);
    assert_eq!(code, failed(), "{log}");
    assert_eq!(outcomes(&log), [format!("{item}: FAILED")]);
}

#[test]
fn filtered_runs_merge_results_of_the_same_documents_only() {
    let p = Project::new(&[
        ("varar/shared.md", SHARED_01),
        ("varar/checkout.md", CHECKOUT_01),
    ]);
    let (code, _) = run(&p, &[]);
    assert_eq!(code, ExitCode::SUCCESS);
    let before = p.results("varar/checkout.md");
    // Editing the shared document changes `documents`, not the oath's hash:
    // a filtered run that runs nothing of checkout.md writes nothing, and
    // one that runs its example replaces the file.
    std::fs::write(p.path("varar/shared.md"), SHARED_01.replace("two", "2")).expect("edit");
    let item = "varar/checkout.md::Checkout::Pay::I add 1";
    let (code, log) = run(&p, &["--exact", item]);
    assert_eq!(code, ExitCode::SUCCESS, "{log}");
    let after = p.results("varar/checkout.md");
    assert_eq!(after["sourceHash"], before["sourceHash"]);
    assert_ne!(after["documents"], before["documents"]);
    assert_eq!(after["examples"], before["examples"]);
}

#[test]
fn decision_70_6_1_a_broken_link_under_a_heading_still_ends_the_example_before_it() {
    let checkout = "# Checkout\n\n## First\n\nI add 1.\n\n## Broken\n\n[Gone](gone.md#x)\n\n\
        Then the total is 0.\n";
    let p = Project::new(&[("varar/checkout.md", checkout)]);
    let (code, log) = run(&p, &[]);
    assert_eq!(code, failed(), "{log}");
    // The sensor after the broken link does not merge into `First`.
    assert_eq!(
        outcomes(&log),
        [
            "varar/checkout.md::Checkout::First::I add 1: ok",
            "varar/checkout.md::Checkout::Broken::Then the total is 0: ok",
            "varar/checkout.md::varar:diagnostic:reference-not-found:9: FAILED",
        ]
    );
}

#[test]
fn worked_20_an_unexpected_pass_is_anchored_at_the_last_step_even_when_spliced() {
    let shared = "# Shared\n\n## Fragile\n\nI add 2.\n\n```error\n```\n";
    let checkout = "# Checkout\n\n## Pay\n\nI add 1.\n\n[Fragile](shared.md#fragile)\n";
    let p = Project::new(&[("varar/shared.md", shared), ("varar/checkout.md", checkout)]);
    let (code, log) = run(&p, &[]);
    assert_eq!(code, failed(), "{log}");
    let failure = &p.results("varar/checkout.md")["examples"][0]["failure"];
    assert_eq!(
        failure["message"],
        "expected the example to fail, but it passed"
    );
    assert_eq!(failure["docPath"], "varar/shared.md");
    assert_eq!(failure["line"], 5);
    assert_eq!(
        failure["anchor"],
        json!({"from": 22, "to": 29}),
        "`I add 2` in shared.md"
    );
}
