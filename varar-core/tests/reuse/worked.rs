//! The worked examples of spec 70 §70.7, at the plan level: examples, names,
//! scope stacks, spans, steps with their documents, diagnostics with their
//! texts and spans. The figures are the reference's (checked by running it
//! on these very files), except where §70.6 decides otherwise, as noted.

use super::*;
use varar_core::hash::source_hash;

const SHARED_01: &str =
    "# Shared\n\n## Fill the basket\n\nThe basket starts with two.\n\nI add 2.\n";
const CHECKOUT_01: &str = "# Checkout\n\n## Pay\n\nI add 1.\n\n\
    [Fill the basket](shared.md#fill-the-basket)\n\nThen the total is 3.\n";

#[test]
fn worked_01_simple_splice() {
    // The very text the reference ran (its `sourceHash`).
    assert_eq!(source_hash(CHECKOUT_01), "fnv1a:c4c1e860");
    let files = [
        ("varar/shared.md", SHARED_01),
        ("varar/checkout.md", CHECKOUT_01),
    ];
    let plan = plan_in(&files, "varar/checkout.md");
    assert_eq!(
        examples(&plan),
        [ex(
            "I add 1 | Checkout / Pay | [20,96) 5:1-9:21",
            &[
                "I add 1 @ - 5:1 [20,27)",
                "I add 2 @ varar/shared.md 7:1 [59,66)",
                "the total is 3 @ - 9:6 [81,95)",
            ]
        )]
    );
    assert!(plan.diagnostics.is_empty());
    // The referenced section is consumed: shared.md plans nothing.
    let shared = plan_in(&files, "varar/shared.md");
    assert_eq!(shared, Plan::default());
}

#[test]
fn worked_02_a_section_of_several_paragraphs_stays_one_run() {
    let shared = "# Shared\n\n## Fill the basket\n\nI add 2.\n\nA paragraph of prose.\n\n\
        I add 3.\n\n### A sub-section\n\nI add 4.\n\n## Another section\n\nI add 100.\n";
    let checkout = "# Checkout\n\n## Pay\n\nI add 1.\n\n\
        [Fill the basket](shared.md#fill-the-basket)\n\nThen the total is 10.\n";
    let files = [("varar/shared.md", shared), ("varar/checkout.md", checkout)];
    assert_eq!(
        examples(&plan_in(&files, "varar/checkout.md")),
        [ex(
            "I add 1 | Checkout / Pay | [20,97) 5:1-9:22",
            &[
                "I add 1 @ - 5:1 [20,27)",
                "I add 2 @ varar/shared.md 5:1 [30,37)",
                "I add 3 @ varar/shared.md 9:1 [63,70)",
                "I add 4 @ varar/shared.md 13:1 [92,99)",
                "the total is 10 @ - 9:6 [81,96)",
            ]
        )]
    );
    // The section that is not referenced still runs alone.
    assert_eq!(
        examples(&plan_in(&files, "varar/shared.md")),
        [ex(
            "I add 100 | Shared / Another section | [122,132) 17:1-17:11",
            &["I add 100 @ - 17:1 [122,131)"]
        )]
    );
}

#[test]
fn worked_03_a_reference_opens_the_example() {
    let shared = "# Shared\n\n## Fill the basket\n\nI add 2.\n";
    let checkout = "# Checkout\n\n## Own paragraph follows\n\n\
        [Fill the basket](shared.md#fill-the-basket)\n\nThen the total is 2.\n\n\
        ## Reference alone\n\n[Fill the basket](shared.md#fill-the-basket)\n\n\
        ## After prose\n\nSome prose first.\n\n\
        [Fill the basket](shared.md#fill-the-basket)\n\nI add 5 and then the total is 7.\n";
    let files = [("varar/shared.md", shared), ("varar/checkout.md", checkout)];
    let spliced = "I add 2 @ varar/shared.md 5:1 [30,37)";
    assert_eq!(
        examples(&plan_in(&files, "varar/checkout.md")),
        [
            // Continued by an own paragraph: its name and scope, the span
            // from the link to it.
            ex(
                "Then the total is 2 | Checkout / Own paragraph follows | [38,104) 5:1-7:21",
                &[spliced, "the total is 2 @ - 7:6 [89,103)"]
            ),
            // Never continued: the spliced paragraph's name, the link's
            // scope and span.
            ex(
                "I add 2 | Checkout / Reference alone | [126,170) 11:1-11:45",
                &[spliced]
            ),
            ex(
                "I add 5 and then the total is 7 | Checkout / After prose | [207,285) 17:1-19:33",
                &[
                    spliced,
                    "I add 5 @ - 19:1 [253,260)",
                    "the total is 7 @ - 19:18 [270,284)",
                ]
            ),
        ]
    );
}

#[test]
fn worked_04_same_file_fragment() {
    let checkout = "# Same file\n\n## Setup\n\nI add 5.\n\n## Use it\n\n[Setup](#setup)\n\n\
        Then the total is 5.\n\n## Use it again\n\n[The setup, again](#SETUP)\n\n\
        Then the total is 5.\n";
    let plan = plan_in(&[("varar/checkout.md", checkout)], "varar/checkout.md");
    // `Setup` is consumed; same-file steps are the oath's own (no document).
    assert_eq!(
        examples(&plan),
        [
            ex(
                "Then the total is 5 | Same file / Use it | [44,81) 9:1-11:21",
                &["I add 5 @ - 5:1 [23,30)", "the total is 5 @ - 11:6 [66,80)"]
            ),
            ex(
                "Then the total is 5 | Same file / Use it again | [100,148) 15:1-17:21",
                &[
                    "I add 5 @ - 5:1 [23,30)",
                    "the total is 5 @ - 17:6 [133,147)"
                ]
            ),
        ]
    );
    assert!(plan.diagnostics.is_empty());
}

#[test]
fn worked_05_missing_targets() {
    let shared = "# Shared\n\n## Only prose\n\nNothing to run here.\n\n## Twice\n\nI add 1.\n\n\
        ## Twice\n\nI add 2.\n";
    let checkout = "# Missing\n\n## Alone\n\n[No such heading](shared.md#no-such-heading)\n\n\
        ## Between\n\nI add 1.\n\n[No such heading](shared.md#no-such-heading)\n\n\
        Then the total is 1.\n\n## Gone\n\n[Gone](gone.md#anything)\n\n## Prose only\n\n\
        [Only prose](shared.md#only-prose)\n\n## Twice\n\n[Twice](shared.md#twice)\n\n\
        ## Outside\n\n[Bonus](../outside/extra.md#bonus)\n";
    // `outside/extra.md` exists but is not one of the workspace's oaths.
    let files = [("varar/shared.md", shared), ("varar/checkout.md", checkout)];
    let plan = plan_in(&files, "varar/checkout.md");
    assert_eq!(
        examples(&plan),
        [ex(
            "I add 1 | Missing / Between | [79,155) 9:1-13:21",
            &[
                "I add 1 @ - 9:1 [79,86)",
                "the total is 1 @ - 13:6 [140,154)"
            ]
        )]
    );
    assert_eq!(
        diagnostics(&plan),
        [
            "reference-empty @ - [21,65) 5:1-5:45",
            "reference-empty @ - [89,133) 11:1-11:45",
            "reference-not-found @ - [166,190) 17:1-17:25",
            "reference-empty @ - [207,241) 21:1-21:35",
            "ambiguous-anchor @ - [253,277) 25:1-25:25",
            "reference-not-found @ - [291,325) 29:1-29:35",
        ]
    );
    let messages: Vec<&str> = plan
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(
        messages,
        [
            "Reference to \"No such heading\" resolves to \"varar/shared.md#no-such-heading\", \
             which contributes no steps.\nCheck the heading the anchor names, and that its \
             section contains a matching paragraph.",
            "Reference to \"No such heading\" resolves to \"varar/shared.md#no-such-heading\", \
             which contributes no steps.\nCheck the heading the anchor names, and that its \
             section contains a matching paragraph.",
            "Reference to \"Gone\" points at \"varar/gone.md\", which is not an oath in this \
             workspace.\nCheck the path, and that the file is matched by the `docs` globs in \
             varar.config.json.",
            "Reference to \"Only prose\" resolves to \"varar/shared.md#only-prose\", which \
             contributes no steps.\nCheck the heading the anchor names, and that its section \
             contains a matching paragraph.",
            "Reference to \"Twice\" is ambiguous: \"varar/shared.md\" has 2 headings with the \
             anchor \"#twice\" (lines 7, 11).\nRename the headings so each has an anchor of its \
             own.",
            "Reference to \"Bonus\" points at \"outside/extra.md\", which is not an oath in this \
             workspace.\nCheck the path, and that the file is matched by the `docs` globs in \
             varar.config.json.",
        ]
    );
    // Both `Twice` sections and the prose section are consumed, refused link
    // or not.
    assert_eq!(plan_in(&files, "varar/shared.md"), Plan::default());
}

#[test]
fn worked_06_cycle() {
    let lib = "# Lib\n\n## Alpha\n\nI add 1.\n\n[Beta](#beta)\n\n## Beta\n\nI add 10.\n\n\
        [Alpha](#alpha)\n";
    let main = "# Main\n\n## Cycle\n\n[Alpha](lib.md#alpha)\n\nThen the total is 11.\n\n\
        ## Self reference\n\n[Self](#self-reference)\n\nI add 3.\n";
    let files = [("varar/lib.md", lib), ("varar/main.md", main)];
    let plan = plan_in(&files, "varar/main.md");
    assert_eq!(
        examples(&plan),
        [ex(
            "Then the total is 11 | Main / Cycle | [18,62) 5:1-7:22",
            &[
                "I add 1 @ varar/lib.md 5:1 [17,24)",
                // Rust: the step reached through lib.md's own link is lib.md's
                // (spec 70 §70.6.2; the reference leaves it untagged).
                "I add 10 @ varar/lib.md 11:1 [51,59)",
                "the total is 11 @ - 7:6 [46,61)",
            ]
        )]
    );
    assert_eq!(
        diagnostics(&plan),
        [
            // Rust: the self-consuming section is reported where its link is
            // (spec 70 §70.6.8); the reference plans it silently as nothing.
            "reference-cycle @ - [83,106) 11:1-11:24",
            "reference-cycle @ varar/lib.md [62,77) 13:1-13:16",
        ]
    );
    assert_eq!(
        plan.diagnostics[0].message,
        "Reference cycle: varar/main.md#self-reference \u{2192} varar/main.md#self-reference."
    );
    assert_eq!(
        plan.diagnostics[1].message,
        "Reference cycle: varar/lib.md#alpha \u{2192} varar/lib.md#beta \u{2192} varar/lib.md#alpha."
    );
    assert_eq!(plan_in(&files, "varar/lib.md"), Plan::default());
}

#[test]
fn worked_07_failing_spliced_steps_keep_their_own_spans_and_text() {
    let shared = "# Shared\n\n## Wrong total\n\nThis section checks a total that fails!\n\n\
        Then the total is 99.\n\n## Explode\n\nWhen something explodes.\n";
    let checkout = "# Checkout\n\n## Wrong\n\nI add 1.\n\n[Wrong total](shared.md#wrong-total)\n\n\
        ## Explodes\n\nI add 1.\n\n[Explode](shared.md#explode)\n\nThen the total is 1.\n";
    let files = [("varar/shared.md", shared), ("varar/checkout.md", checkout)];
    let plan = plan_in(&files, "varar/checkout.md");
    assert_eq!(
        examples(&plan),
        [
            ex(
                "I add 1 | Checkout / Wrong | [22,68) 5:1-7:37",
                &[
                    "I add 1 @ - 5:1 [22,29)",
                    "the total is 99 @ varar/shared.md 7:6 [72,87)"
                ]
            ),
            ex(
                "I add 1 | Checkout / Explodes | [83,143) 11:1-15:21",
                &[
                    "I add 1 @ - 11:1 [83,90)",
                    "something explodes @ varar/shared.md 11:6 [107,125)",
                    "the total is 1 @ - 15:6 [128,142)",
                ]
            ),
        ]
    );
    // The failure's anchor and expected text come from shared.md: `99` at
    // [85,87), line 7, column 19.
    let total = &plan.examples[0].steps[1];
    assert_eq!(&*total.args[0].raw, "99");
    assert_eq!(at(&total.param_spans[0]), "[85,87) 7:19-7:21");
}

#[test]
fn worked_08_a_consumed_section_runs_only_where_it_is_referenced() {
    let shared = "# Shared\n\n## Fill the basket\n\nI add 2. Then the total is 2.\n\n\
        ## Standalone check\n\nI add 4. Then the total is 4.\n";
    let checkout = "# Checkout\n\n## Pay\n\n[Fill the basket](shared.md#fill-the-basket)\n";
    let files = [("varar/shared.md", shared), ("varar/checkout.md", checkout)];
    assert_eq!(
        examples(&plan_in(&files, "varar/checkout.md")),
        [ex(
            "I add 2. Then the total is 2 | Checkout / Pay | [20,64) 5:1-5:45",
            &[
                "I add 2 @ varar/shared.md 5:1 [30,37)",
                "the total is 2 @ varar/shared.md 5:15 [44,58)",
            ]
        )]
    );
    assert_eq!(
        examples(&plan_in(&files, "varar/shared.md")),
        [ex(
            "I add 4. Then the total is 4 | Shared / Standalone check | [82,111) 9:1-9:30",
            &[
                "I add 4 @ - 9:1 [82,89)",
                "the total is 4 @ - 9:15 [96,110)"
            ]
        )]
    );
}

#[test]
fn worked_12_nested_steps_carry_their_true_documents() {
    let main = "# Main\n\n## Nested\n\n[A](lib.md#a)\n\nThen the total is 321.\n";
    let lib = "# Lib\n\n## A\n\nI add 1.\n\n[B in other](other.md#b)\n\n[C here](#c)\n\n## C\n\n\
        I add 300.\n\nThen the total is 999.\n";
    let other = "# Other\n\n## B\n\nI add 20.\n";
    let files = [
        ("varar/main.md", main),
        ("varar/lib.md", lib),
        ("varar/other.md", other),
    ];
    let plan = plan_in(&files, "varar/main.md");
    assert_eq!(
        examples(&plan),
        [ex(
            "Then the total is 321 | Main / Nested | [19,56) 5:1-7:23",
            &[
                "I add 1 @ varar/lib.md 5:1 [13,20)",
                "I add 20 @ varar/other.md 5:1 [15,23)",
                // Rust: lib.md's, though reached through a same-file link of
                // lib.md (the reference reports them as main.md's).
                "I add 300 @ varar/lib.md 13:1 [69,78)",
                "the total is 999 @ varar/lib.md 15:6 [86,102)",
                "the total is 321 @ - 7:6 [39,55)",
            ]
        )]
    );
    // The expected text of the failing sensor is lib.md's `999`.
    assert_eq!(&*plan.examples[0].steps[3].args[0].raw, "999");
    let json = plan.to_json();
    let docs: Vec<Option<&str>> = json["examples"][0]["steps"]
        .as_array()
        .map(|steps| steps.iter().map(|s| s["docPath"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(
        docs,
        [
            Some("varar/lib.md"),
            Some("varar/other.md"),
            Some("varar/lib.md"),
            Some("varar/lib.md"),
            None
        ]
    );
    assert!(plan.diagnostics.is_empty());
}
