//! Issue 37, points 2 and 3, through the real binary on a copy of the
//! bakery: what planning drops (spec 20 §20.7) and the examples that check
//! nothing are warnings of `cargo varar check`, in text and in JSON (valid
//! against the committed schema), each at its line with its fix, and
//! change no exit code; the language server shows the same notices at
//! their ranges, a quirk as a warning and an example that checks nothing as
//! a hint. The sample as it ships has none.

#[path = "common/check_run.rs"]
mod check_run;
#[path = "common/lsp_client.rs"]
mod lsp_client;

use std::path::Path;

use check_run::{check, check_json, text};
use lsp_client::{Client, bakery, uri};
use serde_json::json;

/// Every kind of notice, in the bakery's own words: a setup sentence in
/// front of a header-bound sentence, a header-bound table with an `error`
/// fence, one without rows, a table introduced by prose but handed to the
/// step before it, and an example of stimuli alone.
const QUIRKS: &str = "\n## Quirks\n\n\
In the morning the baker puts 12 buns on the shelf. Each row is one day: the opening stock, how many were \
baked, how many were sold and the closing stock.\n\n\
| opening | baked | sold | closing |\n| - | - | - | - |\n| 1 | 40 | 35 | 6 |\n\n\
---\n\n\
Each row is one day: the opening stock, how many were baked, how many were sold and the \
closing stock.\n\n\
| opening | baked | sold | closing |\n| - | - | - | - |\n| 0 | 1 | 2 | 3 |\n\n\
```error\nsold more than there was\n```\n\n\
---\n\n\
Each row is one day: the opening stock, how many were baked, how many were sold and the \
closing stock.\n\n\
| opening | baked | sold | closing |\n| - | - | - | - |\n\n\
---\n\n\
I sell 5 buns from the shelf. Here is the menu:\n\n\
| item | price |\n| - | - |\n| bun | £0.80 |\n";

const CODES: [&str; 5] = [
    "dropped_steps",
    "ignored_error_fence",
    "header_bound_without_rows",
    "table_attached_elsewhere",
    "checks_nothing",
];

/// 1-based (line, column in UTF-16 units) of the byte `byte` of `text`.
fn place(text: &str, byte: usize) -> (u64, u64) {
    let line = text[..byte].matches('\n').count() as u64 + 1;
    let start = text[..byte].rfind('\n').map_or(0, |n| n + 1);
    (line, text[start..byte].encode_utf16().count() as u64 + 1)
}

/// The shelf with the quirks appended, and where each notice must be:
/// (code, line, column).
fn quirky_shelf(root: &Path) -> (String, Vec<(&'static str, u64, u64)>) {
    let path = root.join("varar/shelf.md");
    let shelf = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
    let text = format!("{shelf}{QUIRKS}");
    std::fs::write(&path, &text).unwrap_or_else(|e| panic!("{e}"));
    // Searched for in the quirks only: the shelf has an `error` fence too.
    let at = |code, byte: usize| {
        let (line, column) = place(QUIRKS, byte);
        (code, line + shelf.lines().count() as u64, column)
    };
    let find = |needle: &str| {
        QUIRKS
            .find(needle)
            .unwrap_or_else(|| panic!("{needle:?} is not in the quirks"))
    };
    let fence = find("```error");
    // The table after the fence: the one without rows.
    let empty = fence + find_after(&QUIRKS[fence..], "| opening");
    let wanted = vec![
        at("dropped_steps", find("the baker puts 12 buns")),
        at("ignored_error_fence", fence),
        at("header_bound_without_rows", empty),
        at("checks_nothing", find("I sell 5 buns")),
        at("table_attached_elsewhere", find("Here is the menu:")),
    ];
    (text, wanted)
}

fn find_after(text: &str, needle: &str) -> usize {
    text.find(needle)
        .unwrap_or_else(|| panic!("{needle:?} is not in {text:?}"))
}

#[test]
fn issue37_the_sample_has_no_notice() {
    let dir = bakery();
    let json = check_json(dir.path());
    let codes: Vec<&str> = json["problems"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p["code"].as_str())
        .filter(|c| CODES.contains(c))
        .collect();
    assert_eq!(codes, Vec::<&str>::new(), "{json:#}");
}

#[test]
fn issue37_check_warns_of_each_notice_at_its_line_with_its_fix() {
    let dir = bakery();
    let root = dir.path();
    let before = check(root, &[]).status.code();
    let (_, wanted) = quirky_shelf(root);

    let json = check_json(root);
    assert_eq!(json["status"], "clean", "{json:#}");
    let found: Vec<(&str, u64, u64)> = json["problems"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|p| p["code"].as_str().is_some_and(|c| CODES.contains(&c)))
        .map(|p| {
            assert_eq!(p["severity"], "warning", "{p:#}");
            assert_eq!(p["oathPath"], "varar/shelf.md", "{p:#}");
            assert!(p["fix"].as_str().is_some_and(|f| !f.is_empty()), "{p:#}");
            (
                p["code"].as_str().unwrap_or(""),
                p["line"].as_u64().unwrap_or(0),
                p["column"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    assert_eq!(found, wanted, "{json:#}");

    let out = check(root, &[]);
    assert_eq!(out.status.code(), before, "a notice changes no exit code");
    let stdout = text(&out.stdout);
    let line = wanted[0].1;
    let first = format!(
        "varar/shelf.md:{line}:16: warning[dropped_steps]: \"the baker puts 12 buns on the \
         shelf\" never runs: the table below is header-bound to \"the opening stock, how many \
         were baked, how many were sold and the closing stock\""
    );
    assert!(stdout.contains(&first), "{stdout}");
    assert!(
        stdout.contains("    = fix: make it part of the step each row runs"),
        "{stdout}"
    );
    // Its sentence is not also "matched by no step": the step matches it,
    // and the notice says why it does not run.
    assert!(
        !stdout.contains(&format!("varar/shelf.md:{line}:1: warning[unmatched_step]")),
        "{stdout}"
    );
    assert!(
        stdout.contains("warning[checks_nothing]: the example \"I sell 5 buns from the shelf"),
        "{stdout}"
    );
}

#[test]
fn issue37_the_editor_shows_each_notice_at_its_range() {
    let dir = bakery();
    let root = dir.path();
    let (text, wanted) = quirky_shelf(root);
    let shelf = uri(&root.join("varar/shelf.md"));
    let mut client = Client::start(root);
    client.request(
        "initialize",
        json!({"processId": null, "rootUri": uri(root), "capabilities": {}}),
    );
    client.notify("initialized", json!({}));
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": shelf, "languageId": "markdown", "version": 1, "text": text}}),
    );
    let diagnostics =
        client.diagnostics(&shelf, |d| d.iter().any(|d| d["code"] == "checks-nothing"));
    let found: Vec<(String, u64, u64, u64)> = diagnostics
        .iter()
        .filter(|d| d["source"] == "varar")
        .map(|d| {
            let message = d["message"].as_str().unwrap_or("");
            assert!(message.contains("\nfix: "), "{d:#}");
            (
                d["code"].as_str().unwrap_or("").to_owned(),
                d["severity"].as_u64().unwrap_or(0),
                d["range"]["start"]["line"].as_u64().unwrap_or(0) + 1,
                d["range"]["start"]["character"].as_u64().unwrap_or(0) + 1,
            )
        })
        .collect();
    // LSP severities: 2 is a warning, 4 a hint.
    let expected: Vec<(String, u64, u64, u64)> = wanted
        .iter()
        .map(|&(code, line, column)| {
            let severity = if code == "checks_nothing" { 4 } else { 2 };
            (code.replace('_', "-"), severity, line, column)
        })
        .collect();
    assert_eq!(found, expected, "{diagnostics:#?}");
    client.stop();
}
