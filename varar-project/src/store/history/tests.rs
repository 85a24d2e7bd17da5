use std::time::{Duration, UNIX_EPOCH};

use super::*;
use crate::store::runs::tests::record;

fn history(dir: &Path, limits: HistoryLimits) -> History {
    History {
        dir: dir.to_path_buf(),
        origin: HistoryOrigin::Named,
        limits,
        project: dir.with_file_name("the-project"),
        target: dir.with_file_name("the-target"),
    }
}

#[test]
fn a_record_written_to_the_history_reads_back_and_says_when_its_run_is_new() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let h = history(&tmp.path().join("h"), HistoryLimits::default());
    let first = record("nextest/1", "p1", "2026-12-01T07:00:00.000Z", false);
    assert!(h.write(&first).unwrap_or_else(|e| panic!("{e}")));
    let second = record("nextest/1", "p2", "2026-12-01T07:00:01.000Z", true);
    assert!(!h.write(&second).unwrap_or_else(|e| panic!("{e}")));
    let read: Vec<ProcessRecord> = read_history(&h.dir)
        .into_iter()
        .map(|r| r.unwrap_or_else(|e| panic!("{e}")))
        .collect();
    assert_eq!(read, [first, second]);
    assert!(h.dir.join("nextest_1").is_dir(), "the id as a file name");
}

#[test]
fn a_record_already_written_is_linked_into_the_history_not_copied() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let root = tmp.path().join("project");
    std::fs::create_dir_all(&root).unwrap_or_else(|e| panic!("{e}"));
    let h = history(&tmp.path().join("h"), HistoryLimits::default());
    let read = |p: &Path| std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{e}"));
    let start = record("r", "p", "2026-12-01T07:00:00.000Z", false);
    let text = start.to_text().unwrap_or_default();
    let runs_file = crate::store::write_process_record(&root, &start)
        .map_or_else(|e| panic!("{e}"), |w| w.path);
    assert_eq!(read(&runs_file), text, "streamed, the same bytes");
    h.write_linked(&start, Some(&runs_file))
        .unwrap_or_else(|e| panic!("{e}"));
    let kept = h.run_dir("r").join("p.run");
    assert_eq!(read(&kept), text);
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        let ino = |p: &Path| std::fs::metadata(p).map(|m| m.ino()).unwrap_or_default();
        assert_eq!(ino(&kept), ino(&runs_file), "one file, two names");
    }
    // The end of the process replaces its record: the history keeps
    // the start until it is given the end too.
    let end = record("r", "p", "2026-12-01T07:00:00.000Z", true);
    let end_text = end.to_text().unwrap_or_default();
    let runs_file =
        crate::store::write_process_record(&root, &end).map_or_else(|e| panic!("{e}"), |w| w.path);
    assert_eq!(read(&kept), text);
    h.write_linked(&end, Some(&runs_file))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(read(&kept), end_text);
    // No link to make: the text is written instead, and no temporary
    // is left behind.
    let other = record("r", "q", "2026-12-01T07:00:00.000Z", true);
    let other_text = other.to_text().unwrap_or_default();
    h.write_linked(&other, Some(&root.join("missing.run")))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(read(&h.run_dir("r").join("q.run")), other_text);
    let names: Vec<String> = std::fs::read_dir(h.run_dir("r"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

#[test]
fn a_temporary_left_in_the_way_is_replaced_by_the_link() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let root = tmp.path().join("project");
    std::fs::create_dir_all(&root).unwrap_or_else(|e| panic!("{e}"));
    let h = history(&tmp.path().join("h"), HistoryLimits::default());
    let end = record("r", "p", "2026-12-01T07:00:00.000Z", true);
    let runs_file =
        crate::store::write_process_record(&root, &end).map_or_else(|e| panic!("{e}"), |w| w.path);
    // What a process killed between its link and its rename leaves.
    let dir = h.run_dir("r");
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let stale = dir.join(format!("{}p.link", temporary_prefix(std::process::id())));
    std::fs::write(&stale, "stale").unwrap_or_else(|e| panic!("{e}"));
    h.write_linked(&end, Some(&runs_file))
        .unwrap_or_else(|e| panic!("{e}"));
    let read = |p: &Path| std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(read(&dir.join("p.run")), read(&runs_file));
    assert!(!stale.exists(), "the temporary was renamed into place");
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        let ino = |p: &Path| std::fs::metadata(p).map(|m| m.ino()).unwrap_or_default();
        assert_eq!(
            ino(&dir.join("p.run")),
            ino(&runs_file),
            "linked, not copied"
        );
    }
}

#[test]
fn a_history_that_cannot_be_written_is_an_error_naming_the_directory() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let file = tmp.path().join("file");
    std::fs::write(&file, "").unwrap_or_else(|e| panic!("{e}"));
    let h = history(&file.join("history"), HistoryLimits::default());
    let err = h
        .write(&record("r", "p", "2026-12-01T07:00:00.000Z", true))
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(err.contains("file/history/r"), "{err}");
}

#[test]
fn pruning_keeps_the_newest_runs_within_the_count() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let limits = HistoryLimits {
        runs: 2,
        ..HistoryLimits::default()
    };
    let h = history(tmp.path(), limits);
    h.open().unwrap_or_else(|e| panic!("{e}"));
    for run in ["r1", "r2", "r3"] {
        h.write(&record(run, "p", "2026-12-01T07:00:00.000Z", true))
            .unwrap_or_else(|e| panic!("{e}"));
        // Directory times are what pruning orders by.
        std::thread::sleep(Duration::from_millis(20));
    }
    let removed = h.prune("r3", SystemTime::now(), &Orphans::since(SystemTime::now()));
    assert_eq!(removed, ["r1"]);
    let mut left: Vec<String> = h.kept_runs().into_iter().map(|r| r.name).collect();
    left.sort();
    assert_eq!(left, ["r2", "r3"]);
    assert!(h.kept_runs().iter().all(|r| r.bytes > 0));
}

fn ok<T, E: std::fmt::Display>(r: Result<T, E>) -> T {
    r.unwrap_or_else(|e| panic!("{e}"))
}

/// A project (`<tmp>/project`, with `src/`, `tests/` and `varar/`) and its
/// target directory (`<tmp>/project/target`).
fn project(tmp: &Path) -> PathBuf {
    let root = tmp.join("project");
    for dir in ["src", "tests", "varar", "target"] {
        ok(std::fs::create_dir_all(root.join(dir)));
        ok(std::fs::write(root.join(dir).join("kept"), "mine"));
    }
    root
}

/// The history `dir` (relative to `root`, as `VARAR_HISTORY` names it).
fn named(root: &Path, dir: &str, runs: usize) -> History {
    History {
        dir: root.join(dir),
        origin: HistoryOrigin::Named,
        limits: HistoryLimits {
            runs,
            ..HistoryLimits::default()
        },
        project: root.to_path_buf(),
        target: root.join("target"),
    }
}

fn refusal(h: &History) -> String {
    match h.open() {
        Err(e @ StoreError::HistoryRefused { .. }) => e.to_string(),
        other => panic!("not refused: {other:?}"),
    }
}

/// What a user keeps: folders last changed long ago.
fn old_folders(dir: &Path) -> Vec<PathBuf> {
    let folders: Vec<PathBuf> = ["photos", "taxes"].iter().map(|f| dir.join(f)).collect();
    for f in &folders {
        ok(std::fs::create_dir_all(f));
        ok(std::fs::write(f.join("a"), "mine"));
        ok(std::fs::File::open(f).and_then(|d| d.set_modified(UNIX_EPOCH)));
    }
    folders
}

#[test]
fn issue34_the_project_root_and_its_parents_are_refused_as_a_history() {
    let tmp = ok(tempfile::tempdir());
    let root = project(tmp.path());
    for dir in [
        ".",
        "..",
        "./",
        "target",
        "target/..",
        "/",
        ".varar/history",
    ] {
        let h = named(&root, dir, 1);
        let err = refusal(&h);
        assert!(err.contains(&format!("`{}`", h.dir.display())), "{err}");
        // Nothing there is touched, nothing is pruned.
        assert!(
            h.prune("r", SystemTime::now(), &Orphans::since(SystemTime::now()))
                .is_empty()
        );
    }
    assert!(refusal(&named(&root, ".", 1)).contains("the project's directory or a parent"));
    assert!(refusal(&named(&root, "target", 1)).contains("cargo's target directory"));
    for dir in ["src", "tests", "varar", "target"] {
        assert!(root.join(dir).join("kept").exists(), "{dir}");
    }
    assert!(!root.join(HISTORY_MARKER).exists());
}

#[cfg(unix)]
#[test]
fn issue34_a_symlinked_history_with_unrelated_folders_is_refused_and_untouched() {
    let tmp = ok(tempfile::tempdir());
    let root = project(tmp.path());
    let precious = tmp.path().join("precious");
    let folders = old_folders(&precious);
    ok(std::os::unix::fs::symlink(
        &precious,
        tmp.path().join("link"),
    ));
    for dir in ["../link", "../link/", "../link/."] {
        let h = named(&root, dir, 1);
        assert!(refusal(&h).contains("symbolic link"), "{dir}");
        h.prune("r", SystemTime::now(), &Orphans::since(SystemTime::now()));
    }
    for f in &folders {
        assert!(f.join("a").exists(), "{}", f.display());
    }
    assert!(!precious.join(HISTORY_MARKER).exists());
}

#[test]
fn issue34_a_named_directory_holding_anything_else_is_refused_and_untouched() {
    let tmp = ok(tempfile::tempdir());
    let root = project(tmp.path());
    let folders = old_folders(&root.join("mine"));
    let h = named(&root, "mine", 1);
    let err = refusal(&h);
    assert!(
        err.contains("\"photos\"") || err.contains("\"taxes\""),
        "{err}"
    );
    assert!(err.contains(HISTORY_MARKER), "{err}");
    h.prune("r", SystemTime::now(), &Orphans::since(SystemTime::now()));
    assert!(folders.iter().all(|f| f.join("a").exists()));
    // Even one of our runs there: not adopted unless marked.
    let runs = named(&root, "runs", 1);
    ok(std::fs::create_dir_all(runs.dir.join("varar-1-ab")));
    ok(std::fs::write(runs.dir.join("varar-1-ab/p.run"), "{}"));
    assert!(refusal(&runs).contains("\"varar-1-ab\""));
    // A file is no history.
    ok(std::fs::write(root.join("file"), ""));
    assert!(refusal(&named(&root, "file", 1)).contains("not a directory"));
}

#[test]
fn issue34_a_missing_or_empty_history_is_marked_and_then_used() {
    let tmp = ok(tempfile::tempdir());
    let root = project(tmp.path());
    let new = named(&root, "history/deep", 1);
    ok(new.open());
    assert!(new.dir.join(HISTORY_MARKER).is_file(), "created and marked");
    ok(std::fs::create_dir_all(root.join("empty")));
    let empty = named(&root, "empty", 1);
    ok(empty.open());
    assert!(empty.dir.join(HISTORY_MARKER).is_file(), "adopted");
    // Marked: used, whatever it holds.
    ok(std::fs::write(empty.dir.join("notes"), "mine"));
    ok(empty.open());
    ok(empty.check_readable());
}

#[test]
fn issue34_an_earlier_versions_history_is_adopted_at_the_default_place_only() {
    let tmp = ok(tempfile::tempdir());
    let root = project(tmp.path());
    let mut h = named(&root, "target/varar/history", 1);
    h.origin = HistoryOrigin::Default;
    for run in ["varar-1-ab", "nextest_2"] {
        ok(std::fs::create_dir_all(h.dir.join(run)));
        ok(std::fs::write(h.dir.join(run).join("p.run"), "{}"));
    }
    ok(h.check_readable());
    assert!(
        !h.dir.join(HISTORY_MARKER).exists(),
        "reading writes nothing"
    );
    ok(h.open());
    assert!(h.dir.join(HISTORY_MARKER).is_file());
    // One entry of anything else and it is not ours.
    let mut other = named(&root, "target/other", 1);
    other.origin = HistoryOrigin::Default;
    ok(std::fs::create_dir_all(other.dir.join("varar-1-ab")));
    ok(std::fs::write(other.dir.join("varar-1-ab/p.run"), "{}"));
    ok(std::fs::write(
        other.dir.join("varar-1-ab/photo.jpg"),
        "mine",
    ));
    assert!(refusal(&other).contains("\"varar-1-ab\""));
    assert!(other.check_readable().is_err());
    assert!(check_history_dir(&other.dir).is_err());
    assert!(check_history_dir(&h.dir).is_ok());
}

#[test]
fn issue34_pruning_leaves_a_run_directory_holding_a_foreign_file() {
    let tmp = ok(tempfile::tempdir());
    let root = project(tmp.path());
    let h = named(&root, "history", 1);
    ok(h.open());
    for run in ["r1", "r2", "r3"] {
        ok(h.write(&record(run, "p", "2026-12-01T07:00:00.000Z", true)));
        std::thread::sleep(Duration::from_millis(20));
    }
    let foreign = h.run_dir("r1").join("notes.txt");
    ok(std::fs::write(&foreign, "mine"));
    // A killed writer's temporary in a run that is kept.
    let orphan = h
        .run_dir("r3")
        .join(format!("{}x", temporary_prefix(2_147_483_000)));
    ok(std::fs::write(&orphan, "half"));
    ok(std::fs::File::options()
        .append(true)
        .open(&orphan)
        .and_then(|f| f.set_modified(SystemTime::now() - Duration::from_secs(5))));
    let removed = h.prune("r3", SystemTime::now(), &Orphans::since(SystemTime::now()));
    assert_eq!(removed, ["r2"]);
    assert!(foreign.exists() && h.run_dir("r1").join("p.run").exists());
    assert!(!orphan.exists(), "the kept run's orphan is removed");
    assert!(h.run_dir("r3").join("p.run").exists());
}

#[test]
fn issue34_an_unmarked_history_is_never_pruned() {
    let tmp = ok(tempfile::tempdir());
    let root = project(tmp.path());
    let h = named(&root, "history", 1);
    for run in ["r1", "r2"] {
        ok(h.write(&record(run, "p", "2026-12-01T07:00:00.000Z", true)));
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        h.prune("r2", SystemTime::now(), &Orphans::since(SystemTime::now()))
            .is_empty()
    );
    assert!(h.run_dir("r1").exists());
}

#[test]
fn issue34_records_the_history_holds_and_varar_does_not_are_found_by_their_headers() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let h = history(&tmp.path().join("h"), HistoryLimits::default());
    ok(h.open());
    let runs = tmp.path().join(".varar/.runs");
    let both = record("both", "p1", "2026-12-01T07:00:00.000Z", true);
    h.write(&both).unwrap_or_else(|e| panic!("{e}"));
    std::fs::create_dir_all(runs.join("both")).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(runs.join("both/p1.run"), b"{}").unwrap_or_else(|e| panic!("{e}"));
    let only = record("only", "p2", "2026-12-01T08:00:00.000Z", false);
    h.write(&only).unwrap_or_else(|e| panic!("{e}"));
    let found = records_missing_from(&h.dir, &runs, None);
    let ids: Vec<(&str, &str)> = found
        .iter()
        .map(|(_, h)| (h.run_id.as_str(), h.process_id.as_str()))
        .collect();
    assert_eq!(ids, [("only", "p2")]);
    assert!(found[0].0.ends_with("only/p2.run"));
    assert!(
        records_missing_from(&h.dir, &runs, Some("9999-01-01T00:00:00.000Z")).is_empty(),
        "only runs written since"
    );
}

#[test]
fn issue34_records_planted_in_a_directory_varar_did_not_mark_are_not_read_as_its_runs() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let h = history(&tmp.path().join("h"), HistoryLimits::default());
    // Written without opening: the place is not marked as ours.
    let planted = record("planted", "p", "2026-12-01T08:00:00.000Z", false);
    h.write(&planted).unwrap_or_else(|e| panic!("{e}"));
    let runs = tmp.path().join(".varar/.runs");
    assert!(records_missing_from(&h.dir, &runs, None).is_empty());
}
