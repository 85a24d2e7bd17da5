//! Every reader of a user's file against hostile input (issue 10, point
//! 10; pulldown-cmark's "must not panic" style): Markdown through parsing,
//! planning and drift detection, and the lock, run-result and config JSON.
//! None may panic; a refusal must say something.
//!
//! Two halves:
//! - the checked-in corpus under `tests/corpus/<reader>/`: every input any
//!   search (these properties, the issue's fuzzing) found to break a reader
//!   stays there, and each file is run through its reader by
//!   [`the_regression_corpus_must_not_panic`];
//! - properties over generated input, whose failures proptest keeps in
//!   `proptest-regressions/robustness.txt` (checked in when there are any)
//!   and replays first.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use proptest::prelude::*;
use proptest::test_runner::Config as ProptestConfig;
use serde_json::Value;

mod support;

use varar_core::config::parse_config;
use varar_core::drift::{candidates, detect_drift, held_by_ambiguity};
use varar_core::lock::{LockEntry, ParsedLock, parse_lock, parse_lock_for};
use varar_core::parse::parse;
use varar_core::plan::plan;
use varar_core::registry::{Registry, Role, StepSpec, Trailing};
use varar_core::results::parse_run_result;
use varar_core::source::Source;

/// Steps that match the fragments the Markdown strategies produce.
fn registry() -> Registry {
    let step =
        |expression: &str, role| StepSpec::new(expression, role, "steps.rs", 1, Trailing::None);
    let specs = vec![
        step("I add {int}", Role::Stimulus),
        step("I add 2", Role::Stimulus),
        step("word", Role::Sensor),
        step("{word} {word}", Role::Sensor),
        step("a", Role::Stimulus),
    ];
    Registry::build(Vec::new(), specs).unwrap_or_else(|e| panic!("{e}"))
}

/// Markdown through the whole pipeline a run takes: parse, plan, liveness,
/// drift against `baseline`, the lock entry.
fn pipeline(text: &str, baseline: Option<&LockEntry>) {
    let source = Source::new(text);
    let doc = parse("a.md", &source);
    let plan = plan(&doc, &source, &registry());
    let cands = candidates(&doc, &plan);
    let _ = detect_drift(baseline, &cands);
    let _ = held_by_ambiguity(baseline, &cands);
    let _ = varar_core::drift::fresh_entry("fnv1a:00000000", &cands);
}

/// The baseline entry of `a.md` in lock bytes, if they hold a valid lock.
fn entry_of(lock: &[u8]) -> Option<LockEntry> {
    match parse_lock(lock) {
        Ok(ParsedLock::Valid(lock)) => lock.oaths.get("a.md").cloned(),
        _ => None,
    }
}

/// A reader's refusal must say what is wrong.
fn refusal_says_something<T, E: std::fmt::Display>(result: Result<T, E>) -> Result<(), String> {
    match result {
        Err(e) if e.to_string().trim().is_empty() => Err("an empty error message".into()),
        _ => Ok(()),
    }
}

/// Run one corpus file through its reader; `Err` when it misbehaves.
fn check_corpus_file(reader: &str, path: &Path) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let outcome = catch_unwind(AssertUnwindSafe(|| match reader {
        "markdown" => {
            let text = String::from_utf8_lossy(&bytes);
            pipeline(&text, None);
            Ok(())
        }
        // An oath and the lock beside it (`<name>.md`, `<name>.lock.json`).
        "drift" if path.extension().is_some_and(|e| e == "md") => {
            let lock = std::fs::read(path.with_extension("lock.json")).unwrap_or_default();
            pipeline(&String::from_utf8_lossy(&bytes), entry_of(&lock).as_ref());
            Ok(())
        }
        "drift" => Ok(()),
        "lock" => {
            refusal_says_something(parse_lock(&bytes))?;
            refusal_says_something(parse_lock_for(&bytes, &|p| p.starts_with('a')))
        }
        "results" => refusal_says_something(parse_run_result(&bytes)),
        "config" => refusal_says_something(parse_config(Path::new("varar.config.json"), &bytes)),
        other => Err(format!("no reader called {other}")),
    }));
    match outcome {
        Ok(result) => result,
        Err(_) => Err("panicked".into()),
    }
}

fn corpus_files() -> Vec<(String, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut files = Vec::new();
    for reader in ["markdown", "drift", "lock", "results", "config"] {
        let dir = root.join(reader);
        let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries.flatten() {
            files.push((reader.to_string(), entry.path()));
        }
    }
    files.sort();
    files
}

#[test]
fn the_regression_corpus_must_not_panic() {
    let files = corpus_files();
    assert!(files.len() >= 15, "only {} corpus files found", files.len());
    let problems: Vec<String> = files
        .iter()
        .filter_map(|(reader, path)| {
            check_corpus_file(reader, path)
                .err()
                .map(|e| format!("{reader}: {}: {e}", path.display()))
        })
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn issue10_10_a_baseline_line_at_the_ends_of_i64_does_not_overflow() {
    // The crash the issue's fuzzing found: `i64::from(line) - stored`
    // overflowed for a stored line of i64::MIN in a debug build.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/drift");
    for name in ["issue10_10_line_i64_min", "issue10_10_line_i64_max"] {
        let oath = dir.join(format!("{name}.md"));
        let lock = std::fs::read(dir.join(format!("{name}.lock.json"))).unwrap_or_default();
        assert!(entry_of(&lock).is_some(), "{name}: the lock must be valid");
        assert_eq!(check_corpus_file("drift", &oath), Ok(()), "{name}");
    }
}

/// JSON-like text over the members a reader knows, with numbers at the
/// edges of every type, sometimes cut short or wrapped in junk.
fn json_text(keys: &'static [&'static str]) -> impl Strategy<Value = String> {
    let number = prop_oneof![
        Just(serde_json::json!(0)),
        Just(serde_json::json!(1)),
        Just(serde_json::json!(2)),
        Just(serde_json::json!(-1)),
        Just(serde_json::json!(i64::MIN)),
        Just(serde_json::json!(i64::MAX)),
        Just(serde_json::json!(u64::MAX)),
        Just(serde_json::json!(2.5)),
        Just(serde_json::json!(1e300)),
        Just(serde_json::json!(-0.0)),
        (0u32..50).prop_map(|n| serde_json::json!(n)),
    ];
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        number,
        prop::sample::select(keys).prop_map(|k| Value::String(k.to_string())),
        "[a-z£😀\\\\\"\n ]{0,6}".prop_map(Value::String),
    ];
    let value = leaf.prop_recursive(4, 48, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(keys), inner), 0..6).prop_map(|members| {
                Value::Object(
                    members
                        .into_iter()
                        .map(|(k, v)| (k.to_string(), v))
                        .collect(),
                )
            }),
        ]
    });
    (value, 0usize..4, 0usize..200).prop_map(|(value, damage, at)| {
        let text = serde_json::to_string_pretty(&value).unwrap_or_default();
        match damage {
            // Cut short, as a killed writer or a merge might leave it.
            0 => text.chars().take(at).collect(),
            // Merge-conflict markers.
            1 => format!("<<<<<<< HEAD\n{text}\n=======\n{{}}\n>>>>>>> b\n"),
            _ => text,
        }
    })
}

const LOCK_KEYS: &[&str] = &[
    "version",
    "oaths",
    "a.md",
    "sourceHash",
    "examples",
    "name",
    "line",
];
const RESULT_KEYS: &[&str] = &[
    "version",
    "oathPath",
    "sourceHash",
    "documents",
    "path",
    "examples",
    "name",
    "status",
    "passed",
    "failed",
    "lines",
    "failure",
    "line",
    "message",
    "stack",
    "cells",
    "from",
    "to",
    "actual",
    "anchor",
    "docPath",
];
const CONFIG_KEYS: &[&str] = &[
    "$schema",
    "docs",
    "include",
    "exclude",
    "steps",
    "snippets",
    "rust",
    "varar/**/*.md",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Markdown, planned and checked for drift against a baseline whose
    /// names come from the document and whose lines are anything a lock
    /// may hold.
    #[test]
    fn markdown_plan_and_drift_never_panic(
        text in prop_oneof![
            support::markdown::markdownish(),
            support::markdown::nested_lines(),
        ],
        lines in prop::collection::vec(
            prop_oneof![
                6 => -3i64..40,
                1 => Just(i64::MIN),
                1 => Just(i64::MAX),
                1 => any::<i64>(),
            ],
            0..6,
        ),
    ) {
        let source = Source::new(&text);
        let doc = parse("a.md", &source);
        let names: Vec<String> = doc
            .examples
            .iter()
            .map(|c| varar_core::text::example_name(&c.body.text.text))
            .collect();
        let baseline = LockEntry {
            source_hash: "fnv1a:00000000".into(),
            examples: lines
                .iter()
                .enumerate()
                .map(|(i, &line)| varar_core::lock::LockExample {
                    name: names.get(i).cloned().unwrap_or_else(|| "I add 2".into()),
                    line,
                })
                .collect(),
        };
        pipeline(&text, Some(&baseline));
    }

    #[test]
    fn the_lock_reader_never_panics_and_explains(text in json_text(LOCK_KEYS)) {
        prop_assert_eq!(refusal_says_something(parse_lock(text.as_bytes())), Ok(()));
        let wanted = |p: &str| p == "a.md";
        prop_assert_eq!(refusal_says_something(parse_lock_for(text.as_bytes(), &wanted)), Ok(()));
        // What the lock reader accepts drives drift detection safely.
        pipeline("# A\n\nI add 2.\n\nword word\n", entry_of(text.as_bytes()).as_ref());
    }

    #[test]
    fn the_results_reader_never_panics_and_explains(text in json_text(RESULT_KEYS)) {
        prop_assert_eq!(refusal_says_something(parse_run_result(text.as_bytes())), Ok(()));
    }

    #[test]
    fn the_config_reader_never_panics_and_explains(text in json_text(CONFIG_KEYS)) {
        let path = Path::new("varar.config.json");
        prop_assert_eq!(refusal_says_something(parse_config(path, text.as_bytes())), Ok(()));
    }

    #[test]
    fn any_bytes_are_read_or_refused(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        prop_assert_eq!(refusal_says_something(parse_lock(&bytes)), Ok(()));
        prop_assert_eq!(refusal_says_something(parse_run_result(&bytes)), Ok(()));
        let path = Path::new("varar.config.json");
        prop_assert_eq!(refusal_says_something(parse_config(path, &bytes)), Ok(()));
    }
}
