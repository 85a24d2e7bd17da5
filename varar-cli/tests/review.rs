//! Issue 37, point 4: `cargo varar review`, end to end on a copy of
//! `examples/bakery`. One paragraph drifts and one table cell fails in a
//! real `cargo test`; `review --list` shows both with their ids; accepting
//! each writes only the lock example of the drift and only the cell's text;
//! the real `cargo test` then passes. An oath edited after the run is
//! refused, and nothing is written.

#[path = "common/lsp_client.rs"]
mod lsp_client;
#[path = "../../tests/tests/support/mod.rs"]
mod support;

use std::process::Command;

use support::Sample;

/// The paragraph at line 9 of `varar/basket.md`, as the lock records it.
const COUNTING: &str = "I put 2 croissants in the basket. I put 1 baguette in the basket. Now \
                        the basket holds 3 items";
/// Its rewording: no sentence matches a step, J = 10/16 with the lock's
/// name, so drift (spec 40 §5.1).
const REWORDED: &str = "I placed 2 croissants in the basket. I placed 1 baguette in the basket. \
                        Then the basket has 3 items";
/// The drift item.
const DRIFT: &str = "varar/basket.md::varar:drift:9";
/// The first row of the week of baguettes, its closing stock made wrong.
const ROW: &str = "| 0       | 40    | 35   | 5       |";
const WRONG_ROW: &str = "| 0       | 40    | 35   | 6       |";
/// The failing row's item.
const VALUE: &str = "varar/shelf.md::The shelf::A week of baguettes::the opening stock, how \
                     many were baked, how many were sold and the closing stock::0 / 40 / 35 / 6";

/// Panics unless `json` follows `varar-cli/schema/review.schema.json`,
/// which `review --schema` prints.
fn conforms(sample: &Sample, json: &serde_json::Value) {
    let (code, printed, _) = varar(sample, &["review", "--schema"]);
    assert_eq!(code, Some(0));
    assert_eq!(printed, include_str!("../schema/review.schema.json"));
    let schema: serde_json::Value =
        serde_json::from_str(&printed).unwrap_or_else(|e| panic!("{e}"));
    let validator = jsonschema::validator_for(&schema).unwrap_or_else(|e| panic!("{e}"));
    let problems: Vec<String> = validator.iter_errors(json).map(|e| e.to_string()).collect();
    assert!(problems.is_empty(), "{problems:#?}\n{json:#}");
}

/// `cargo varar <args>` in the copy: exit code, stdout, stderr.
fn varar(sample: &Sample, args: &[&str]) -> (Option<i32>, String, String) {
    sample.output_of(env!("CARGO_BIN_EXE_cargo-varar"), args)
}

/// A drift and a failing cell, from a real `cargo test`.
fn drifted_and_failing() -> Sample {
    let sample = Sample::copy();
    sample.edit("varar/basket.md", COUNTING, REWORDED);
    sample.edit("varar/shelf.md", ROW, WRONG_ROW);
    let run = sample.cargo_test(&[], &[]);
    run.assert_code(101, "a drift and a failing cell");
    assert_eq!(
        run.outcome(DRIFT).as_deref(),
        Some("FAILED"),
        "{}",
        run.combined()
    );
    assert_eq!(
        run.outcome(VALUE).as_deref(),
        Some("FAILED"),
        "{}",
        run.combined()
    );
    sample
}

#[test]
fn issue37_review_accepts_a_drift_and_a_cell_then_cargo_test_passes() {
    let sample = drifted_and_failing();
    let (code, list, _) = varar(&sample, &["review", "--list"]);
    assert_eq!(code, Some(0), "{list}");
    assert!(list.contains("2 changes to review\n"), "{list}");
    assert!(
        list.contains(&format!(
            "DRIFT   {DRIFT}\n        varar/basket.md:9: \"{COUNTING}\" was an example and no \
             longer matches any step: accept it as prose\n"
        )),
        "{list}"
    );
    assert!(
        list.contains(&format!(
            "VALUE   {VALUE}\n        varar/shelf.md:26: the step answered otherwise: `6` → \
             `5` (expected → observed)\n"
        )),
        "{list}"
    );
    let (code, json, _) = varar(&sample, &["review", "--list", "--format", "json"]);
    assert_eq!(code, Some(0), "{json}");
    let json: serde_json::Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}"));
    let ids: Vec<(&str, &str)> = json["changes"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| Some((c["id"].as_str()?, c["kind"].as_str()?)))
        .collect();
    assert_eq!(ids, [(DRIFT, "drift"), (VALUE, "value")]);
    conforms(&sample, &json);

    // The drift: only that example leaves the lock.
    let lock_before = sample.read("varar.lock.json");
    let (code, out, err) = varar(&sample, &["review", "--accept", DRIFT]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.contains(&format!("accepted drift {DRIFT} (wrote varar.lock.json)\n")),
        "{out}"
    );
    let example = format!(
        "        {{\n          \"name\": \"{COUNTING}\",\n          \"line\": 9\n        }},\n"
    );
    assert!(lock_before.contains(&example), "{lock_before}");
    assert_eq!(
        sample.read("varar.lock.json"),
        lock_before.replacen(&example, "", 1)
    );

    // The value: only the cell's text changes.
    let shelf_before = sample.read("varar/shelf.md");
    let (code, out, err) = varar(&sample, &["review", "--accept-all", "value"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.contains(&format!("accepted value {VALUE} (wrote varar/shelf.md)\n")),
        "{out}"
    );
    assert_eq!(
        sample.read("varar/shelf.md"),
        shelf_before.replacen(WRONG_ROW, ROW, 1)
    );

    // Accepted twice: the lock no longer lists the drift, the oath is not
    // the run's text any more. Refused (exit 1), nothing written.
    let (code, out, _) = varar(&sample, &["review", "--accept", DRIFT, "--accept", VALUE]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("refused[changed_since_run]: "), "{out}");
    assert!(out.contains("refused[not_acceptable]: "), "{out}");
    assert_eq!(
        sample.read("varar/shelf.md"),
        shelf_before.replacen(WRONG_ROW, ROW, 1)
    );

    let run = sample.cargo_test(&[], &[]);
    run.assert_code(0, "what review accepted passes");
    assert!(
        run.stdout.contains("12 passed; 0 failed"),
        "{}",
        run.combined()
    );
    let (code, list, _) = varar(&sample, &["review"]);
    assert_eq!(code, Some(0), "{list}");
    assert!(list.contains(": nothing to review\n"), "{list}");
}

#[test]
fn issue37_review_refuses_an_oath_edited_after_the_run_and_writes_nothing() {
    let sample = drifted_and_failing();
    // A word of the oath changes after the run: its SHA-256 is not the run's.
    sample.edit("varar/shelf.md", "Unsold bread", "Unsold loaves");
    let shelf = sample.read("varar/shelf.md");
    let (code, list, _) = varar(&sample, &["review", "--list"]);
    assert_eq!(code, Some(0), "{list}");
    assert!(
        list.contains(
            "cannot be accepted: `varar/shelf.md` changed since the run (its SHA-256 is not the \
             one the run recorded)"
        ),
        "{list}"
    );
    let (code, out, _) = varar(&sample, &["review", "--accept", VALUE, "--format", "json"]);
    assert_eq!(code, Some(1), "{out}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(json["refused"][0]["code"], "changed_since_run", "{json}");
    assert_eq!(json["accepted"], serde_json::json!([]), "{json}");
    conforms(&sample, &json);
    assert_eq!(sample.read("varar/shelf.md"), shelf, "nothing written");

    // An id that is no change of the run is unusable input.
    let (code, _, _) = varar(&sample, &["review", "--accept", "varar/shelf.md::nothing"]);
    assert_eq!(code, Some(2));
}

#[test]
fn issue37_review_acknowledges_a_removed_example_the_run_already_dropped() {
    let sample = Sample::copy();
    let old = "I put 1 baguette in the basket. I pay £5.00 and my change is £3.20";
    sample.edit(
        "varar/basket.md",
        &format!("{old}."),
        "A baguette paid for with a five-pound note leaves £3.20 in change.",
    );
    sample
        .cargo_test(&[], &[])
        .assert_code(0, "a removal is a notice");
    let id = "varar/basket.md::varar:removed:17";
    let (code, list, _) = varar(&sample, &["review", "--list"]);
    assert_eq!(code, Some(0), "{list}");
    assert!(
        list.contains(&format!(
            "REMOVED {id}\n        varar/basket.md:17: the lock listed \"{old}\", which no \
             paragraph matches any more: nothing checks it\n"
        )),
        "{list}"
    );
    let lock = sample.read("varar.lock.json");
    let (code, out, _) = varar(&sample, &["review", "--accept-all", "removed"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains(&format!(
            "accepted removed {id} (the run's lock already dropped it: nothing to write)\n"
        )),
        "{out}"
    );
    assert_eq!(sample.read("varar.lock.json"), lock, "nothing written");
}

/// `cargo varar review` on a terminal: `script` (util-linux) runs it in a
/// pseudo-terminal, `answers` typed at its prompts.
fn on_a_terminal(sample: &Sample, answers: &str) -> (Option<i32>, String) {
    use std::io::Write as _;
    let command = format!("'{}' review", env!("CARGO_BIN_EXE_cargo-varar"));
    let mut child = Command::new("script")
        .args(["-q", "-e", "-c", &command, "/dev/null"])
        .current_dir(sample.root())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run `script` ({e}): install util-linux's (Debian: apt-get install bsdutils)"
            )
        });
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(answers.as_bytes())
            .unwrap_or_else(|e| panic!("{e}"));
    }
    let out = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n"),
    )
}

#[test]
fn issue37_review_on_a_terminal_asks_about_each_change() {
    let sample = drifted_and_failing();
    let lock = sample.read("varar.lock.json");
    // An answer it does not know is asked again; k keeps the drift, a
    // accepts the value.
    let (code, out) = on_a_terminal(&sample, "x\nk\na\n");
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains(&format!("[1/2] DRIFT   {DRIFT}\n")), "{out}");
    assert_eq!(
        out.matches("accept? [a]ccept, [k]eep, [q]uit: ").count(),
        3,
        "{out}"
    );
    assert!(
        out.contains(&format!("accepted value {VALUE} (wrote varar/shelf.md)\n")),
        "{out}"
    );
    assert_eq!(sample.read("varar.lock.json"), lock, "the drift was kept");
    assert!(
        sample.read("varar/shelf.md").contains(ROW),
        "the value was written"
    );

    // The oath of the value is not the run's any more: shown, not asked.
    let (code, out) = on_a_terminal(&sample, "k\n");
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("cannot be accepted: `varar/shelf.md` changed since the run"),
        "{out}"
    );
    assert_eq!(out.matches("accept? [a]ccept").count(), 1, "{out}");
    assert!(out.contains(": nothing accepted\n"), "{out}");
    assert_eq!(sample.read("varar.lock.json"), lock);

    // q stops asking: nothing after it is shown.
    let (code, out) = on_a_terminal(&sample, "q\n");
    assert_eq!(code, Some(0), "{out}");
    assert!(
        !out.contains("[2/2]") && out.contains(": nothing accepted\n"),
        "{out}"
    );
}

#[test]
fn issue37_the_language_server_offers_the_same_two_actions_as_quick_fixes() {
    use lsp_client::{Client, uri};
    use serde_json::{Value, json};
    let sample = drifted_and_failing();
    let root = sample.root();
    let mut client = Client::start(root);
    client.request(
        "initialize",
        json!({"processId": null, "rootUri": uri(root), "capabilities": {}}),
    );
    client.notify("initialized", json!({}));
    let mut fixes = |oath: &str, code: &str| -> (Value, Vec<Value>) {
        let text = sample.read(oath);
        let at = uri(&root.join(oath));
        client.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": at, "languageId": "markdown", "version": 1, "text": text}}),
        );
        let diagnostics = client.diagnostics(&at, |d| d.iter().any(|d| d["code"] == code));
        let failure = diagnostics
            .into_iter()
            .find(|d| d["code"] == code)
            .unwrap_or_else(|| panic!("no {code} diagnostic"));
        let actions = client.request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": at}, "range": failure["range"],
                   "context": {"diagnostics": [failure]}}),
        );
        (failure, actions.as_array().cloned().unwrap_or_default())
    };

    // The failed cell: write the observed value over exactly its text.
    let (failure, actions) = fixes("varar/shelf.md", "example-failed");
    let shelf = uri(&root.join("varar/shelf.md"));
    let write = actions
        .iter()
        .find(|a| a["title"] == "Write the observed value `5` (cargo varar review)")
        .unwrap_or_else(|| panic!("{actions:#?}"));
    assert_eq!(write["kind"], "quickfix");
    assert_eq!(
        write["edit"]["changes"][&shelf],
        json!([{"range": failure["range"], "newText": "5"}])
    );

    // The drift: the lock, its example dropped, every other byte kept.
    let (_, actions) = fixes("varar/basket.md", "drift");
    let lock = uri(&root.join("varar.lock.json"));
    let accept = actions
        .iter()
        .find(|a| {
            a["title"] == "Accept as prose: drop it from varar.lock.json (cargo varar review)"
        })
        .unwrap_or_else(|| panic!("{actions:#?}"));
    let before = sample.read("varar.lock.json");
    let example = format!(
        "        {{\n          \"name\": \"{COUNTING}\",\n          \"line\": 9\n        }},\n"
    );
    let lines = before.matches('\n').count();
    assert_eq!(
        accept["edit"]["changes"][&lock],
        json!([{
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": lines, "character": 0}},
            "newText": before.replacen(&example, "", 1)
        }])
    );
    client.stop();
}
