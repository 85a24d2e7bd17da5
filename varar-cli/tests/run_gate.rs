//! The gate judges the run (issue 19), end to end: real `cargo test` and
//! `cargo nextest run --retries 1` runs of a copy of
//! `tests/fixtures/evidence` (a step that fails on its first attempt only,
//! a step that ends the process, a drift, a broken link), then the real
//! `cargo varar gate` and `junit` on what they left behind.
//!
//! The nextest case fails, never skips, when cargo-nextest is missing:
//! `.ci/run` installs it.

#[path = "../../tests/tests/support/mod.rs"]
mod support;

use std::collections::BTreeSet;

use support::{Run, Sample};

fn fixture() -> (Sample, tempfile::TempDir) {
    let sample = Sample::copy_of(
        "tests/fixtures/evidence",
        r#"oathmark = { path = "../../../varar" }"#,
    );
    let state = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    (sample, state)
}

fn cargo(sample: &Sample, state: &tempfile::TempDir, args: &[&str]) -> Run {
    let dir = state.path().display().to_string();
    sample.run(args, &[("EVIDENCE_STATE", dir.as_str())])
}

/// `cargo varar <args>` in the copy: exit code and both streams.
fn varar(sample: &Sample, args: &[&str]) -> (Option<i32>, String) {
    let (code, stdout, stderr) = sample.output_of(env!("CARGO_BIN_EXE_cargo-varar"), args);
    (code, stdout + &stderr)
}

fn mend_the_link(sample: &Sample) {
    let links = sample
        .read("varar/links.md")
        .replace("[Gone](gone.md#nothing)\n", "");
    std::fs::write(sample.root().join("varar/links.md"), links).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn issue19_the_gate_fails_on_drift_and_a_broken_link_naming_their_lines() {
    let (sample, state) = fixture();
    std::fs::write(state.path().join("fixed"), "").unwrap_or_else(|e| panic!("{e}"));
    // The first run records the lock (the flaky oven fails once); the
    // second, after an edit, drifts.
    cargo(&sample, &state, &["test"]).assert_code(101, "the oven is cold, the link broken");
    let oath = sample.read("varar/oven.md").replace(
        "The baker checks the oven. I bake 3 loaves",
        "The baker looks at the oven. I roast 3 loaves",
    );
    std::fs::write(sample.root().join("varar/oven.md"), oath).unwrap_or_else(|e| panic!("{e}"));
    cargo(&sample, &state, &["test"]).assert_code(101, "drift and the broken link");
    let (code, text) = varar(&sample, &["gate"]);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("varar/oven.md::varar:drift:"), "{text}");
    assert!(
        text.contains("varar/links.md::varar:diagnostic:reference-not-found:7"),
        "{text}"
    );
    let (code, junit) = varar(&sample, &["junit"]);
    assert_eq!(code, Some(0), "{junit}");
    assert!(junit.contains("varar:drift:"), "{junit}");
    assert!(junit.contains("reference-not-found"), "{junit}");
}

#[test]
fn issue19_a_run_cut_short_by_process_exit_is_incomplete_for_the_gate() {
    let (sample, state) = fixture();
    std::fs::write(state.path().join("fixed"), "").unwrap_or_else(|e| panic!("{e}"));
    mend_the_link(&sample);
    // Two runs first: every oath's results are on disk and pass.
    cargo(&sample, &state, &["test"]).assert_code(101, "the oven is cold once");
    cargo(&sample, &state, &["test"]).assert_code(0, "all pass");
    let (code, text) = varar(&sample, &["gate"]);
    assert_eq!(code, Some(0), "{text}");
    std::fs::write(state.path().join("exit"), "").unwrap_or_else(|e| panic!("{e}"));
    // An oath whose examples all ran before the exit has its results
    // written already: the last example of an oath writes them.
    let links = sample.root().join(".varar/varar/links.md.json");
    std::fs::remove_file(&links).unwrap_or_else(|e| panic!("{}: {e}", links.display()));
    let exited = cargo(&sample, &state, &["test", "--", "--test-threads", "1"]);
    exited.assert_code(0, "std::process::exit(0) in a step");
    let written = std::fs::read_to_string(&links).unwrap_or_else(|e| panic!("{e}"));
    assert!(written.contains("I bake 4 loaves"), "{written}");
    let (code, text) = varar(&sample, &["gate", "--format", "json"]);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("\"incomplete_run\""), "{text}");
}

#[test]
fn issue19_a_flake_under_nextest_retries_is_recovered_and_can_be_denied() {
    let (sample, state) = fixture();
    std::fs::write(state.path().join("fixed"), "").unwrap_or_else(|e| panic!("{e}"));
    mend_the_link(&sample);
    let run = cargo(&sample, &state, &["nextest", "run", "--retries", "1"]);
    run.assert_code(0, "the flaky oven passes on its second attempt");
    assert!(run.combined().contains("FLAKY"), "{}", run.combined());
    let (code, text) = varar(&sample, &["gate"]);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("RECOVERED") && text.contains("The flaky oven warms up"),
        "{text}"
    );
    let (code, denied) = varar(&sample, &["gate", "--deny-recovered"]);
    assert_eq!(code, Some(1), "{denied}");
    let (code, junit) = varar(&sample, &["junit"]);
    assert_eq!(code, Some(0), "{junit}");
    assert!(junit.contains("<system-out>"), "{junit}");
    assert!(!junit.contains("flakyFailure"), "{junit}");
}

/// Issue 38: `junit --profile nextest` writes the attempts with the
/// elements and attributes cargo-nextest's own JUnit (of the same run) has:
/// the flaky oven passes with a `flakyFailure`, the dough that never rises
/// twice fails with a `rerunFailure`.
#[test]
fn issue38_the_nextest_profile_has_the_shape_of_nextest_s_own_junit() {
    let (sample, state) = fixture();
    mend_the_link(&sample);
    std::fs::create_dir_all(sample.root().join(".config")).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(
        sample.root().join(".config/nextest.toml"),
        // Without `fail-fast = false`, the dough's last failure may cancel
        // the run before the oven's second attempt starts (seen under
        // load), and the oven never runs again.
        "[store]\ndir = \"nextest-out\"\n\n[profile.ci]\nretries = 1\nfail-fast = false\n\n\
         [profile.ci.junit]\npath = \"junit.xml\"\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let run = cargo(&sample, &state, &["nextest", "run", "--profile", "ci"]);
    run.assert_code(100, "the dough fails on both attempts");
    let theirs = sample.read("nextest-out/ci/junit.xml");
    let (code, ours) = varar(&sample, &["junit", "--profile", "nextest"]);
    assert_eq!(code, Some(0), "{ours}");
    let (theirs, ours) = (xml(&theirs), xml(&ours));
    for (example, attempt) in [
        ("The flaky oven warms up. I bake 2 loaves", "flakyFailure"),
        (
            "I bake 1 loaves. Then the dough rises 2 times",
            "rerunFailure",
        ),
    ] {
        // nextest names the test `[varar] <full item name>`, the report
        // the example.
        let their_case = case(&theirs, |name| name.ends_with(&format!("::{example}")));
        let our_case = case(&ours, |name| name == example);
        let (their_shape, our_shape) = (shape(their_case), shape(our_case));
        assert_eq!(
            their_shape.iter().map(|(tag, _)| tag).collect::<Vec<_>>(),
            our_shape.iter().map(|(tag, _)| tag).collect::<Vec<_>>(),
            "{example}: the elements differ"
        );
        assert_eq!(
            our_shape.iter().filter(|(tag, _)| tag == attempt).count(),
            1,
            "{example}: one earlier attempt"
        );
        for ((tag, their_attrs), (_, our_attrs)) in their_shape.iter().zip(&our_shape) {
            if tag == attempt {
                assert_eq!(their_attrs, our_attrs, "{example}: <{tag}>'s attributes");
            } else {
                // Ours add the Markdown location (file, line) and the
                // failure's message: nextest's are all there.
                assert!(
                    their_attrs.is_subset(our_attrs),
                    "{example}: <{tag}>: {their_attrs:?} not in {our_attrs:?}"
                );
            }
        }
    }
}

fn xml(text: &str) -> roxmltree::Document<'_> {
    roxmltree::Document::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn case<'a>(
    doc: &'a roxmltree::Document<'a>,
    named: impl Fn(&str) -> bool,
) -> roxmltree::Node<'a, 'a> {
    doc.descendants()
        .find(|n| n.has_tag_name("testcase") && named(n.attribute("name").unwrap_or("")))
        .unwrap_or_else(|| panic!("no such testcase in\n{}", doc.input_text()))
}

/// A testcase, then each of its child elements and theirs, in document
/// order: the tag and its attribute names.
fn shape(case: roxmltree::Node<'_, '_>) -> Vec<(String, BTreeSet<String>)> {
    case.descendants()
        .filter(roxmltree::Node::is_element)
        .map(|n| {
            let attrs = n.attributes().map(|a| a.name().to_owned()).collect();
            (n.tag_name().name().to_owned(), attrs)
        })
        .collect()
}

/// Issue 34: a config that writes `docs` twice keeps the last value (here:
/// it selects nothing), and the real test binary, `gate`, `junit`,
/// `attest`, `report` and `check` each say which key and on which line.
#[test]
fn issue34_a_config_writing_a_key_twice_is_warned_about_by_every_tool() {
    let (sample, state) = fixture();
    let config = "{\n  \"docs\": { \"include\": [\"varar/**/*.md\"] },\n  \"docs\": {}\n}\n";
    std::fs::write(sample.root().join("varar.config.json"), config)
        .unwrap_or_else(|e| panic!("{e}"));
    let warning = "varar.config.json:3:3: the key \"docs\" is written twice (first at line 2, \
                   column 3); the last value is used, as JSON.parse does";
    let run = cargo(&sample, &state, &["test"]);
    run.assert_code(101, "the last `docs` selects no oath");
    assert!(
        run.combined().contains("varar: warning: ")
            && run.combined().contains(&format!("/{warning}")),
        "{}",
        run.combined()
    );
    for args in [
        &["gate"][..],
        &["junit"],
        &["attest"],
        &["report", "--out", "site"],
    ] {
        let (_, text) = varar(&sample, args);
        assert!(
            text.contains(&format!("cargo varar: warning: {warning}")),
            "{args:?}: {text}"
        );
    }
    let (code, text) = varar(&sample, &["gate"]);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("error[no_oaths]"), "{text}");
    let (_, text) = varar(&sample, &["check"]);
    assert!(
        text.contains(
            "varar.config.json:3:3: warning[duplicate_key]: the key \"docs\" is written twice"
        ),
        "{text}"
    );
}

/// Issue 34: after a real run that failed, an edit whose 32-bit
/// `sourceHash` collides with the text the run read
/// (`tests/fixtures/colliding/`) is not shown with that run's failure:
/// the report calls the results stale and draws nothing, junit and the
/// gate refuse the run, which read another text of the oath.
#[test]
fn issue34_a_colliding_edit_is_not_shown_as_the_old_run_s_failure() {
    let fixtures =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/colliding");
    let read = |name: &str| {
        std::fs::read_to_string(fixtures.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
    };
    let (before, after) = (read("before.md"), read("after.md"));
    assert_eq!(
        varar_core::hash::source_hash(&before),
        varar_core::hash::source_hash(&after),
        "the fixture collides"
    );
    let (sample, state) = fixture();
    for gone in ["varar/oven.md", "varar/links.md"] {
        sample.remove(gone);
    }
    let oath = sample.root().join("varar/rising.md");
    std::fs::write(&oath, &before).unwrap_or_else(|e| panic!("{e}"));
    cargo(&sample, &state, &["test"]).assert_code(101, "the dough rises once, not twice");
    let page = |sample: &Sample| {
        let (code, text) = varar(sample, &["report", "--out", "site"]);
        assert_eq!(code, Some(0), "{text}");
        std::fs::read_to_string(sample.root().join("site/oaths/varar/rising.md.html"))
            .unwrap_or_else(|e| panic!("{e}"))
    };
    assert!(
        page(&sample).contains("<mark "),
        "the run's failure is drawn"
    );

    std::fs::write(&oath, &after).unwrap_or_else(|e| panic!("{e}"));
    let edited = page(&sample);
    assert!(
        !edited.contains("<mark "),
        "the old run's failure drawn on the edited text: {edited}"
    );
    assert!(edited.contains("These results are stale."), "{edited}");
    // junit refuses as the gate does (one standing, issue 34): the latest
    // run read another text of the oath, by SHA-256; no XML is written.
    let stale = "error[stale_run]: `varar/rising.md` changed after the latest run";
    let (code, text) = varar(&sample, &["junit"]);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains(stale), "{text}");
    assert!(!text.contains("<testsuite"), "{text}");
    let (code, text) = varar(&sample, &["gate"]);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains(stale), "{text}");
}

/// Issue 34: a config with more globs than the limit is refused, naming
/// the key and the limit, by the real test binary and by `check` alike
/// (two million of them kept both busy for minutes).
#[test]
fn issue34_a_config_with_too_many_globs_is_refused_by_the_test_binary_and_check() {
    let (sample, state) = fixture();
    let globs: Vec<String> = (0..1001)
        .map(|i| format!("\"varar/d{i}/**/*.md\""))
        .collect();
    let config = format!("{{\"docs\": {{\"include\": [{}]}}}}\n", globs.join(", "));
    std::fs::write(sample.root().join("varar.config.json"), config)
        .unwrap_or_else(|e| panic!("{e}"));
    let why = "varar.config.json: \"docs.include\" holds 1001 globs; at most 1000 are accepted";
    let run = cargo(&sample, &state, &["test"]);
    assert_ne!(run.code, Some(0), "{}", run.combined());
    assert!(run.combined().contains(why), "{}", run.combined());
    let (code, text) = varar(&sample, &["check"]);
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains(&format!("error[invalid_config]: {why}")),
        "{text}"
    );
}
