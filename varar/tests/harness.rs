//! The harness in-process: a project in a temp dir, run through
//! `Runner::run_with` with libtest's output sent to a log file, then the exit
//! code, the log and the files written (`varar.lock.json`, `.varar/`).

use std::path::Path;
use std::process::ExitCode;

use varar::{Runner, sensor, stimulus};

mod support;

use support::{Project, failed};

#[derive(Default)]
struct Counter {
    count: i64,
}

#[stimulus("I add {int}")]
fn add(counter: &mut Counter, n: i64) {
    counter.count += n;
}

#[sensor("The count is {int}")]
fn count(counter: &Counter) -> i64 {
    counter.count
}

#[stimulus("I explode")]
fn explode() {
    panic!("kaboom");
}

#[stimulus("I add {int} twice")]
fn add_twice(counter: &mut Counter, n: i64) {
    counter.count += 2 * n;
}

/// Changes the document at `path` while the run runs (a line added).
#[stimulus("I change the document {string}")]
fn change_document(path: &str) {
    let mut text = std::fs::read_to_string(path).expect("the oath");
    text.push_str("\nA line added while the run ran.\n");
    std::fs::write(path, text).expect("the oath, changed");
}

/// Ties with `I add {int} twice` on `I add 1 twice`: an ambiguous sentence.
#[stimulus("I add 1 twice")]
fn add_one_twice(counter: &mut Counter) {
    counter.count += 2;
}

const COUNTER: &str = "\
# Counter

This counter starts at zero.

## Adding

I add 2. The count is 2.

## Adding wrongly

I add 2. The count is 3.

## Exploding

I explode.
";

const AMBIGUOUS: &str = "# Twice\n\nI add 1 twice. The count is 2.\n";

/// Run the `harness` module's steps, accepting drift or not.
fn run(p: &Project, extra: &[&str], update: bool) -> (ExitCode, String) {
    p.run_with("harness", extra, |r| r.accept_drift(update))
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).expect("valid JSON")
}

#[test]
fn one_item_per_example_with_readable_names() {
    let p = Project::new(&[("varar/counter.md", COUNTER)]);
    let (code, log) = run(&p, &["--list"], false);
    assert_eq!(code, ExitCode::SUCCESS);
    let items: Vec<&str> = log
        .lines()
        .filter(|l| l.ends_with(": test"))
        .map(|l| l.trim_start_matches("[varar] "))
        .collect();
    assert_eq!(
        items,
        [
            "varar/counter.md::Counter::Adding::I add 2. The count is 2: test",
            "varar/counter.md::Counter::Adding wrongly::I add 2. The count is 3: test",
            "varar/counter.md::Counter::Exploding::I explode: test",
        ]
    );
    // Listing has no side effects.
    assert!(p.read("varar.lock.json").is_none());
    assert!(!p.path(".varar").exists());
}

#[test]
fn a_run_records_results_and_the_baseline() {
    let p = Project::new(&[("varar/counter.md", COUNTER)]);
    let (code, log) = run(&p, &[], false);
    assert_eq!(code, failed(), "{log}");
    assert!(
        log.contains("varar/counter.md:11:23: cell 1: expected 3 but was 2"),
        "{log}"
    );
    assert!(log.contains("varar/counter.md:15:1: kaboom"), "{log}");

    let results = json(&p.read(".varar/varar/counter.md.json").expect("results"));
    assert_eq!(results["version"], 1);
    assert_eq!(results["oathPath"], "varar/counter.md");
    let examples = results["examples"].as_array().expect("examples");
    let lines: Vec<i64> = examples
        .iter()
        .map(|e| e["lines"][0].as_i64().expect("line"))
        .collect();
    assert_eq!(
        lines,
        [7, 11, 15],
        "document order whatever the finish order"
    );
    assert_eq!(examples[0]["status"], "passed");
    assert!(examples[0].get("failure").is_none());
    assert_eq!(examples[1]["failure"]["cells"][0]["actual"], "2");
    assert_eq!(examples[2]["failure"]["message"], "kaboom");

    let lock = p.read("varar.lock.json").expect("lock recorded");
    let parsed = json(&lock);
    let names: Vec<&str> = parsed["oaths"]["varar/counter.md"]["examples"]
        .as_array()
        .expect("examples")
        .iter()
        .map(|e| e["name"].as_str().expect("name"))
        .collect();
    assert_eq!(
        names,
        [
            "I add 2. The count is 2",
            "I add 2. The count is 3",
            "I explode"
        ]
    );

    // A second run over the same text leaves the lock byte-identical.
    let _ = run(&p, &[], false);
    assert_eq!(p.read("varar.lock.json").expect("lock"), lock);
}

#[test]
fn issue39_a_lock_formatted_by_hand_is_rewritten_after_runs_that_knew_it_canonical() {
    let p = Project::new(&[("varar/counter.md", COUNTER)]);
    let _ = run(&p, &[], false);
    let lock = p.read("varar.lock.json").expect("lock recorded");
    let sha = |text: &str| varar_core::hash::sha256_hex(text.as_bytes());
    let remembered = || p.read(".varar/.cache/lock.canonical");
    assert_eq!(
        remembered(),
        Some(format!("{}\n", sha(&lock))),
        "the text written"
    );
    // Nothing changes: the lock stays, known canonical.
    let _ = run(&p, &[], false);
    assert_eq!(p.read("varar.lock.json").expect("lock"), lock);
    // Formatted by hand, the same entries: rewritten as the writer writes.
    let by_hand = lock.replace("\n  ", "\n    ");
    assert_ne!(by_hand, lock);
    std::fs::write(p.path("varar.lock.json"), &by_hand).expect("by hand");
    let _ = run(&p, &[], false);
    assert_eq!(p.read("varar.lock.json").expect("lock"), lock);
    assert_eq!(remembered(), Some(format!("{}\n", sha(&lock))));
    // A cache that claims the hand-formatted text (forged): that text is
    // left as it is while no entry changes, and nothing else is lost.
    std::fs::write(p.path("varar.lock.json"), &by_hand).expect("by hand");
    std::fs::write(
        p.path(".varar/.cache/lock.canonical"),
        format!("{}\n", sha(&by_hand)),
    )
    .expect("forged");
    let _ = run(&p, &[], false);
    assert_eq!(p.read("varar.lock.json").expect("lock"), by_hand);
}

#[test]
fn a_failure_s_excerpt_is_read_again_and_left_out_once_its_document_changed() {
    // The run lets the texts go once its items are made (issue 39): a
    // failing example's document is read again for its excerpt, and used
    // only while it is the text that was planned.
    let p = Project::new(&[("varar/counter.md", COUNTER)]);
    let changed = p.path("varar/changed.md");
    let text = format!(
        "# Changed\n\nI change the document \"{}\". The count is 5.\n",
        changed.display()
    );
    std::fs::write(&changed, text).expect("the oath");
    let (code, log) = run(&p, &["--test-threads", "1"], false);
    assert_eq!(code, failed(), "{log}");
    // Read again, unchanged: the excerpt of the failing cell.
    assert!(
        log.contains("varar/counter.md:11:23: cell 1: expected 3 but was 2"),
        "{log}"
    );
    assert!(log.contains("I add 2. The count is 3."), "{log}");
    assert!(!log.contains("varar/counter.md changed since"), "{log}");
    // Changed by its own step: the header and values, no excerpt, a note.
    assert!(
        log.contains("varar/changed.md:3:") && log.contains("expected 5 but was 0"),
        "{log}"
    );
    assert!(
        log.contains(
            "note: varar/changed.md changed since it was planned: no excerpt of it is shown"
        ),
        "{log}"
    );
    assert!(!log.contains("The count is 5."), "{log}");
}

#[test]
fn a_spliced_step_s_excerpt_is_left_out_once_its_document_changed() {
    // The failing step was spliced from another document by a link: that
    // document's text is the one read again, and the note names it.
    let p = Project::new(&[]);
    let shared = p.path("varar/shared.md");
    std::fs::create_dir_all(p.path("varar")).expect("dirs");
    let text = format!(
        "# Shared\n\n## Change it\n\nI change the document \"{}\". The count is 5.\n",
        shared.display()
    );
    std::fs::write(&shared, text).expect("the shared oath");
    std::fs::write(
        p.path("varar/uses.md"),
        "# Uses\n\nI add 1.\n\n[Change it](shared.md#change-it)\n",
    )
    .expect("the oath");
    let (code, log) = run(&p, &["--test-threads", "1"], false);
    assert_eq!(code, failed(), "{log}");
    let uses = log
        .split("---- ")
        .find(|block| block.starts_with("varar/uses.md::"))
        .unwrap_or_else(|| panic!("the failure of varar/uses.md in {log}"));
    assert!(uses.contains("varar/shared.md:5:"), "{uses}");
    assert!(
        uses.contains("note: varar/shared.md changed since it was planned"),
        "{uses}"
    );
    assert!(!uses.contains("varar/uses.md changed"), "{uses}");
}

#[test]
fn drift_fails_until_accepted() {
    let p = Project::new(&[("varar/counter.md", COUNTER)]);
    let _ = run(&p, &[], false);
    let pristine = p.read("varar.lock.json").expect("lock");
    // The baseline claims the prose paragraph on line 3 was an example.
    let probe = pristine.replacen(
        "\"examples\": [\n",
        "\"examples\": [\n        {\n          \"name\": \"This counter starts at zero\",\n          \"line\": 3\n        },\n",
        1,
    );
    std::fs::write(p.path("varar.lock.json"), &probe).expect("probe");

    let (code, log) = run(&p, &[], false);
    assert_eq!(code, failed());
    assert!(log.contains("varar/counter.md::varar:drift:3"), "{log}");
    assert!(
        log.contains("(drift): \"This counter starts at zero\""),
        "{log}"
    );
    assert!(log.contains("VARAR_UPDATE=1"), "{log}");
    assert_eq!(
        p.read("varar.lock.json").expect("lock"),
        probe,
        "a drifted oath is frozen"
    );

    let _ = run(&p, &[], true);
    assert_eq!(
        p.read("varar.lock.json").expect("lock"),
        pristine,
        "accepted and re-recorded"
    );
}

#[test]
fn filtered_runs_merge_results_and_leave_the_baseline_alone() {
    let p = Project::new(&[("varar/counter.md", COUNTER)]);
    let (_, log) = run(&p, &["Exploding"], false);
    assert!(
        log.contains("1 filtered out") || log.contains("2 filtered out"),
        "{log}"
    );
    assert!(
        p.read("varar.lock.json").is_none(),
        "partial runs do not record"
    );
    let first = json(&p.read(".varar/varar/counter.md.json").expect("results"));
    assert_eq!(first["examples"].as_array().expect("examples").len(), 1);

    let _ = run(
        &p,
        &[
            "--exact",
            "varar/counter.md::Counter::Adding::I add 2. The count is 2",
        ],
        false,
    );
    let merged = json(&p.read(".varar/varar/counter.md.json").expect("results"));
    let lines: Vec<i64> = merged["examples"]
        .as_array()
        .expect("examples")
        .iter()
        .map(|e| e["lines"][0].as_i64().expect("line"))
        .collect();
    assert_eq!(lines, [7, 15], "the earlier record is kept and sorted in");
}

#[test]
fn diagnostics_and_unreadable_oaths_are_failing_items() {
    let p = Project::with_bytes(&[
        ("varar/twice.md", AMBIGUOUS.as_bytes()),
        ("varar/broken.md", b"# Broken\n\n\xff\xfe\n"),
    ]);
    let (code, log) = run(&p, &[], false);
    assert_eq!(code, failed());
    assert!(
        log.contains("varar/twice.md::varar:diagnostic:ambiguous-match:3"),
        "{log}"
    );
    assert!(log.contains("Ambiguous step"), "{log}");
    assert!(log.contains("varar/broken.md::varar:read-error"), "{log}");
    assert!(log.contains("varar/broken.md"), "{log}");
}

#[test]
fn an_unreadable_lock_is_an_error_and_is_never_overwritten() {
    let p = Project::new(&[("varar/counter.md", COUNTER)]);
    let garbage = "<<<<<<< HEAD\n{}\n=======\n{}\n>>>>>>> branch\n";
    std::fs::write(p.path("varar.lock.json"), garbage).expect("lock");
    let (code, _) = run(&p, &[], true);
    assert_eq!(code, failed());
    assert_eq!(p.read("varar.lock.json").expect("lock"), garbage);
}

#[test]
fn issue10_4_no_config_fails_instead_of_passing_with_no_items() {
    let dir = tempfile::tempdir().expect("temp dir");
    let code = Runner::new(dir.path())
        .steps_from(&["harness"])
        .accept_drift(false)
        .run_with(libtest_mimic::Arguments::from_iter([
            "oaths",
            "--logfile",
            &log_in(dir.path()),
        ]));
    assert_eq!(code, failed());
    assert!(!dir.path().join(".varar").exists());
}

fn log_in(dir: &Path) -> String {
    dir.join("log").to_str().expect("utf-8").to_string()
}

#[cfg(unix)]
#[test]
fn fifos_in_every_caches_place_are_no_cache_and_hold_the_run_up_nowhere() {
    let p = Project::new(&[("varar/counter.md", COUNTER)]);
    let (code, log) = run(&p, &[], false);
    assert_eq!(code, failed(), "{log}");
    let lock = p.read("varar.lock.json").expect("lock recorded");
    // Each cache a run reads, written by the first run or not.
    let caches = [
        "discovery",
        "links",
        "lock.canonical",
        "lock.sha256",
        "plans.pack",
        "record",
    ];
    for name in caches {
        let cache = p.path(&format!(".varar/.cache/{name}"));
        let _ = std::fs::remove_file(&cache);
        // `--`: the path is never read as an option.
        let made = std::process::Command::new("mkfifo")
            .arg("--")
            .arg(&cache)
            .status()
            .expect("mkfifo");
        assert!(made.success(), "{name}");
    }
    // A run that opened one to read would wait for a writer for ever: the
    // run is given a minute.
    let (sent, ran) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let outcome = run(&p, &[], false);
        let _ = sent.send((outcome, p));
    });
    let ((code, log), p) = ran
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("a run that no FIFO held up");
    assert_eq!(code, failed(), "{log}");
    assert!(
        log.contains("varar/counter.md:11:23: cell 1: expected 3 but was 2"),
        "{log}"
    );
    assert_eq!(p.read("varar.lock.json").expect("lock"), lock);
}
