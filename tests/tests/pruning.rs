//! What a run deletes (issue 34, STYLE §2.9 "delete only what you wrote"),
//! driven through the real `cargo test` (and the test binary it builds) of
//! copies of `examples/bakery`: a `VARAR_HISTORY` that is not a history
//! varar made is refused with one warning, the run going on without it
//! (exit code unchanged); pruning leaves a run directory holding anything
//! else; and the temporaries of a write killed by `SIGXFSZ` are gone after
//! the next run.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use support::{Run, Sample};

const WARNING: &str = "varar: warning: the run history";

/// What a user keeps in a folder: files, last changed long ago (so the
/// history's age limit would take them as old runs).
fn precious(dir: &Path) -> Vec<PathBuf> {
    let files: Vec<PathBuf> = ["photos/2019.jpg", "taxes/2020.pdf"]
        .iter()
        .map(|f| dir.join(f))
        .collect();
    for file in &files {
        let folder = file.parent().unwrap_or(dir);
        std::fs::create_dir_all(folder).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(file, "mine").unwrap_or_else(|e| panic!("{e}"));
        std::fs::File::open(folder)
            .and_then(|d| d.set_modified(std::time::UNIX_EPOCH))
            .unwrap_or_else(|e| panic!("{e}"));
    }
    files
}

/// A `cargo test` of the copy with `VARAR_HISTORY=history` and at most one
/// run kept: green, whatever its history (checked by the caller, after
/// what it may have deleted).
fn green_run(sample: &Sample, history: &str) -> Run {
    sample.cargo_test(
        &[],
        &[("VARAR_HISTORY", history), ("VARAR_HISTORY_RUNS", "1")],
    )
}

const GREEN: &str = "a green run, whatever its history";

/// The project's own files are all there.
fn assert_project_intact(sample: &Sample, run: &Run) {
    for dir in ["src", "tests", "varar"] {
        assert!(
            sample.root().join(dir).is_dir(),
            "{dir}/ was removed\n{}",
            run.combined()
        );
    }
    assert!(sample.root().join("Cargo.toml").is_file());
    assert!(!sample.oath_files().is_empty());
}

/// Exactly one history warning, naming `place` and `why`.
fn assert_refused(run: &Run, place: &str, why: &str) {
    let out = run.combined();
    let warnings: Vec<&str> = out.lines().filter(|l| l.contains(WARNING)).collect();
    // The oaths' test binary warns once; no other binary writes history.
    assert_eq!(warnings.len(), 1, "{out}");
    assert!(
        warnings[0].contains(place) && warnings[0].contains(why),
        "{}",
        warnings[0]
    );
    assert!(warnings[0].contains("the run goes on without it"), "{out}");
}

#[cfg(unix)]
#[test]
fn issue34_a_history_symlinked_to_a_folder_of_unrelated_folders_is_refused_and_they_survive() {
    let sample = Sample::copy();
    let outside = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let folder = outside.path().join("folder");
    let files = precious(&folder);
    let link = outside.path().join("link");
    std::os::unix::fs::symlink(&folder, &link).unwrap_or_else(|e| panic!("{e}"));
    let shown = link.display().to_string();
    let run = green_run(&sample, &shown);
    for file in &files {
        assert!(file.is_file(), "{} was removed", file.display());
    }
    run.assert_code(0, GREEN);
    assert_refused(&run, &shown, "symbolic link");
    let names: Vec<String> = std::fs::read_dir(&folder)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "nothing written there either: {names:?}");
}

#[test]
fn issue34_varar_history_dot_keeping_one_run_leaves_the_project_intact_and_warns() {
    let sample = Sample::copy();
    let run = green_run(&sample, ".");
    assert_project_intact(&sample, &run);
    run.assert_code(0, GREEN);
    assert_refused(
        &run,
        "is refused",
        "the project's directory or a parent of it",
    );
    let again = green_run(&sample, ".");
    assert_project_intact(&sample, &again);
    again.assert_code(0, GREEN);
}

#[test]
fn issue34_varar_history_dot_dot_leaves_the_project_and_its_neighbours_intact() {
    let sample = Sample::copy();
    let parent = sample.root().parent().unwrap_or(sample.root());
    let neighbour = parent.join("neighbour");
    std::fs::create_dir_all(&neighbour).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(neighbour.join("notes"), "mine").unwrap_or_else(|e| panic!("{e}"));
    let run = green_run(&sample, "..");
    assert_project_intact(&sample, &run);
    assert!(neighbour.join("notes").is_file(), "{}", run.combined());
    run.assert_code(0, GREEN);
    assert_refused(
        &run,
        "is refused",
        "the project's directory or a parent of it",
    );
}

#[test]
fn issue34_a_history_run_directory_holding_a_foreign_file_is_not_pruned() {
    let sample = Sample::copy();
    let outside = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let history = outside.path().join("history");
    let shown = history.display().to_string();
    let first = green_run(&sample, &shown);
    first.assert_code(0, GREEN);
    assert!(!first.combined().contains(WARNING), "{}", first.combined());
    let runs = || -> Vec<PathBuf> {
        let mut runs: Vec<PathBuf> = std::fs::read_dir(&history)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect();
        runs.sort();
        runs
    };
    let kept = runs();
    assert_eq!(kept.len(), 1, "{kept:?}");
    let foreign = kept[0].join("notes.txt");
    std::fs::write(&foreign, "mine").unwrap_or_else(|e| panic!("{e}"));
    green_run(&sample, &shown).assert_code(0, GREEN);
    assert!(
        foreign.is_file(),
        "a run directory holding anything else stays"
    );
    assert_eq!(runs().len(), 2, "{:?}", runs());
    // Ours still go: the second run, once a third is kept instead.
    green_run(&sample, &shown).assert_code(0, GREEN);
    assert_eq!(runs().len(), 2, "{:?}", runs());
    assert!(foreign.is_file());
    assert!(
        history.join(".varar-history").is_file(),
        "created and marked"
    );
}

/// The oaths' test binary of the copy, built.
fn test_binary(sample: &Sample) -> PathBuf {
    let built = sample.run(&["test", "--test", "oaths", "--no-run"], &[]);
    built.assert_code(0, "the oaths' test binary builds");
    let line = built
        .stderr
        .lines()
        .find(|l| l.contains("Executable") && l.contains("oaths"))
        .unwrap_or_else(|| panic!("no executable in\n{}", built.stderr));
    let path = line
        .rsplit_once('(')
        .and_then(|(_, rest)| rest.strip_suffix(')'))
        .unwrap_or_else(|| panic!("no path in {line}"));
    PathBuf::from(path)
}

/// Every temporary of ours under the copy's `.varar/`.
fn temporaries(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            temporaries(&path, found);
        } else if entry
            .file_name()
            .to_string_lossy()
            .starts_with(".varar-tmp-")
        {
            found.push(path);
        }
    }
}

/// The test binary run in the copy as cargo runs it (its directory, its
/// `CARGO_MANIFEST_DIR`, the environment [`Sample::cargo`] gives cargo);
/// `limit`, when given, is `ulimit -f` for it, in the shell's blocks.
fn run_binary(sample: &Sample, binary: &Path, limit: Option<u32>) -> std::process::Output {
    let mut cmd = match limit {
        Some(blocks) => {
            let mut sh = Command::new("sh");
            sh.arg("-c")
                .arg(format!("ulimit -f {blocks} && exec \"$0\""))
                .arg(binary);
            sh
        }
        None => Command::new(binary),
    };
    for (key, value) in sample.cargo(["test"]).get_envs() {
        match value {
            Some(v) => cmd.env(key, v),
            None => cmd.env_remove(key),
        };
    }
    cmd.current_dir(sample.root())
        .env("CARGO_MANIFEST_DIR", sample.root())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", binary.display()))
}

#[cfg(unix)]
#[test]
fn issue34_a_write_killed_by_sigxfsz_leaves_no_temporary_after_the_next_run() {
    use std::os::unix::process::ExitStatusExt as _;
    let sample = Sample::copy();
    let binary = test_binary(&sample);
    // Two blocks: `.varar/.gitignore` fits, the run record does not.
    let killed = run_binary(&sample, &binary, Some(2));
    let signalled = killed.status.signal() == Some(25) || killed.status.code() == Some(128 + 25);
    assert!(
        signalled,
        "the write is killed by SIGXFSZ: {:?}\n{}",
        killed.status,
        String::from_utf8_lossy(&killed.stderr)
    );
    let scratch = sample.root().join(".varar");
    let mut left = Vec::new();
    temporaries(&scratch, &mut left);
    assert!(!left.is_empty(), "the killed write left its temporary");
    let next = run_binary(&sample, &binary, None);
    assert!(
        next.status.success(),
        "{}",
        String::from_utf8_lossy(&next.stdout)
    );
    let mut after = Vec::new();
    temporaries(&scratch, &mut after);
    assert!(after.is_empty(), "left after the next run: {after:?}");
}
