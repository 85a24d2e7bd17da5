//! The run record (issue 19), driven through real `cargo test` and `cargo
//! nextest run --retries` runs of a copy of `tests/fixtures/evidence`: what
//! every process leaves in `.varar/.runs/`, whether it finished, every
//! item's attempts, the manifest's digests, and `VARAR_RERUN=failed`. The
//! nextest cases fail, never skip, when cargo-nextest is missing: `.ci/run`
//! installs it.

mod support;

use std::collections::BTreeMap;
use std::path::Path;

use support::{Run, Sample};
use varar_core::hash::sha256_hex;
use varar_core::names::ItemKind;
use varar_core::record::{Outcome, ProcessRecord, RunRecord, parse_process_record};

const FIXTURE: &str = "tests/fixtures/evidence";

fn fixture() -> (Sample, tempfile::TempDir) {
    let sample = Sample::copy_of(FIXTURE, r#"oathmark = { path = "../../../varar" }"#);
    let state = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    (sample, state)
}

fn env(state: &tempfile::TempDir) -> Vec<(&'static str, String)> {
    vec![("EVIDENCE_STATE", state.path().display().to_string())]
}

fn cargo(sample: &Sample, args: &[&str], env: &[(&str, String)]) -> Run {
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    sample.run(args, &env)
}

/// Every record under the copy's `.varar/.runs/`, read strictly.
fn records(root: &Path) -> Vec<ProcessRecord> {
    let mut out = Vec::new();
    let runs = root.join(".varar/.runs");
    let Ok(dirs) = std::fs::read_dir(&runs) else {
        return out;
    };
    for dir in dirs.flatten() {
        for file in std::fs::read_dir(dir.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            let path = file.path();
            if path.extension().is_some_and(|e| e == "run") {
                let bytes = std::fs::read(&path).unwrap_or_default();
                out.push(
                    parse_process_record(&bytes)
                        .unwrap_or_else(|e| panic!("{}: {e}", path.display())),
                );
            }
        }
    }
    out
}

fn outcomes(run: &RunRecord) -> BTreeMap<String, Option<Outcome>> {
    run.items
        .iter()
        .map(|i| (i.name.clone(), i.outcome()))
        .collect()
}

const WARMING: &str =
    "varar/oven.md::The oven::Warming up::The flaky oven warms up. I bake 2 loaves";
const RISING: &str =
    "varar/oven.md::The oven::Rising::I bake 1 loaves. Then the dough rises 2 times";
const CHECKING: &str =
    "varar/oven.md::The oven::Checking::The baker checks the oven. I bake 3 loaves";
const BROKEN: &str = "varar/links.md::varar:diagnostic:reference-not-found:7";

#[test]
fn issue19_a_full_run_records_every_item_with_its_outcome_and_its_inputs() {
    let (sample, state) = fixture();
    let first = cargo(
        &sample,
        &["test", "--", "--test-threads", "1"],
        &env(&state),
    );
    first.assert_code(101, "the flaky oven, the dough and the broken link fail");
    // A paragraph the lock recorded now matches no step: drift.
    let oath = sample.read("varar/oven.md").replace(
        "The baker checks the oven. I bake 3 loaves",
        "The baker looks at the oven. I roast 3 loaves",
    );
    std::fs::write(sample.root().join("varar/oven.md"), &oath).unwrap_or_else(|e| panic!("{e}"));
    let second = cargo(&sample, &["test"], &env(&state));
    second.assert_code(101, "drift fails the run");
    let runs = RunRecord::combine(records(sample.root()));
    assert_eq!(
        runs.len(),
        1,
        "a full run replaces the earlier one: {runs:?}"
    );
    let latest = &runs[0];
    assert!(latest.complete());
    let items = outcomes(latest);
    assert_eq!(
        items.get(WARMING),
        Some(&Some(Outcome::Passed)),
        "{items:?}"
    );
    assert_eq!(items.get(RISING), Some(&Some(Outcome::Failed)));
    assert_eq!(items.get(BROKEN), Some(&Some(Outcome::Failed)));
    let drift: Vec<_> = latest
        .items
        .iter()
        .filter(|i| i.kind == ItemKind::Drift)
        .collect();
    assert_eq!(drift.len(), 1, "{items:?}");
    assert_eq!(drift[0].oath_path, "varar/oven.md");
    assert_eq!(
        drift[0].name,
        format!("varar/oven.md::varar:drift:{}", drift[0].line)
    );
    let message = drift[0]
        .last()
        .and_then(|a| a.message.clone())
        .unwrap_or_default();
    assert!(message.contains("The baker checks the oven"), "{message}");
    assert!(
        !message.contains('\x1b'),
        "the record's message has no colour"
    );
    let record = &latest.processes[0];
    let documents: Vec<(&str, &str)> = record
        .manifest
        .documents
        .iter()
        .map(|d| (d.path.as_str(), d.sha256.as_str()))
        .collect();
    let links = sha256_hex(sample.read("varar/links.md").as_bytes());
    let oven = sha256_hex(oath.as_bytes());
    assert_eq!(
        documents,
        [
            ("varar/links.md", links.as_str()),
            ("varar/oven.md", oven.as_str())
        ]
    );
    let config = sha256_hex(sample.read("varar.config.json").as_bytes());
    assert_eq!(
        record.manifest.config.as_ref().map(|c| c.sha256.as_str()),
        Some(config.as_str())
    );
    assert!(record.manifest.lock_before.is_some());
    // The run rewrote the lock: the record names it as the run left it.
    let lock = sha256_hex(sample.read("varar.lock.json").as_bytes());
    assert_eq!(
        record
            .manifest
            .lock_after
            .as_ref()
            .map(|l| l.sha256.as_str()),
        Some(lock.as_str())
    );
    assert!(record.manifest.test_binary.is_some());
    assert!(!record.manifest.reproducible && !record.manifest.limitations.is_empty());
}

#[test]
fn issue19_a_process_that_exits_mid_run_leaves_an_incomplete_record() {
    let (sample, state) = fixture();
    std::fs::write(state.path().join("exit"), "").unwrap_or_else(|e| panic!("{e}"));
    let exited = cargo(
        &sample,
        &["test", "--", "--test-threads", "1"],
        &env(&state),
    );
    // What the issue saw: `std::process::exit(0)` in a step ends cargo test
    // with status 0, no summary line.
    exited.assert_code(0, "a step calls std::process::exit(0)");
    assert!(
        !exited.combined().contains("test result:"),
        "{}",
        exited.combined()
    );
    let runs = RunRecord::combine(records(sample.root()));
    assert_eq!(runs.len(), 1);
    assert!(
        !runs[0].complete(),
        "the record says the run never finished"
    );
    assert!(runs[0].processes[0].ended_at.is_none());
    assert!(
        runs[0].not_run().contains(&CHECKING),
        "{:?}",
        runs[0].not_run()
    );
}

#[test]
fn issue19_nextest_retries_are_attempts_of_one_run_and_a_flake_is_recovered() {
    let (sample, state) = fixture();
    // No skipping without nextest: `.ci/run` installs it.
    let nextest = cargo(
        &sample,
        &["nextest", "run", "--retries", "1", "--no-fail-fast"],
        &env(&state),
    );
    nextest.assert_code(100, "the dough and the broken link fail on every attempt");
    assert!(
        nextest.combined().contains("FLAKY"),
        "{}",
        nextest.combined()
    );
    let runs = RunRecord::combine(records(sample.root()));
    assert_eq!(runs.len(), 1, "one nextest run, one run id");
    assert!(
        !sample.root().join(".varar/.cache/record").exists(),
        "a nextest process remembers no record's header (issue 39)"
    );
    let run = &runs[0];
    assert!(run.complete());
    assert!(run.processes.iter().all(|p| p.nextest.is_some()));
    let warming = run
        .item(WARMING)
        .unwrap_or_else(|| panic!("{:?}", outcomes(run)));
    let attempts: Vec<(u32, Option<Outcome>)> = warming
        .attempts
        .iter()
        .map(|a| (a.attempt, a.outcome))
        .collect();
    assert_eq!(
        attempts,
        [(1, Some(Outcome::Failed)), (2, Some(Outcome::Passed))]
    );
    assert!(warming.recovered());
    let rising = run
        .item(RISING)
        .unwrap_or_else(|| panic!("{:?}", outcomes(run)));
    assert_eq!(rising.attempts.len(), 2);
    assert_eq!(rising.outcome(), Some(Outcome::Failed));
    assert!(!rising.recovered());
    assert!(run.not_run().is_empty(), "{:?}", run.not_run());

    // A rerun under nextest: only what failed, as new attempts of the run.
    std::fs::write(state.path().join("fixed"), "").unwrap_or_else(|e| panic!("{e}"));
    let mut rerun_env = env(&state);
    rerun_env.push(("VARAR_RERUN", "failed".to_owned()));
    let rerun = cargo(&sample, &["nextest", "run", "--no-fail-fast"], &rerun_env);
    rerun.assert_code(100, "the broken link still fails");
    assert!(
        rerun.combined().contains("2 tests run: 1 passed, 1 failed"),
        "{}",
        rerun.combined()
    );
    let runs = RunRecord::combine(records(sample.root()));
    assert_eq!(runs.len(), 1, "the rerun continues the nextest run");
    let rising = runs[0]
        .item(RISING)
        .unwrap_or_else(|| panic!("{:?}", outcomes(&runs[0])));
    let attempts: Vec<u32> = rising.attempts.iter().map(|a| a.attempt).collect();
    assert_eq!(attempts, [1, 2, 3]);
    assert!(rising.recovered());
    assert_eq!(runs[0].item(WARMING).map(|i| i.attempts.len()), Some(2));
}

#[test]
fn issue19_a_rerun_of_what_failed_continues_the_run() {
    let (sample, state) = fixture();
    let first = cargo(&sample, &["test"], &env(&state));
    first.assert_code(101, "the flaky oven, the dough and the broken link fail");
    let run_id = RunRecord::combine(records(sample.root()))[0].run_id.clone();
    // The cause is fixed; the broken link still is not.
    std::fs::write(state.path().join("fixed"), "").unwrap_or_else(|e| panic!("{e}"));
    let mut rerun_env = env(&state);
    rerun_env.push(("VARAR_RERUN", "failed".to_owned()));
    let rerun = cargo(&sample, &["test"], &rerun_env);
    rerun.assert_code(101, "the broken link still fails");
    let mut ran = rerun.executed_items();
    ran.sort();
    let mut want = vec![BROKEN.to_owned(), RISING.to_owned(), WARMING.to_owned()];
    want.sort();
    assert_eq!(ran, want, "only what failed runs again");
    let runs = RunRecord::combine(records(sample.root()));
    assert_eq!(runs.len(), 1, "the rerun continues the run: {runs:?}");
    let run = &runs[0];
    assert_eq!(run.run_id, run_id);
    assert_eq!(run.processes.len(), 2);
    assert!(run.processes[1].rerun.is_some());
    let rising = run
        .item(RISING)
        .unwrap_or_else(|| panic!("{:?}", outcomes(run)));
    assert_eq!(
        rising
            .attempts
            .iter()
            .map(|a| a.attempt)
            .collect::<Vec<_>>(),
        [1, 2]
    );
    assert!(rising.recovered(), "failed, then passed after the fix");
    assert_eq!(run.item(CHECKING).map(|i| i.attempts.len()), Some(1));

    // With the link mended too, a rerun runs only that item and passes.
    let links = sample
        .read("varar/links.md")
        .replace("[Gone](gone.md#nothing)\n", "");
    std::fs::write(sample.root().join("varar/links.md"), links).unwrap_or_else(|e| panic!("{e}"));
    let stale = cargo(&sample, &["test"], &rerun_env);
    assert!(
        stale
            .combined()
            .contains("no complete run of the sources as they are now"),
        "{}",
        stale.combined()
    );
    stale.assert_code(
        0,
        "the sources changed: a new run of everything, which passes",
    );
    let again = cargo(&sample, &["test"], &rerun_env);
    again.assert_code(0, "nothing failed");
    assert!(
        again.combined().contains("nothing to rerun"),
        "{}",
        again.combined()
    );
}

#[test]
fn issue19_a_listing_writes_no_record() {
    let (sample, state) = fixture();
    let list = cargo(&sample, &["test", "--", "--list"], &env(&state));
    list.assert_code(0, "--list");
    assert!(records(sample.root()).is_empty());
}

/// Issue 19 kept such a record for good, and the gate refused every later
/// run for it; issue 34: it is reported, naming what to do, and a full run
/// that starts after it was written prunes it with the earlier runs.
#[test]
fn issue34_a_record_that_cannot_be_read_is_reported_and_pruned_with_the_earlier_runs() {
    let (sample, state) = fixture();
    let broken = sample.root().join(".varar/.runs/someone/else.run");
    std::fs::create_dir_all(broken.parent().unwrap_or(sample.root()))
        .unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(&broken, "{ \"version\": 1,").unwrap_or_else(|e| panic!("{e}"));
    let run = cargo(&sample, &["test"], &env(&state));
    run.assert_code(101, "the flaky oven, the dough and the broken link fail");
    assert!(
        run.combined()
            .contains("someone/else.run` is not a valid run record"),
        "{}",
        run.combined()
    );
    assert!(
        run.combined().contains(
            "it is left out (the first full run that starts after it was written removes it \
             with the earlier runs; or delete it)"
        ),
        "{}",
        run.combined()
    );
    assert!(!broken.exists(), "pruned with the earlier runs");
    assert!(
        !records(sample.root()).is_empty(),
        "the run's own record stays"
    );
}

/// The record files under `.varar/.runs/`, in path order.
fn record_files(root: &Path) -> Vec<std::path::PathBuf> {
    let mut out: Vec<_> = std::fs::read_dir(root.join(".varar/.runs"))
        .into_iter()
        .flatten()
        .flatten()
        .flat_map(|dir| {
            std::fs::read_dir(dir.path())
                .into_iter()
                .flatten()
                .flatten()
        })
        .map(|file| file.path())
        .filter(|path| path.extension().is_some_and(|e| e == "run"))
        .collect();
    out.sort();
    out
}

/// Issue 39: a run leaves its record's header in `.varar/.cache/record`,
/// and the next run, which replaces the earlier runs, takes it from there
/// instead of reading the record whole, while the record keeps its stamp.
/// The cache is shown to be read by making it say that the run did not
/// end: the next run then keeps it; the one after reads the file and
/// prunes it.
#[test]
fn issue39_the_next_run_takes_the_last_records_header_from_its_writer() {
    let (sample, state) = fixture();
    let root = sample.root();
    cargo(&sample, &["test"], &env(&state)).assert_code(101, "the usual failures");
    let first = record_files(root);
    assert_eq!(first.len(), 1, "{first:?}");
    let cache = root.join(".varar/.cache/record");
    let text = std::fs::read_to_string(&cache).unwrap_or_else(|e| panic!("{e}"));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 8, "{text}");
    assert_eq!(lines[2], "1", "the process ended: {text}");
    assert_eq!(Path::new(lines[3]), first[0].as_path(), "{text}");
    let record = &records(root)[0];
    assert_eq!(
        lines[4..7],
        [&*record.run_id, &*record.process_id, &*record.started_at]
    );
    // Its header, as the cache says it, is what the next run goes by.
    let lying = lines
        .iter()
        .enumerate()
        .map(|(i, l)| if i == 2 { "0" } else { l })
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(&cache, lying + "\n").unwrap_or_else(|e| panic!("{e}"));
    cargo(&sample, &["test"], &env(&state)).assert_code(101, "the usual failures");
    let second = record_files(root);
    assert_eq!(
        second.len(),
        2,
        "a run still being written is kept: {second:?}"
    );
    assert!(second.contains(&first[0]));
    // The cache now names the second record: the first is read, whole.
    cargo(&sample, &["test"], &env(&state)).assert_code(101, "the usual failures");
    let third = record_files(root);
    assert_eq!(third.len(), 1, "the earlier runs are pruned: {third:?}");
    assert!(!second.contains(&third[0]));
}
