//! The run's standing, on records built as the harness writes them.

use std::collections::BTreeSet;

use crate::record::Outcome;
use crate::results::{ExampleResult, Status};

use super::*;
use crate::verdict::run_evidence::{ElsewhereRecord, RunDir};
use crate::verdict::testing::{evidence_of, item, process};

const A: &str = "# A\n\nI add 2.\n";
const X: &str = "a.md::A::x";
const Y: &str = "a.md::A::y";

fn against(expected: &BTreeSet<String>) -> Against<'_> {
    Against {
        expected,
        sources: true,
    }
}

fn codes(problems: &[ErrorRecord]) -> Vec<Code> {
    problems.iter().map(|e| e.code).collect()
}

/// A complete run `run` started at `started` (`HH:MM:SS`) whose items
/// passed, with its directory as the store lists it.
fn passing(run: &str, started: &str) -> (crate::record::ProcessRecord, RunDir) {
    let record = process(
        run,
        "p",
        started,
        &[("a.md", A)],
        vec![
            item(X, "a.md", 3, 1, Some(Outcome::Passed), None),
            item(Y, "a.md", 5, 1, Some(Outcome::Passed), None),
        ],
    );
    let dir = RunDir {
        name: run.to_owned(),
        modified: Some(format!("2026-12-01T{started}.600Z")),
        run_ids: [run.to_owned()].into(),
        ..RunDir::default()
    };
    (record, dir)
}

/// A run directory `name`, last written at `at` (`HH:MM:SS`), holding one
/// record that cannot be read.
fn broken(name: &str, at: &str) -> RunDir {
    RunDir {
        name: name.to_owned(),
        modified: Some(format!("2026-12-01T{at}.000Z")),
        unreadable: vec![
            ErrorRecord::new(
                Code::InvalidRun,
                format!("`.varar/.runs/{name}/p.run` is not a valid run record: EOF"),
            )
            .with_path(format!(".varar/.runs/{name}/p.run")),
        ],
        ..RunDir::default()
    }
}

fn example(name: &str) -> ExampleResult {
    ExampleResult {
        name: name.to_owned(),
        status: Status::Passed,
        lines: vec![3],
        failure: None,
    }
}

#[test]
fn issue34_an_unreadable_record_of_an_earlier_run_is_a_warning_not_a_block() {
    let (latest, dir) = passing("new", "08:00:00");
    let mut e = evidence_of(vec![latest]);
    e.dirs = vec![broken("old", "07:00:00"), dir];
    let s = e.standing(against(&BTreeSet::new()));
    assert_eq!(s.standing, Standing::Complete, "{s:?}");
    assert!(s.judgeable());
    assert_eq!(s.run_id.as_deref(), Some("new"));
    assert_eq!(codes(&s.warnings), [Code::InvalidRun]);
    let w = &s.warnings[0];
    assert_eq!(w.path.as_deref(), Some(".varar/.runs/old/p.run"));
    assert!(
        w.message.ends_with(
            "a record of an earlier run (its directory was last written at \
             2026-12-01T07:00:00.000Z, before the latest run `new` started at \
             2026-12-01T08:00:00.000Z): it is left out, and the next full run removes it (or \
             delete it)"
        ),
        "{w:?}"
    );
    assert_eq!(s.draws, Draws::All);
}

#[test]
fn issue34_an_unreadable_record_that_may_be_the_latest_runs_blocks_the_gate() {
    // Written after the latest readable run started: it may be later.
    let (latest, dir) = passing("new", "08:00:00");
    let mut e = evidence_of(vec![latest.clone()]);
    e.dirs = vec![broken("later", "08:30:00"), dir.clone()];
    let s = e.standing(against(&BTreeSet::new()));
    assert_eq!(s.standing, Standing::Unreadable);
    assert_eq!(codes(&s.problems), [Code::InvalidRun]);
    assert!(
        s.problems[0]
            .message
            .contains("it may be a record of the latest run (its directory was written at"),
        "{:?}",
        s.problems
    );
    assert_eq!(
        s.run_id, None,
        "the latest readable run may not be the latest"
    );
    assert_eq!(s.draws, Draws::Nothing);
    // A record of the latest run itself.
    let mut e = evidence_of(vec![latest]);
    let mut own = broken("new", "07:00:00");
    own.run_ids = dir.run_ids;
    e.dirs = vec![own];
    let s = e.standing(against(&BTreeSet::new()));
    assert_eq!(codes(&s.problems), [Code::InvalidRun]);
    assert!(
        s.problems[0]
            .message
            .contains("it is a record of the latest run (`new`)"),
        "{:?}",
        s.problems
    );
    // No readable run at all: every broken record may be the latest.
    let mut e = RunEvidence::none();
    e.dirs = vec![broken("only", "07:00:00")];
    let s = e.standing(against(&BTreeSet::new()));
    assert_eq!(codes(&s.problems), [Code::InvalidRun]);
}

#[test]
fn issue34_a_later_run_directory_without_a_record_is_an_unrecorded_run() {
    let (latest, dir) = passing("new", "08:00:00");
    let empty = |name: &str, at: &str| RunDir {
        name: name.to_owned(),
        modified: Some(format!("2026-12-01T{at}.000Z")),
        ..RunDir::default()
    };
    let mut e = evidence_of(vec![latest]);
    e.dirs = vec![empty("killed", "09:00:00"), dir.clone()];
    let s = e.standing(against(&BTreeSet::new()));
    assert_eq!(s.standing, Standing::Unrecorded);
    assert_eq!(codes(&s.problems), [Code::UnrecordedRun]);
    assert_eq!(s.problems[0].path.as_deref(), Some(".varar/.runs/killed"));
    assert!(
        s.problems[0]
            .message
            .contains("a full disk, a file-size limit"),
        "{:?}",
        s.problems
    );
    // An earlier one, or one that holds someone else's files, is not.
    e.dirs = vec![empty("died-long-ago", "07:00:00"), dir.clone()];
    assert!(e.standing(against(&BTreeSet::new())).judgeable());
    let mut foreign = empty("notes", "09:00:00");
    foreign.foreign = true;
    e.dirs = vec![foreign, dir];
    assert!(e.standing(against(&BTreeSet::new())).judgeable());
    // With no readable run, an empty directory is the latest run.
    let mut none = RunEvidence::none();
    none.dirs = vec![empty("killed", "09:00:00")];
    let s = none.standing(against(&BTreeSet::new()));
    assert_eq!(codes(&s.problems), [Code::UnrecordedRun]);
}

#[test]
fn issue34_a_record_only_the_history_holds_is_an_unrecorded_run() {
    let (latest, dir) = passing("new", "08:00:00");
    let mut e = evidence_of(vec![latest]);
    e.dirs = vec![dir];
    e.elsewhere = vec![ElsewhereRecord {
        path: "target/varar/history/later/p.run".to_owned(),
        run_id: "later".to_owned(),
        process_id: "p".to_owned(),
        started_at: "2026-12-01T09:00:00.000Z".to_owned(),
    }];
    let s = e.standing(against(&BTreeSet::new()));
    assert_eq!(s.standing, Standing::Unrecorded);
    assert_eq!(
        s.problems[0].path.as_deref(),
        Some("target/varar/history/later/p.run")
    );
    assert!(
        s.problems[0]
            .message
            .contains("which `.varar/.runs` does not: the run could not write to `.varar/`"),
        "{:?}",
        s.problems
    );
}

#[test]
fn issue34_result_files_the_run_could_not_write_are_unrecorded_and_not_drawn() {
    let (mut latest, dir) = passing("new", "08:00:00");
    latest.complete = false;
    latest.unwritten = vec!["a.md".to_owned()];
    let mut e = evidence_of(vec![latest]);
    e.dirs = vec![dir];
    let s = e.standing(against(&BTreeSet::new()));
    assert_eq!(s.standing, Standing::Unrecorded);
    assert_eq!(
        codes(&s.problems),
        [Code::UnrecordedRun],
        "not `never reached its end`: {:?}",
        s.problems
    );
    assert_eq!(s.problems[0].path.as_deref(), Some(".varar/a.md.json"));
    assert_eq!(s.problems[0].oath_path.as_deref(), Some("a.md"));
    assert!(!s.draws_oath("a.md"));
}

#[test]
fn issue34_a_killed_run_vouches_for_no_result_and_a_partial_one_for_what_ended() {
    // Killed: the start record only, no item ended.
    let mut killed = process(
        "cut",
        "p",
        "08:00:00",
        &[("a.md", A)],
        vec![
            item(X, "a.md", 3, 1, None, None),
            item(Y, "a.md", 5, 1, None, None),
        ],
    );
    killed.complete = false;
    killed.ended_at = None;
    let e = evidence_of(vec![killed]);
    let s = e.standing(against(&BTreeSet::new()));
    assert_eq!(s.standing, Standing::Incomplete);
    assert_eq!(s.run_id.as_deref(), Some("cut"));
    assert!(!s.draws_oath("a.md"));
    let run = e.latest.as_ref();
    assert!(!s.draws_example(run, "a.md", &example("x")));
    // One example run alone (an editor's ▶ Run): that example is vouched
    // for, its oath (whose other item did not run) is not.
    let mut one = process(
        "one",
        "p",
        "09:00:00",
        &[("a.md", A)],
        vec![item(X, "a.md", 3, 1, Some(Outcome::Passed), None)],
    );
    one.unselected = vec![Y.to_owned()];
    let e = evidence_of(vec![one]);
    let s = e.standing(against(&BTreeSet::new()));
    // Only the selection left `y` out (issue 37).
    assert_eq!(s.standing, Standing::Filtered);
    let run = e.latest.as_ref();
    assert!(!s.draws_oath("a.md"));
    assert!(s.draws_example(run, "a.md", &example("x")));
    assert!(!s.draws_example(run, "a.md", &example("y")));
    assert!(
        s.headline()
            .starts_with("the latest run is filtered: the latest run (`one`) did not select 1 item of `a.md` (`a.md::A::y`): a filter left it out"),
        "{}",
        s.headline()
    );
}

#[test]
fn issue34_a_tree_of_another_checkout_is_not_compared_with_the_files_here() {
    let (latest, dir) = passing("new", "08:00:00");
    let mut e = evidence_of(vec![latest]);
    e.dirs = vec![dir];
    e.now = Default::default();
    let judged = e.standing(Against {
        expected: &BTreeSet::new(),
        sources: false,
    });
    assert!(judged.judgeable(), "{judged:?}");
    assert_eq!(
        e.standing(against(&BTreeSet::new())).standing,
        Standing::Stale
    );
}

#[test]
fn issue37_a_run_a_filter_cut_short_is_filtered_for_the_gate_and_for_history() {
    let mut run = process(
        "f",
        "p",
        "09:00:00",
        &[("a.md", A)],
        vec![item(X, "a.md", 3, 1, Some(Outcome::Failed), Some("no"))],
    );
    run.arguments = vec!["A::x".to_owned()];
    run.unselected = vec![Y.to_owned()];
    let e = evidence_of(vec![run.clone()]);
    let s = e.standing(against(&BTreeSet::new()));
    assert_eq!(s.standing, Standing::Filtered);
    // Refused as an incomplete run is: the code and the exit stay.
    assert_eq!(codes(&s.problems), [Code::IncompleteRun]);
    assert!(
        s.problems[0]
            .message
            .contains("did not select 1 item of `a.md` (`a.md::A::y`): a filter left it out"),
        "{:?}",
        s.problems
    );
    let latest = e.latest.as_ref().unwrap_or_else(|| panic!("a run"));
    assert_eq!(Standing::of_run(latest), Standing::Filtered);

    // The same selection under nextest, with a failure: fail-fast may have
    // cancelled `y`, so it is incomplete.
    run.nextest = Some(crate::record::NextestRun {
        run_id: "f".to_owned(),
        attempt: None,
        total_attempts: None,
        test_name: None,
    });
    let e = evidence_of(vec![run.clone()]);
    assert_eq!(
        e.standing(against(&BTreeSet::new())).standing,
        Standing::Incomplete
    );
    // A process that never ended is incomplete, whatever its filter.
    run.nextest = None;
    run.complete = false;
    run.ended_at = None;
    let e = evidence_of(vec![run]);
    assert_eq!(
        e.standing(against(&BTreeSet::new())).standing,
        Standing::Incomplete
    );
}
