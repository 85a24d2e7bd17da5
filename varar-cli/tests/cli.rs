//! The real `cargo-varar` binary run in a fresh project directory per test
//! (STYLE §2.5): exit codes, what it prints, what it writes and where.

mod common;

use std::path::PathBuf;
use std::process::Command;

use common::{
    BASKET, Process, Project, SHELF, all_passed, basket_run, files_under, item, passed_items, text,
    write_record,
};
use varar_core::hash::source_hash;

#[test]
fn report_writes_the_site_under_target_and_prints_index_html() {
    let p = Project::new();
    p.basket_results();
    basket_run(&p);
    // As cargo runs it: `cargo-varar varar report`.
    let out = p.run(&["varar", "report"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let index = p.root().join("target/varar/report/index.html");
    assert_eq!(text(&out.stdout).trim(), index.display().to_string());
    assert_eq!(text(&out.stderr), "");
    let page = p.read("target/varar/report/oaths/varar/basket.md.html");
    assert!(page.contains("data-varar-state=\"failed\""), "{page}");
    assert!(page.contains("<mark "), "{page}");
    let shelf = p.read("target/varar/report/oaths/varar/shelf.md.html");
    assert!(shelf.contains("Not run."), "{shelf}");
    // Nothing but the site under target/, nothing else in the project.
    let written: Vec<PathBuf> = files_under(p.root())
        .into_iter()
        .filter(|f| !f.starts_with("target/varar/report"))
        .collect();
    assert_eq!(
        written,
        [
            PathBuf::from(".varar/.runs/run-1/p1.run"),
            PathBuf::from(".varar/varar/basket.md.json"),
            PathBuf::from("varar/basket.md"),
            PathBuf::from("varar/shelf.md"),
            PathBuf::from("varar.config.json"),
        ]
    );
}

#[test]
fn the_root_is_found_above_the_current_directory_or_given() {
    let p = Project::new();
    let out = p.run_in(&p.root().join("varar"), &["report"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(p.root().join("target/varar/report/index.html").is_file());

    let elsewhere = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let root = p.root().display().to_string();
    let out = p.run_in(
        elsewhere.path(),
        &["report", "--root", &root, "--out", "site"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(elsewhere.path().join("site/index.html").is_file());

    let out = p.run_in(elsewhere.path(), &["report"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("no varar.config.json in"), "{err}");
    assert!(err.contains("pass --root DIR"), "{err}");
}

#[test]
fn a_missing_varar_directory_is_not_an_error() {
    let p = Project::new();
    let out = p.run(&["report"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let index = p.read("target/varar/report/index.html");
    assert!(
        index.contains("<dt>oaths without results</dt><dd>2</dd>"),
        "{index}"
    );
}

#[test]
fn unreadable_results_are_named_and_the_rest_is_written_with_exit_2() {
    let p = Project::new();
    p.basket_results();
    basket_run(&p);
    p.write(
        ".varar/varar/shelf.md.json",
        "{\"version\": 1, \"oathPath\": ",
    );
    let out = p.run(&["report"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains(
            ".varar/varar/shelf.md.json` is not a valid run result: invalid JSON: EOF while parsing"
        ),
        "{err}"
    );
    assert!(text(&out.stdout).trim().ends_with("index.html"));
    let index = p.read("target/varar/report/index.html");
    assert!(index.contains("results unreadable"), "{index}");
    // The readable oath is still drawn.
    let basket = p.read("target/varar/report/oaths/varar/basket.md.html");
    assert!(basket.contains("<mark "), "{basket}");

    p.write(
        ".varar/varar/shelf.md.json",
        &format!(
            // Not a whole number: malformed (a newer whole-number version is
            // absent instead, issue 21).
            r#"{{"version": 2.5, "oathPath": "varar/shelf.md", "sourceHash": "{}", "examples": []}}"#,
            source_hash(SHELF)
        ),
    );
    let out = p.run(&["report"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("unsupported version 2.5"), "{err}");
    let shelf = p.read("target/varar/report/oaths/varar/shelf.md.html");
    assert!(
        shelf.contains("The results of this oath are unreadable."),
        "{shelf}"
    );
    assert!(shelf.contains("unsupported version 2.5"), "{shelf}");
}

#[test]
fn an_invalid_config_writes_nothing() {
    let p = Project::new();
    p.write("varar.config.json", "{\"docs\": 1}");
    let out = p.run(&["report"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("varar.config.json: \"docs\" must be an object"),
        "{err}"
    );
    assert!(!p.root().join("target").exists());
}

#[test]
fn an_out_directory_that_is_not_a_report_is_refused() {
    let p = Project::new();
    let out = p.run(&["report", "--out", "varar"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("is not empty and is not a previous report"));
    assert_eq!(p.read("varar/basket.md"), BASKET);
    assert_eq!(files_under(&p.root().join("varar")).len(), 2);
}

#[test]
fn a_rerun_drops_the_pages_of_deleted_oaths() {
    let p = Project::new();
    assert_eq!(p.run(&["report"]).status.code(), Some(0));
    assert!(
        p.root()
            .join("target/varar/report/oaths/varar/shelf.md.html")
            .is_file()
    );
    std::fs::remove_file(p.root().join("varar/shelf.md")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(p.run(&["report"]).status.code(), Some(0));
    assert!(
        !p.root()
            .join("target/varar/report/oaths/varar/shelf.md.html")
            .exists()
    );
    assert!(
        p.root()
            .join("target/varar/report/oaths/varar/basket.md.html")
            .is_file()
    );
}

#[cfg(unix)]
#[test]
fn open_hands_index_html_to_the_browser() {
    use std::os::unix::fs::PermissionsExt as _;
    let p = Project::new();
    let log = p.root().join("opened.txt");
    let script = p.root().join("browser.sh");
    std::fs::write(
        &script,
        format!("#!/bin/sh\necho \"$1\" > '{}'\n", log.display()),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755))
        .unwrap_or_else(|e| panic!("{e}"));
    let out = Command::new(env!("CARGO_BIN_EXE_cargo-varar"))
        .args(["report", "--open"])
        .current_dir(p.root())
        .env("BROWSER", &script)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        p.read("opened.txt").trim(),
        p.root()
            .join("target/varar/report/index.html")
            .display()
            .to_string()
    );
    // A browser that fails is a warning, not a failure.
    let out = Command::new(env!("CARGO_BIN_EXE_cargo-varar"))
        .args(["report", "--open"])
        .current_dir(p.root())
        .env("BROWSER", "/bin/false")
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.status.code(), Some(0));
    assert!(
        text(&out.stderr).contains("warning: cannot open"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn usage_errors_exit_2_and_help_lists_report() {
    let p = Project::new();
    let out = p.run(&["report", "--no-such-flag"]);
    assert_eq!(out.status.code(), Some(2));
    let out = p.run(&["varar", "--help"]);
    assert_eq!(out.status.code(), Some(0));
    let help = text(&out.stdout);
    assert!(
        help.contains("report") && help.contains("cargo varar"),
        "{help}"
    );
}

#[test]
fn issue19_report_draws_the_latest_run_s_drift_and_recovered_examples() {
    let p = Project::new();
    all_passed(&p);
    let mut items = passed_items();
    items[1] = item(
        "varar/basket.md::The basket::I add 1. The total is 1",
        "varar/basket.md",
        5,
        1,
        Some("failed"),
        Some("the till jammed"),
    );
    items.push(item(
        "varar/shelf.md::varar:drift:3",
        "varar/shelf.md",
        3,
        1,
        Some("failed"),
        Some("varar/shelf.md:3:1: This paragraph was an example and no longer matches any step (drift)"),
    ));
    write_record(&p, ".varar", &Process::of("nextest-1"), &items);
    let retry = Process {
        id: "p2",
        started: "07:00:05",
        ..Process::of("nextest-1")
    };
    let again = item(
        "varar/basket.md::The basket::I add 1. The total is 1",
        "varar/basket.md",
        5,
        2,
        Some("passed"),
        None,
    );
    write_record(&p, ".varar", &retry, &[again]);
    let out = p.run(&["report"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let shelf = p.read("target/varar/report/oaths/varar/shelf.md.html");
    assert!(
        shelf.contains("<span class=\"varar-k\">drift:</span>"),
        "{shelf}"
    );
    assert!(shelf.contains(">I stock 3 buns.</mark>"), "{shelf}");
    let basket = p.read("target/varar/report/oaths/varar/basket.md.html");
    assert!(basket.contains("data-varar-recovered=\"2\""), "{basket}");
    assert!(basket.contains("recovered after 2 attempts"), "{basket}");
    // An unreadable record of the latest run is named, the rest of the
    // site is still written, and (issue 34) the run it may belong to is
    // not taken for the whole run: its results are shown as an earlier
    // run's, and the index says why first.
    p.write(".varar/.runs/nextest-1/p3.run", "{");
    let out = p.run(&["report"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("p3.run` is not a valid run record"),
        "{}",
        text(&out.stderr)
    );
    let basket = p.read("target/varar/report/oaths/varar/basket.md.html");
    assert!(
        basket.contains("These results are of an earlier run."),
        "{basket}"
    );
    assert!(!basket.contains("recovered after 2 attempts"), "{basket}");
    let index = p.read("target/varar/report/index.html");
    assert!(
        index.contains("data-varar-standing=\"unreadable\""),
        "{index}"
    );
}
