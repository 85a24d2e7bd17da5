//! `cargo varar check` through the real binary on a copy of the bakery:
//! text and JSON (validated against the committed schema), exit codes 0, 1
//! and 2, and `--schema`.

#[path = "common/check_run.rs"]
mod check_run;
#[path = "common/lsp_client.rs"]
mod lsp_client;

use std::path::Path;

use check_run::{check, check_json, text};

fn write(root: &Path, rel: &str, text: &str) {
    std::fs::write(root.join(rel), text).unwrap_or_else(|e| panic!("{rel}: {e}"));
}

fn read(root: &Path, rel: &str) -> String {
    std::fs::read_to_string(root.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn issue37_the_bakery_is_check_clean_then_drift_and_a_broken_link_exit_1() {
    let dir = lsp_client::bakery();
    let root = dir.path();
    // Clean, without a warning (issue 37): the sample teaches nothing a
    // user would have to ignore.
    let out = check(root, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert_eq!(
        text(&out.stdout),
        "check: clean: 5 oaths against 11 steps\n",
        "{}",
        text(&out.stderr)
    );
    assert_eq!(text(&out.stderr), "");
    let json = check_json(root);
    assert_eq!(json["status"], "clean");
    assert_eq!(json["problems"], serde_json::json!([]), "{json:#}");

    let shelf = read(root, "varar/shelf.md").replace(
        "In the morning the baker puts 3 scones on the shelf. I sell 4 scones from the shelf.",
        "In the morning the baker stacks 3 scones. I sel 4 scones.",
    );
    write(root, "varar/shelf.md", &shelf);
    let rush = read(root, "varar/the-morning-rush.md").replace("#stocking-the-shelf", "#nowhere");
    write(root, "varar/the-morning-rush.md", &rush);
    let json = check_json(root);
    assert_eq!(json["status"], "problems");
    let items: Vec<&str> = json["problems"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p["item"].as_str())
        .collect();
    assert_eq!(
        items,
        [
            "varar/shelf.md::varar:drift:14",
            "varar/shelf.md::varar:diagnostic:error-fence-without-step:16",
            "varar/the-morning-rush.md::varar:drift:5",
            "varar/the-morning-rush.md::varar:diagnostic:reference-empty:5",
        ]
    );
    let out = check(root, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains("    = cargo test fails `varar/shelf.md::varar:drift:14`\n"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn unusable_inputs_exit_2_in_the_format_asked_for() {
    let dir = lsp_client::bakery();
    let root = dir.path();
    // A step file that does not parse: its steps are unknown.
    let steps = read(root, "tests/steps/shelf.rs");
    write(
        root,
        "tests/steps/shelf.rs",
        &format!("{steps}\nfn broken( {{\n"),
    );
    let json = check_json(root);
    assert_eq!(json["status"], "error");
    assert_eq!(json["errors"][0]["code"], "input_error");
    assert_eq!(json["errors"][0]["path"], "tests/steps/shelf.rs");
    let out = check(root, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stdout).contains("error[input_error]: tests/steps/shelf.rs:"),
        "{}",
        text(&out.stdout)
    );
    write(root, "tests/steps/shelf.rs", &steps);
    // A lock that is not one.
    write(root, "varar.lock.json", "{");
    let json = check_json(root);
    assert_eq!(json["errors"][0]["path"], "varar.lock.json");
    // No config at all.
    std::fs::remove_file(root.join("varar.config.json")).unwrap_or_else(|e| panic!("{e}"));
    let json = check_json(root);
    assert_eq!(json["errors"][0]["code"], "invalid_config");
    assert_eq!(json["oaths"], 0);
}

#[test]
fn schema_prints_the_committed_schema() {
    let dir = lsp_client::bakery();
    let out = check(dir.path(), &["--schema"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        out.stdout,
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/check.schema.json"))
            .unwrap_or_default()
    );
}
