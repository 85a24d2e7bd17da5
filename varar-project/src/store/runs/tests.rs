use std::path::{Path, PathBuf};

use super::*;
use varar_core::record::Outcome;

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"))
}

/// A run that begins now.
fn now() -> Orphans {
    Orphans::since(std::time::SystemTime::now())
}

/// A record as another writer would have put it on disk: read through the
/// strict reader, so these tests exercise the same path as a consumer. Its
/// one item, `a.md::x`, failed on attempt 1 if the record is complete; its
/// one document, `a.md`, has the digest `"a" * 64`.
pub(crate) fn record(run: &str, process: &str, started: &str, complete: bool) -> ProcessRecord {
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
    parse_process_record(text.as_bytes()).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn read_ok(root: &Path) -> Vec<ProcessRecord> {
    read_records(root)
        .into_iter()
        .map(|r| r.unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

#[test]
fn a_process_record_is_written_at_its_start_and_replaced_at_its_end() {
    let dir = tmp();
    let start = record("run-1", "p1", "2026-12-01T07:00:00.000Z", false);
    let written = write_process_record(dir.path(), &start).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(written.path, dir.path().join(".varar/.runs/run-1/p1.run"));
    assert!(
        written.new_run,
        "the run's first record creates its directory"
    );
    assert_eq!(read_ok(dir.path()), [start]);
    let end = record("run-1", "p1", "2026-12-01T07:00:00.000Z", true);
    let written = write_process_record(dir.path(), &end).unwrap_or_else(|e| panic!("{e}"));
    assert!(!written.new_run, "its end finds the run's directory");
    let back = read_ok(dir.path());
    assert_eq!(back, [end]);
    assert_eq!(back[0].items[0].outcome, Some(Outcome::Failed));
    assert!(
        dir.path().join(".varar/.gitignore").exists(),
        "the scratch directory is created as results create it"
    );
}

#[test]
fn only_the_first_record_of_a_run_is_its_news() {
    let dir = tmp();
    let new_run = |run: &str, process: &str| {
        let r = record(run, process, "2026-12-01T07:00:00.000Z", false);
        write_process_record(dir.path(), &r).map_or_else(|e| panic!("{e}"), |w| w.new_run)
    };
    assert!(new_run("run-1", "p1"), "no .varar/ yet");
    assert!(!new_run("run-1", "p2"), "another process of the run");
    assert!(!new_run("run-1", "p1"), "the same process again");
    assert!(new_run("run-2", "p1"), "another run");
}

#[test]
fn ids_from_the_environment_never_leave_their_directory() {
    assert_eq!(file_name_of("../../etc/passwd"), "_.._etc_passwd");
    assert_eq!(file_name_of("..."), "_");
    assert_eq!(file_name_of(""), "_");
    assert_eq!(
        file_name_of("0b1a-run id/2"),
        "0b1a-run_id_2",
        "nextest's uuid-like ids stay readable"
    );
    let dir = tmp();
    let sneaky = record("../../escape", "../p", "2026-12-01T07:00:00.000Z", false);
    let path = write_process_record(dir.path(), &sneaky)
        .unwrap_or_else(|e| panic!("{e}"))
        .path;
    assert!(path.starts_with(runs_dir(dir.path())), "{}", path.display());
}

#[test]
fn a_record_that_cannot_be_read_is_reported_by_path_and_left_alone() {
    let dir = tmp();
    let good = record("run-1", "p1", "2026-12-01T07:00:00.000Z", true);
    write_process_record(dir.path(), &good).unwrap_or_else(|e| panic!("{e}"));
    let bad = runs_dir(dir.path()).join("run-1/p0.run");
    std::fs::write(&bad, b"{ \"version\": 1, truncated").unwrap_or_else(|e| panic!("{e}"));
    let future = runs_dir(dir.path()).join("run-1/p9.run");
    std::fs::write(
        &future,
        br#"{ "version": 7, "format": "varar-run-record" }"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let found = read_records(dir.path());
    assert_eq!(found.len(), 3, "{found:?}");
    let error = found[0]
        .as_ref()
        .err()
        .unwrap_or_else(|| panic!("{found:?}"));
    assert_eq!(error.path(), bad);
    assert!(!error.is_unknown_version());
    assert!(error.to_string().contains("p0.run"), "{error}");
    assert_eq!(found[1].as_ref().ok(), Some(&good));
    assert!(
        found[2]
            .as_ref()
            .is_err_and(RecordFileError::is_unknown_version)
    );

    // Another process of the run writes its own file; the broken one stays
    // as it was, for a human to look at.
    let other = record("run-1", "p2", "2026-12-01T07:00:01.000Z", true);
    write_process_record(dir.path(), &other).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        std::fs::read(&bad).unwrap_or_default(),
        b"{ \"version\": 1, truncated"
    );
}

#[test]
fn other_files_in_the_runs_directory_are_not_records() {
    let dir = tmp();
    write_process_record(
        dir.path(),
        &record("run-1", "p1", "2026-12-01T07:00:00.000Z", true),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let runs = runs_dir(dir.path());
    std::fs::write(runs.join("README"), b"notes").unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(runs.join("run-1/p1.run.tmp"), b"{").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(read_ok(dir.path()).len(), 1);
}

#[test]
fn concurrent_processes_of_one_run_keep_valid_records() {
    let dir = tmp();
    let root = dir.path().to_path_buf();
    let writers: Vec<_> = (0..8)
        .map(|n| {
            let root = root.clone();
            std::thread::spawn(move || {
                for round in 0..20 {
                    let r = record(
                        "run-1",
                        &format!("p{n}"),
                        "2026-12-01T07:00:00.000Z",
                        round % 2 == 1,
                    );
                    write_process_record(&root, &r).unwrap_or_else(|e| panic!("{e}"));
                }
            })
        })
        .collect();
    for w in writers {
        w.join().unwrap_or_else(|_| panic!("a writer panicked"));
    }
    let all = read_ok(&root);
    assert_eq!(all.len(), 8);
    assert!(
        all.iter().all(|r| r.complete),
        "each ended with its last write"
    );
}

#[test]
fn a_full_run_removes_complete_runs_that_started_before_it_only() {
    let dir = tmp();
    let root = dir.path();
    for (run, process, started, complete) in [
        ("old", "p", "2026-12-01T06:00:00.000Z", true),
        ("old", "q", "2026-12-01T06:01:00.000Z", true),
        ("busy", "p", "2026-12-01T06:30:00.000Z", true),
        ("busy", "q", "2026-12-01T06:31:00.000Z", false),
        ("new", "p", "2026-12-01T07:00:00.000Z", true),
        ("later", "p", "2026-12-01T08:00:00.000Z", true),
    ] {
        write_process_record(root, &record(run, process, started, complete))
            .unwrap_or_else(|e| panic!("{e}"));
    }
    let headers: Vec<RecordHeader> = read_other_headers(root, "new", |_| None)
        .into_iter()
        .map(|h| h.unwrap_or_else(|e| panic!("{e}")))
        .collect();
    assert_eq!(headers.len(), 5, "every process of the other runs");
    remove_runs_before(
        root,
        &headers,
        &[],
        "new",
        "2026-12-01T07:00:00.000Z",
        &now(),
    );
    let mut left: Vec<String> = RunRecord::combine(read_ok(root))
        .into_iter()
        .map(|r| r.run_id)
        .collect();
    left.sort();
    assert_eq!(
        left,
        ["busy", "later", "new"],
        "a run still being written and a later run stay"
    );
}

#[test]
fn pruning_keeps_the_newest_complete_runs_and_every_incomplete_one() {
    let dir = tmp();
    let root = dir.path();
    let total = KEPT_RUNS + 3;
    for n in 0..total {
        let started = format!("2026-12-01T07:{n:02}:00.000Z");
        let complete = n != 0;
        write_process_record(
            root,
            &record(&format!("run-{n:02}"), "p", &started, complete),
        )
        .unwrap_or_else(|e| panic!("{e}"));
    }
    let runs = RunRecord::combine(read_ok(root));
    prune_runs(root, &runs, "run-00", &now());
    let mut left: Vec<String> = RunRecord::combine(read_ok(root))
        .into_iter()
        .map(|r| r.run_id)
        .collect();
    left.sort();
    let mut want: Vec<String> = (total - KEPT_RUNS..total)
        .map(|n| format!("run-{n:02}"))
        .collect();
    want.insert(0, "run-00".to_owned());
    assert_eq!(left, want);
}

#[test]
fn a_record_write_leaves_its_runs_orphans_to_the_runs_pruning() {
    use std::time::{Duration, SystemTime};
    let dir = tmp();
    let root = dir.path();
    let old = record("old", "p", "2026-12-01T06:00:00.000Z", true);
    let path = write_process_record(root, &old)
        .unwrap_or_else(|e| panic!("{e}"))
        .path;
    let run_dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    // What a process killed mid-write leaves: one of our temporaries, long
    // past the age at which a result file's directory sweeps it.
    let orphan = run_dir.join(format!("{}killed", crate::store::TEMP_PREFIX));
    let file = std::fs::File::create(&orphan).unwrap_or_else(|e| panic!("{e}"));
    let long_ago = SystemTime::now() - crate::store::STALE_TEMPORARY - Duration::from_secs(60);
    file.set_modified(long_ago)
        .unwrap_or_else(|e| panic!("{e}"));
    write_process_record(root, &record("old", "q", "2026-12-01T06:01:00.000Z", true))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        orphan.exists(),
        "a record write does not list its run's directory (one record per process)"
    );
    assert_eq!(read_ok(root).len(), 2, "the orphan is no record");
    let headers: Vec<RecordHeader> = read_other_headers(root, "new", |_| None)
        .into_iter()
        .map(|h| h.unwrap_or_else(|e| panic!("{e}")))
        .collect();
    remove_runs_before(
        root,
        &headers,
        &[],
        "new",
        "2026-12-01T07:00:00.000Z",
        &now(),
    );
    assert!(!run_dir.exists(), "the orphan goes with its run");
}

#[test]
fn issue34_a_claimed_run_directory_exists_before_any_record_of_it() {
    let dir = tmp();
    let root = dir.path();
    assert!(claim_run_dir(root, "run/1").unwrap_or_else(|e| panic!("{e}")));
    assert!(runs_dir(root).join("run_1").is_dir());
    assert!(
        root.join(".varar/.gitignore").is_file(),
        "made with .varar/"
    );
    assert!(!claim_run_dir(root, "run/1").unwrap_or_else(|e| panic!("{e}")));
    let r = record("run/1", "p1", "2026-12-01T07:00:00.000Z", false);
    let written = write_process_record(root, &r).unwrap_or_else(|e| panic!("{e}"));
    assert!(!written.new_run, "the claim made it");
    // A `.varar/` that is a file: nothing can be claimed.
    let blocked = tmp();
    std::fs::write(blocked.path().join(".varar"), b"").unwrap_or_else(|e| panic!("{e}"));
    assert!(claim_run_dir(blocked.path(), "run-1").is_err());
}

#[test]
fn issue34_a_released_claim_takes_back_the_scratch_directory_it_made_and_nothing_else() {
    // A run stopped by its settings leaves no `.varar/` behind.
    let dir = tmp();
    let root = dir.path();
    assert!(claim_run_dir(root, "run-1").unwrap_or_else(|e| panic!("{e}")));
    release_run_dir(root, "run-1");
    assert!(!root.join(".varar").exists(), "the claim's .varar/ is gone");
    // A `.varar/` that holds anything else stays, and so does that.
    assert!(claim_run_dir(root, "run-2").unwrap_or_else(|e| panic!("{e}")));
    std::fs::write(root.join(".varar/a.md.json"), b"{}").unwrap_or_else(|e| panic!("{e}"));
    release_run_dir(root, "run-2");
    assert!(!runs_dir(root).exists(), "the empty .runs/ goes");
    assert!(root.join(".varar/a.md.json").is_file());
    assert!(root.join(".varar/.gitignore").is_file());
    // A run directory that holds something is never released.
    assert!(claim_run_dir(root, "run-3").unwrap_or_else(|e| panic!("{e}")));
    let record = runs_dir(root).join("run-3/p.run");
    std::fs::write(&record, b"{").unwrap_or_else(|e| panic!("{e}"));
    release_run_dir(root, "run-3");
    assert!(record.is_file());
}

#[test]
fn issue34_run_directories_are_read_with_their_time_their_records_and_what_else_they_hold() {
    let dir = tmp();
    let root = dir.path();
    let good = record("run-1", "p1", "2026-12-01T07:00:00.000Z", true);
    write_process_record(root, &good).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(runs_dir(root).join("run-1/p0.run"), b"{").unwrap_or_else(|e| panic!("{e}"));
    claim_run_dir(root, "empty").unwrap_or_else(|e| panic!("{e}"));
    let killed = runs_dir(root).join("killed");
    std::fs::create_dir_all(&killed).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(killed.join(format!("{TEMP_PREFIX}x")), b"{\n  \"vers")
        .unwrap_or_else(|e| panic!("{e}"));
    let other = runs_dir(root).join("other");
    std::fs::create_dir_all(&other).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(other.join("notes.txt"), b"mine").unwrap_or_else(|e| panic!("{e}"));
    let dirs = read_run_dirs_in(&scratch_dir(root)).unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<&str> = dirs.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names, ["empty", "killed", "other", "run-1"]);
    assert!(dirs.iter().all(|d| d.modified.is_some()));
    let shape: Vec<(usize, usize, bool)> = dirs
        .iter()
        .map(|d| {
            let ok = d.records.iter().filter(|r| r.is_ok()).count();
            (ok, d.records.len() - ok, d.foreign)
        })
        .collect();
    assert_eq!(
        shape,
        [(0, 0, false), (0, 0, false), (0, 0, true), (1, 1, false)],
        "a temporary of ours is not foreign; a file of someone else's is"
    );
    assert!(
        read_run_dirs_in(&root.join("nowhere"))
            .unwrap_or_else(|e| panic!("{e}"))
            .is_empty()
    );
}

#[test]
fn issue34_a_full_run_prunes_an_older_runs_unreadable_record_and_nothing_newer() {
    use std::time::{Duration, SystemTime};
    let dir = tmp();
    let root = dir.path();
    let runs = runs_dir(root);
    let age = |path: &Path, ago: u64| {
        let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{e}"));
        file.set_modified(SystemTime::now() - Duration::from_secs(ago))
            .unwrap_or_else(|e| panic!("{e}"));
    };
    // What a user (or a checkout) put beside an older run's broken record.
    let foreign = runs.join("broken-foreign").join("evidence.pdf");
    std::fs::create_dir_all(runs.join("broken-foreign")).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(&foreign, b"mine").unwrap_or_else(|e| panic!("{e}"));
    let broken = [
        ("broken-old", 3600),
        ("broken-new", 0),
        ("busy", 3600),
        ("broken-foreign", 3600),
    ];
    for (name, ago) in broken {
        std::fs::create_dir_all(runs.join(name)).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(runs.join(name).join("p.run"), b"{\"vers").unwrap_or_else(|e| panic!("{e}"));
        age(&runs.join(name), ago);
    }
    // `busy` also holds a readable record of a run still being written.
    let busy = record("busy", "q", "2020-01-01T00:00:00.000Z", false);
    write_process_record(root, &busy).unwrap_or_else(|e| panic!("{e}"));
    age(&runs.join("busy"), 3600);
    let found = read_other_headers(root, "new", |_| None);
    let (headers, unreadable): (Vec<_>, Vec<_>) = found.into_iter().partition(Result::is_ok);
    let headers: Vec<RecordHeader> = headers.into_iter().flatten().collect();
    let unreadable: Vec<PathBuf> = unreadable
        .into_iter()
        .filter_map(|e| e.err().map(|e| e.path().to_path_buf()))
        .collect();
    assert_eq!(unreadable.len(), 4);
    let runs_changed = modified_at(&runs).unwrap_or_default();
    let minute_ago = varar_core::time::rfc3339_millis(
        u64::try_from(
            (SystemTime::now() - Duration::from_secs(60))
                .duration_since(SystemTime::UNIX_EPOCH)
                .map_or(0, |d| d.as_millis()),
        )
        .unwrap_or(0),
    );
    assert!(minute_ago < runs_changed);
    remove_runs_before(root, &headers, &unreadable, "new", &minute_ago, &now());
    assert!(!runs.join("broken-old").exists(), "older than this run");
    assert!(runs.join("broken-new").exists(), "written after it started");
    assert!(runs.join("busy").exists(), "a run still being written");
    assert!(
        foreign.exists() && runs.join("broken-foreign/p.run").exists(),
        "an older run's directory holding anything else stays whole"
    );
}

/// The headers of every run but `new`.
fn other_headers(root: &Path) -> Vec<RecordHeader> {
    read_other_headers(root, "new", |_| None)
        .into_iter()
        .map(|h| h.unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

#[test]
fn issue34_pruning_runs_leaves_a_run_directory_holding_a_foreign_file() {
    let dir = tmp();
    let root = dir.path();
    for run in ["old", "older"] {
        write_process_record(root, &record(run, "p", "2026-12-01T06:00:00.000Z", true))
            .unwrap_or_else(|e| panic!("{e}"));
    }
    // What a user (or a checkout) put there.
    let foreign = runs_dir(root).join("old").join("evidence.pdf");
    std::fs::write(&foreign, "mine").unwrap_or_else(|e| panic!("{e}"));
    remove_runs_before(
        root,
        &other_headers(root),
        &[],
        "new",
        "2026-12-01T07:00:00.000Z",
        &now(),
    );
    assert!(
        foreign.exists(),
        "a run directory holding anything else stays"
    );
    assert!(runs_dir(root).join("old/p.run").exists(), "whole");
    assert!(!runs_dir(root).join("older").exists(), "ours goes");
    // Nor by age.
    for n in 0..KEPT_RUNS + 2 {
        write_process_record(
            root,
            &record(&format!("r{n:02}"), "p", "2026-12-01T08:00:00.000Z", true),
        )
        .unwrap_or_else(|e| panic!("{e}"));
    }
    // The oldest of all, by its directory's time.
    std::fs::File::open(runs_dir(root).join("old"))
        .and_then(|d| d.set_modified(std::time::SystemTime::UNIX_EPOCH))
        .unwrap_or_else(|e| panic!("{e}"));
    prune_oldest_runs(root, "new", &now());
    assert!(foreign.exists());
    assert!(
        !runs_dir(root).join("r00").exists(),
        "ours beyond the count go"
    );
}

#[cfg(unix)]
#[test]
fn issue34_pruning_runs_never_goes_through_a_symlinked_runs_directory() {
    let dir = tmp();
    let elsewhere = dir.path().join("elsewhere");
    write_process_record(
        &elsewhere,
        &record("old", "p", "2026-12-01T06:00:00.000Z", true),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    // A project whose `.varar/.runs` is a link to another's.
    let root = dir.path().join("project");
    std::fs::create_dir_all(root.join(".varar")).unwrap_or_else(|e| panic!("{e}"));
    std::os::unix::fs::symlink(runs_dir(&elsewhere), runs_dir(&root))
        .unwrap_or_else(|e| panic!("{e}"));
    let headers = other_headers(&root);
    assert_eq!(headers.len(), 1, "read through the link");
    remove_runs_before(
        &root,
        &headers,
        &[],
        "new",
        "2026-12-01T07:00:00.000Z",
        &now(),
    );
    assert!(
        runs_dir(&elsewhere).join("old/p.run").exists(),
        "nothing removed through the link"
    );
}

#[test]
fn issue34_a_run_killed_before_its_first_record_goes_whole_and_nothing_else_does() {
    use std::time::{Duration, SystemTime};
    let dir = tmp();
    let root = dir.path();
    let runs = runs_dir(root);
    let stale = Duration::from_millis(varar_core::owned::STALE_TEMPORARY_MS + 1000);
    let put = |run: &str, name: &str, ago: Duration| {
        let path = runs.join(run).join(name);
        std::fs::create_dir_all(runs.join(run)).unwrap_or_else(|e| panic!("{e}"));
        let file = std::fs::File::create(&path).unwrap_or_else(|e| panic!("{e}"));
        file.set_modified(SystemTime::now() - ago)
            .unwrap_or_else(|e| panic!("{e}"));
    };
    // A run killed at its first write: its temporary, its writer gone.
    put("killed", &format!("{TEMP_PREFIX}x"), stale);
    // A run starting now: its directory, empty or holding a live write.
    claim_run_dir(root, "starting").unwrap_or_else(|e| panic!("{e}"));
    let live = varar_core::owned::temporary_prefix(std::process::id());
    put("writing", &format!("{live}y"), Duration::ZERO);
    // A run that recorded its start, then was killed writing its end.
    write_process_record(
        root,
        &record("recorded", "p", "2026-12-01T07:00:00.000Z", false),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    put("recorded", &format!("{TEMP_PREFIX}z"), stale);
    // Someone else's file beside an orphan.
    put("foreign", &format!("{TEMP_PREFIX}w"), stale);
    put("foreign", "notes.txt", Duration::ZERO);
    // This run's own directory.
    put("new", &format!("{TEMP_PREFIX}v"), stale);
    prune_unrecorded_runs(root, "new", &now());
    assert!(!runs.join("killed").exists(), "the killed run goes whole");
    for kept in ["starting", "writing", "recorded", "foreign", "new"] {
        assert!(runs.join(kept).is_dir(), "{kept} stays");
    }
    assert!(runs.join("foreign/notes.txt").exists());
}
