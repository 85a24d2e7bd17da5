//! Evidence over time (issue 20), end to end: real `cargo test` and
//! `cargo nextest run --retries 1` runs of a copy of
//! `tests/fixtures/evidence` (its oven fails on the first attempt of a
//! state directory only), kept in a history the test points
//! `VARAR_HISTORY` at, then the real `cargo varar history` and `flaky` on
//! what they left behind, locally and as downloaded `.varar/` artifacts.
//!
//! The nextest case fails, never skips, when cargo-nextest is missing:
//! `.ci/run` installs it.

#[path = "../../tests/tests/support/mod.rs"]
mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use support::{Run, Sample};

/// A copy of the fixture, its state directory, and where its history goes.
struct Fixture {
    sample: Sample,
    state: tempfile::TempDir,
    history: PathBuf,
}

fn fixture() -> Fixture {
    let sample = Sample::copy_of(
        "tests/fixtures/evidence",
        r#"oathmark = { path = "../../../varar" }"#,
    );
    let state = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(state.path().join("fixed"), "").unwrap_or_else(|e| panic!("{e}"));
    let links = sample
        .read("varar/links.md")
        .replace("[Gone](gone.md#nothing)\n", "");
    std::fs::write(sample.root().join("varar/links.md"), links).unwrap_or_else(|e| panic!("{e}"));
    let history = state.path().join("history");
    Fixture {
        sample,
        state,
        history,
    }
}

impl Fixture {
    fn cargo(&self, args: &[&str], extra: &[(&str, &str)]) -> Run {
        let state = self.state.path().display().to_string();
        let history = self.history.display().to_string();
        let mut env = vec![
            ("EVIDENCE_STATE", state.as_str()),
            ("VARAR_HISTORY", history.as_str()),
        ];
        env.extend_from_slice(extra);
        self.sample.run(args, &env)
    }

    /// `cargo varar <args>` in the copy, seeing the same history.
    fn varar(&self, args: &[&str]) -> (Option<i32>, String, String) {
        self.varar_with(&self.history, args)
    }

    /// `cargo varar <args>` in the copy, seeing the history `history`.
    fn varar_with(&self, history: &Path, args: &[&str]) -> (Option<i32>, String, String) {
        let out = Command::new(env!("CARGO_BIN_EXE_cargo-varar"))
            .args(args)
            .current_dir(self.sample.root())
            .env("VARAR_HISTORY", history)
            .output()
            .unwrap_or_else(|e| panic!("cannot run cargo-varar: {e}"));
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    /// The runs kept (the history's marker, `.varar-history`, is none).
    fn kept(&self) -> Vec<String> {
        let mut runs: Vec<String> = std::fs::read_dir(&self.history)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|name| !name.starts_with('.'))
            .collect();
        runs.sort();
        runs
    }

    /// Copy the project's `.varar/` to `to`, as CI uploads it.
    fn upload(&self, to: &Path) {
        copy_tree(&self.sample.root().join(".varar"), to);
    }
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap_or_else(|e| panic!("{e}"));
    for e in std::fs::read_dir(from).into_iter().flatten().flatten() {
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            copy_tree(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

const OVEN: &str = "The flaky oven warms up";

#[test]
fn issue20_two_nextest_runs_are_kept_and_the_recovered_oven_is_flaky() {
    let f = fixture();
    let artifacts = f.state.path().join("artifacts");
    let run = f.cargo(&["nextest", "run", "--retries", "1"], &[]);
    run.assert_code(0, "the flaky oven passes on its second attempt");
    f.upload(&artifacts.join("first"));
    let (code, out, err) = f.varar(&["flaky"]);
    assert_eq!(
        code,
        Some(3),
        "one run is not enough to compare: {out}{err}"
    );
    assert!(out.contains("error[too_few_runs]"), "{out}");
    f.cargo(&["nextest", "run", "--retries", "1"], &[])
        .assert_code(0, "the oven is warm now");
    f.upload(&artifacts.join("second"));
    assert_eq!(f.kept().len(), 2, "{:?}", f.kept());

    let (code, out, err) = f.varar(&["history"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.starts_with("2 runs kept in "), "{out}");
    let lines: Vec<&str> = out.lines().skip(1).collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines.iter().all(|l| l.contains("complete    fresh")),
        "{out}"
    );
    assert!(
        lines[1].ends_with("0 failed, 1 recovered"),
        "the older run: {out}"
    );
    assert!(
        lines[0].ends_with("0 failed, 0 recovered"),
        "the newer run: {out}"
    );

    let (code, out, err) = f.varar(&["flaky"]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.starts_with("1 of "), "{out}");
    assert!(
        out.contains(OVEN) && out.contains("oldest first: recovered passed"),
        "{out}"
    );
    let (code, out, _) = f.varar(&["flaky", "--format", "json"]);
    assert_eq!(code, Some(1), "{out}");
    let report = json(&out);
    assert_eq!(report["status"], "flaky");
    let oven = &report["items"][0];
    assert!(oven["name"].as_str().unwrap_or("").contains(OVEN), "{oven}");
    let counts: Vec<u64> = ["runs", "attempts", "passes", "failures", "recovered"]
        .iter()
        .map(|k| oven[k].as_u64().unwrap_or(99))
        .collect();
    assert_eq!(counts, [2, 3, 2, 1, 1], "{oven}");
    assert_eq!(report["items"][1]["flaky"], false);
    let (code, out, _) = f.varar(&["flaky", "--runs", "1"]);
    assert_eq!(code, Some(3), "{out}");

    // On CI: the `.varar/` trees each run uploaded, instead of a history.
    let first = artifacts.join("first").display().to_string();
    let second = artifacts.join("second").display().to_string();
    // Each CI job starts from a clean checkout: its tree holds its own run
    // only (here nextest's partial processes left the first run beside it).
    for run in std::fs::read_dir(artifacts.join("first/.runs"))
        .into_iter()
        .flatten()
        .flatten()
    {
        let _ = std::fs::remove_dir_all(artifacts.join("second/.runs").join(run.file_name()));
    }
    let (code, out, _) = f.varar(&["flaky", &first]);
    assert_eq!(code, Some(3), "{out}");
    let (code, out, _) = f.varar(&["flaky", &second]);
    assert_eq!(code, Some(3), "{out}");
    let (code, out, err) = f.varar(&["flaky", &first, &second]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains(OVEN), "{out}");
    // Once the oath changes, neither run is of the current sources.
    let oath = f
        .sample
        .read("varar/oven.md")
        .replace("# The oven", "# The ovens");
    std::fs::write(f.sample.root().join("varar/oven.md"), oath).unwrap_or_else(|e| panic!("{e}"));
    let (code, out, _) = f.varar(&["flaky"]);
    assert_eq!(code, Some(3), "{out}");
    assert!(out.contains("left out: 2 of other sources"), "{out}");
    let (_, out, _) = f.varar(&["history"]);
    assert_eq!(out.matches("  changed  ").count(), 2, "{out}");
}

#[test]
fn issue20_the_history_is_pruned_to_its_count_and_an_unwritable_one_is_a_warning() {
    let f = fixture();
    let limit = [("VARAR_HISTORY_RUNS", "2")];
    f.cargo(&["test"], &limit)
        .assert_code(101, "the oven is cold once");
    for _ in 0..2 {
        f.cargo(&["test"], &limit).assert_code(0, "all pass");
    }
    let kept = f.kept();
    assert_eq!(
        kept.len(),
        2,
        "the oldest of three runs is pruned: {kept:?}"
    );
    let (code, out, _) = f.varar(&["history", "--format", "json"]);
    assert_eq!(code, Some(0), "{out}");
    let listing = json(&out);
    let runs = listing["runs"].as_array().cloned().unwrap_or_default();
    assert_eq!(runs.len(), 2, "{out}");
    assert!(runs.iter().all(|r| r["counts"]["failed"] == 0), "{out}");

    // A history that cannot be written (its parent is a file, which even
    // root cannot create a directory in) warns; the run is as before.
    let blocked = f.state.path().join("blocked");
    std::fs::write(&blocked, "").unwrap_or_else(|e| panic!("{e}"));
    let nowhere = blocked.join("history").display().to_string();
    let run = f.cargo(&["test"], &[("VARAR_HISTORY", nowhere.as_str())]);
    run.assert_code(0, "an unwritable history does not fail the run");
    assert!(
        run.combined()
            .contains("varar: warning: the run history was not kept"),
        "{}",
        run.combined()
    );
    assert!(
        run.combined().contains("blocked/history"),
        "{}",
        run.combined()
    );
    let off = f.cargo(&["test"], &[("VARAR_HISTORY", "off")]);
    off.assert_code(0, "history off");
    assert_eq!(f.kept(), kept, "off keeps nothing and prunes nothing");
}

#[test]
fn issue34_history_and_flaky_refuse_to_read_a_directory_varar_did_not_make() {
    let f = fixture();
    let mine = f.state.path().join("mine");
    // Someone's folder, which happens to hold a file like a record.
    std::fs::create_dir_all(mine.join("photos")).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(mine.join("photos/holiday.run"), "{}").unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(mine.join("notes.txt"), "mine").unwrap_or_else(|e| panic!("{e}"));
    let link = f.state.path().join("link");
    #[cfg(unix)]
    std::os::unix::fs::symlink(&mine, &link).unwrap_or_else(|e| panic!("{e}"));
    #[cfg(unix)]
    let places = [(&mine, "varar did not make it"), (&link, "symbolic link")];
    #[cfg(not(unix))]
    let places = [(&mine, "varar did not make it")];
    for (place, why) in places {
        for command in ["history", "flaky"] {
            let (code, out, err) = f.varar_with(place, &[command]);
            // `history` says it on stderr, `flaky` in its report.
            let said = format!("{out}{err}");
            assert_eq!(code, Some(2), "{command} {}: {said}", place.display());
            assert!(
                said.contains("error[input_error]")
                    && said.contains("is not read as a run history")
                    && said.contains(why),
                "{command}: {said}"
            );
            assert!(said.contains(&place.display().to_string()), "{said}");
        }
    }
    // Given on the command line: the same.
    let shown = mine.display().to_string();
    let (code, out, err) = f.varar(&["flaky", &shown]);
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(out.contains("is not read as a run history"), "{out}");
    assert!(mine.join("photos/holiday.run").is_file() && mine.join("notes.txt").is_file());
    assert!(
        !mine.join(".varar-history").exists(),
        "reading marks nothing"
    );
}

/// What the in-toto project's own Python library reads in `statement`
/// (`tests/in_toto/read_statement.py`). Fails, never skips, without the
/// library: `.ci/run` installs it.
fn read_with_in_toto(statement: &Path) -> Value {
    let python = std::env::var("VARAR_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/in_toto/read_statement.py");
    let out = Command::new(&python)
        .arg(&script)
        .arg(statement)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {python}: {e}"));
    assert!(
        out.status.success(),
        "the in-toto reader refused the statement (install it with `python3 -m pip install \
         in-toto-attestation==0.9.3`): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    json(&String::from_utf8_lossy(&out.stdout))
}

#[test]
fn issue20_a_recovered_run_is_attested_warned_and_verified_against_the_tree() {
    let f = fixture();
    // `cargo test` records the lock (nextest never writes it); the oven's
    // counter is then reset, so that it fails once more under nextest.
    f.cargo(&["test"], &[])
        .assert_code(101, "the oven is cold once");
    std::fs::remove_file(f.state.path().join("oven.count")).unwrap_or_else(|e| panic!("{e}"));
    f.cargo(&["nextest", "run", "--retries", "1"], &[])
        .assert_code(0, "the flaky oven recovers");
    let att = f.state.path().join("out/attestation.json");
    let att_arg = att.display().to_string();
    let (code, out, err) = f.varar(&["attest", "--out", &att_arg]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(err.contains("result WARNED"), "{err}");
    let bytes = std::fs::read(&att).unwrap_or_else(|e| panic!("{e}"));
    let (code, again, _) = f.varar(&["attest"]);
    assert_eq!(code, Some(0));
    assert_eq!(
        again.as_bytes(),
        bytes.as_slice(),
        "byte-stable for the same run"
    );

    let read = read_with_in_toto(&att);
    assert_eq!(read["type"], "https://in-toto.io/Statement/v1");
    assert_eq!(read["result"], "WARNED");
    let sha = |rel: &str| {
        varar_core::hash::sha256_hex(&std::fs::read(f.sample.root().join(rel)).unwrap_or_default())
    };
    for oath in ["varar/oven.md", "varar/links.md"] {
        assert_eq!(read["subjects"][oath], sha(oath), "{read}");
    }
    for file in ["varar.config.json", "varar.lock.json"] {
        assert_eq!(read["configuration"][file], sha(file), "{read}");
    }
    let warned = read["warned"].as_array().cloned().unwrap_or_default();
    assert_eq!(warned.len(), 1, "{read}");
    assert!(warned[0].as_str().unwrap_or("").contains(OVEN), "{read}");
    assert!(
        read["failed"].as_array().is_some_and(Vec::is_empty),
        "{read}"
    );
    assert!(
        !read["passed"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .is_empty()
    );

    let (code, out, _) = f.varar(&["verify", &att_arg]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.starts_with("verified "), "{out}");
    // An edited oath and a removed lock: exit 1, each named.
    let oath = f
        .sample
        .read("varar/oven.md")
        .replace("# The oven", "# The ovens");
    std::fs::write(f.sample.root().join("varar/oven.md"), oath).unwrap_or_else(|e| panic!("{e}"));
    f.sample.remove("varar.lock.json");
    let (code, out, _) = f.varar(&["verify", "--format", "json", &att_arg]);
    assert_eq!(code, Some(1), "{out}");
    let report = json(&out);
    let named: Vec<(String, String)> = report["errors"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|e| {
            (
                e["code"].as_str().unwrap_or("").to_owned(),
                e["path"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect();
    assert_eq!(
        named,
        [
            ("digest_mismatch".to_owned(), "varar/oven.md".to_owned()),
            ("missing_subject".to_owned(), "varar.lock.json".to_owned()),
        ]
    );
    // The run is stale now: nothing is attested, the gate's errors say why.
    let stale = f.state.path().join("stale.json");
    let (code, _, err) = f.varar(&["attest", "--out", &stale.display().to_string()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("error[stale_run]"), "{err}");
    assert!(!stale.exists(), "nothing written");
    // Not an attestation of this kind: exit 2.
    let junk = f.state.path().join("junk.json");
    std::fs::write(&junk, r#"{"_type": "https://in-toto.io/Statement/v0.1"}"#)
        .unwrap_or_else(|e| panic!("{e}"));
    let (code, out, _) = f.varar(&["verify", &junk.display().to_string()]);
    assert_eq!(code, Some(2), "{out}");
    assert!(out.contains("error[invalid_attestation]"), "{out}");
}

/// Issue 34: an oath whose name holds a backslash (a plain character of a
/// Unix file name), run by the real test binary, is attested by
/// `cargo varar attest`, verified by `cargo varar verify` (and read by the
/// in-toto library), and has its own page in the report.
#[cfg(unix)]
#[test]
fn issue34_an_oath_named_with_a_backslash_is_attested_verified_and_reported() {
    let f = fixture();
    for gone in ["varar/oven.md", "varar/links.md"] {
        f.sample.remove(gone);
    }
    let oath = "varar/back\\slash.md";
    std::fs::write(f.sample.root().join(oath), "# Back\n\nI bake 5 loaves.\n")
        .unwrap_or_else(|e| panic!("{e}"));
    f.cargo(&["test"], &[])
        .assert_code(0, "the one example passes");

    let att = f.state.path().join("attestation.json");
    let att_arg = att.display().to_string();
    let (code, out, err) = f.varar(&["attest", "--out", &att_arg]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(err.contains("result PASSED, 1 subject(s)"), "{err}");
    let read = read_with_in_toto(&att);
    let sha = varar_core::hash::sha256_hex(
        &std::fs::read(f.sample.root().join(oath)).unwrap_or_default(),
    );
    assert_eq!(read["subjects"][oath], sha, "{read}");

    let (code, out, err) = f.varar(&["verify", &att_arg]);
    assert_eq!(code, Some(0), "verify agrees with attest: {out}{err}");
    assert!(out.starts_with("verified "), "{out}");

    let site = f.state.path().join("report");
    let (code, out, err) = f.varar(&["report", "--out", &site.display().to_string()]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        site.join("oaths/varar/back\\slash.md.html").is_file(),
        "the oath has its page"
    );
    let index = std::fs::read_to_string(site.join("index.html")).unwrap_or_default();
    assert!(
        index.contains("href=\"oaths/varar/back%5Cslash.md.html\""),
        "a browser reads `\\` in a link as `/`: it is percent-encoded\n{index}"
    );
}
