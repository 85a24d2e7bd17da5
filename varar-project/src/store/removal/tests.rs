use std::path::PathBuf;
use std::time::Duration;

use super::*;
use crate::store::{SCRATCH_DIR, sweep_scratch};
use varar_core::owned::temporary_prefix;

/// A process id no system runs (above every `pid_max`).
const DEAD: u32 = 2_147_483_000;

fn ok<T, E: std::fmt::Display>(r: Result<T, E>) -> T {
    r.unwrap_or_else(|e| panic!("{e}"))
}

/// A file at `path` holding `text`, last modified `ago` before now.
fn made(path: &Path, text: &str, ago: Duration) -> PathBuf {
    if let Some(parent) = path.parent() {
        ok(std::fs::create_dir_all(parent));
    }
    ok(std::fs::write(path, text));
    let file = ok(std::fs::File::options().append(true).open(path));
    ok(file.set_modified(SystemTime::now() - ago));
    path.to_path_buf()
}

const SECOND: Duration = Duration::from_secs(1);

/// A temporary of the process `pid`.
fn temporary(pid: u32) -> String {
    format!("{}a1B2c3", temporary_prefix(pid))
}

#[cfg(unix)]
fn symlink(target: &Path, link: &Path) {
    ok(std::os::unix::fs::symlink(target, link));
}

#[test]
fn issue34_a_run_directory_goes_with_its_records_and_orphans_only() {
    let dir = ok(tempfile::tempdir());
    let run = dir.path().join("varar-1-ab");
    made(&run.join("p.run"), "{}", SECOND);
    made(&run.join(temporary(DEAD)), "half", 5 * SECOND);
    let orphans = Orphans::since(SystemTime::now());
    assert!(remove_run_dir(&run, &orphans));
    assert!(!run.exists());
}

#[test]
fn issue34_a_run_directory_holding_a_foreign_file_is_left_whole() {
    let dir = ok(tempfile::tempdir());
    let run = dir.path().join("varar-1-ab");
    let record = made(&run.join("p.run"), "{}", SECOND);
    let notes = made(&run.join("notes.txt"), "mine", SECOND);
    let orphans = Orphans::since(SystemTime::now());
    assert!(!remove_run_dir(&run, &orphans));
    assert!(notes.exists() && record.exists(), "nothing of it removed");
    // A subdirectory is foreign too, however empty.
    ok(std::fs::remove_file(&notes));
    ok(std::fs::create_dir(run.join("sub")));
    assert!(!remove_run_dir(&run, &orphans));
    assert!(record.exists());
}

#[test]
fn issue34_a_run_directory_with_a_live_writers_temporary_is_left_whole() {
    let dir = ok(tempfile::tempdir());
    let run = dir.path().join("varar-1-ab");
    let record = made(&run.join("p.run"), "{}", SECOND);
    // This process is alive and writing.
    let live = made(&run.join(temporary(std::process::id())), "half", 5 * SECOND);
    let orphans = Orphans::since(SystemTime::now());
    assert!(!remove_run_dir(&run, &orphans));
    assert!(live.exists() && record.exists());
}

#[cfg(unix)]
#[test]
fn issue34_a_run_directory_that_is_a_symlink_is_not_followed() {
    let dir = ok(tempfile::tempdir());
    let elsewhere = dir.path().join("elsewhere");
    let record = made(&elsewhere.join("p.run"), "{}", SECOND);
    let run = dir.path().join("varar-1-ab");
    symlink(&elsewhere, &run);
    let orphans = Orphans::since(SystemTime::now());
    assert!(!remove_run_dir(&run, &orphans));
    assert!(record.exists(), "nothing removed through the link");
}

#[test]
fn issue34_the_sweep_removes_a_killed_writers_temporaries_anywhere_under_varar() {
    let dir = ok(tempfile::tempdir());
    let root = dir.path();
    let scratch = root.join(SCRATCH_DIR);
    let orphans = [
        scratch.join(".runs/varar-1-ab").join(temporary(DEAD)),
        scratch.join("varar/deep/er").join(temporary(DEAD)),
        scratch.join(temporary(DEAD)),
        // An earlier version's, ten minutes old.
        scratch.join(".cache/.varar-tmp-Epja9I"),
    ];
    for (i, path) in orphans.iter().enumerate() {
        let ago = if i == 3 { STALE + SECOND } else { 5 * SECOND };
        made(path, "half", ago);
    }
    let kept = [
        // A live process's: this one.
        made(
            &scratch.join("varar").join(temporary(std::process::id())),
            "half",
            5 * SECOND,
        ),
        // A dead process's written since this run began.
        made(
            &scratch.join("late").join(temporary(DEAD)),
            "half",
            Duration::ZERO,
        ),
        // An earlier version's, recent.
        made(&scratch.join(".varar-tmp-Xyz123"), "half", 5 * SECOND),
        // Not ours.
        made(&scratch.join("varar/a.md.json"), "{}", STALE + SECOND),
        made(&scratch.join(".other-tmp-1-x"), "", STALE + SECOND),
    ];
    let since = SystemTime::now() - SECOND;
    assert_eq!(sweep_scratch(root, &Orphans::since(since)), 4);
    for path in &orphans {
        assert!(!path.exists(), "{}", path.display());
    }
    for path in &kept {
        assert!(path.exists(), "{}", path.display());
    }
}

const STALE: Duration = Duration::from_millis(varar_core::owned::STALE_TEMPORARY_MS);

#[cfg(unix)]
#[test]
fn issue34_the_sweep_never_follows_a_symlink() {
    let dir = ok(tempfile::tempdir());
    let outside = dir.path().join("outside");
    let theirs = made(&outside.join(temporary(DEAD)), "half", 5 * SECOND);
    let root = dir.path().join("project");
    ok(std::fs::create_dir_all(root.join(SCRATCH_DIR)));
    symlink(&outside, &root.join(SCRATCH_DIR).join("linked"));
    let since = Orphans::since(SystemTime::now());
    assert_eq!(sweep_scratch(&root, &since), 0);
    assert!(theirs.exists(), "a link inside .varar/ is not followed");
    // `.varar` itself a link: left alone.
    let other = dir.path().join("other");
    ok(std::fs::create_dir_all(&other));
    symlink(&outside, &other.join(SCRATCH_DIR));
    assert_eq!(sweep_scratch(&other, &since), 0);
    assert!(theirs.exists(), "a .varar that is a link is not swept");
}
