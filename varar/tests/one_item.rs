//! What a run of one item (`--exact`, one `cargo nextest` process) and the
//! baseline's recording promise (issue 9): every listed item runs alone,
//! kind prefix or not; only a run that records touches the baseline, and
//! only after its trials.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;

use varar::{Runner, sensor, stimulus};

/// The plans a run of every oath keeps in one pack.
#[path = "one_item/pack.rs"]
mod pack;

/// The project root of the test that checks when the lock is written.
static ROOT: Mutex<Option<PathBuf>> = Mutex::new(None);

#[derive(Default)]
struct Tally {
    total: i64,
}

#[stimulus("I count {int}")]
fn count(tally: &mut Tally, n: i64) {
    tally.total += n;
}

#[sensor("The tally is {int}")]
fn tally(tally: &Tally) -> i64 {
    tally.total
}

#[stimulus("the baseline is not written yet")]
fn not_written_yet() -> Result<(), String> {
    let root = ROOT.lock().map_err(|e| e.to_string())?.clone();
    match root {
        Some(root) if root.join("varar.lock.json").exists() => {
            Err("varar.lock.json was written before the trials ran".into())
        }
        _ => Ok(()),
    }
}

/// Ties with `I count {int}` on `I count 7`: an ambiguous sentence.
#[stimulus("I count 7")]
fn count_seven(tally: &mut Tally) {
    tally.total += 7;
}

/// Three oaths: plain examples with a repeated name, an ambiguous sentence
/// (a diagnostic item), and bytes that are not UTF-8 (a read-error item).
fn project(extra: &[(&str, &[u8])]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().to_path_buf();
    let mut files: Vec<(&str, &[u8])> = vec![
        ("varar.config.json", br#"{ "docs": { "include": ["varar/**/*.md"] } }"#),
        (
            "varar/tally.md",
            b"# Tally\n\nI count 2. The tally is 2.\n\nProse.\n\nI count 2. The tally is 2.\n\nI count 3. The tally is 4.\n",
        ),
        ("varar/tally/seven.md", b"# Seven\n\nI count 7. The tally is 7.\n"),
        ("varar/broken.md", b"# Broken \xff\n"),
    ];
    files.extend_from_slice(extra);
    for (path, bytes) in files {
        let p = root.join(path);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("dirs");
        std::fs::write(p, bytes).expect("write");
    }
    (dir, root)
}

/// Run the harness with libtest arguments; (exit code, libtest's log).
fn run(root: &Path, extra: &[&str]) -> (ExitCode, String) {
    let log = root.join("libtest.log");
    let log_arg = log.to_str().expect("utf-8 path").to_string();
    let mut argv = vec![
        "oaths",
        "--test-threads",
        "1",
        "--logfile",
        log_arg.as_str(),
    ];
    argv.extend_from_slice(extra);
    let code = Runner::new(root)
        .steps_from(&["one_item"])
        .accept_drift(false)
        .run_with(libtest_mimic::Arguments::from_iter(argv));
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    let _ = std::fs::remove_file(&log);
    (code, text)
}

/// `test <name> ... <outcome>` lines of a log, kind prefix kept.
fn executed(log: &str) -> Vec<(String, String)> {
    log.lines()
        .filter_map(|l| l.strip_prefix("test "))
        .filter_map(|l| l.rsplit_once(" ... "))
        .map(|(n, o)| (n.trim_end().to_string(), o.trim().to_string()))
        .collect()
}

#[test]
fn every_listed_item_runs_alone_with_or_without_its_kind() {
    let (_dir, root) = project(&[]);
    // Record a baseline, then make the baseline claim a prose paragraph was
    // an example: a drift item.
    let _ = run(&root, &[]);
    let lock = std::fs::read_to_string(root.join("varar.lock.json")).expect("lock");
    let probed = lock.replacen(
        "\"examples\": [\n",
        "\"examples\": [\n        {\n          \"name\": \"Prose\",\n          \"line\": 5\n        },\n",
        1,
    );
    std::fs::write(root.join("varar.lock.json"), &probed).expect("probe");

    let (code, log) = run(&root, &["--list"]);
    assert_eq!(code, ExitCode::SUCCESS, "{log}");
    let listed: Vec<&str> = log
        .lines()
        .filter_map(|l| l.strip_suffix(": test"))
        .collect();
    for kind in [
        "::I count 2. The tally is 2[1]",
        "varar/tally.md::varar:drift:5",
        "varar:diagnostic:ambiguous-match:3",
        "varar/broken.md::varar:read-error",
    ] {
        assert!(
            listed.iter().any(|l| l.ends_with(kind)),
            "no item ending {kind:?} in\n{log}"
        );
    }
    let full = executed(&run(&root, &[]).1);
    assert_eq!(full.len(), listed.len());
    for item in &listed {
        let bare = item.strip_prefix("[varar] ").expect("kind prefix");
        for name in [*item, bare] {
            let (_, log) = run(&root, &["--exact", name]);
            let ran = executed(&log);
            let outcome = full.iter().find(|(n, _)| n == item).map(|(_, o)| o.clone());
            assert_eq!(
                ran,
                [(item.to_string(), outcome.expect("ran in the full run"))],
                "--exact {name:?} must run that item alone, as the full run did\n{log}"
            );
        }
    }
    // Runs of one item never record the baseline.
    assert_eq!(
        std::fs::read_to_string(root.join("varar.lock.json")).expect("lock"),
        probed
    );
}

#[test]
fn only_a_recording_run_touches_the_baseline_and_only_after_its_trials() {
    let (_dir, root) = project(&[(
        "varar/order.md",
        b"# Order\n\nCheck that the baseline is not written yet.\n",
    )]);
    *ROOT.lock().expect("root") = Some(root.clone());

    // A run of one item writes its results, not the lock, and takes no lock.
    let (code, log) = run(
        &root,
        &[
            "--exact",
            "varar/order.md::Order::Check that the baseline is not written yet",
        ],
    );
    assert_eq!(code, ExitCode::SUCCESS, "{log}");
    assert!(root.join(".varar/varar/order.md.json").exists());
    assert!(!root.join("varar.lock.json").exists());
    assert!(
        !root.join(".varar/.locks/varar.lock.json.lock").exists(),
        "the baseline's advisory lock was not taken"
    );

    // A full first run: the trial sees no lock, the run leaves one.
    let (_, log) = run(&root, &[]);
    assert_eq!(
        executed(&log)
            .iter()
            .find(|(n, _)| n.contains("varar/order.md::"))
            .map(|(_, o)| o.as_str()),
        Some("ok"),
        "{log}"
    );
    assert!(root.join("varar.lock.json").exists(), "{log}");
    *ROOT.lock().expect("root") = None;
}

/// Give `path` a modification time long past, as every file has a while
/// after it was written (the link index trusts only those).
fn settle(path: &Path, at: std::time::SystemTime) {
    let file = std::fs::File::options()
        .write(true)
        .open(path)
        .expect("open");
    file.set_modified(at).expect("set mtime");
}

#[test]
fn a_run_of_one_example_skips_only_oaths_whose_stamp_says_they_link_nowhere() {
    let other = "# Other\n\nNothing links from here.\n";
    let (_dir, root) = project(&[("varar/other.md", other.as_bytes())]);
    let an_hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    for oath in ["varar/tally.md", "varar/tally/seven.md", "varar/other.md"] {
        settle(&root.join(oath), an_hour_ago);
    }
    let example = "varar/tally.md::Tally::I count 2. The tally is 2";
    // A full run records which oaths may link, by stamp.
    let _ = run(&root, &[]);
    let index = std::fs::read_to_string(root.join(".varar/.cache/links")).expect("the link index");
    assert!(index.contains(" 0 varar/other.md\n"), "{index}");
    let (_, listed) = run(&root, &["--list"]);
    assert_eq!(
        executed(&run(&root, &["--exact", example]).1),
        [(format!("[varar] {example}"), "ok".to_string())],
        "{listed}"
    );

    // The same bytes' length, modification time and inode, now a link
    // consuming the whole of tally.md: the index vouches for the old text,
    // so the run of one example does not read it.
    let linking = format!("{:<1$}\n", "[All](tally.md)", other.len() - 1);
    std::fs::write(root.join("varar/other.md"), &linking).expect("write");
    settle(&root.join("varar/other.md"), an_hour_ago);
    assert_eq!(executed(&run(&root, &["--exact", example]).1).len(), 1);

    // Any real edit moves the stamp: the oath is read and its link counts,
    // so the example is consumed (it runs where it is referenced).
    settle(
        &root.join("varar/other.md"),
        an_hour_ago + std::time::Duration::from_secs(1),
    );
    let (_, log) = run(&root, &["--exact", example]);
    assert!(executed(&log).is_empty(), "{log}");
    let index = std::fs::read_to_string(root.join(".varar/.cache/links")).expect("the link index");
    assert!(index.contains(" 1 varar/other.md\n"), "relearned: {index}");
}

/// Three examples apart, the second failing, and an ambiguous sentence (a
/// diagnostic item).
const LEDGER: &str = "# Ledger\n\nI count 2. The tally is 2.\n\nProse between.\n\n\
                      I count 3. The tally is 4.\n\nMore prose.\n\nI count 1. The tally is 1.\n\n\
                      Then, ambiguously, I count 7.\n";

/// The files of `.varar/.cache/plans/`.
fn plan_files(root: &Path) -> Vec<PathBuf> {
    let dir = root.join(".varar/.cache/plans");
    std::fs::read_dir(&dir)
        .map(|entries| entries.map(|e| e.expect("entry").path()).collect())
        .unwrap_or_default()
}

/// Where the line of `bytes` that starts at `from` ends (its LF).
fn line_end(bytes: &[u8], from: usize) -> usize {
    from + bytes[from..]
        .iter()
        .position(|&b| b == b'\n')
        .expect("a line")
}

/// The plan stored in `.varar/.cache/plans/` for `oath`: its file, head
/// (the header line and the text's `sourceHash` line) and plan (its
/// candidates left aside).
fn stored_plan(root: &Path, oath: &str) -> (PathBuf, String, varar_core::plan::Plan) {
    for file in plan_files(root) {
        let bytes = std::fs::read(&file).expect("read");
        let line = |from: usize| line_end(&bytes, from);
        let (first, second) = (line(0), line(line(0) + 1));
        let header = String::from_utf8(bytes[..first].to_vec()).expect("a text header");
        if header.ends_with(&format!(" {oath}")) {
            let head = String::from_utf8(bytes[..second].to_vec()).expect("a text head");
            let (plan, _) = varar_core::stored::decode(&bytes[second + 1..]).expect("a plan");
            return (file, head, plan);
        }
    }
    panic!("no plan stored for {oath}");
}

/// Write at `file` `header` (its head: both its lines) and the stored
/// bytes of `plan` (without candidates); return them.
fn forge(file: &Path, header: &str, plan: &varar_core::plan::Plan) -> Vec<u8> {
    let bytes = [
        header.as_bytes(),
        b"\n",
        &varar_core::stored::encode(plan, &[]),
    ]
    .concat();
    std::fs::write(file, &bytes).expect("forge");
    bytes
}

/// `plan` with its second example's sensor expecting 3.
fn expecting_three(plan: &varar_core::plan::Plan) -> varar_core::plan::Plan {
    let mut forged = plan.clone();
    let sensor = forged.examples[1].steps.last_mut().expect("its sensor");
    sensor.args[0].value = std::sync::Arc::new(varar_core::expression::ArgValue::Int("3".into()));
    forged
}

/// Per run record written under `root`, every item name it holds (those it
/// ran and those it left `unselected`), sorted.
fn item_names(root: &Path) -> Vec<Vec<String>> {
    let runs = root.join(".varar/.runs");
    let mut found = Vec::new();
    for run in std::fs::read_dir(runs).expect("runs").flatten() {
        for record in std::fs::read_dir(run.path()).expect("run").flatten() {
            let text = std::fs::read_to_string(record.path()).expect("record");
            let json: serde_json::Value = serde_json::from_str(&text).expect("json");
            let ran = json["items"].as_array().cloned().unwrap_or_default();
            let left = json["unselected"].as_array().cloned().unwrap_or_default();
            let mut names: Vec<String> = ran
                .iter()
                .map(|item| item["name"].clone())
                .chain(left)
                .map(|name| name.as_str().unwrap_or_default().to_owned())
                .collect();
            names.sort();
            found.push(names);
        }
    }
    found
}

#[test]
fn the_process_of_one_example_plans_its_oath_once_for_all_its_examples() {
    let (_dir, root) = project(&[("varar/ledger.md", LEDGER.as_bytes())]);
    let failing = "varar/ledger.md::Ledger::I count 3. The tally is 4";
    let passing = "varar/ledger.md::Ledger::I count 2. The tally is 2";

    // The first process of the oath plans it and stores the plan.
    let (_, log) = run(&root, &["--exact", failing]);
    assert_eq!(
        executed(&log),
        [(format!("[varar] {failing}"), "FAILED".into())],
        "{log}"
    );
    assert_eq!(plan_files(&root).len(), 1, "only the oath it planned");
    let (file, header, plan) = stored_plan(&root, "varar/ledger.md");
    assert_eq!(plan.examples.len(), 3, "{plan:#?}");

    // The next reads it back: the same items, named the same.
    let (_, log) = run(&root, &["--exact", passing]);
    assert_eq!(
        executed(&log),
        [(format!("[varar] {passing}"), "ok".into())]
    );
    let records = item_names(&root);
    assert_eq!(records.len(), 2, "{records:?}");
    assert_eq!(
        records[0], records[1],
        "the same items, planned or read back"
    );
    for name in [
        "I count 1. The tally is 1",
        "varar:diagnostic:ambiguous-match:13",
    ] {
        assert!(records[0].iter().any(|n| n.ends_with(name)), "{records:?}");
    }

    // Really read back: a stored plan in which the failing example expects
    // 3, the tally it reaches, makes it pass.
    forge(&file, &header, &expecting_three(&plan));
    let (_, log) = run(&root, &["--exact", failing]);
    assert_eq!(
        executed(&log),
        [(format!("[varar] {failing}"), "ok".into())]
    );

    // An edit of the oath is a miss: the document's value counts again,
    // and the new plan is stored.
    let edited = LEDGER.replace("Prose between.", "Prose, edited.");
    std::fs::write(root.join("varar/ledger.md"), edited).expect("edit");
    let (_, log) = run(&root, &["--exact", failing]);
    assert_eq!(
        executed(&log),
        [(format!("[varar] {failing}"), "FAILED".into())]
    );
    let (_, new_header, replanned) = stored_plan(&root, "varar/ledger.md");
    assert_ne!(new_header, header);
    assert_eq!(replanned, plan, "the prose is not part of the plan");

    // A document that may link (here to a web page) is read by the process
    // (it is new to the link index): plans are then neither used nor
    // stored.
    let forged = forge(&file, &new_header, &expecting_three(&plan));
    std::fs::write(
        root.join("varar/other.md"),
        "# Other\n\nSee [the guide](https://example.com/guide).\n",
    )
    .expect("link");
    let (_, log) = run(&root, &["--exact", failing]);
    assert_eq!(
        executed(&log),
        [(format!("[varar] {failing}"), "FAILED".into())],
        "{log}"
    );
    assert_eq!(std::fs::read(&file).expect("kept"), forged);
}

/// A first run keeps its plans without the dead paragraphs' names. When
/// the lock then names one of them (an example that stopped matching), the
/// kept plan cannot judge it: the oath is planned again, and the drift is
/// reported as a run without kept plans reports it.
#[test]
fn a_kept_plan_is_planned_again_when_the_lock_names_a_dead_paragraph() {
    let (_dir, root) = project(&[("varar/ledger.md", LEDGER.as_bytes())]);
    let (_, first) = run(&root, &[]);
    let drift = |log: &str| {
        executed(log)
            .into_iter()
            .filter(|(n, _)| n.contains("::varar:drift:"))
            .collect::<Vec<_>>()
    };
    assert_eq!(drift(&first), [], "{first}");
    let lock_path = root.join("varar.lock.json");
    let lock = std::fs::read_to_string(&lock_path).expect("lock");
    let recorded = r#""name": "I count 3. The tally is 4","#;
    assert!(lock.contains(recorded), "{lock}");
    let drifted = lock.replacen(
        recorded,
        r#""name": "Prose between", "line": 5 }, { "name": "I count 3. The tally is 4","#,
        1,
    );
    std::fs::write(&lock_path, &drifted).expect("lock");
    let (_, kept) = run(&root, &[]);
    let found = drift(&kept);
    // The paragraph on line 5, "Prose between.".
    let expected = (
        "[varar] varar/ledger.md::varar:drift:5".to_string(),
        "FAILED".to_string(),
    );
    assert_eq!(found, [expected], "{kept}");
    // The same as a run that keeps no plan.
    std::fs::write(&lock_path, &drifted).expect("lock");
    std::fs::remove_dir_all(root.join(".varar/.cache")).expect("no plans");
    let (_, fresh) = run(&root, &[]);
    assert_eq!(drift(&fresh), found);
}
