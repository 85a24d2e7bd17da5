//! Comparing runs, on records built as the harness writes them.

use std::collections::BTreeSet;

use varar_core::hash::sha256_hex;
use varar_core::record::{Outcome, ProcessRecord, RunRecord};

use super::*;
use varar_core::verdict::flaky::*;
use varar_core::verdict::records::{Code, ErrorRecord};
use varar_core::verdict::run_evidence::{FileNow, SourcesNow};
use varar_core::verdict::testing::{CONFIG, item, process};

const OVEN: &str = "# Oven\n\nThe oven warms up.\n\nI bake 2.\n";
const WARM: &str = "oven.md::Oven::The oven warms up";
const BAKE: &str = "oven.md::Oven::I bake 2";

/// A run of one process at `started` with `warm`'s attempts and a passing
/// `BAKE`.
fn run(id: &str, started: &str, warm: &[Option<Outcome>]) -> ProcessRecord {
    let mut items: Vec<_> = warm
        .iter()
        .enumerate()
        .map(|(n, o)| item(WARM, "oven.md", 3, n as u32 + 1, *o, None))
        .collect();
    items.push(item(BAKE, "oven.md", 5, 1, Some(Outcome::Passed), None));
    process(id, "p", started, &[("oven.md", OVEN)], items)
}

fn now(oven: &str) -> SourcesNow {
    SourcesNow {
        config: Some(FileNow::Sha256(sha256_hex(CONFIG.as_bytes()))),
        documents: [(
            "oven.md".to_owned(),
            FileNow::Sha256(sha256_hex(oven.as_bytes())),
        )]
        .into(),
    }
}

fn report(records: Vec<ProcessRecord>, options: FlakyOptions) -> FlakyReport {
    compare(
        (&RunRecord::combine(records), &BTreeSet::new()),
        &now(OVEN),
        options,
        Vec::new(),
    )
}

const P: Option<Outcome> = Some(Outcome::Passed);
const F: Option<Outcome> = Some(Outcome::Failed);

#[test]
fn an_item_that_fails_in_one_run_and_passes_in_another_is_flaky() {
    let r = report(
        vec![run("r1", "07:00:00", &[F]), run("r2", "08:00:00", &[P])],
        FlakyOptions::default(),
    );
    assert_eq!((r.status, r.exit_code), (FlakyStatus::Flaky, 1));
    let warm = &r.items[0];
    assert_eq!(warm.name, WARM, "flaky items come first");
    assert_eq!(
        (
            warm.runs,
            warm.attempts,
            warm.passes,
            warm.failures,
            warm.recovered
        ),
        (2, 2, 1, 1, 0)
    );
    let strip: Vec<_> = warm
        .history
        .iter()
        .map(|h| (h.run_id.as_str(), h.outcome))
        .collect();
    assert_eq!(
        strip,
        [("r1", ItemOutcome::Failed), ("r2", ItemOutcome::Passed)]
    );
    assert!(!r.items[1].flaky);
    let text = render_text(&r);
    assert!(
        text.starts_with("1 of 2 items flaky over 2 complete runs"),
        "{text}"
    );
    assert!(text.contains(&format!("FLAKY {WARM}")), "{text}");
}

#[test]
fn a_retry_that_recovers_is_a_mixture_within_one_run() {
    let r = report(
        vec![run("r1", "07:00:00", &[F, P]), run("r2", "08:00:00", &[P])],
        FlakyOptions::default(),
    );
    assert_eq!(r.exit_code, 1);
    let warm = &r.items[0];
    assert_eq!(
        (warm.attempts, warm.passes, warm.failures, warm.recovered),
        (3, 2, 1, 1)
    );
    assert_eq!(warm.history[0].outcome, ItemOutcome::Recovered);
}

#[test]
fn steady_outcomes_are_stable_even_when_they_always_fail() {
    let r = report(
        vec![run("r1", "07:00:00", &[F]), run("r2", "08:00:00", &[F])],
        FlakyOptions::default(),
    );
    assert_eq!((r.status, r.exit_code), (FlakyStatus::Stable, 0));
    assert!(r.items.iter().all(|i| !i.flaky));
}

#[test]
fn fewer_than_two_comparable_runs_is_exit_3_naming_what_was_left_out() {
    let mut unfinished = run("r0", "06:00:00", &[None]);
    unfinished.complete = false;
    let other = process(
        "r9",
        "p",
        "09:00:00",
        &[("oven.md", "# Oven, edited\n")],
        vec![item(WARM, "oven.md", 3, 1, F, None)],
    );
    let r = report(
        vec![unfinished, run("r1", "07:00:00", &[P]), other],
        FlakyOptions::default(),
    );
    assert_eq!((r.status, r.exit_code), (FlakyStatus::Insufficient, 3));
    assert_eq!(
        r.left_out,
        LeftOut {
            incomplete: 1,
            unreadable: 0,
            other_sources: 1,
            beyond_limit: 0
        }
    );
    assert_eq!(r.errors[0].code, Code::TooFewRuns);
    assert!(
        r.errors[0]
            .message
            .contains("(1 run found; left out: 1 incomplete, 1 of other sources)"),
        "{}",
        r.errors[0].message
    );
}

#[test]
fn runs_n_compares_the_newest_runs_only() {
    let records = vec![
        run("r1", "07:00:00", &[F]),
        run("r2", "08:00:00", &[P]),
        run("r3", "09:00:00", &[P]),
    ];
    let r = report(records.clone(), FlakyOptions { runs: Some(2) });
    assert_eq!(r.exit_code, 0, "the failing run is beyond --runs 2");
    assert_eq!(r.left_out.beyond_limit, 1);
    let ids: Vec<_> = r.runs.iter().map(|c| c.run_id.as_str()).collect();
    assert_eq!(ids, ["r2", "r3"]);
    assert_eq!(report(records, FlakyOptions::default()).exit_code, 1);
}

#[test]
fn a_changed_config_makes_a_run_of_other_sources() {
    let runs = RunRecord::combine(vec![
        run("r1", "07:00:00", &[F]),
        run("r2", "08:00:00", &[P]),
    ]);
    let mut changed = now(OVEN);
    changed.config = Some(FileNow::Sha256("0".repeat(64)));
    let r = compare(
        (&runs, &BTreeSet::new()),
        &changed,
        FlakyOptions::default(),
        Vec::new(),
    );
    assert_eq!((r.exit_code, r.left_out.other_sources), (3, 2));
}

#[test]
fn unreadable_evidence_is_exit_2_before_anything_else() {
    let runs = RunRecord::combine(vec![
        run("r1", "07:00:00", &[F]),
        run("r2", "08:00:00", &[P]),
    ]);
    let bad = ErrorRecord::new(Code::InvalidRun, "bad").with_path("x.run");
    let r = compare(
        (&runs, &BTreeSet::new()),
        &now(OVEN),
        FlakyOptions::default(),
        vec![bad],
    );
    assert_eq!((r.status, r.exit_code), (FlakyStatus::Error, 2));
    assert_eq!(r.errors.len(), 1);
}

#[test]
fn issue34_a_run_with_an_unreadable_record_is_never_evidence() {
    let runs = RunRecord::combine(vec![
        run("r1", "07:00:00", &[F]),
        run("r2", "08:00:00", &[P]),
        run("r3", "09:00:00", &[P]),
    ]);
    let partial = BTreeSet::from(["r1".to_owned()]);
    let r = compare(
        (&runs, &partial),
        &now(OVEN),
        FlakyOptions::default(),
        Vec::new(),
    );
    assert_eq!((r.status, r.exit_code), (FlakyStatus::Stable, 0), "{r:?}");
    assert_eq!(r.left_out.unreadable, 1);
    let strips = strips((&runs, &partial), &now(OVEN));
    assert!(strips.iter().all(|i| i.runs == 2), "{strips:?}");
    assert!(render_text(&r).contains("left out: 0 incomplete, 1 unreadable"));
}

#[test]
fn issue34_an_item_name_and_run_ids_with_controls_are_escaped() {
    let name = "oven.md::Oven::warm\n\u{1b}]0;owned\u{7}";
    let runs = ["r\u{202e}1", "r2\u{9b}"]
        .iter()
        .zip([F, P])
        .map(|(id, outcome)| {
            let items = vec![item(name, "oven.md", 3, 1, outcome, None)];
            process(id, "p", "07:00:00", &[("oven.md", OVEN)], items)
        })
        .collect();
    let text = render_text(&report(runs, FlakyOptions::default()));
    assert!(
        text.contains("(r\\u{202E}1 … r2\\u{009B})")
            || text.contains("(r2\\u{009B} … r\\u{202E}1)"),
        "{text}"
    );
    assert!(
        text.contains("FLAKY oven.md::Oven::warm\\u{000A}\\u{001B}]0;owned\\u{0007}\n"),
        "{text}"
    );
}
