//! Issue 21, through the real binary: the tools around the run refuse what
//! they cannot read the same way, never write outside their output, and
//! keep what they print well-formed (one test per point, named after it).

mod common;

use common::*;
use serde_json::Value;

// ---- point 4: a directory named like a result file -------------------------

#[test]
fn issue21_merge_and_diff_refuse_a_directory_named_like_a_result_as_gate_does() {
    let p = Project::new();
    result(&p, "old", "varar/basket.md", BASKET, PASSED_BASKET);
    result(&p, ".varar", "varar/shelf.md", SHELF, PASSED_SHELF);
    std::fs::create_dir_all(p.root().join(".varar/varar/basket.md.json"))
        .unwrap_or_else(|e| panic!("{e}"));
    let gate = p.run(&["gate", "--format", "json"]);
    assert_eq!(code(&gate), Some(2), "{}", text(&gate.stdout));
    let gate: Value = serde_json::from_slice(&gate.stdout).unwrap_or_default();
    let refused = |json: &Value| {
        json["errors"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|e| e["path"] == ".varar/varar/basket.md.json")
            .map(|e| (e["code"].clone(), e["message"].clone()))
    };
    let expected = refused(&gate);
    assert!(expected.is_some(), "{gate}");
    let merge = p.run(&["merge", "out", ".varar"]);
    let merge_text = text(&merge.stdout) + &text(&merge.stderr);
    assert_eq!(code(&merge), Some(2), "{merge_text}");
    assert!(!p.root().join("out").exists(), "merge wrote OUT");
    let diff = p.run(&["diff", "--format", "json", "old", ".varar"]);
    assert_eq!(code(&diff), Some(2), "{}", text(&diff.stdout));
    let diff: Value = serde_json::from_slice(&diff.stdout).unwrap_or_default();
    assert_eq!(refused(&diff), expected, "{diff}");
    let plain = p.run(&["merge", "out", ".varar"]);
    let (code_name, message) = expected.unwrap_or_default();
    let shown = format!(
        "error[{}]: {}",
        code_name.as_str().unwrap_or_default(),
        message.as_str().unwrap_or_default()
    );
    assert!(
        text(&plain.stderr).contains(&shown),
        "{}",
        text(&plain.stderr)
    );
}

// ---- point 6: diff escapes example names -------------------------------------

#[test]
fn issue21_diff_escapes_example_names_as_markdown_text() {
    let p = Project::new();
    let name = "![y](http://evil.invalid/y.png) <script>alert(1)</script> *x*";
    let examples = |status: &str| {
        let failure = if status == "failed" {
            r#", "failure": {"line": 3, "message": "a <b> `c`", "stack": ""}"#
        } else {
            ""
        };
        format!(r#"[{{"name": "{name}", "status": "{status}", "lines": [3]{failure}}}]"#)
    };
    result(&p, "old", "varar/basket.md", BASKET, &examples("passed"));
    result(&p, "new", "varar/basket.md", BASKET, &examples("failed"));
    let out = p.run(&["diff", "old", "new"]);
    assert_eq!(code(&out), Some(1), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "### varar: 1 regressed, 0 fixed, 0 added, 0 removed, 0 still failing\n\n\
         #### `varar/basket.md`\n\n\
         - **regressed**, line 3: \\!\\[y\\](http\\://evil.invalid/y.png) \
         \\<script\\>alert(1)\\</script\\> \\*x\\*: `` a <b> `c` ``\n"
    );
}

// ---- point 3: merge into an existing OUT -----------------------------------

#[test]
fn issue21_merge_replaces_a_previous_merge_output_whole_and_refuses_any_other_directory() {
    let p = Project::new();
    result(&p, "s1", "varar/basket.md", BASKET, PASSED_BASKET);
    let merge = |out: &str| p.run(&["merge", out, "s1"]);
    // New.
    let out = merge("out");
    assert_eq!(code(&out), Some(0), "{}", text(&out.stderr));
    assert!(p.root().join("out/.varar-merge").is_file());
    // A previous merge output, with a stale failing result no shard has:
    // replaced whole, so the stale file is gone.
    result(
        &p,
        "out",
        "varar/shelf.md",
        SHELF,
        r#"[{"name": "I stock 3 buns", "status": "failed", "lines": [3],
            "failure": {"line": 3, "message": "stale", "stack": ""}}]"#,
    );
    let out = merge("out");
    assert_eq!(code(&out), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        files_under(&p.root().join("out")),
        [".gitignore", ".varar-merge", "varar/basket.md.json"].map(std::path::PathBuf::from)
    );
    let siblings: Vec<_> = std::fs::read_dir(p.root())
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".varar-merge"))
        .collect();
    assert!(siblings.is_empty(), "left behind: {siblings:?}");
    // Empty.
    std::fs::create_dir_all(p.root().join("empty")).unwrap_or_else(|e| panic!("{e}"));
    let out = merge("empty");
    assert_eq!(code(&out), Some(0), "{}", text(&out.stderr));
    assert!(p.root().join("empty/varar/basket.md.json").is_file());
    // Anything else: refused, untouched.
    result(&p, "busy", "varar/shelf.md", SHELF, PASSED_SHELF);
    let before = files_under(&p.root().join("busy"));
    let out = merge("busy");
    assert_eq!(code(&out), Some(2));
    assert!(
        text(&out.stderr).contains(
            "error[output_error]: `busy` is not empty and is not a previous merge output (it \
             has no .varar-merge file)"
        ),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(files_under(&p.root().join("busy")), before);
}

// ---- point 2: report never writes through a symlink inside --out ------------

#[cfg(unix)]
#[test]
fn issue21_report_refuses_a_symlink_inside_its_output_directory_and_writes_nothing() {
    let p = Project::new();
    let out = p.run(&["report", "--out", "site"]);
    assert_eq!(code(&out), Some(0), "{}", text(&out.stderr));
    let pages = p.root().join("site/oaths/varar");
    assert!(pages.join("shelf.md.html").is_file());
    // The pages' directory becomes a link to a directory outside the site.
    let elsewhere = p.root().join("elsewhere");
    std::fs::rename(&pages, &elsewhere).unwrap_or_else(|e| panic!("{e}"));
    std::os::unix::fs::symlink(&elsewhere, &pages).unwrap_or_else(|e| panic!("{e}"));
    std::fs::remove_file(p.root().join("varar/shelf.md")).unwrap_or_else(|e| panic!("{e}"));
    p.write(
        "varar/basket.md",
        "# The basket, edited\n\nI add 2. The total is 2.\n",
    );
    let before = (
        snapshot(&elsewhere),
        snapshot(&p.root().join("site")),
        std::fs::read(p.root().join("site/index.html")).unwrap_or_default(),
    );
    let out = p.run(&["report", "--out", "site"]);
    assert_eq!(code(&out), Some(2), "{}", text(&out.stdout));
    assert!(
        text(&out.stderr)
            .contains("site/oaths/varar` is a symbolic link inside the report directory"),
        "{}",
        text(&out.stderr)
    );
    let after = (
        snapshot(&elsewhere),
        snapshot(&p.root().join("site")),
        std::fs::read(p.root().join("site/index.html")).unwrap_or_default(),
    );
    assert!(before == after, "the report wrote or removed something");
    assert!(elsewhere.join("shelf.md.html").is_file());
}

// ---- point 9: a result of an unknown version is absent ----------------------

#[test]
fn issue21_a_result_of_a_newer_version_is_absent_in_every_consumer() {
    let p = Project::new();
    result(&p, ".varar", "varar/shelf.md", SHELF, PASSED_SHELF);
    let newer = r#"{"version": 3, "oathPath": "varar/basket.md", "future": {"x": 1}}"#;
    p.write(".varar/varar/basket.md.json", newer);
    let why = "`.varar/varar/basket.md.json` was written by a newer results format (version 3), \
               which this cargo varar does not read: treated as absent";
    // report: not run, with the reason; exit 0.
    let out = p.run(&["report", "--out", "site"]);
    assert_eq!(code(&out), Some(0), "{}", text(&out.stderr));
    assert!(p.read("site/oaths/varar/basket.md.html").contains(why));
    // gate: missing_result, with the reason.
    let out = p.run(&["gate", "--format", "json"]);
    let gate: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    let missing = gate["errors"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|e| e["oathPath"] == "varar/basket.md")
        .cloned()
        .unwrap_or_default();
    assert_eq!(missing["code"], "missing_result", "{gate}");
    assert!(
        missing["message"]
            .as_str()
            .unwrap_or_default()
            .contains(why),
        "{missing}"
    );
    // junit: left out, with a warning.
    let out = p.run(&["junit"]);
    assert_eq!(code(&out), Some(0), "{}", text(&out.stderr));
    assert!(!text(&out.stdout).contains("varar/basket.md"));
    assert!(text(&out.stdout).contains("varar/shelf.md"));
    assert!(text(&out.stderr).contains(why), "{}", text(&out.stderr));
    // diff and merge: left out, with a warning.
    result(&p, "old", "varar/shelf.md", SHELF, PASSED_SHELF);
    let out = p.run(&["diff", "old", ".varar"]);
    assert_eq!(code(&out), Some(0), "{}", text(&out.stdout));
    assert!(text(&out.stderr).contains(why), "{}", text(&out.stderr));
    let out = p.run(&["merge", "merged", ".varar"]);
    assert_eq!(code(&out), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains(why), "{}", text(&out.stderr));
    assert!(!p.root().join("merged/varar/basket.md.json").exists());
    // A version that is no whole number above the known ones stays malformed.
    p.write(".varar/varar/basket.md.json", r#"{"version": 2.5}"#);
    let out = p.run(&["junit"]);
    assert_eq!(code(&out), Some(2));
    assert!(
        text(&out.stderr).contains("error[invalid_result]"),
        "{}",
        text(&out.stderr)
    );
}

// ---- point 7: the language server on malformed input ------------------------

fn frame(body: &str) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body.as_bytes());
    out
}

/// Run `cargo varar lsp` on initialize, `bad`, shutdown and exit.
fn lsp_on(bad: &[u8]) -> std::process::Output {
    use std::io::Write;
    let mut input = frame(
        r#"{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}"#,
    );
    input.extend(frame(
        r#"{"jsonrpc": "2.0", "method": "initialized", "params": {}}"#,
    ));
    input.extend_from_slice(bad);
    input.extend(frame(
        r#"{"jsonrpc": "2.0", "id": 2, "method": "shutdown"}"#,
    ));
    input.extend(frame(r#"{"jsonrpc": "2.0", "method": "exit"}"#));
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_cargo-varar"))
        .args(["lsp"])
        .current_dir(dir.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    if let Some(mut stdin) = child.stdin.take() {
        // The server may stop reading early: a broken pipe is its answer.
        let _ = stdin.write_all(&input);
    }
    child.wait_with_output().unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn issue21_lsp_answers_malformed_messages_and_says_why_it_stops_on_broken_frames() {
    // Delimited but no message: answered, and the server goes on to answer
    // `shutdown` (id 2) and exit 0.
    for (body, code_value) in [("{not json", -32700), ("[1, 2]", -32600), ("7", -32600)] {
        let out = lsp_on(&frame(body));
        let stdout = text(&out.stdout);
        assert_eq!(code(&out), Some(0), "{body}: {}", text(&out.stderr));
        assert!(
            stdout.contains(&format!(r#""error":{{"code":{code_value},"#))
                && stdout.contains(r#""id":null"#),
            "{body}: {stdout}"
        );
        assert!(
            stdout.contains(r#""id":2,"result":null"#),
            "{body}: {stdout}"
        );
    }
    // Not delimited: the reason on stderr, exit 2.
    for (bad, reason) in [
        (&b"Content-Type: x\r\n\r\n{}"[..], "has no Content-Length"),
        (
            &b"Content-Length: 99999999999999\r\n\r\n{}"[..],
            "is not a length this server accepts",
        ),
        (
            &b"Content-Length 2\r\n\r\n{}"[..],
            "malformed message header",
        ),
    ] {
        let out = lsp_on(bad);
        assert_eq!(code(&out), Some(2), "{reason}: {}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains("the language server stopped: ")
                && text(&out.stderr).contains(reason),
            "{}",
            text(&out.stderr)
        );
    }
}

// ---- point 1: a link paragraph belongs to its example ------------------------

#[test]
fn issue21_report_draws_a_link_paragraph_as_part_of_its_example_on_a_green_run() {
    // The shape of the bakery's `serving-a-customer.md`, with the lock and
    // the results the harness writes for it (the link recorded in the
    // lock, spec 70 §70.5; only the own step's line in the result).
    let p = Project::new();
    let shop = "# Opening the shop\n\n## Stocking the shelf\n\nI stock 3 buns.\n";
    let serving = "# Serving\n\nThe assistant sells.\n\n[Stocking the shelf](shop.md#stocking-the-shelf)\n\nI add 2. The total is 3.\n";
    p.write("varar/shop.md", shop);
    p.write("varar/serving.md", serving);
    let hash = varar_core::hash::source_hash;
    p.write(
        "varar.lock.json",
        &serde_json::json!({"version": 2, "oaths": {
            "varar/serving.md": {"sourceHash": hash(serving), "examples": [
                {"name": "[Stocking the shelf](shop.md#stocking-the-shelf)", "line": 5},
                {"name": "I add 2. The total is 3", "line": 7}]},
            "varar/shop.md": {"sourceHash": hash(shop), "examples": []},
            "varar/basket.md": {"sourceHash": hash(BASKET), "examples": [
                {"name": "I add 2. The total is 3", "line": 3},
                {"name": "I add 1. The total is 1", "line": 5}]},
            "varar/shelf.md": {"sourceHash": hash(SHELF), "examples": [
                {"name": "I stock 3 buns", "line": 3}]}
        }})
        .to_string(),
    );
    all_passed(&p);
    p.write(
        ".varar/varar/serving.md.json",
        &serde_json::json!({"version": 2, "oathPath": "varar/serving.md",
            "sourceHash": hash(serving),
            "documents": [{"path": "varar/shop.md", "sourceHash": hash(shop)}],
            "examples": [{"name": "I add 2. The total is 3", "status": "passed", "lines": [7]}]})
        .to_string(),
    );
    // The run that wrote them, which names each text by SHA-256 (issue 34).
    let mut items = passed_items();
    items.push(item(
        "varar/serving.md::Serving::I add 2. The total is 3",
        "varar/serving.md",
        7,
        1,
        Some("passed"),
        None,
    ));
    let process = Process {
        documents: &[
            "varar/basket.md",
            "varar/serving.md",
            "varar/shelf.md",
            "varar/shop.md",
        ],
        ..Process::of("run-1")
    };
    write_record(&p, ".varar", &process, &items);
    let out = p.run(&["report", "--out", "site"]);
    assert_eq!(code(&out), Some(0), "{}", text(&out.stderr));
    let index = p.read("site/index.html");
    assert!(index.contains("not run</dt><dd>0"), "{index}");
    let page = p.read("site/oaths/varar/serving.md.html");
    assert!(page.contains("0 not run"), "{page}");
    assert!(
        page.contains("<p id=\"L5\" class=\"varar-example varar-passed\""),
        "{page}"
    );
    // The spliced steps, read from the linked section, expand under it.
    assert!(
        page.contains("<summary>the steps it splices, from <a href=\"../../oaths/varar/shop.md.html#stocking-the-shelf\">"),
        "{page}"
    );
    assert!(page.contains("<li>I stock 3 buns.</li>"), "{page}");
    // junit and diff see one example, as the report now does.
    let junit = p.run(&["junit"]);
    let xml = text(&junit.stdout);
    assert_eq!(xml.matches("<testcase").count(), 4, "{xml}");
    assert!(!xml.contains("Stocking the shelf"), "{xml}");
}
