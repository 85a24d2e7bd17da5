//! Regression tests of issue 10 that need a whole run: a project in a temp
//! dir, run in-process, then the exit code, libtest's log and the files.
//! Each test is named after the point of the issue it pins.

use std::process::ExitCode;

use varar::{sensor, stimulus};

mod support;

use support::{Project, failed};

/// The bakery as its steps were first written.
mod before {
    use super::*;

    #[derive(Default)]
    pub struct Oven {
        loaves: i64,
    }

    #[stimulus("I bake {int} loaves")]
    fn bake(oven: &mut Oven, n: i64) {
        oven.loaves += n;
    }

    #[sensor("The shelf holds {int} loaves")]
    fn shelf(oven: &Oven) -> i64 {
        oven.loaves
    }

    #[stimulus("I drop the tray")]
    fn drop_tray() {
        let tray: Option<u8> = std::hint::black_box(None);
        let _ = tray.expect("the tray was already on the floor");
    }
}

/// Both steps renamed: nothing of the bakery oath matches any more.
mod renamed {
    use super::*;

    #[stimulus("I bake {int} breads")]
    fn bake(n: i64) {
        let _ = n;
    }

    #[sensor("The rack holds {int} breads")]
    fn rack(n: i64) -> i64 {
        n
    }
}

/// The first steps, plus one that makes `I bake 2 loaves` ambiguous.
mod ambiguous {
    use super::*;

    #[stimulus("I bake 2 loaves")]
    fn bake_two() {}
}

/// Only the stimulus was renamed: the sensor's sentence is prose now.
mod half {
    use super::*;

    #[derive(Default)]
    pub struct Rack {
        breads: i64,
    }

    #[stimulus("I bake {int} breads")]
    fn bake(rack: &mut Rack, n: i64) {
        rack.breads += n;
    }

    #[sensor("The shelf holds {int} loaves")]
    fn shelf(rack: &Rack) -> i64 {
        rack.breads
    }
}

const BAKERY: &str = "\
# Bakery

## Morning

I bake 2 loaves. The shelf holds 2 loaves.

## Noon

I bake 3 loaves. The shelf holds 3 loaves.
";

fn results(p: &Project, oath: &str) -> serde_json::Value {
    p.results(oath)
}

fn lines(results: &serde_json::Value) -> Vec<(i64, String)> {
    results["examples"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|e| {
                    (
                        e["lines"][0].as_i64().unwrap_or(-1),
                        e["status"].as_str().unwrap_or("").to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn issue10_1_result_lists_only_current_plan() {
    let p = Project::new(&[("varar/bakery.md", BAKERY)]);
    let (code, log) = p.run("issue10::before", &[]);
    assert_eq!(code, ExitCode::SUCCESS, "{log}");
    assert_eq!(
        lines(&results(&p, "varar/bakery.md")),
        [(5, "passed".into()), (9, "passed".into())]
    );
    // Both steps renamed and the drift accepted: the lock lists no example,
    // and neither may the result file.
    let (code, log) = p.run_with("issue10::renamed", &[], |r| r.accept_drift(true));
    assert_eq!(code, ExitCode::SUCCESS, "{log}");
    let lock = p.read("varar.lock.json").unwrap_or_default();
    assert!(lock.contains("\"examples\": []"), "{lock}");
    assert_eq!(lines(&results(&p, "varar/bakery.md")), []);
}

#[test]
fn issue10_1_an_ambiguous_line_keeps_no_passed_entry() {
    let p = Project::new(&[("varar/bakery.md", BAKERY)]);
    let (code, _) = p.run("issue10::before", &[]);
    assert_eq!(code, ExitCode::SUCCESS);
    // Line 5 becomes ambiguous: the run fails it with a diagnostic item, and
    // the file may not keep saying it passed, in a full run or a filtered one.
    let ambiguous = |r: varar::Runner| r.steps_from(&["issue10::before", "issue10::ambiguous"]);
    let (code, log) = p.run_with("issue10::before", &["bakery"], ambiguous);
    assert_eq!(code, failed());
    assert!(
        log.contains("varar/bakery.md::varar:diagnostic:ambiguous-match:5"),
        "{log}"
    );
    assert_eq!(
        lines(&results(&p, "varar/bakery.md")),
        [(9, "passed".into())]
    );
}

#[test]
fn issue10_9_an_ambiguous_paragraph_is_not_also_drift() {
    let p = Project::new(&[("varar/bakery.md", BAKERY)]);
    let (code, _) = p.run("issue10::before", &[]);
    assert_eq!(code, ExitCode::SUCCESS);
    let lock = p.read("varar.lock.json").unwrap_or_default();
    let ambiguous = |r: varar::Runner| r.steps_from(&["issue10::before", "issue10::ambiguous"]);
    let (code, log) = p.run_with("issue10::before", &[], ambiguous);
    assert_eq!(code, failed());
    assert!(log.contains("ambiguous-match:5"), "{log}");
    assert!(
        !log.contains("drift"),
        "reported once, as an ambiguity:\n{log}"
    );
    assert_eq!(
        p.read("varar.lock.json").unwrap_or_default(),
        lock,
        "the baseline keeps the example while it is ambiguous"
    );
}

#[test]
fn issue10_9_a_failing_example_names_its_sentences_that_matched_no_step() {
    let p = Project::new(&[(
        "varar/bakery.md",
        "# Bakery\n\nI bake 2 breads. The shelf holds 3 loaves. I bake 1 loaves.\n",
    )]);
    let (code, log) = p.run("issue10::half", &[]);
    assert_eq!(code, failed());
    assert!(
        log.contains(
            "note: these sentences of the example match no step, so they did not run:\n  line 3: I bake 1 loaves."
        ),
        "{log}"
    );
}

#[test]
fn issue10_7_a_panic_says_where_in_the_step_it_happened() {
    let p = Project::new(&[("varar/tray.md", "# Tray\n\nI drop the tray.\n")]);
    let (code, log) = p.run("issue10::before", &[]);
    assert_eq!(code, failed());
    assert!(
        log.contains("varar/tray.md:3:1: the tray was already on the floor"),
        "{log}"
    );
    assert!(
        log.contains("  panicked at varar/tests/issue10.rs:"),
        "{log}"
    );
    // The result file's message is the payload alone.
    let r = results(&p, "varar/tray.md");
    assert_eq!(
        r["examples"][0]["failure"]["message"],
        "the tray was already on the floor"
    );
}

#[test]
fn issue10_8_item_names_keep_the_whole_example_name() {
    let long =
        "I bake 2 loaves and I wish that every baker could bake as many. The shelf holds 2 loaves";
    let p = Project::new(&[("varar/bakery.md", &format!("# Bakery\n\n{long}.\n"))]);
    let (code, log) = p.run("issue10::before", &["--list"]);
    assert_eq!(code, ExitCode::SUCCESS);
    assert!(
        log.contains(&format!("varar/bakery.md::Bakery::{long}: test")),
        "{log}"
    );
    // So a filter on its last words selects it.
    let (code, log) = p.run("issue10::before", &["shelf holds 2 loaves"]);
    assert_eq!(code, ExitCode::SUCCESS);
    assert!(log.contains("1 passed"), "{log}");
}

#[test]
fn issue10_4_a_run_that_discovers_no_oath_fails() {
    // Globs that match nothing.
    let p = Project::new(&[("docs/bakery.md", BAKERY)]);
    let (code, _) = p.run("issue10::before", &[]);
    assert_eq!(code, failed());
    assert!(p.read("varar.lock.json").is_none());
    // No config at all.
    std::fs::remove_file(p.path("varar.config.json")).expect("config");
    let (code, _) = p.run("issue10::before", &["--list"]);
    assert_eq!(code, failed());
}

#[test]
fn issue10_5_a_lock_of_another_version_stops_the_run_until_re_recorded() {
    for version in ["1", "99", "\"2\""] {
        let p = Project::new(&[("varar/bakery.md", BAKERY)]);
        let old = format!("{{\"version\": {version}, \"oaths\": {{}}}}\n");
        std::fs::write(p.path("varar.lock.json"), &old).expect("lock");
        let (code, log) = p.run("issue10::before", &[]);
        assert_eq!(code, failed(), "version {version}");
        assert!(!log.contains("passed"), "nothing ran: {log}");
        assert_eq!(p.read("varar.lock.json").as_deref(), Some(old.as_str()));
        // Explicit consent re-records it.
        let (code, log) = p.run_with("issue10::before", &[], |r| r.accept_drift(true));
        assert_eq!(code, ExitCode::SUCCESS, "{log}");
        let lock = p.read("varar.lock.json").unwrap_or_default();
        assert!(lock.starts_with("{\n  \"version\": 2,"), "{lock}");
        assert!(lock.contains("I bake 3 loaves"), "{lock}");
    }
}

#[cfg(unix)]
#[test]
fn issue10_6_an_unreadable_path_is_one_failing_item_and_the_rest_runs() {
    let p = Project::new(&[("varar/bakery.md", BAKERY)]);
    std::os::unix::fs::symlink("loop.md", p.path("varar/loop.md")).expect("symlink");
    let (code, log) = p.run("issue10::before", &[]);
    assert_eq!(code, failed());
    assert!(log.contains("varar/loop.md::varar:read-error"), "{log}");
    assert!(log.contains("2 passed"), "the bakery ran: {log}");
    assert_eq!(lines(&results(&p, "varar/bakery.md")).len(), 2);
}
