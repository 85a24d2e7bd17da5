//! Each notice on the text that earns it, and the texts that must not get
//! one (issue 37). The plan itself stays the spec's: the tests say so
//! beside each notice.

use super::*;
use crate::plan::tests::registry;
use crate::registry::Role::{Sensor, Stimulus};

fn planned(text: &str, steps: &[(&str, Role)]) -> (Plan, Registry) {
    let registry = registry(steps);
    let source = Source::new(text);
    let doc = crate::parse::parse("t.md", &source);
    (crate::plan::plan(&doc, &source, &registry), registry)
}

/// Each notice as (kind, line, column, the source under its span).
fn found(text: &str, notices: &[Notice]) -> Vec<(NoticeKind, u32, u32, String)> {
    let source = Source::new(text);
    notices
        .iter()
        .map(|n| {
            let under = source.slice_utf16(n.span.start_offset, n.span.end_offset);
            (
                n.kind,
                n.span.start_line,
                n.span.start_col,
                under.to_string(),
            )
        })
        .collect()
}

const HEATING: &[(&str, Role)] = &[
    ("I set the target to {int} degrees", Stimulus),
    ("For each reading, the heater is state", Sensor),
];

#[test]
fn a_header_bound_paragraph_notes_each_step_it_drops() {
    let text = "# Heating\n\n\
I set the target to 21 degrees. For each reading, the heater is state.\n\n\
| reading | state |\n|---|---|\n| 19 | on |\n";
    let (plan, _) = planned(text, HEATING);
    assert_eq!(
        found(text, &plan.notices),
        [(
            NoticeKind::DroppedSteps,
            3,
            1,
            "I set the target to 21 degrees".to_string()
        )]
    );
    // The plan is the spec's: one row, running the last step alone.
    assert_eq!(plan.examples.len(), 1);
    assert_eq!(plan.examples[0].steps.len(), 1);
    let n = &plan.notices[0];
    assert!(n.message.contains("never runs"), "{}", n.message);
    assert!(n.fix.contains("a paragraph of its own"), "{}", n.fix);
}

#[test]
fn a_header_bound_paragraph_notes_its_ignored_error_fence() {
    let text = "# Heating\n\nFor each reading, the heater is state.\n\n\
| reading | state |\n|---|---|\n| 19 | on |\n\n```error\nboom\n```\n";
    let (plan, _) = planned(text, HEATING);
    assert_eq!(
        found(text, &plan.notices),
        [(
            NoticeKind::IgnoredErrorFence,
            9,
            1,
            "```error\nboom\n```".to_string()
        )]
    );
    assert_eq!(plan.examples[0].expected, Expectation::Pass);
    assert!(plan.diagnostics.is_empty());
}

#[test]
fn a_header_bound_table_without_rows_is_noted_at_the_table() {
    let text = "# Heating\n\nFor each reading, the heater is state.\n\n\
| reading | state |\n|---|---|\n";
    let (plan, _) = planned(text, HEATING);
    assert_eq!(
        found(text, &plan.notices),
        [(
            NoticeKind::HeaderBoundWithoutRows,
            5,
            1,
            "| reading | state |\n|---|---|".to_string()
        )]
    );
    assert!(
        plan.examples.is_empty(),
        "the sentence vanishes, as specified"
    );
}

#[test]
fn a_header_bound_paragraph_of_one_step_with_rows_is_not_noted() {
    let text = "# Heating\n\nFor each reading, the heater is state.\n\n\
| reading | state |\n|---|---|\n| 19 | on |\n| 22 | off |\n";
    let (plan, _) = planned(text, HEATING);
    assert_eq!(plan.notices, []);
    assert_eq!(plan.examples.len(), 2);
}

const BAKERY: &[(&str, Role)] = &[
    ("I put {int} croissants in the basket", Stimulus),
    ("the menu is:", Stimulus),
    ("I order these:", Stimulus),
    ("the total is {int}", Sensor),
];

const MENU: &str = "| item | price |\n|---|---|\n| croissant | 2 |\n";

#[test]
fn a_table_introduced_by_prose_but_handed_to_an_earlier_step_is_noted() {
    let text = format!("# Shop\n\nI put 2 croissants in the basket. Here is the menu:\n\n{MENU}");
    let (plan, _) = planned(&text, BAKERY);
    assert_eq!(
        found(&text, &plan.notices),
        [(
            NoticeKind::TableAttachedElsewhere,
            3,
            35,
            "Here is the menu:".to_string()
        )]
    );
    // Attached as the spec says: to the last step.
    assert!(plan.examples[0].steps[0].data_table.is_some());
    assert!(
        plan.notices[0]
            .message
            .contains("goes to \"I put 2 croissants in the basket\""),
        "{}",
        plan.notices[0].message
    );
}

#[test]
fn a_table_introduced_by_one_step_but_handed_to_a_later_one_is_noted() {
    let text = format!(
        "# Shop\n\nThe menu is:\n\n{MENU}\nThe menu is: I put 2 croissants in the basket. \
         And again the menu is:\nI put 2 croissants in the basket.\n\n{MENU}"
    );
    let (plan, _) = planned(&text, BAKERY);
    let notes = found(&text, &plan.notices);
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert_eq!(notes[0].0, NoticeKind::TableAttachedElsewhere);
    assert_eq!(notes[0].3, "And again the menu is:");
}

#[test]
fn a_table_after_the_sentence_that_takes_it_or_after_no_colon_is_not_noted() {
    for text in [
        format!("# Shop\n\nI put 2 croissants in the basket. I order these:\n\n{MENU}"),
        format!("# Shop\n\nI put 2 croissants in the basket.\n\n{MENU}"),
        // The colon's sentence holds the last step, whatever follows it.
        format!("# Shop\n\nThe menu is: a list.\n\n{MENU}"),
    ] {
        let (plan, _) = planned(&text, BAKERY);
        assert_eq!(plan.notices, [], "{text}");
    }
}

#[test]
fn an_example_of_stimuli_only_checks_nothing() {
    let text = "# Shop\n\nI put 2 croissants in the basket.\n";
    let (plan, registry) = planned(text, BAKERY);
    let notices = checks_nothing(&plan, &registry);
    assert_eq!(
        found(text, &notices),
        [(
            NoticeKind::ChecksNothing,
            3,
            1,
            "I put 2 croissants in the basket.".to_string()
        )]
    );
    assert!(!NoticeKind::ChecksNothing.is_quirk());
    assert_eq!(plan.notices, [], "not a quirk of planning");
}

#[test]
fn an_example_with_a_sensor_an_error_fence_or_row_checks_checks_something() {
    let stimulus_rows: &[(&str, Role)] = &[("For each reading, the heater is state", Stimulus)];
    for (text, steps) in [
        (
            "# Shop\n\nI put 2 croissants in the basket. the total is 4.\n",
            BAKERY,
        ),
        (
            "# Shop\n\nI put 2 croissants in the basket.\n\n```error\nfull\n```\n",
            BAKERY,
        ),
        (
            "# Heating\n\nFor each reading, the heater is state.\n\n\
             | reading | state |\n|---|---|\n| 19 | on |\n",
            stimulus_rows,
        ),
    ] {
        let (plan, registry) = planned(text, steps);
        assert!(!plan.examples.is_empty(), "{text}");
        assert_eq!(checks_nothing(&plan, &registry), [], "{text}");
    }
}

#[test]
fn a_long_sentence_is_quoted_bounded() {
    let long = "word ".repeat(200);
    let text = format!(
        "# Heating\n\nI set the target to 21 degrees {long}. For each reading, the heater is \
         state.\n\n| reading | state |\n|---|---|\n| 19 | on |\n"
    );
    let steps: &[(&str, Role)] = &[
        ("I set the target to {int} degrees {}", Stimulus),
        ("For each reading, the heater is state", Sensor),
    ];
    let (plan, _) = planned(&text, steps);
    let n = &plan.notices[0];
    assert_eq!(n.kind, NoticeKind::DroppedSteps);
    assert!(n.message.len() < 600, "{}", n.message.len());
    assert!(n.message.contains("bytes cut]"), "{}", n.message);
}
