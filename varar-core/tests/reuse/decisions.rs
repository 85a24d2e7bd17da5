//! One test per decision of spec 70 §70.6 that planning carries. The
//! others (`lines`, `failure`, drift, the results version) belong to
//! execution, results and the lock; §70.6.4 is held here where it starts:
//! the text a spliced parameter is compared with.

use std::collections::BTreeSet;

use super::*;
use varar_core::plan::{DiagnosticCode, Expectation};
use varar_core::source::Source;

#[test]
fn decision_70_6_1_broken_link_under_a_heading_closes_the_example() {
    let checkout = "# Pay\n\n## First\n\nI add 1.\n\n## Broken\n\n[Gone](gone.md#x)\n\n\
        Then the total is 1.\n";
    let plan = plan_in(&[("varar/checkout.md", checkout)], "varar/checkout.md");
    // The reference would merge `Then the total is 1` across the heading into
    // `First`'s example; the heading before the link ends it here.
    assert_eq!(
        examples(&plan),
        [
            ex(
                "I add 1 | Pay / First | [17,25) 5:1-5:9",
                &["I add 1 @ - 5:1 [17,24)"]
            ),
            ex(
                "Then the total is 1 | Pay / Broken | [57,77) 11:1-11:21",
                &["the total is 1 @ - 11:6 [62,76)"]
            ),
        ]
    );
    // Its diagnostic is still reported.
    assert_eq!(
        diagnostics(&plan),
        ["reference-not-found @ - [38,55) 9:1-9:18"]
    );

    // Without a heading before it, a broken link leaves the example open,
    // and the next paragraph extends it over the link (spec 70 §70.3.2).
    let between = "# Pay\n\nI add 1.\n\n[Gone](gone.md#x)\n\nThen the total is 1.\n";
    let plan = plan_in(&[("varar/checkout.md", between)], "varar/checkout.md");
    assert_eq!(
        examples(&plan),
        [ex(
            "I add 1 | Pay | [7,56) 3:1-7:21",
            &["I add 1 @ - 3:1 [7,14)", "the total is 1 @ - 7:6 [41,55)"]
        )]
    );
}

#[test]
fn decision_70_6_2_every_step_carries_the_document_it_was_written_in() {
    // main.md → lib.md#x, which links back into main.md and, through a
    // same-file link, to another section of lib.md.
    let main = "# Main\n\n## Base\n\nI add 2.\n\n## Use\n\n[X](lib.md#x)\n\nThen the total is 6.\n";
    let lib = "# Lib\n\n## X\n\nI add 1.\n\n[Back to main](main.md#base)\n\n[Y](#y)\n\n\
        ## Y\n\nI add 3.\n";
    let files = [("varar/main.md", main), ("varar/lib.md", lib)];
    let plan = plan_in(&files, "varar/main.md");
    assert_eq!(
        examples(&plan),
        [ex(
            "Then the total is 6 | Main / Use | [35,70) 9:1-11:21",
            &[
                "I add 1 @ varar/lib.md 5:1 [13,20)",
                // Back in the running oath: its own step, no document.
                "I add 2 @ - 5:1 [17,24)",
                "I add 3 @ varar/lib.md 13:1 [68,75)",
                "the total is 6 @ - 11:6 [55,69)",
            ]
        )]
    );
    // The document is never the running oath, at any depth.
    let json = plan.to_json();
    for step in json["examples"][0]["steps"]
        .as_array()
        .into_iter()
        .flatten()
    {
        assert_ne!(step["docPath"], "varar/main.md");
    }
}

#[test]
fn decision_70_6_4_a_spliced_parameter_keeps_its_own_documents_text() {
    // At the offsets of shared.md's `99`, checkout.md holds other text: the
    // expected value must come from shared.md.
    let shared = "# Shared\n\n## Check\n\nThen the total is 99.\n";
    let checkout = "# Checkout\n\n## Pay\n\nI add 1.\n\n[Check](shared.md#check)\n";
    let files = [("varar/shared.md", shared), ("varar/checkout.md", checkout)];
    let plan = plan_in(&files, "varar/checkout.md");
    let total = &plan.examples[0].steps[1];
    assert_eq!(total.doc_path.as_deref(), Some("varar/shared.md"));
    assert_eq!(&*total.args[0].raw, "99");
    let (from, to) = (
        total.param_spans[0].start_offset,
        total.param_spans[0].end_offset,
    );
    assert_eq!(Source::new(shared).slice_utf16(from, to), "99");
    assert_ne!(Source::new(checkout).slice_utf16(from, to), "99");
    assert_eq!(
        plan.to_json()["examples"][0]["steps"][1]["args"][0]["value"],
        "99"
    );
}

#[test]
fn decision_70_6_6_diagnostics_carry_their_document_and_repeat_identically() {
    // An `error` fence on prose inside a section referenced twice: planned
    // afresh for each reference, reported twice with the same document,
    // span and code, so the harness can report it once.
    let shared = "# Shared\n\n## Setup\n\nI add 1.\n\nNo step here.\n\n```error\nboom\n```\n";
    let checkout = "# Checkout\n\n## One\n\n[Setup](shared.md#setup)\n\n## Two\n\n\
        [Setup](shared.md#setup)\n";
    let files = [("varar/shared.md", shared), ("varar/checkout.md", checkout)];
    let plan = plan_in(&files, "varar/checkout.md");
    assert_eq!(plan.examples.len(), 2);
    assert_eq!(
        diagnostics(&plan),
        [
            "error-fence-without-step @ varar/shared.md [45,62) 9:1-11:4",
            "error-fence-without-step @ varar/shared.md [45,62) 9:1-11:4",
        ]
    );
    let once: BTreeSet<(Option<&str>, u32, u32, &str)> = plan
        .diagnostics
        .iter()
        .map(|d| {
            let span = (d.span.start_offset, d.span.end_offset);
            (d.doc_path.as_deref(), span.0, span.1, d.code.as_str())
        })
        .collect();
    assert_eq!(once.len(), 1);
    // shared.md itself reports nothing: its section is consumed.
    assert!(plan_in(&files, "varar/shared.md").diagnostics.is_empty());
}

#[test]
fn decision_70_6_8_a_link_to_its_own_file_plans_nothing_and_says_so() {
    let text = "# Whole\n\nI add 1.\n\n[All of it](#)\n";
    let plan = plan_in(&[("varar/whole.md", text)], "varar/whole.md");
    assert!(plan.examples.is_empty());
    assert_eq!(diagnostics(&plan), ["reference-cycle @ - [19,33) 5:1-5:15"]);
    assert_eq!(
        plan.diagnostics[0].message,
        "Reference cycle: varar/whole.md# \u{2192} varar/whole.md#."
    );
    // Alone, nothing is consumed: the link splices its file, and meets
    // itself.
    let source = Source::new(text);
    let doc = varar_core::parse::parse("varar/whole.md", &source);
    let alone = varar_core::plan::plan(&doc, &source, &steps());
    assert_eq!(
        diagnostics(&alone),
        ["reference-cycle @ - [19,33) 5:1-5:15"]
    );
}

#[test]
fn decision_70_6_8_a_link_inside_the_section_it_names_is_reported() {
    let text = "# Main\n\n## Loop\n\n[Loop](#loop)\n\nI add 3.\n\n## Other\n\nI add 4.\n";
    let plan = plan_in(&[("varar/main.md", text)], "varar/main.md");
    assert_eq!(
        examples(&plan),
        [ex(
            "I add 4 | Main / Other | [52,60) 11:1-11:9",
            &["I add 4 @ - 11:1 [52,59)"]
        )]
    );
    assert_eq!(diagnostics(&plan), ["reference-cycle @ - [17,30) 5:1-5:14"]);
    assert_eq!(
        plan.diagnostics[0].message,
        "Reference cycle: varar/main.md#loop \u{2192} varar/main.md#loop."
    );
}

#[test]
fn issue21_angle_bracket_and_percent_encoded_targets_resolve() {
    // A departure from spec 70 §70.6.8 (which kept the reference's quirk:
    // `<shared.md` not found): destinations are read as CommonMark does.
    let shared = "# Shared\n\n## Fill\n\nI add 2.\n\n## Café au lait\n\nI add 3.\n";
    for link in [
        "[Fill](<with space.md#fill>)",
        "[Fill](with%20space.md#fill)",
        "[Fill](<with%20space.md#fill>)",
    ] {
        let checkout = format!("# Pay\n\n{link}\n");
        let files = [
            ("varar/with space.md", shared),
            ("varar/checkout.md", checkout.as_str()),
        ];
        let plan = plan_in(&files, "varar/checkout.md");
        assert!(
            plan.diagnostics.is_empty(),
            "{link}: {:?}",
            plan.diagnostics
        );
        assert_eq!(plan.examples.len(), 1, "{link}");
    }
    let checkout = "# Pay\n\n[Milk](shared.md#caf%C3%A9-au-lait)\n";
    let files = [("varar/shared.md", shared), ("varar/checkout.md", checkout)];
    let plan = plan_in(&files, "varar/checkout.md");
    assert!(plan.diagnostics.is_empty(), "{:?}", plan.diagnostics);
    assert_eq!(plan.examples.len(), 1);
}

#[test]
fn decision_70_6_8_error_fences_carry_over_from_referenced_sections() {
    let shared = "# Shared\n\n## Explode\n\nsomething explodes.\n\n```error\nkaboom\n```\n";
    let checkout = "# Pay\n\nI add 1.\n\n[Explode](shared.md#explode)\n";
    let files = [("varar/shared.md", shared), ("varar/checkout.md", checkout)];
    let plan = plan_in(&files, "varar/checkout.md");
    assert_eq!(plan.examples.len(), 1);
    assert_eq!(
        plan.examples[0].expected,
        Expectation::Fail {
            message: Some("kaboom".into())
        }
    );
    assert_eq!(
        plan.to_json()["examples"][0]["expectedErrorMessage"],
        "kaboom"
    );
}

#[test]
fn decision_70_6_8_slugs_follow_the_reference_not_github() {
    let shared = "# Shared\n\n## snake_case_name\n\nI add 2.\n";
    let github = "# Pay\n\n[Snake](shared.md#snake_case_name)\n";
    let ours = "# Pay\n\n[Snake](shared.md#snakecasename)\n";
    let plan = plan_in(
        &[("varar/shared.md", shared), ("varar/checkout.md", github)],
        "varar/checkout.md",
    );
    assert_eq!(plan.diagnostics[0].code, DiagnosticCode::ReferenceEmpty);
    let plan = plan_in(
        &[("varar/shared.md", shared), ("varar/checkout.md", ours)],
        "varar/checkout.md",
    );
    assert_eq!(&*plan.examples[0].steps[0].text, "I add 2");
}
