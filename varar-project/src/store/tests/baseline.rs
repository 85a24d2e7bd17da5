//! The committed baseline's store: its advisory lock, its strict read, its
//! durable write, and its read again at a run's end.

use super::*;
use varar_core::lock::{Baseline, LOCK_FILE_NAME, LockEntry, OathRecord, reconcile};

#[test]
fn a_lock_makes_what_it_lacks_and_leaves_what_is_there() {
    let dir = tmp();
    let root = dir.path();
    // A project's first lock: `.varar/`, ignored, and `.locks/` in it.
    drop(ok(lock_baseline(root)));
    let scratch = root.join(SCRATCH_DIR);
    assert_eq!(
        ok(std::fs::read_to_string(scratch.join(".gitignore"))),
        "*\n"
    );
    assert!(scratch.join(".locks/varar.lock.json.lock").is_file());
    // `.locks/` gone, `.varar/` kept as the user left it: made again, and
    // nothing else touched.
    ok(std::fs::write(scratch.join(".gitignore"), "mine\n"));
    ok(std::fs::remove_dir_all(scratch.join(".locks")));
    let held = ok(lock_baseline(root));
    assert!(scratch.join(".locks/varar.lock.json.lock").is_file());
    assert_eq!(
        ok(std::fs::read_to_string(scratch.join(".gitignore"))),
        "mine\n"
    );
    drop(held);
    // Taken again where everything is there.
    drop(ok(lock_baseline(root)));
}

fn entry(hash: &str) -> LockEntry {
    LockEntry {
        source_hash: hash.into(),
        examples: Vec::new(),
    }
}

/// The harness's flow: lock, read, reconcile, save.
fn record_run(root: &Path, update: bool) -> Result<bool, StoreError> {
    let _guard = lock_baseline(root)?;
    let baseline = read_lock(root)?;
    let records = vec![OathRecord {
        oath_path: "a.md".into(),
        entry: Some(entry("fnv1a:00000001")),
        drifted: false,
    }];
    let reconciled = reconcile(baseline, records, &["a.md".to_owned()], update);
    save_lock(root, &reconciled)
}

#[test]
fn a_clean_run_records_and_a_second_run_leaves_the_file_alone() {
    let dir = tmp();
    assert!(ok(record_run(dir.path(), false)));
    let first = ok(std::fs::read(dir.path().join(LOCK_FILE_NAME)));
    assert!(String::from_utf8_lossy(&first).contains("\"a.md\""));
    assert!(!ok(record_run(dir.path(), false)));
    assert_eq!(ok(std::fs::read(dir.path().join(LOCK_FILE_NAME))), first);
}

#[test]
fn bad_locks_are_never_overwritten() {
    let conflict = "{\n  \"version\": 2,\n<<<<<<< HEAD\n  \"oaths\": {}\n=======\n  \"oaths\": {\"x\": 1}\n>>>>>>> b\n}\n";
    let cases: &[(&[u8], &str)] = &[
        (
            conflict.as_bytes(),
            "invalid JSON: key must be a string at line 3 column 1",
        ),
        (
            b"{\"version\": 2, \"oaths\": {\"a.md\": {\"sourceHash\": 1, \"examples\": []}}}",
            "oaths[\"a.md\"].sourceHash must be a string",
        ),
        (b"\xff\xfe", "not valid UTF-8"),
    ];
    for (bytes, want) in cases {
        for update in [false, true] {
            let dir = tmp();
            let path = dir.path().join(LOCK_FILE_NAME);
            ok(std::fs::write(&path, bytes));
            match record_run(dir.path(), update) {
                Err(e) => {
                    let msg = e.to_string();
                    assert!(
                        msg.contains(want) && msg.contains("varar.lock.json"),
                        "{msg}"
                    );
                    assert!(
                        msg.ends_with("fix the file or delete it to re-record"),
                        "{msg}"
                    );
                }
                Ok(written) => {
                    assert!(
                        want.is_empty(),
                        "expected an error for {:?}",
                        String::from_utf8_lossy(bytes)
                    );
                    assert!(!written);
                }
            }
            assert_eq!(ok(std::fs::read(&path)), *bytes, "update={update}");
        }
    }
}

#[test]
fn issue10_5_a_lock_of_another_version_is_replaced_only_with_consent() {
    for bytes in [
        &b"{\"version\": 3, \"oaths\": {}}"[..],
        b"{\"version\": 1, \"oaths\": {}}",
        b"{\"version\": \"2\", \"oaths\": {}}",
    ] {
        let dir = tmp();
        let path = dir.path().join(LOCK_FILE_NAME);
        ok(std::fs::write(&path, bytes));
        assert!(!ok(record_run(dir.path(), false)));
        assert_eq!(ok(std::fs::read(&path)), bytes);
        assert!(ok(record_run(dir.path(), true)), "VARAR_UPDATE re-records");
        let text = ok(std::fs::read_to_string(&path));
        assert!(text.starts_with("{\n  \"version\": 2,"), "{text}");
    }
}

#[test]
fn an_unreadable_lock_is_an_error_naming_it() {
    let dir = tmp();
    // A directory in place of the file cannot be read.
    ok(std::fs::create_dir(dir.path().join(LOCK_FILE_NAME)));
    let err = record_run(dir.path(), true)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        err.starts_with("cannot read `") && err.contains("varar.lock.json`"),
        "{err}"
    );
    assert!(dir.path().join(LOCK_FILE_NAME).is_dir());
}

#[test]
fn rereading_parses_only_a_lock_that_changed() {
    let dir = tmp();
    let root = dir.path();
    ok(record_run(root, false));
    let bytes = ok(std::fs::read(root.join(LOCK_FILE_NAME)));
    // Same bytes: the earlier reading comes back as it was, unparsed (this
    // one's lock does not even match the bytes, which shows it).
    let earlier = Baseline::Present {
        lock: varar_core::lock::Lock::default(),
        bytes: varar_core::lock::LockBytes::of(&bytes),
    };
    assert_eq!(ok(reread_lock(root, earlier.clone())), earlier);
    // Changed by another run: parsed afresh.
    let other = String::from_utf8_lossy(&bytes).replace("00000001", "00000002");
    ok(write_atomic(&root.join(LOCK_FILE_NAME), other.as_bytes()));
    let Baseline::Present { lock, .. } = ok(reread_lock(root, earlier.clone())) else {
        panic!("a valid lock");
    };
    assert_eq!(lock.oaths["a.md"].source_hash, "fnv1a:00000002");
    // Longer by a line another tool added: parsed afresh, and these are
    // the bytes the next reread compares with.
    ok(write_atomic(
        &root.join(LOCK_FILE_NAME),
        format!("{other}\n").as_bytes(),
    ));
    let longer = ok(reread_lock(root, earlier.clone()));
    let Baseline::Present { lock, bytes } = &longer else {
        panic!("a valid lock");
    };
    assert_eq!(lock.oaths["a.md"].source_hash, "fnv1a:00000002");
    assert!(bytes.same(format!("{other}\n").as_bytes()) && !bytes.same(other.as_bytes()));
    assert_eq!(ok(reread_lock(root, longer.clone())), longer);
    // Broken meanwhile: an error, never the earlier reading.
    ok(write_atomic(&root.join(LOCK_FILE_NAME), b"<<<<<<< HEAD\n"));
    assert!(reread_lock(root, earlier.clone()).is_err());
    // Deleted meanwhile: absent.
    ok(std::fs::remove_file(root.join(LOCK_FILE_NAME)));
    assert_eq!(ok(reread_lock(root, earlier)), Baseline::Absent);
}
