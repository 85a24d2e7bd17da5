//! One run, every CI output (issue 38): after a real `cargo nextest run
//! --retries 1` of a copy of `tests/fixtures/evidence` that holds a failing
//! example (the dough, on every attempt), a recovered one (the flaky oven),
//! a drift and a broken link, `gate`, `junit` (both profiles), `ctrf`,
//! `sarif` and `annotate` must tell the same story: as many failures, the
//! same recovered example, in the same files. The outputs are computed by
//! two engines (the cases `junit` and `ctrf` list, the findings `sarif` and
//! `annotate` render), so this is the test that catches them drifting
//! apart.
//!
//! It fails, never skips, when cargo-nextest is missing: `.ci/run`
//! installs it.

#[path = "../../tests/tests/support/mod.rs"]
mod support;

use std::collections::BTreeSet;

use serde_json::Value;
use support::Sample;

/// `cargo varar <args>` in the copy: exit code and stdout (stderr is
/// shown on failure).
fn varar(sample: &Sample, args: &[&str]) -> String {
    let (code, out, err) = sample.output_of(env!("CARGO_BIN_EXE_cargo-varar"), args);
    assert_eq!(code, Some(0), "cargo varar {args:?}\n{out}{err}");
    out
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// The value of `attr="…"` in an XML start tag.
fn attr<'t>(tag: &'t str, name: &str) -> Option<&'t str> {
    let start = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    tag[start..].split('"').next()
}

/// JUnit's test cases: (file, whether it holds `child`).
fn junit_cases(xml: &str, child: &str) -> Vec<(String, bool)> {
    xml.split("<testcase ")
        .skip(1)
        .map(|case| {
            let tag = case.split('>').next().unwrap_or("");
            let body = case.split("</testcase>").next().unwrap_or("");
            let file = attr(&format!(" {tag}"), "file").unwrap_or("").to_owned();
            (file, body.contains(&format!("<{child}")))
        })
        .collect()
}

#[test]
fn issue38_gate_junit_ctrf_sarif_and_annotate_count_the_same_failures_and_flakes() {
    let sample = Sample::copy_of(
        "tests/fixtures/evidence",
        r#"oathmark = { path = "../../../varar" }"#,
    );
    let first = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let state = |dir: &tempfile::TempDir| dir.path().display().to_string();
    // A first run records the lock (its outcome does not matter here).
    let s = state(&first);
    sample.run(&["test"], &[("EVIDENCE_STATE", s.as_str())]);
    sample.edit(
        "varar/oven.md",
        "The baker checks the oven. I bake 3 loaves",
        "The baker looks at the oven. I roast 3 loaves",
    );
    // A fresh state: the flaky oven fails its first attempt again.
    let second = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let s = state(&second);
    let run = sample.run(
        &["nextest", "run", "--no-fail-fast", "--retries", "1"],
        &[("EVIDENCE_STATE", s.as_str())],
    );
    assert_eq!(run.code, Some(100), "{}", run.combined());
    assert!(run.combined().contains("FLAKY"), "{}", run.combined());

    // The gate's own count: what failed, what recovered.
    let (_, gate, _) = sample.output_of(
        env!("CARGO_BIN_EXE_cargo-varar"),
        &["gate", "--format", "json"],
    );
    let gate = json(&gate);
    assert_eq!(gate["standing"], "complete", "{gate:#}");
    let failed = gate["run"]["counts"]["failed"].as_u64().unwrap_or(0) as usize;
    let recovered = gate["run"]["counts"]["recovered"].as_u64().unwrap_or(0) as usize;
    assert!(
        failed >= 3 && recovered == 1,
        "the dough, the drift and the link fail; the oven recovers: {gate:#}"
    );

    // junit, the common profile: failing cases.
    let common = varar(&sample, &["junit"]);
    let failing: Vec<String> = junit_cases(&common, "failure")
        .into_iter()
        .filter(|(_, f)| *f)
        .map(|(file, _)| file)
        .collect();
    // junit, nextest's profile: the same failures, and the flake.
    let nextest = varar(&sample, &["junit", "--profile", "nextest"]);
    let flaky_junit: Vec<String> = junit_cases(&nextest, "flakyFailure")
        .into_iter()
        .filter(|(_, f)| *f)
        .map(|(file, _)| file)
        .collect();
    assert_eq!(
        junit_cases(&nextest, "failure")
            .iter()
            .filter(|(_, f)| *f)
            .count(),
        failing.len()
    );

    // ctrf: failed and flaky tests.
    let ctrf = json(&varar(&sample, &["ctrf"]));
    let tests = ctrf["results"]["tests"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let files = |pick: &dyn Fn(&Value) -> bool| -> Vec<String> {
        tests
            .iter()
            .filter(|t| pick(t))
            .map(|t| t["filePath"].as_str().unwrap_or("").to_owned())
            .collect()
    };
    let failed_ctrf = files(&|t| t["status"] == "failed");
    let flaky_ctrf = files(&|t| t["flaky"] == true);

    // sarif and annotate: errors and recovered warnings.
    let sarif = json(&varar(&sample, &["sarif"]));
    let results = sarif["runs"][0]["results"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let uri = |r: &Value| {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .unwrap_or("")
            .to_owned()
    };
    let errors_sarif: Vec<String> = results
        .iter()
        .filter(|r| r["level"] == "error")
        .map(uri)
        .collect();
    let flaky_sarif: Vec<String> = results
        .iter()
        .filter(|r| r["ruleId"] == "varar/recovered")
        .map(uri)
        .collect();
    let annotate = varar(&sample, &["annotate"]);
    let errors_annotate = annotate
        .lines()
        .filter(|l| l.starts_with("::error "))
        .count();
    let warnings_annotate = annotate
        .lines()
        .filter(|l| l.starts_with("::warning ") && l.contains(",title=flaky%3A "))
        .count();

    let sorted = |v: &[String]| v.iter().cloned().collect::<BTreeSet<_>>();
    let story = format!(
        "gate: {failed} failed, {recovered} recovered\njunit: {failing:?} / {flaky_junit:?}\nctrf: {failed_ctrf:?} / {flaky_ctrf:?}\n\
         sarif: {errors_sarif:?} / {flaky_sarif:?}\nannotate:\n{annotate}"
    );
    for count in [
        failing.len(),
        failed_ctrf.len(),
        errors_sarif.len(),
        errors_annotate,
    ] {
        assert_eq!(count, failed, "{story}");
    }
    for count in [
        flaky_junit.len(),
        flaky_ctrf.len(),
        flaky_sarif.len(),
        warnings_annotate,
    ] {
        assert_eq!(count, recovered, "{story}");
    }
    assert_eq!(sorted(&failing), sorted(&failed_ctrf), "{story}");
    assert_eq!(sorted(&failing), sorted(&errors_sarif), "{story}");
    assert_eq!(sorted(&flaky_junit), sorted(&flaky_ctrf), "{story}");
    assert_eq!(sorted(&flaky_ctrf), sorted(&flaky_sarif), "{story}");
}
