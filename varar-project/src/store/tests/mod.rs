use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};

use std::path::Path;
use std::time::{Duration, SystemTime};

use super::*;
use varar_core::lock::LOCK_FILE_NAME;
use varar_core::results::OathResults;

mod baseline;

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"))
}

fn ok<T, E: std::fmt::Display>(r: Result<T, E>) -> T {
    r.unwrap_or_else(|e| panic!("{e}"))
}

type Writer = fn(&Path, &[u8]) -> Result<bool, StoreError>;

/// Both writers: synced (the baseline) and disposable (results, reports).
const WRITERS: [(&str, Writer); 2] = [
    ("write_atomic", write_atomic),
    ("write_disposable", write_disposable),
];

#[test]
fn atomic_write_skips_unchanged_bytes_and_leaves_no_temp_files() {
    for (what, write) in WRITERS {
        let dir = tmp();
        let path = dir.path().join("f.json");
        assert!(ok(write(&path, b"one\n")), "{what}");
        assert!(!ok(write(&path, b"one\n")), "{what}: unchanged bytes");
        assert!(ok(write(&path, b"two\n")), "{what}");
        assert_eq!(ok(std::fs::read(&path)), b"two\n", "{what}");
        let names: Vec<_> = ok(std::fs::read_dir(dir.path()))
            .filter_map(Result::ok)
            .map(|e| e.file_name())
            .collect();
        assert_eq!(names, [std::ffi::OsString::from("f.json")], "{what}");
    }
}

#[cfg(unix)]
#[test]
fn atomic_write_gives_new_files_a_readable_mode_and_keeps_existing_modes() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tmp();
    for (what, write) in WRITERS {
        let path = dir.path().join(what);
        ok(write(&path, b"a"));
        assert_eq!(
            ok(std::fs::metadata(&path)).permissions().mode() & 0o777,
            0o644,
            "{what}"
        );
        ok(std::fs::set_permissions(
            &path,
            std::fs::Permissions::from_mode(0o664),
        ));
        ok(write(&path, b"b"));
        assert_eq!(
            ok(std::fs::metadata(&path)).permissions().mode() & 0o777,
            0o664,
            "{what}"
        );
    }
}

#[test]
fn concurrent_writers_never_tear_a_file() {
    let dir = tmp();
    let path = Arc::new(dir.path().join("lock.json"));
    let a: Arc<Vec<u8>> = Arc::new(vec![b'a'; 256 * 1024]);
    let b: Arc<Vec<u8>> = Arc::new(vec![b'b'; 300 * 1024]);
    ok(write_atomic(&path, &a));
    let done = Arc::new(AtomicBool::new(false));
    // One synced and one disposable writer: neither may tear the file.
    let writers: Vec<_> = [a.clone(), b.clone()]
        .into_iter()
        .zip(WRITERS)
        .map(|(content, (_, write))| {
            let path = path.clone();
            std::thread::spawn(move || {
                for i in 0..40 {
                    // Alternate so that most writes really change the file.
                    let bytes: &[u8] = if i % 2 == 0 { &content } else { b"x" };
                    ok(write(&path, bytes));
                }
                ok(write(&path, &content));
            })
        })
        .collect();
    let reader = {
        let (path, a, b, done) = (path.clone(), a.clone(), b.clone(), done.clone());
        std::thread::spawn(move || {
            let mut reads = 0;
            while !done.load(AtomicOrdering::SeqCst) || reads == 0 {
                let got = ok(std::fs::read(&*path));
                assert!(
                    got == *a || got == *b || got == b"x",
                    "torn read of {} bytes",
                    got.len()
                );
                reads += 1;
            }
        })
    };
    for w in writers {
        assert!(w.join().is_ok());
    }
    done.store(true, AtomicOrdering::SeqCst);
    assert!(reader.join().is_ok());
    let last = ok(std::fs::read(&*path));
    assert!(last == *a || last == *b);
}

#[test]
fn scratch_dir_gets_a_gitignore_when_we_create_it() {
    let dir = tmp();
    let scratch = ok(ensure_scratch_dir(dir.path()));
    assert_eq!(
        ok(std::fs::read_to_string(scratch.join(".gitignore"))),
        "*\n"
    );
    // An existing directory is left as it is.
    let other = tmp();
    ok(std::fs::create_dir(other.path().join(SCRATCH_DIR)));
    ok(ensure_scratch_dir(other.path()));
    assert!(!other.path().join(SCRATCH_DIR).join(".gitignore").exists());
}

#[test]
fn pending_candidates_go_beside_the_kept_file() {
    let dir = tmp();
    let path = dir.path().join(LOCK_FILE_NAME);
    ok(std::fs::write(&path, "<<<<<<<"));
    let candidate = ok(write_pending(&path, b"{}\n"));
    assert_eq!(candidate, dir.path().join("varar.lock.json.new"));
    assert_eq!(ok(std::fs::read_to_string(&path)), "<<<<<<<");
    assert_eq!(ok(std::fs::read_to_string(&candidate)), "{}\n");
}

fn text(r: Option<&[u8]>) -> String {
    String::from_utf8_lossy(r.unwrap_or_default()).into_owned()
}

#[test]
fn run_result_updates_see_the_stored_bytes_and_may_write_nothing() {
    let dir = tmp();
    let root = dir.path();
    let path = root.join(".varar/varar/a.md.json");
    // No file and nothing to say: nothing is created.
    assert!(!ok(update_run_result(root, "varar/a.md", |stored| {
        assert!(stored.is_none());
        None
    })));
    assert!(!path.exists());
    assert!(ok(update_run_result(root, "varar/a.md", |_| {
        Some(b"one\n".to_vec())
    })));
    assert_eq!(
        ok(std::fs::read_to_string(root.join(".varar/.gitignore"))),
        "*\n"
    );
    // The next update gets the stored bytes; unchanged bytes are not written.
    assert!(!ok(update_run_result(root, "varar/a.md", |stored| {
        assert_eq!(text(stored), "one\n");
        Some(b"one\n".to_vec())
    })));
    assert!(!ok(update_run_result(root, "varar/a.md", |_| None)));
    assert_eq!(ok(std::fs::read_to_string(&path)), "one\n");
    // A replacement does not read.
    assert!(ok(replace_run_result(root, "varar/a.md", b"two\n")));
    assert!(!ok(replace_run_result(root, "varar/a.md", b"two\n")));
    assert_eq!(ok(std::fs::read_to_string(&path)), "two\n");
}

/// Eight threads at once, thread `i` appending the line `i` to the results
/// of the oath `oath_of(i)` by read-merge-write.
fn append_from_eight_threads(root: &Path, oath_of: fn(u64) -> String) {
    std::thread::scope(|scope| {
        for i in 0..8u64 {
            scope.spawn(move || {
                ok(update_run_result(root, &oath_of(i), |stored| {
                    let mut lines = text(stored);
                    lines.push_str(&format!("{i}\n"));
                    Some(lines.into_bytes())
                }));
            });
        }
    });
}

#[test]
fn concurrent_updates_do_not_lose_each_others_changes() {
    let dir = tmp();
    let root = dir.path();
    append_from_eight_threads(root, |_| "varar/a.md".to_owned());
    let written = ok(std::fs::read_to_string(root.join(".varar/varar/a.md.json")));
    let mut lines: Vec<&str> = written.lines().collect();
    lines.sort_unstable();
    assert_eq!(lines, ["0", "1", "2", "3", "4", "5", "6", "7"]);
}

#[test]
fn the_oaths_of_one_directory_share_one_lock_and_lose_no_update() {
    let dir = tmp();
    let root = dir.path();
    append_from_eight_threads(root, |i| format!("varar/deep/{}.md", i % 2));
    for (name, want) in [("0", ["0", "2", "4", "6"]), ("1", ["1", "3", "5", "7"])] {
        let written = ok(std::fs::read_to_string(
            root.join(format!(".varar/varar/deep/{name}.md.json")),
        ));
        let mut lines: Vec<&str> = written.lines().collect();
        lines.sort_unstable();
        assert_eq!(lines, want);
    }
    let locks: Vec<String> = ok(std::fs::read_dir(root.join(".varar/.locks/varar/deep")))
        .map(|e| ok(e).file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(locks, [".results.lock"], "one lock file for the directory");
}

#[cfg(unix)]
#[test]
fn an_unreadable_result_file_is_kept_and_a_candidate_written() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tmp();
    let root = dir.path();
    ok(replace_run_result(root, "a.md", b"old\n"));
    let path = root.join(".varar/a.md.json");
    ok(std::fs::set_permissions(
        &path,
        std::fs::Permissions::from_mode(0o000),
    ));
    if std::fs::read(&path).is_ok() {
        return; // Running as root: permissions do not stop reads.
    }
    let err = update_run_result(root, "a.md", |stored| {
        assert!(stored.is_none(), "what could not be read is not handed on");
        Some(b"new\n".to_vec())
    })
    .err()
    .map(|e| e.to_string())
    .unwrap_or_default();
    assert!(
        err.contains("left it untouched") && err.contains("a.md.json.new"),
        "{err}"
    );
    assert_eq!(
        ok(std::fs::read_to_string(root.join(".varar/a.md.json.new"))),
        "new\n"
    );
    ok(std::fs::set_permissions(
        &path,
        std::fs::Permissions::from_mode(0o644),
    ));
}

#[test]
fn issue10_3_stale_temporaries_of_ours_are_removed_by_a_later_process_first_write() {
    let dir = tmp();
    let now = SystemTime::now();
    let old = now - STALE_TEMPORARY - Duration::from_secs(60);
    let made = |name: &str, modified: SystemTime| {
        let path = dir.path().join(name);
        let file = ok(std::fs::File::create(&path));
        ok(file.set_modified(modified));
        path
    };
    let orphan = made(".varar-tmp-a1B2c3", old);
    let fresh = made(".varar-tmp-d4E5f6", now);
    let theirs = made(".other-tmp-x", old);
    let kept_dir = dir.path().join(".varar-tmp-dir");
    ok(std::fs::create_dir(&kept_dir));
    assert!(ok(write_disposable(&dir.path().join("a.json"), b"{}\n")));
    assert!(!orphan.exists(), "an orphan of a killed run is removed");
    assert!(fresh.exists(), "a concurrent run's temporary is kept");
    assert!(theirs.exists(), "only our own naming is touched");
    assert!(kept_dir.exists(), "only files");
    // Only the written file's own directory is cleaned.
    let sub = dir.path().join("sub");
    ok(std::fs::create_dir(&sub));
    let elsewhere = made("sub/.varar-tmp-zzzzzz", old);
    assert!(ok(write_atomic(&dir.path().join("b.json"), b"{}\n")));
    assert!(elsewhere.exists());
    assert!(ok(write_atomic(&sub.join("c.json"), b"{}\n")));
    assert!(!elsewhere.exists());
    // A directory is swept at this process's first write to it only: a
    // run writing a hundred results there lists it once.
    let later = made("sub/.varar-tmp-yyyyyy", old);
    assert!(ok(write_atomic(&sub.join("d.json"), b"{}\n")));
    assert!(later.exists(), "left to the next process");
}

#[test]
fn oath_paths_cannot_escape_the_scratch_dir() {
    for bad in ["", "../x.md", "/etc/passwd", "a/../../b", "./a.md"] {
        assert!(run_result_path(Path::new("r"), bad).is_err(), "{bad}");
    }
    assert_eq!(
        ok(run_result_path(Path::new("r"), "varar/library.md")),
        Path::new("r/.varar/varar/library.md.json")
    );
}

#[test]
fn run_results_are_read_strictly_and_absent_files_are_none() {
    let dir = ok(tempfile::tempdir());
    let root = dir.path();
    assert!(matches!(read_run_result(root, "varar/a.md"), Ok(None)));
    // What the harness writes reads back.
    let fresh = varar_core::results::OathResults {
        version: 1,
        oath_path: "varar/a.md".into(),
        source_hash: "fnv1a:00000000".into(),
        documents: Vec::new(),
        examples: vec![varar_core::results::ExampleResult {
            name: "n".into(),
            status: varar_core::results::Status::Passed,
            lines: vec![3],
            failure: None,
        }],
    };
    ok(replace_run_result(
        root,
        "varar/a.md",
        ok(fresh.to_text()).as_bytes(),
    ));
    let read = ok(read_run_result(root, "varar/a.md"));
    assert_eq!(read.map(|r| r.examples[0].lines.clone()), Some(vec![3]));

    let path = root.join(".varar/varar/a.md.json");
    let message = |r: Result<Option<OathResults>, ResultFileError>| match r {
        Ok(v) => panic!("accepted: {v:?}"),
        Err(e) => e.to_string(),
    };
    ok(std::fs::write(&path, "{\"version\": 7}"));
    let m = message(read_run_result(root, "varar/a.md"));
    assert!(
        m.contains("a.md.json` is not a valid run result: unsupported version 7"),
        "{m}"
    );
    ok(std::fs::write(
        &path,
        r#"{"version": 1, "oathPath": "varar/b.md", "sourceHash": "", "examples": []}"#,
    ));
    let m = message(read_run_result(root, "varar/a.md"));
    assert!(
        m.ends_with("holds the results of `varar/b.md`, not of `varar/a.md`"),
        "{m}"
    );
    assert!(matches!(
        read_run_result(root, "../a.md"),
        Err(ResultFileError::BadOathPath { .. })
    ));
}

#[test]
fn any_results_tree_reads_like_the_project_s_own() {
    let dir = tmp();
    let tree = dir.path().join("shard-1");
    ok(std::fs::create_dir_all(tree.join("varar")));
    let text = r#"{"version": 1, "oathPath": "varar/a.md", "sourceHash": "h", "examples": []}"#;
    ok(std::fs::write(tree.join("varar/a.md.json"), text));
    let read = ok(read_run_result_in(&tree, "varar/a.md"));
    assert_eq!(read.map(|r| r.source_hash), Some("h".to_owned()));
    assert!(matches!(read_run_result_in(&tree, "varar/b.md"), Ok(None)));
    assert!(matches!(
        read_run_result_in(&tree, "../a.md"),
        Err(ResultFileError::BadOathPath { .. })
    ));
}

#[test]
fn a_results_tree_lists_its_result_files_and_nothing_else() {
    let dir = tmp();
    let tree = dir.path().join("shard");
    let write = |rel: &str| {
        let path = tree.join(rel);
        ok(std::fs::create_dir_all(path.parent().unwrap_or(&tree)));
        ok(std::fs::write(path, "{}"));
    };
    assert!(ok(create_ignored_dir(&tree.join("nested/deeper"))));
    assert!(!ok(create_ignored_dir(&tree.join("nested/deeper"))));
    assert_eq!(
        ok(std::fs::read_to_string(
            tree.join("nested/deeper/.gitignore")
        )),
        "*\n"
    );
    for rel in [
        "varar/b.md.json",
        "varar/a/c.md.json",
        ".locks/varar/b.md.json.lock",
        ".cache/links.json",
        "varar/b.md.json.new",
        "varar/.varar-tmp-x1y2",
        ".json",
    ] {
        write(rel);
    }
    let found: Vec<String> = result_files(&tree)
        .into_iter()
        .filter_map(Result::ok)
        .map(|(oath_path, _)| oath_path)
        .collect();
    assert_eq!(found, ["varar/a/c.md", "varar/b.md"]);
    assert_eq!(
        oath_path_of(&tree, &tree.join("varar/b.md.json")).as_deref(),
        Some("varar/b.md")
    );
    assert_eq!(result_path_shown("varar/b.md"), ".varar/varar/b.md.json");
    assert!(result_path_in(&tree, "../escape.md").is_err());
}

#[test]
fn the_store_names_every_path_of_its_files() {
    let dir = tmp();
    let root = dir.path();
    assert_eq!(scratch_dir(root), root.join(".varar"));
    assert_eq!(lock_path(root), root.join("varar.lock.json"));
    assert_eq!(runs_dir(root), root.join(".varar/.runs"));
    assert_eq!(runs_dir_in(Path::new("ci/a")), Path::new("ci/a/.runs"));
    assert_eq!(runs_dir_shown(SCRATCH_DIR), ".varar/.runs");
    assert_eq!(runs_dir_shown("ci/a"), "ci/a/.runs");
    // What a run reads from its cache is where it writes it.
    let cache = ok(ensure_cache_dir(root));
    assert_eq!(cache_path(root, "links"), cache.join("links"));
    // The project's runs are the runs of its own results tree.
    let record = runs::tests::record("run-1", "p1", "2026-12-01T07:00:00.000Z", true);
    ok(write_process_record(root, &record));
    let names = |dirs: Vec<RunDirectory>| dirs.into_iter().map(|d| d.name).collect::<Vec<_>>();
    assert_eq!(names(ok(read_run_dirs(root))), ["run-1"]);
    assert_eq!(names(ok(read_run_dirs_in(&scratch_dir(root)))), ["run-1"]);
}
