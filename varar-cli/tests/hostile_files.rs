//! Files in a project's place that are not files (STYLE §2.9), end to end:
//! a committed `varar.lock.json` linked to a FIFO (git keeps symbolic
//! links), and a `varar.config.json` that is one. Read with `std::fs`, the
//! first made `cargo test` and `cargo varar check` wait for ever, and a
//! link to `/dev/zero` read until memory ran out. Each is an error naming
//! the file and why, at once, and nothing of the project is lost.

#![cfg(unix)]

#[path = "../../tests/tests/support/mod.rs"]
mod support;

use std::path::Path;
use std::time::Duration;

use support::Sample;

/// A FIFO at `path` that no one ever writes.
fn fifo(path: &Path) {
    // `--`: the path is never read as an option.
    let made = std::process::Command::new("mkfifo")
        .arg("--")
        .arg(path)
        .status()
        .unwrap_or_else(|e| panic!("mkfifo: {e}"));
    assert!(made.success(), "{}", path.display());
}

/// Put a FIFO in the place of `name` in the copy: the file itself, or a
/// symbolic link to one outside the project.
fn replace_with_fifo(sample: &Sample, name: &str, linked: bool) {
    let path = sample.root().join(name);
    std::fs::remove_file(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    if linked {
        let outside = sample.root().join("target").join("pipe");
        std::fs::create_dir_all(sample.root().join("target")).unwrap_or_else(|e| panic!("{e}"));
        fifo(&outside);
        std::os::unix::fs::symlink(&outside, &path).unwrap_or_else(|e| panic!("{e}"));
    } else {
        fifo(&path);
    }
}

/// `cargo varar <args>` in the copy, given a minute (a read of a FIFO
/// would wait for ever).
fn varar_within_a_minute(sample: &Sample, args: &[&str]) -> (Option<i32>, String, String) {
    let (sent, done) = std::sync::mpsc::channel();
    let (root, owned): (std::path::PathBuf, Vec<String>) = (
        sample.root().to_path_buf(),
        args.iter().map(|a| a.to_string()).collect(),
    );
    std::thread::spawn(move || {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_cargo-varar"))
            .args(&owned)
            .current_dir(root)
            .stdin(std::process::Stdio::null())
            .output();
        let _ = sent.send(out);
    });
    let out = done
        .recv_timeout(Duration::from_secs(60))
        .unwrap_or_else(|_| panic!("cargo varar {args:?} did not finish within a minute"))
        .unwrap_or_else(|e| panic!("cannot run cargo-varar: {e}"));
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

const NOT_A_FILE: &str = "it is not a regular file (a device, a FIFO or a socket is never read)";

/// `cargo test` of the copy fails and `cargo varar check` exits 2, each
/// saying all of `test_says` and `check_says` respectively.
fn assert_both_refuse(sample: &Sample, test_says: &[&str], check_says: &[&str]) {
    let run = sample.cargo_test(&[], &[]);
    let out = run.combined();
    assert_ne!(run.code, Some(0), "{out}");
    assert!(test_says.iter().all(|s| out.contains(s)), "{out}");
    let (code, stdout, stderr) = varar_within_a_minute(sample, &["varar", "check"]);
    let said = format!("{stdout}{stderr}");
    assert_eq!(code, Some(2), "{said}");
    assert!(check_says.iter().all(|s| said.contains(s)), "{said}");
}

#[test]
fn a_lock_linked_to_a_fifo_stops_cargo_test_and_check_with_an_error_naming_it() {
    let sample = Sample::copy();
    let oaths = sample.oath_files();
    replace_with_fifo(&sample, "varar.lock.json", true);
    assert_both_refuse(
        &sample,
        &["cannot read `", "varar.lock.json`: ", NOT_A_FILE],
        &["cannot read `varar.lock.json`: ", NOT_A_FILE],
    );
    assert_eq!(sample.oath_files(), oaths, "nothing lost");
    assert!(
        sample.root().join("varar.lock.json").is_symlink(),
        "left as it is"
    );
}

#[test]
fn a_config_that_is_a_fifo_stops_cargo_test_and_check_with_an_error_naming_it() {
    let sample = Sample::copy();
    replace_with_fifo(&sample, "varar.config.json", false);
    let says = ["varar.config.json", NOT_A_FILE];
    assert_both_refuse(&sample, &says, &says);
}
