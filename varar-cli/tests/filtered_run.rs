//! A filtered run of the bakery (issue 37), end to end: the real `cargo
//! test Paying` and a full `cargo test`, kept in a history the test points
//! `VARAR_HISTORY` at, then the real `cargo varar history` and `gate` on
//! what they left behind. The filtered run is `filtered`, with what it did
//! not select, for both; a full run after it is complete.

#[path = "../../tests/tests/support/mod.rs"]
mod support;

use serde_json::Value;
use support::Sample;

/// `cargo varar <args>` in the copy, seeing the history `history`.
fn varar(sample: &Sample, history: &str, args: &[&str]) -> (Option<i32>, String) {
    let args: Vec<&str> = std::iter::once("varar")
        .chain(args.iter().copied())
        .collect();
    let (code, out, err) = sample.output_with(
        env!("CARGO_BIN_EXE_cargo-varar"),
        &args,
        &[("VARAR_HISTORY", history)],
    );
    (code, out + &err)
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

#[test]
fn issue37_history_and_the_gate_call_a_filtered_run_filtered() {
    let sample = Sample::copy();
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let history = dir.path().join("history").display().to_string();
    let env = [("VARAR_HISTORY", history.as_str())];

    // `cargo test Paying`: the two examples under *Paying* of 13.
    let run = sample.cargo_test(&["--test", "oaths", "Paying"], &env);
    run.assert_code(0, "cargo test Paying");
    assert_eq!(run.executed_items().len(), 2, "{}", run.combined());

    let (code, text) = varar(&sample, &history, &["history"]);
    assert_eq!(code, Some(0), "{text}");
    let line = text
        .lines()
        .nth(1)
        .unwrap_or_else(|| panic!("no run listed: {text}"));
    assert!(
        line.contains("  filtered    fresh    2 passed, 0 failed, 0 recovered, 11 not selected"),
        "{text}"
    );
    assert!(!text.contains("incomplete"), "{text}");
    let (_, listing) = varar(&sample, &history, &["history", "--format", "json"]);
    let listing = json(&listing);
    assert_eq!(listing["runs"][0]["standing"], "filtered", "{listing:#}");
    assert_eq!(listing["runs"][0]["counts"]["notSelected"], 11);

    // The gate refuses it as before (exit 2, `incomplete_run`), reading it
    // by the same rule: filtered.
    let (code, gate) = varar(&sample, &history, &["gate", "--format", "json"]);
    assert_eq!(code, Some(2), "{gate}");
    let gate = json(&gate);
    assert_eq!(gate["standing"], "filtered", "{gate:#}");
    assert_eq!(gate["run"]["counts"]["notSelected"], 11, "{gate:#}");
    // The oaths it did not run have no result yet (a fresh copy).
    let errors = gate["errors"].as_array().cloned().unwrap_or_default();
    assert!(
        errors.iter().any(|e| e["code"] == "incomplete_run"),
        "{gate:#}"
    );
    assert!(
        errors
            .iter()
            .all(|e| e["code"] == "incomplete_run" || e["code"] == "missing_result"),
        "{gate:#}"
    );
    let (_, text) = varar(&sample, &history, &["gate"]);
    assert!(
        text.contains("did not select 4 items of `varar/basket.md`"),
        "{text}"
    );
    assert!(text.contains("a filter left them out"), "{text}");

    // A full run after it: complete, and the filtered one stays filtered.
    sample
        .cargo_test(&["--test", "oaths"], &env)
        .assert_code(0, "cargo test");
    let (_, listing) = varar(&sample, &history, &["history", "--format", "json"]);
    let listing = json(&listing);
    let standings: Vec<&str> = listing["runs"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| r["standing"].as_str())
        .collect();
    assert_eq!(standings, ["complete", "filtered"], "{listing:#}");
    let (code, text) = varar(&sample, &history, &["gate"]);
    assert_eq!(code, Some(0), "{text}");
}
