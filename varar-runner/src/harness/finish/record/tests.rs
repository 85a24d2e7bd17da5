use super::*;
use varar_core::lock::LOCK_FILE_NAME;
use varar_core::record::Item;

/// A record as another writer would have put it on disk: read through the
/// strict reader, so these tests exercise the same path as a consumer. Its
/// one item, `a.md::x`, failed on attempt 1 if the record is complete; its
/// one document, `a.md`, has the digest `"a" * 64`.
fn record(run: &str, process: &str, started: &str, complete: bool) -> ProcessRecord {
    let ended = if complete {
        format!(r#""endedAt": "{started}","#)
    } else {
        String::new()
    };
    let outcome = if complete {
        r#""outcome": "failed", "durationMs": 2.5, "message": "boom","#
    } else {
        ""
    };
    let text = format!(
        r#"{{
  "version": 1, "format": "varar-run-record", "varar": "0.1.0",
  "runId": "{run}", "processId": "{process}", "complete": {complete},
  "startedAt": "{started}", {ended}
  "arguments": [],
  "options": {{ "update": false, "runtime": "built-in" }},
  "manifest": {{
    "documents": [{{ "path": "a.md", "sha256": "{sha}", "sourceHash": "fnv1a:00000000" }}],
    "reproducible": false, "limitations": []
  }},
  "items": [{{ "name": "a.md::x", "kind": "example", "oathPath": "a.md", "line": 3,
               {outcome} "attempt": 1 }}]
}}"#,
        sha = "a".repeat(64),
    );
    varar_core::record::parse_process_record(text.as_bytes())
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
}

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
    let (run, continuation) =
        rerun_of((runs, 0), "me", &current()).unwrap_or_else(|e| panic!("{e}"));
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
    let err = rerun_of((RunRecord::combine(vec![run]), 0), "me", &edited)
        .err()
        .unwrap_or_default();
    assert_eq!(err, "no complete run of the sources as they are now");
    let err = rerun_of((Vec::new(), 0), "me", &current())
        .err()
        .unwrap_or_default();
    assert_eq!(err, "there is no run record in .varar/");
    // Issue 34: records that could not be read are not "no record".
    let err = rerun_of((Vec::new(), 1), "me", &current())
        .err()
        .unwrap_or_default();
    assert_eq!(
        err,
        "there is no readable run record in .varar/.runs/ (1 record file could not be read: \
         see the warnings above)"
    );
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
    let (_, same) = rerun_of((runs, 0), "nextest-2", &current()).unwrap_or_else(|e| panic!("{e}"));
    assert!(same.items.contains("a.md::x"));
    assert_eq!(same.previous.get("a.md::x"), Some(&1));
    let runs = RunRecord::combine(vec![first, sibling]);
    let (_, later) = rerun_of((runs, 0), "me", &current()).unwrap_or_else(|e| panic!("{e}"));
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
            attempts: Vec::new(),
            finished: Finishes::default(),
            history: HistoryWriter::none(),
            lock_stamp: None,
            unrecorded: Cell::new(false),
            orphans: store::Orphans::since_ms(0),
            tidying: None,
        };
        let log = RunLog::default();
        let finished = recording.finish((&[], &log), None, Some(lock), Vec::new());
        assert_eq!(finished.lock.map(|s| s.is_ok()), Some(process == "wrote"));
        assert!(!finished.failed);
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

/// A history in `dir` with the default limits, made and marked (see
/// `store::History::open`).
fn history_in(dir: &Path) -> HistoryWriter {
    let history = varar_project::store::History {
        dir: dir.to_path_buf(),
        origin: varar_core::history::HistoryOrigin::Named,
        limits: varar_core::history::HistoryLimits::default(),
        project: dir.with_file_name("project"),
        target: dir.with_file_name("target"),
    };
    history.open().unwrap_or_else(|e| panic!("{e}"));
    HistoryWriter::at(history)
}

#[test]
fn issue34_a_record_that_varar_cannot_take_fails_the_run_and_the_history_keeps_it() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let root = dir.path().join("project");
    std::fs::create_dir_all(&root).unwrap_or_else(|e| panic!("{e}"));
    // `.varar/` made a file: nothing can be written under it.
    std::fs::write(root.join(".varar"), b"").unwrap_or_else(|e| panic!("{e}"));
    let history = dir.path().join("history");
    let recording = Recording {
        root: &root,
        record: record("run", "p1", STARTED, false),
        selected: Vec::new(),
        attempts: Vec::new(),
        finished: Finishes::default(),
        history: history_in(&history),
        lock_stamp: None,
        unrecorded: Cell::new(false),
        orphans: store::Orphans::since_ms(0),
        tidying: None,
    };
    assert!(recording.write(&[]).is_none());
    assert!(recording.unrecorded.get());
    let log = RunLog::default();
    let finished = recording.finish((&[], &log), None, None, Vec::new());
    assert!(finished.failed, "the run fails");
    let kept = store::read_history(&history);
    assert_eq!(kept.len(), 1, "the history keeps the end record: {kept:?}");
    assert!(kept[0].as_ref().is_ok_and(|r| r.complete));
}

#[test]
fn issue34_result_files_that_could_not_be_written_leave_the_record_incomplete() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let root = dir.path();
    let recording = Recording {
        root,
        record: record("run", "p1", STARTED, false),
        selected: Vec::new(),
        attempts: Vec::new(),
        finished: Finishes::default(),
        history: HistoryWriter::none(),
        lock_stamp: None,
        unrecorded: Cell::new(false),
        orphans: store::Orphans::since_ms(0),
        tidying: None,
    };
    let finished = recording.finish(
        (&[], &RunLog::default()),
        None,
        None,
        vec!["a.md".to_owned()],
    );
    assert!(finished.failed);
    let records: Vec<ProcessRecord> = store::read_records(root).into_iter().flatten().collect();
    assert_eq!(records.len(), 1);
    assert!(!records[0].complete, "an older reader refuses it too");
    assert!(records[0].ended_at.is_some() && records[0].ended());
    assert_eq!(records[0].unwritten, ["a.md"]);
}

#[test]
fn issue34_a_claim_is_given_back_when_the_run_stops_before_it_records_itself() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let root = dir.path();
    let run_dir = store::runs_dir(root).join("stopped");
    drop(Claim::new(root, "stopped"));
    assert!(!run_dir.exists(), "an early error leaves no unrecorded run");
    assert!(Claim::new(root, "kept").keep(), "the first process made it");
    assert!(store::runs_dir(root).join("kept").is_dir());
    assert!(!Claim::new(root, "kept").keep(), "a later process did not");
    assert!(store::runs_dir(root).join("kept").is_dir());
}
