//! Issue 38, points 1 and 2, end to end: a real `cargo test` of a copy of
//! `examples/bakery` with a failing cell, then the real `cargo varar
//! annotate` (GitHub and GitLab) and `cargo varar sarif` on what it left
//! behind. Each places the failure where `cargo test`'s own header does,
//! at the repository's path; the SARIF log is valid against the official
//! SARIF 2.1.0 schema (`tests/sarif/`); a run that is no longer the
//! sources' is refused with the gate's records.

#[path = "../../tests/tests/support/mod.rs"]
mod support;

use serde_json::Value;
use support::Sample;

const OATH: &str = "varar/basket.md";
/// The paragraph at line 9 of the oath, and its rewording, which no step
/// matches any more: drift (spec 40 §5.1), as `review.rs` makes it.
const COUNTING: &str = "I put 2 croissants in the basket. I put 1 baguette in the basket. Now the basket holds 3 items";
const REWORDED: &str = "I placed 2 croissants in the basket. I placed 1 baguette in the basket. \
                        Then the basket has 3 items";

/// `cargo varar <args>` in the copy: exit code, stdout, stderr.
fn varar(sample: &Sample, args: &[&str]) -> (Option<i32>, String, String) {
    sample.output_of(env!("CARGO_BIN_EXE_cargo-varar"), args)
}

/// The line and column of the header `cargo test` printed for the
/// failure whose message is `message`: `varar/basket.md:L:C: message`.
fn header_position(output: &str, message: &str) -> (u32, u32) {
    let suffix = format!(": {message}");
    let line = output
        .lines()
        .find(|l| l.starts_with(&format!("{OATH}:")) && l.ends_with(&suffix))
        .unwrap_or_else(|| panic!("no header for {message:?} in:\n{output}"));
    let place = &line[OATH.len() + 1..line.len() - suffix.len()];
    let (l, c) = place
        .split_once(':')
        .unwrap_or_else(|| panic!("not line:col: {line}"));
    let parse = |n: &str| n.parse().unwrap_or_else(|e| panic!("{line}: {e}"));
    (parse(l), parse(c))
}

/// The official SARIF 2.1.0 schema, as a validator that checks formats too.
fn sarif_validator() -> jsonschema::Validator {
    let text = include_str!("sarif/sarif-schema-2.1.0.json");
    let schema: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}"));
    jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap_or_else(|e| panic!("{e}"))
}

fn read_json(sample: &Sample, rel: &str) -> Value {
    serde_json::from_str(&sample.read(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn issue38_a_failing_cell_is_annotated_where_cargo_test_points_in_every_format() {
    let sample = Sample::copy();
    sample.edit(OATH, "so the total is £2.40", "so the total is £9.99");
    sample.edit(OATH, COUNTING, REWORDED);
    let run = sample.cargo_test(&[], &[]);
    run.assert_code(101, "the edited cell fails, the reworded paragraph drifted");
    let message = "cell 1: expected £9.99 but was £2.40";
    let (line, col) = header_position(&run.combined(), message);
    // "£9.99": five UTF-16 code units, on one line.
    let (end_line, end_col) = (line, col + 5);

    // The copy is `…/bakery` inside a repository whose root is its parent.
    let repository = sample
        .root()
        .parent()
        .unwrap_or_else(|| panic!("a copy has a parent"));
    std::fs::create_dir(repository.join(".git")).unwrap_or_else(|e| panic!("{e}"));
    let path = format!("bakery/{OATH}");

    // GitHub: one command per finding, one line each: the failed example
    // at cargo test's place, then the drift on its line.
    let (code, stdout, stderr) = varar(&sample, &["annotate"]);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    let title = "failed%3A I put 2 croissants in the basket%2C so the total is £9.99";
    assert_eq!(
        lines[0],
        format!(
            "::error file={path},line={line},col={col},endLine={end_line},\
             endColumn={end_col},title={title}::{message}"
        )
    );
    let drift = format!(
        "::error file={path},line=9,title=drift%3A varar/basket.md%3A%3Avarar%3Adrift%3A9::"
    );
    assert!(lines[1].starts_with(&drift), "{}", lines[1]);
    assert!(
        lines[1].contains("%0A"),
        "its message's lines, escaped: {}",
        lines[1]
    );
    // `--path-prefix` overrides what `.git` says.
    let (code, stdout, _) = varar(&sample, &["annotate", "--path-prefix", "examples/bakery"]);
    assert_eq!(code, Some(0));
    assert!(
        stdout.starts_with(&format!("::error file=examples/bakery/{OATH},line={line},")),
        "{stdout}"
    );

    // GitLab: a Code Quality report with the same place.
    let (code, stdout, stderr) = varar(
        &sample,
        &[
            "annotate",
            "--format",
            "gitlab",
            "--out",
            "ci/gl-code-quality.json",
        ],
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(stdout, "");
    assert!(
        stderr.contains("wrote `ci/gl-code-quality.json`: 2 annotation(s)"),
        "{stderr}"
    );
    let issues = read_json(&sample, "ci/gl-code-quality.json");
    let [issue, drifted] = issues.as_array().map(Vec::as_slice).unwrap_or_default() else {
        panic!("{issues}")
    };
    assert_eq!(issue["check_name"], "varar/failed-example");
    assert_eq!(issue["severity"], "major");
    assert_eq!(issue["location"]["path"], path.as_str());
    assert_eq!(
        issue["location"]["positions"],
        serde_json::json!({
            "begin": {"line": line, "column": col},
            "end": {"line": end_line, "column": end_col},
        })
    );

    assert_eq!(drifted["check_name"], "varar/drift");
    assert_eq!(
        drifted["location"]["lines"],
        serde_json::json!({"begin": 9})
    );

    // SARIF: valid against the official schema, the same place.
    let (code, _, stderr) = varar(&sample, &["sarif", "--out", "ci/varar.sarif"]);
    assert_eq!(code, Some(0), "{stderr}");
    let log = read_json(&sample, "ci/varar.sarif");
    let errors: Vec<String> = sarif_validator()
        .iter_errors(&log)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}\n{log:#}");
    let result = &log["runs"][0]["results"][0];
    assert_eq!(result["ruleId"], "varar/failed-example");
    assert_eq!(result["level"], "error");
    assert_eq!(result["message"]["text"], message);
    let location = &result["locations"][0]["physicalLocation"];
    assert_eq!(location["artifactLocation"]["uri"], path.as_str());
    assert_eq!(location["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    assert_eq!(
        location["region"],
        serde_json::json!({
            "startLine": line, "startColumn": col, "endLine": end_line, "endColumn": end_col,
        })
    );
    let drift = &log["runs"][0]["results"][1];
    assert_eq!(drift["ruleId"], "varar/drift");
    assert_eq!(
        drift["locations"][0]["physicalLocation"]["region"],
        serde_json::json!({"startLine": 9})
    );
    assert_eq!(
        result["partialFingerprints"]["varar/v1"], issue["fingerprint"],
        "one finding, one fingerprint in every format"
    );

    // The oath edited since the run: no run vouches for these sources, so
    // both refuse, with the gate's records, and write nothing.
    sample.edit(OATH, "# The basket", "# The shopping basket");
    for args in [&["annotate"][..], &["sarif", "--out", "ci/stale.sarif"][..]] {
        let (code, stdout, stderr) = varar(&sample, args);
        assert_eq!(code, Some(2), "{args:?}: {stdout}{stderr}");
        assert_eq!(stdout, "", "{args:?}");
        assert!(stderr.contains("error[stale_run]"), "{args:?}: {stderr}");
    }
    assert!(!sample.root().join("ci/stale.sarif").exists());
}

#[test]
fn issue38_the_vendored_sarif_schema_is_the_official_one() {
    // What `tests/sarif/README.md` promises: the OASIS 2.1.0 schema (its
    // errata 01 `id`), which rejects a log without `runs`.
    let text = include_str!("sarif/sarif-schema-2.1.0.json");
    let schema: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        schema["id"],
        "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
    );
    let validator = sarif_validator();
    assert!(!validator.is_valid(&serde_json::json!({"version": "2.1.0"})));
    assert!(!validator.is_valid(&serde_json::json!({"version": "2.0.0", "runs": []})));
    assert!(validator.is_valid(&serde_json::json!({"version": "2.1.0", "runs": []})));
}

#[test]
fn issue38_an_example_that_recovered_on_a_retry_is_a_warning_at_its_line() {
    // `tests/fixtures/evidence`: its oven fails on the first attempt of a
    // state directory only (as `evidence_history.rs` runs it).
    let sample = Sample::copy_of(
        "tests/fixtures/evidence",
        r#"oathmark = { path = "../../../varar" }"#,
    );
    sample.edit("varar/links.md", "[Gone](gone.md#nothing)\n", "");
    let state = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(state.path().join("fixed"), "").unwrap_or_else(|e| panic!("{e}"));
    let env = [("EVIDENCE_STATE", state.path().to_str().unwrap_or_default())];
    // `cargo test` records the lock (nextest never writes it); the oven's
    // counter is then reset, so that it fails once more under nextest.
    sample
        .run(&["test"], &env)
        .assert_code(101, "the oven is cold once");
    std::fs::remove_file(state.path().join("oven.count")).unwrap_or_else(|e| panic!("{e}"));
    sample
        .run(&["nextest", "run", "--retries", "1"], &env)
        .assert_code(0, "the flaky oven recovers");

    let (code, stdout, stderr) = varar(&sample, &["annotate", "--path-prefix", ""]);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    let [line] = lines[..] else {
        panic!("one warning: {stdout}")
    };
    assert!(
        line.starts_with(
            "::warning file=varar/oven.md,line=5,title=flaky%3A varar/oven.md%3A%3AThe oven%3A%3A\
             Warming up%3A%3AThe flaky oven warms up. I bake 2 loaves::passed on attempt 2 after \
             1 earlier attempt that did not pass: "
        ),
        "{line}"
    );

    let (code, stdout, stderr) = varar(&sample, &["sarif", "--path-prefix", "fixtures/evidence"]);
    assert_eq!(code, Some(0), "{stderr}");
    let log: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}"));
    assert!(sarif_validator().is_valid(&log), "{log:#}");
    let result = &log["runs"][0]["results"][0];
    assert_eq!(result["ruleId"], "varar/recovered");
    assert_eq!(result["level"], "warning");
    assert_eq!(
        result["locations"][0]["physicalLocation"],
        serde_json::json!({
            "artifactLocation": {"uri": "fixtures/evidence/varar/oven.md", "uriBaseId": "%SRCROOT%"},
            "region": {"startLine": 5},
        })
    );
}

#[test]
fn issue38_hostile_and_huge_failure_text_is_one_bounded_command_per_finding() {
    // `tests/fixtures/hostile` (as `hostile_text.rs` runs it): a panic of
    // 20 MiB, an actual value of 20 MiB, and a panic message holding ESC,
    // BEL, NUL and U+202E.
    let sample = Sample::copy_of(
        "tests/fixtures/hostile",
        r#"oathmark = { path = "../../../varar" }"#,
    );
    sample
        .run(&["test"], &[])
        .assert_code(101, "the hostile steps fail");
    let escaped = r"esc\u{001B}[2J bel\u{0007} nul\u{0000} rlo\u{202E}txt";
    let raw = |text: &str| {
        text.chars()
            .any(|c| (c.is_control() && c != '\n') || matches!(c, '\u{202A}'..='\u{202E}'))
    };

    let (code, stdout, stderr) = varar(&sample, &["annotate", "--path-prefix", ""]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!raw(&stdout), "a raw control reaches the log");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "one command per failed example");
    assert!(
        lines.iter().all(|l| l.starts_with("::error file=varar/")),
        "every line is a command of ours"
    );
    assert!(stdout.contains(escaped), "the panic message, escaped");
    // Three messages of at most 4 KiB each (a cut note, the escapes of a
    // line break) and their titles: nowhere near 20 MiB.
    assert!(stdout.len() < 3 * 16 * 1024, "{} bytes", stdout.len());

    let (code, stdout, _) = varar(&sample, &["annotate", "--format", "gitlab"]);
    assert_eq!(code, Some(0));
    assert!(stdout.len() < 3 * 16 * 1024, "{} bytes", stdout.len());
    let issues: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(issues.as_array().map(Vec::len), Some(3));

    let (code, stdout, _) = varar(&sample, &["sarif"]);
    assert_eq!(code, Some(0));
    assert!(stdout.len() < 3 * 24 * 1024, "{} bytes", stdout.len());
    let log: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}"));
    assert!(sarif_validator().is_valid(&log));
    let texts: Vec<&str> = log["runs"][0]["results"]
        .as_array()
        .map(|r| {
            r.iter()
                .filter_map(|r| r["message"]["text"].as_str())
                .collect()
        })
        .unwrap_or_default();
    assert!(texts.iter().any(|t| t.contains(escaped)), "{texts:?}");
    assert!(
        texts.iter().any(|t| t.contains("bytes cut]")),
        "the cut says so"
    );
}
