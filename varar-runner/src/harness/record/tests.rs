use super::*;
use crate::store::runs::tests::record;

const STARTED: &str = "2026-12-01T07:00:00.000Z";

/// A record of `run` whose items are `(name, outcome, attempt)`.
fn with_items(
    run: &str,
    process: &str,
    started: &str,
    items: &[(&str, Option<Outcome>, u32)],
) -> ProcessRecord {
    let mut r = record(run, process, started, true);
    let template = r.items[0].clone();
    r.items = items
        .iter()
        .map(|&(name, outcome, attempt)| Item {
            name: name.into(),
            outcome,
            attempt,
            ..template.clone()
        })
        .collect();
    r
}

fn current() -> HashMap<String, String> {
    HashMap::from([("a.md".to_owned(), "a".repeat(64))])
}

#[test]
fn a_rerun_continues_the_latest_complete_run_of_the_current_sources() {
    let older = with_items("old", "p", "2026-12-01T06:00:00.000Z", &[]);
    let mut unfinished = with_items("busy", "p", "2026-12-01T08:00:00.000Z", &[]);
    unfinished.complete = false;
    let mut latest = with_items(
        "run",
        "p1",
        STARTED,
        &[
            ("a.md::passed", Some(Outcome::Passed), 1),
            ("a.md::failed", Some(Outcome::Failed), 2),
            ("a.md::never", None, 1),
        ],
    );
    latest.unselected = vec!["a.md::elsewhere".to_owned()];
    let runs = RunRecord::combine(vec![older, unfinished, latest]);
    let (run, continuation) = rerun_of(runs, "me", &current()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(run, "run");
    assert_eq!(
        continuation
            .items
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
        ["a.md::elsewhere", "a.md::failed", "a.md::never"],
        "what failed, and what did not run (unselected included)"
    );
    assert_eq!(continuation.previous.get("a.md::failed"), Some(&2));
    assert_eq!(continuation.previous.get("a.md::passed"), Some(&1));
    assert_eq!(continuation.group, "me");
}

#[test]
fn a_run_of_other_sources_is_not_continued() {
    let run = with_items(
        "run",
        "p",
        STARTED,
        &[("a.md::x", Some(Outcome::Failed), 1)],
    );
    let edited = HashMap::from([("a.md".to_owned(), "b".repeat(64))]);
    let err = rerun_of(RunRecord::combine(vec![run]), "me", &edited)
        .err()
        .unwrap_or_default();
    assert_eq!(err, "no complete run of the sources as they are now");
    let err = rerun_of(Vec::new(), "me", &current())
        .err()
        .unwrap_or_default();
    assert_eq!(err, "there is no run record in .varar/");
}

#[test]
fn the_processes_of_this_invocation_do_not_decide_what_it_reruns() {
    // The first nextest process of a rerun has already written its
    // record into the run: the next process must still see the run as
    // it was before the rerun began.
    let first = with_items(
        "run",
        "p1",
        STARTED,
        &[("a.md::x", Some(Outcome::Failed), 1)],
    );
    let mut sibling = with_items(
        "run",
        "p2",
        "2026-12-01T07:05:00.000Z",
        &[("a.md::x", Some(Outcome::Passed), 2)],
    );
    sibling.rerun = Some(RerunOf {
        mode: "failed".to_owned(),
        group: "nextest-2".to_owned(),
    });
    let runs = RunRecord::combine(vec![first.clone(), sibling.clone()]);
    let (_, same) = rerun_of(runs, "nextest-2", &current()).unwrap_or_else(|e| panic!("{e}"));
    assert!(same.items.contains("a.md::x"));
    assert_eq!(same.previous.get("a.md::x"), Some(&1));
    let runs = RunRecord::combine(vec![first, sibling]);
    let (_, later) = rerun_of(runs, "me", &current()).unwrap_or_else(|e| panic!("{e}"));
    assert!(later.items.is_empty(), "a later rerun sees it recovered");
    assert_eq!(later.previous.get("a.md::x"), Some(&2));
}

#[test]
fn the_record_names_the_lock_it_wrote_or_the_one_on_disk_when_that_write_failed() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let root = dir.path();
    std::fs::write(root.join(LOCK_FILE_NAME), "{}\n").unwrap_or_else(|e| panic!("{e}"));
    let on_disk = varar_core::hash::sha256_hex(b"{}\n");
    let written = "b".repeat(64);
    let failed = || StoreError::Write {
        path: root.join(LOCK_FILE_NAME),
        source: std::io::Error::other("disk full"),
    };
    for (process, lock, named) in [
        ("wrote", LockSave::ended(&written, Ok(true)), &written),
        ("failed", LockSave::ended(&written, Err(failed())), &on_disk),
    ] {
        let recording = Recording {
            root,
            record: record("run", process, STARTED, false),
            selected: Vec::new(),
            history: HistoryWriter::none(),
            lock_stamp: None,
            orphans: store::Orphans::since_ms(0),
            tidying: None,
        };
        let saved = recording.finish(&RunLog::default(), None, Some(lock));
        assert_eq!(saved.map(|s| s.is_ok()), Some(process == "wrote"));
        let records = store::read_records(root);
        let record = records
            .iter()
            .flatten()
            .find(|r| r.process_id == process)
            .unwrap_or_else(|| panic!("no record of {process}: {records:?}"));
        assert!(record.complete);
        let lock_after = record
            .manifest
            .lock_after
            .as_ref()
            .map(|l| l.sha256.as_str());
        assert_eq!(lock_after, Some(named.as_str()), "{process}");
    }
}
