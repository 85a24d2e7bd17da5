//! Issue 37, point 1: nothing silently stops being checked. An example of
//! `varar.lock.json` reworded past recognition (spec 40 §5.2: "remove +
//! add", not drift) is named, end to end on a copy of `examples/bakery`:
//! by the real `cargo test` (which still passes: a notice, not a failure),
//! in the run record, by `cargo varar gate` (failing under
//! `--deny-removed`), `diff`, `report` and `check`; and `VARAR_UPDATE=1
//! cargo test` prints what it accepted.

#[path = "../../tests/tests/support/mod.rs"]
mod support;

use std::path::Path;

use support::Sample;
use varar_core::record::{RemovedExample, parse_process_record};

/// The paragraph the lock records at line 17 of `varar/basket.md`.
const OLD: &str = "I put 1 baguette in the basket. I pay £5.00 and my change is £3.20";
/// Its rewording: prose, 5 shared words of 24 with it (J ≈ 0.21), and
/// below ½ with every other paragraph of the oath.
const NEW: &str = "A baguette paid for with a five-pound note leaves £3.20 in change.";

/// The notice `cargo test` prints for it.
const NOTICE: &str = "varar: removed example varar/basket.md:17: \"I put 1 baguette in the \
                      basket. I pay £5.00 and my change is £3.20\": varar.lock.json lists it, \
                      but no paragraph matches it any more (deleted, or reworded past \
                      recognition), so nothing checks it now; restore it, or commit \
                      varar.lock.json to acknowledge the removal";

/// `cargo varar <args>` in the copy: exit code and both streams.
fn varar(sample: &Sample, args: &[&str]) -> (Option<i32>, String) {
    let (code, stdout, stderr) = sample.output_of(env!("CARGO_BIN_EXE_cargo-varar"), args);
    (code, stdout + &stderr)
}

/// The removed examples every record under `.varar/.runs/` lists.
fn recorded_removals(root: &Path) -> Vec<RemovedExample> {
    let mut out = Vec::new();
    let dirs = std::fs::read_dir(root.join(".varar/.runs")).unwrap_or_else(|e| panic!("{e}"));
    for dir in dirs.flatten() {
        for file in std::fs::read_dir(dir.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            let path = file.path();
            if path.extension().is_some_and(|e| e == "run") {
                let bytes = std::fs::read(&path).unwrap_or_default();
                let record = parse_process_record(&bytes)
                    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                out.extend(record.removed);
            }
        }
    }
    out
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap_or_else(|e| panic!("{e}"));
    for entry in std::fs::read_dir(from)
        .unwrap_or_else(|e| panic!("{e}"))
        .flatten()
    {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}

#[test]
fn issue37_an_example_reworded_past_recognition_is_named_by_every_tool() {
    let sample = Sample::copy();
    let before = sample.cargo_test(&[], &[]);
    before.assert_code(0, "the bakery as it ships");
    assert!(
        !before.combined().contains("removed example"),
        "{}",
        before.combined()
    );
    copy_dir(
        &sample.root().join(".varar"),
        &sample.root().join("old-results"),
    );

    sample.edit("varar/basket.md", &format!("{OLD}."), NEW);
    let run = sample.cargo_test(&[], &[]);
    // A notice, not a failure (spec 40 §4.5: the lock drops it silently).
    run.assert_code(0, "a removal does not fail cargo test");
    assert!(run.stderr.contains(NOTICE), "{}", run.combined());
    assert!(run.stdout.contains("12 passed"), "{}", run.combined());
    assert_eq!(
        recorded_removals(sample.root()),
        [RemovedExample {
            oath_path: "varar/basket.md".into(),
            name: OLD.into(),
            line: 17
        }],
        "the run record lists it"
    );
    assert!(
        !sample.read("varar.lock.json").contains(OLD),
        "the lock drops it"
    );

    let (code, text) = varar(&sample, &["gate"]);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains(&format!(
            "REMOVED varar/basket.md:17: \"{OLD}\" (an example the lock listed, no longer in \
             the oath)\n"
        )),
        "{text}"
    );
    assert!(text.contains("(1 example removed)"), "{text}");
    let (code, text) = varar(&sample, &["gate", "--deny-removed"]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains(": denied by --deny-removed\n")
            && text.contains("1 example removed (--deny-removed)"),
        "{text}"
    );
    let (code, json) = varar(&sample, &["gate", "--deny-removed", "--format", "json"]);
    assert_eq!(code, Some(1), "{json}");
    let json: serde_json::Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(json["denyRemoved"], true);
    assert_eq!(json["removed"][0]["name"], OLD);
    assert_eq!(json["removed"][0]["line"], 17);

    let (code, text) = varar(&sample, &["diff", "old-results", ".varar"]);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains(&format!(
            "- **removed from the lock** `varar/basket.md`, line 17: {OLD}\n"
        )),
        "{text}"
    );
    let (code, text) = varar(&sample, &["report", "--out", "site"]);
    assert_eq!(code, Some(0), "{text}");
    let index = sample.read("site/index.html");
    assert!(
        index.contains("Examples no longer checked (1)")
            && index.contains(&format!("was line 17: <q>{OLD}</q>")),
        "{index}"
    );

    // The lock this run recorded no longer lists it: acknowledged, nothing
    // more to say.
    let again = sample.cargo_test(&[], &[]);
    again.assert_code(0, "the lock recorded the removal");
    assert!(
        !again.combined().contains("removed example"),
        "{}",
        again.combined()
    );
    let (code, text) = varar(&sample, &["gate", "--deny-removed"]);
    assert_eq!(code, Some(0), "{text}");
}

#[test]
fn issue37_check_warns_of_the_removal_as_cargo_test_names_it() {
    let sample = Sample::copy();
    sample.edit("varar/basket.md", &format!("{OLD}."), NEW);
    let (code, json) = varar(&sample, &["check", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(code, Some(0), "{json}");
    let removed: Vec<&serde_json::Value> = json["problems"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|p| p["code"] == "removed_example")
        .collect();
    assert_eq!(removed.len(), 1, "{json}");
    assert_eq!(removed[0]["severity"], "warning");
    assert_eq!(removed[0]["example"], OLD);
    assert_eq!(removed[0]["line"], 17);
}

#[test]
fn issue37_an_update_run_says_what_it_accepted_added_removed_and_pruned() {
    let sample = Sample::copy();
    sample.edit("varar/basket.md", &format!("{OLD}."), NEW);
    // Drift (spec 40 §5.3 as the bakery's README shows it): accepted as prose.
    sample.edit(
        "varar/shelf.md",
        "and the closing stock.",
        "and the stock at closing.",
    );
    // A new example, in a section of its own (an example runs on until the
    // next heading or rule).
    sample.edit(
        "varar/basket.md",
        "## Paying\n",
        "## A bun\n\nI put 1 bun in the basket. Now the basket holds 1 items.\n\n## Paying\n",
    );
    let run = sample.cargo_test(&[], &[("VARAR_UPDATE", "1")]);
    run.assert_code(0, "everything accepted");
    let expected = [
        "varar: VARAR_UPDATE recorded varar.lock.json: 1 drift accepted as prose, 1 example \
         added, 1 example removed, 0 oaths pruned",
        "varar:   accepted as prose varar/shelf.md:22: \"Each row is one day: the opening \
         stock, how many were baked, how many were sold and the closing stock\"",
        "varar:   added varar/basket.md:13: \"I put 1 bun in the basket. Now the basket holds 1 \
         items\"",
        &format!("varar:   removed varar/basket.md:17: \"{OLD}\""),
    ];
    let expected = expected.join("\n");
    assert!(run.stderr.contains(&expected), "{}", run.combined());
    // The summary names them; the notice of a run without it does not repeat.
    assert!(
        !run.stderr.contains("varar: removed example"),
        "{}",
        run.combined()
    );
}
