//! `cargo varar test` end to end (issue 38): the real `cargo-varar` binary
//! on a copy of the bakery, running the real `cargo test` and `cargo
//! nextest run` with the items it selected in `VARAR_SELECT`; the run
//! record then read by the real `cargo varar gate`. The nextest half
//! fails, never skips, when cargo-nextest is missing: `.ci/run` installs
//! it.

#[path = "../../tests/tests/support/mod.rs"]
mod support;

use std::process::{Command, Output};

use serde_json::Value;
use support::{Sample, workspace_root};

/// The example written on line 13 of the bakery's basket.
const LINE_13: &str =
    "varar/basket.md::The basket::Paying::I put 2 croissants in the basket, so the total is £2.40";

/// `cargo varar <args>` in the copy, with the clean environment of
/// `Sample::cargo` (the cargo it starts builds in the shared e2e target).
fn varar(sample: &Sample, args: &[&str]) -> (Option<i32>, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cargo-varar"));
    cmd.arg("varar").args(args).current_dir(sample.root());
    for (key, _) in std::env::vars_os() {
        let k = key.to_string_lossy();
        if k.starts_with("VARAR_") || k.starts_with("NEXTEST") || k == "RUST_TEST_THREADS" {
            cmd.env_remove(&key);
        }
    }
    cmd.env(
        "CARGO_TARGET_DIR",
        workspace_root().join("target").join("e2e"),
    )
    .env("CARGO_TERM_COLOR", "never")
    .env("VARAR_HISTORY", "off");
    let Output {
        status,
        stdout,
        stderr,
    } = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run cargo-varar: {e}"));
    (
        status.code(),
        String::from_utf8_lossy(&stdout).into_owned(),
        String::from_utf8_lossy(&stderr).into_owned(),
    )
}

/// [`varar`] with `VARAR_TAGS` set in the caller's environment.
fn varar_tagged(sample: &Sample, tags: &str, args: &[&str]) -> (Option<i32>, String, String) {
    let args: Vec<&str> = std::iter::once("varar")
        .chain(args.iter().copied())
        .collect();
    sample.output_with(
        env!("CARGO_BIN_EXE_cargo-varar"),
        &args,
        &[("VARAR_TAGS", tags), ("VARAR_HISTORY", "off")],
    )
}

/// The gate's verdict of the latest run, as JSON.
fn gate(sample: &Sample) -> Value {
    let (_, out, err) = varar(sample, &["gate", "--format", "json"]);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}{err}"))
}

#[test]
fn issue38_a_line_runs_exactly_its_example_under_cargo_test_and_nextest() {
    let sample = Sample::copy();
    let (code, out, err) = varar(
        &sample,
        &["test", "varar/basket.md:13", "--", "--test", "oaths"],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        err.contains(
            "cargo varar: selected 1 of 13 items (13 examples):\ncargo varar:   \
             varar/basket.md:13 \"I put 2 croissants in the basket, so the total is £2.40\" \
             (named on the command line: varar/basket.md:13)"
        ),
        "{err}"
    );
    assert!(out.contains("running 1 test\n"), "{out}");
    assert!(
        out.contains(&format!("test [varar] {LINE_13} ... ok")),
        "{out}"
    );
    assert!(out.contains("test result: ok. 1 passed; 0 failed"), "{out}");
    // The run record: one item ran, the 12 others were not selected.
    let verdict = gate(&sample);
    assert_eq!(verdict["standing"], "filtered", "{verdict:#}");
    assert_eq!(verdict["run"]["counts"]["passed"], 1, "{verdict:#}");
    assert_eq!(verdict["run"]["counts"]["notSelected"], 12, "{verdict:#}");
    sample.assert_lock_pristine("a selected run leaves the lock alone", None);

    // The same through nextest, which lists through the harness.
    let version = sample.run(&["nextest", "--version"], &[]);
    assert_eq!(
        version.code,
        Some(0),
        "cargo-nextest is needed for this test (.ci/run installs it):\n{}",
        version.combined()
    );
    let (code, out, err) = varar(
        &sample,
        &[
            "test",
            "varar/basket.md:13",
            "--nextest",
            "--",
            "--test",
            "oaths",
        ],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    let both = format!("{out}{err}");
    assert!(both.contains("Starting 1 test across 1 binary"), "{both}");
    assert!(
        both.contains(&format!("bakery::oaths [varar] {LINE_13}\n")),
        "{both}"
    );
    assert!(both.contains("1 test run: 1 passed"), "{both}");
    let verdict = gate(&sample);
    assert_eq!(verdict["standing"], "filtered", "{verdict:#}");
    assert_eq!(verdict["run"]["counts"]["passed"], 1, "{verdict:#}");
}

#[test]
fn issue38_the_harness_lists_only_what_varar_select_names_and_refuses_what_names_nothing() {
    let sample = Sample::copy();
    let select = format!("[varar] {LINE_13}\nvarar/nowhere.md::x\n");
    let run = sample.cargo_test(
        &["--test", "oaths", "--", "--list"],
        &[("VARAR_SELECT", select.as_str())],
    );
    run.assert_code(0, "a listing under VARAR_SELECT");
    assert_eq!(run.listed_items(), [LINE_13], "{}", run.combined());
    // A run names what it did not plan.
    let run = sample.cargo_test(&["--test", "oaths"], &[("VARAR_SELECT", select.as_str())]);
    run.assert_code(0, "a run under VARAR_SELECT");
    assert_eq!(run.executed_items().len(), 1, "{}", run.combined());
    assert!(
        run.stderr.contains(
            "varar: VARAR_SELECT names 1 item this run did not plan, so it does not run: \
             `varar/nowhere.md::x`"
        ),
        "{}",
        run.stderr
    );
    // Bytes that are no UTF-8 name nothing: refused, said why. (A value
    // over the 128 KiB limit never reaches a process on Linux, which
    // refuses such a string itself: the unit tests check that refusal.)
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt as _;
        let out = sample
            .cargo(["test", "--test", "oaths"])
            .env(
                "VARAR_SELECT",
                std::ffi::OsString::from_vec(vec![0xff, b'\n']),
            )
            .output()
            .unwrap_or_else(|e| panic!("cannot run cargo: {e}"));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(101), "{stderr}");
        assert!(
            stderr.contains("VARAR_SELECT is not UTF-8, so it names no item"),
            "{stderr}"
        );
    }
}

/// `git <args>` in the copy.
fn git(sample: &Sample, args: &[&str]) {
    let (code, out, err) = sample.output_of("git", args);
    assert_eq!(code, Some(0), "git {args:?}: {out}{err}");
}

#[test]
fn issue38_since_selects_the_edited_paragraph_and_a_rust_change_selects_everything() {
    let sample = Sample::copy();
    git(&sample, &["init", "-q", "."]);
    git(&sample, &["add", "-A"]);
    git(
        &sample,
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@example.com",
            "commit",
            "-qm",
            "bakery",
        ],
    );
    // A section by its slug; the document whose section other oaths run
    // selects the examples that run it.
    let (code, out, err) = varar(&sample, &["test", "varar/basket.md#paying", "--list"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(
        out.lines()
            .all(|l| l.starts_with("varar/basket.md::The basket::Paying::")),
        "{out}"
    );
    let (code, out, err) = varar(&sample, &["test", "varar/opening-the-shop.md", "--list"]);
    assert_eq!(code, Some(0), "{err}");
    let oaths: Vec<&str> = out.lines().filter_map(|l| l.split("::").next()).collect();
    assert_eq!(
        oaths,
        ["varar/serving-a-customer.md", "varar/the-morning-rush.md"],
        "{out}"
    );

    let (code, out, err) = varar(&sample, &["test", "--since", "HEAD", "--list"]);
    assert_eq!((code, out.as_str()), (Some(0), ""), "{err}");
    assert!(err.contains("selected 0 of 13 items"), "{err}");

    sample.edit(
        "varar/basket.md",
        "so the total is £2.40.",
        "so the total is £2.40 to pay.",
    );
    let (code, out, err) = varar(&sample, &["test", "--since", "HEAD", "--list"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        out,
        format!("{LINE_13} to pay\n"),
        "exactly the edited example: {err}"
    );
    assert!(err.contains("(its lines changed)"), "{err}");
    // It runs, and only it.
    let (code, out, err) = varar(
        &sample,
        &["test", "--since", "HEAD", "--", "--test", "oaths"],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("running 1 test\n"), "{out}");

    // A change to Rust outside any step function: everything, said why.
    let steps = "tests/steps/mod.rs";
    let text = sample.read(steps);
    std::fs::write(sample.root().join(steps), format!("{text}\n// a comment\n"))
        .unwrap_or_else(|e| panic!("{e}"));
    let (code, out, err) = varar(&sample, &["test", "--since", "HEAD", "--list"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out.lines().count(), 13, "{out}");
    assert!(
        err.contains("--since HEAD: running everything: `tests/steps/mod.rs:"),
        "{err}"
    );
    assert!(err.contains("changed outside any step function"), "{err}");

    // A ref that is an option, or no commit: exit 2, named.
    for (reference, said) in [
        ("--since=-p", "--since `-p` is no git ref"),
        ("--since=nosuch", "--since `nosuch` names no commit"),
    ] {
        let (code, _, err) = varar(&sample, &["test", reference, "--list"]);
        assert_eq!(code, Some(2), "{err}");
        assert!(err.contains(said), "{err}");
    }
    let (code, _, err) = varar(&sample, &["test", "varar/basket.md:2", "--list"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("no example of varar/basket.md is written on line 2"),
        "{err}"
    );
}

#[test]
fn issue38_tags_select_what_the_harness_runs_and_a_bad_expression_stops_before_cargo() {
    let sample = Sample::copy();
    sample.edit(
        "varar/basket.md",
        "## Paying\n",
        "<!-- @money -->\n## Paying\n",
    );
    // What `--list` says is what the harness then runs: the same rule
    // (`varar_core::tags::selects`) on both sides of `VARAR_TAGS`.
    let (code, listed, err) = varar(&sample, &["test", "--tags", "@money", "--list"]);
    assert_eq!(code, Some(0), "{listed}{err}");
    let listed: Vec<&str> = listed.lines().collect();
    assert!(
        !listed.is_empty() && listed.iter().all(|n| n.contains("::Paying::")),
        "{listed:?}"
    );
    assert!(
        err.contains(&format!(
            "selected {} of 13 items (13 examples):",
            listed.len()
        )) && err.contains("(its tags match @money)"),
        "{err}"
    );
    let (code, out, err) = varar(
        &sample,
        &["test", "--tags", "@money", "--", "--test", "oaths"],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    let mut ran: Vec<&str> = out
        .lines()
        .filter_map(|l| l.strip_prefix("test [varar] "))
        .filter_map(|l| l.strip_suffix(" ... ok"))
        .collect();
    ran.sort_unstable();
    let mut want = listed.clone();
    want.sort_unstable();
    assert_eq!(ran, want, "{out}{err}");
    assert_eq!(gate(&sample)["standing"], "filtered");

    // A `VARAR_TAGS` the caller already set is what the harness will
    // apply, so the command selects and says by it too.
    let (code, inherited, err) = varar_tagged(&sample, "@money", &["test", "--list"]);
    assert_eq!(code, Some(0), "{inherited}{err}");
    assert_eq!(inherited.lines().collect::<Vec<_>>(), listed, "{err}");
    let (code, _, err) = varar_tagged(&sample, "@money and", &["test", "--list"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("VARAR_TAGS \"@money and\" is not a tag expression"),
        "{err}"
    );

    // A selector and tags narrow each other.
    let (code, listed, err) = varar(
        &sample,
        &["test", "varar/basket.md", "--tags", "not @money", "--list"],
    );
    assert_eq!(code, Some(0), "{listed}{err}");
    assert!(
        !listed.is_empty()
            && listed
                .lines()
                .all(|n| n.starts_with("varar/basket.md::") && !n.contains("::Paying::")),
        "{listed}"
    );

    let (code, out, err) = varar(&sample, &["test", "--tags", "@money and (slow"]);
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(
        err.contains("--tags") && err.contains("is not a tag expression") && err.contains("column"),
        "{err}"
    );
    assert!(!out.contains("running"), "nothing ran: {out}");
}
