//! The adapter smoke contract (spec 40 §8), run against a copy of the sample
//! project `examples/bakery` with the real `cargo test`, plus the behaviour
//! the sample's README promises: `--list`, filtering by oath, concurrent
//! runs and `cargo nextest run`.
//!
//! Every test works in its own temporary copy, so they may run in parallel;
//! all copies share one target directory (`target/e2e`) so the workspace's
//! crates are compiled once.

mod support;

use std::thread;

use support::{EXAMPLES_PER_OATH, Lock, PROBE_OATH, PROBE_START, Sample};

/// The probe: the prose paragraph of the sample that the baseline will claim
/// was an example. Returns its example name and 1-based line.
fn probe(sample: &Sample) -> (String, u64) {
    let text = sample.read(PROBE_OATH);
    let (index, line) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.starts_with(PROBE_START))
        .unwrap_or_else(|| panic!("{PROBE_OATH} has no paragraph starting {PROBE_START:?}"));
    // The paragraph is one line; its name drops the final full stop (40 §0).
    let name = line.trim().trim_end_matches('.').to_string();
    (name, index as u64 + 1)
}

fn expected_items() -> usize {
    EXAMPLES_PER_OATH.iter().map(|(_, n)| n).sum()
}

/// The checks of spec 40 §8, in order, each on the state the previous one
/// left behind.
#[test]
fn smoke_contract() {
    let sample = Sample::copy();

    // baseline-committed: the sample ships its lock.
    assert!(
        !sample.pristine_lock().is_empty(),
        "examples/bakery must ship a varar.lock.json"
    );
    let pristine: Lock = sample.parse_lock();

    // A clean run passes and leaves the committed lock exactly as it is.
    let run = sample.cargo_test(&[], &[]);
    run.assert_code(0, "clean cargo test");
    sample.assert_lock_pristine(
        "a clean run changed the shipped varar.lock.json (re-record it with \
         `VARAR_UPDATE=1 cargo test` in examples/bakery)",
        Some(&run),
    );

    // baseline-complete: one lock entry per oath file on disk.
    let keys: Vec<String> = pristine.oaths.keys().cloned().collect();
    assert_eq!(keys, sample.oath_files(), "lock keys vs varar/**/*.md");

    // drift-detected: the baseline claims the prose paragraph was an example.
    let (probe_name, probe_line) = probe(&sample);
    let mut probed = pristine.clone();
    let entry = probed
        .oaths
        .get_mut(PROBE_OATH)
        .unwrap_or_else(|| panic!("the lock has no entry for {PROBE_OATH}"));
    entry.examples.insert(
        0,
        support::LockExample {
            name: probe_name.clone(),
            line: probe_line,
        },
    );
    sample.write_lock(&probed.to_bytes());
    let run = sample.cargo_test(&[], &[]);
    let out = run.combined();
    assert_ne!(run.code, Some(0), "drift must fail the run\n{out}");
    assert!(out.contains("drift"), "output must mention drift\n{out}");
    assert!(
        out.contains(&probe_name),
        "output must name the probe\n{out}"
    );
    let drift_item = format!("{PROBE_OATH}::varar:drift:{probe_line}");
    assert!(
        run.executed_items().contains(&drift_item),
        "expected the failing item {drift_item}\n{out}"
    );
    let location = format!("{PROBE_OATH}:{probe_line}:1: ");
    assert!(
        out.contains(&location),
        "the drift failure must start at the probe's line ({location})\n{out}"
    );
    assert_eq!(
        run.outcome(&drift_item).as_deref(),
        Some("FAILED"),
        "{drift_item} must fail\n{out}"
    );
    assert_eq!(
        run.executed_items()
            .iter()
            .filter(|n| n.contains("varar:drift:"))
            .count(),
        1,
        "exactly one drift item\n{out}"
    );
    // The drifted oath's entry is frozen until the drift is accepted.
    assert_eq!(
        sample.parse_lock().oaths.get(PROBE_OATH),
        probed.oaths.get(PROBE_OATH),
        "a drifted oath's baseline must stay as it was"
    );

    // drift-accepted: update mode re-records the committed lock exactly.
    let run = sample.cargo_test(&[], &[("VARAR_UPDATE", "1")]);
    run.assert_code(0, "VARAR_UPDATE=1 after the probe");
    sample.assert_lock_pristine("drift-accepted", Some(&run));

    // baseline-pruned: an entry for a path no glob matches is dropped.
    let mut stale = pristine.clone();
    let copy = stale.oaths[PROBE_OATH].clone();
    stale.oaths.insert("shelf.md".to_string(), copy);
    sample.write_lock(&stale.to_bytes());
    let run = sample.cargo_test(&[], &[("VARAR_UPDATE", "1")]);
    run.assert_code(0, "VARAR_UPDATE=1 with a stale entry");
    sample.assert_lock_pristine("baseline-pruned", Some(&run));

    // run results: a fresh .varar/ with one record per oath.
    sample.remove(".varar");
    let run = sample.cargo_test(&[], &[]);
    run.assert_code(0, "cargo test after deleting .varar/");
    let oaths = sample.oath_files();
    let results = sample.parse_results(&oaths);
    for (oath, n) in EXAMPLES_PER_OATH.iter().filter(|(_, n)| *n > 0) {
        let result = &results[*oath];
        assert_eq!(result.examples.len(), *n, "{oath}: examples in .varar/");
        assert!(
            result.examples.iter().all(|e| e.status == "passed"),
            "{oath}: every example of the sample passes"
        );
    }
}

/// `cargo test -- --list` prints one item per example and writes nothing.
#[test]
fn list_prints_one_item_per_example_and_writes_nothing() {
    let sample = Sample::copy();
    sample.remove("varar.lock.json");
    let run = sample.cargo_test(&["--", "--list"], &[]);
    run.assert_code(0, "cargo test -- --list");
    let items: Vec<String> = run
        .listed_items()
        .into_iter()
        .filter(|l| l.starts_with("varar/"))
        .collect();
    assert_eq!(
        items.len(),
        expected_items(),
        "listed items\n{}",
        run.stdout
    );
    for (oath, n) in EXAMPLES_PER_OATH {
        let prefix = format!("{oath}::");
        let count = items.iter().filter(|l| l.starts_with(&prefix)).count();
        assert_eq!(count, *n, "items of {oath}\n{}", run.stdout);
    }
    let mut unique = items.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), items.len(), "item names are unique");
    assert!(
        sample.lock_bytes().is_empty(),
        "--list must not write varar.lock.json"
    );
    assert!(
        !sample.root().join(".varar").exists(),
        "--list must not write .varar/"
    );
}

/// `cargo test <oath path>` runs only that oath's examples.
#[test]
fn filter_by_oath_runs_only_that_oath() {
    let sample = Sample::copy();
    let (oath, n) = EXAMPLES_PER_OATH
        .iter()
        .find(|(o, _)| *o == PROBE_OATH)
        .copied()
        .unwrap_or_else(|| panic!("{PROBE_OATH} is not in EXAMPLES_PER_OATH"));
    let run = sample.cargo_test(&[oath], &[]);
    run.assert_code(0, "cargo test <oath>");
    let items: Vec<String> = run
        .executed_items()
        .into_iter()
        .filter(|n| n.starts_with("varar/"))
        .collect();
    assert_eq!(items.len(), n, "items run\n{}", run.combined());
    let prefix = format!("{oath}::");
    assert!(
        items.iter().all(|i| i.starts_with(&prefix)),
        "only {oath} ran\n{}",
        run.combined()
    );
    // Results are written for the oath that ran, and only for it.
    assert!(sample.root().join(format!(".varar/{oath}.json")).exists());
    for (other, _) in EXAMPLES_PER_OATH.iter().filter(|(o, _)| *o != oath) {
        assert!(
            !sample.root().join(format!(".varar/{other}.json")).exists(),
            "{other} did not run, so it has no result file"
        );
    }
    // The filter selects items, never discovery: the lock stays complete.
    sample.assert_lock_pristine("filtered run", Some(&run));
}

/// Two `cargo test` runs at once, from nothing, leave a complete lock and
/// complete, valid result files.
#[test]
fn concurrent_runs_leave_valid_files() {
    let sample = Sample::copy();
    // Build first, so the two runs overlap in the harness and not in cargo.
    sample
        .cargo_test(&["--no-run"], &[])
        .assert_code(0, "cargo test --no-run");
    sample.remove("varar.lock.json");
    sample.remove(".varar");
    let runs: Vec<support::Run> = thread::scope(|s| {
        let a = s.spawn(|| sample.cargo_test(&[], &[]));
        let b = s.spawn(|| sample.cargo_test(&[], &[]));
        [a, b]
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| panic!("a run thread panicked")))
            .collect()
    });
    for run in &runs {
        run.assert_code(0, "concurrent cargo test");
    }
    sample.assert_lock_pristine("two concurrent runs", runs.first());
    let results = sample.parse_results(&sample.oath_files());
    for (oath, n) in EXAMPLES_PER_OATH.iter().filter(|(_, n)| *n > 0) {
        assert_eq!(
            results[*oath].examples.len(),
            *n,
            "{oath}: examples in .varar/"
        );
    }
}

/// `cargo nextest run` runs each item in its own process (after listing
/// them); the shipped lock must stay complete and valid and the results of
/// the separate processes must merge. Skipped when nextest is absent.
///
/// The harness leaves the baseline to unfiltered runs (every nextest process
/// runs one `--exact` item), so this starts from the shipped lock.
#[test]
fn nextest_run_leaves_valid_files() {
    let sample = Sample::copy();
    let version = sample.run(&["nextest", "--version"], &[]);
    if version.code != Some(0) {
        println!("note: cargo nextest is not installed; skipping the nextest check");
        return;
    }
    sample.remove(".varar");
    let run = sample.run(&["nextest", "run", "--no-fail-fast"], &[]);
    run.assert_code(0, "cargo nextest run");
    sample.assert_lock_pristine("cargo nextest run", Some(&run));
    let results = sample.parse_results(&sample.oath_files());
    for (oath, n) in EXAMPLES_PER_OATH.iter().filter(|(_, n)| *n > 0) {
        assert_eq!(
            results[*oath].examples.len(),
            *n,
            "{oath}: results of separate processes merge"
        );
    }
}
