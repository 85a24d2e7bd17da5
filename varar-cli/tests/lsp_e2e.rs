//! The real `cargo-varar lsp` binary driven over stdio as an editor
//! drives it, on a copy of the bakery sample: initialize, open oaths,
//! edit, save step files, and every feature asked for and checked.

#[path = "common/lsp_client.rs"]
mod lsp_client;

use std::path::Path;

use lsp_client::{Client, bakery, record_run, uri};
use serde_json::{Value, json};
use varar_core::hash::source_hash;

fn utf16_offset(text: &str, needle: &str) -> u32 {
    let byte = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} not in text"));
    text[..byte].encode_utf16().count() as u32
}

/// (line, character) of `needle` in `text`, 0-based, UTF-16.
fn pos(text: &str, needle: &str) -> Value {
    let byte = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} not in text"));
    let line = text[..byte].matches('\n').count();
    let start = text[..byte].rfind('\n').map_or(0, |i| i + 1);
    json!({"line": line, "character": text[start..byte].encode_utf16().count()})
}

fn at(doc: &str, text: &str, needle: &str) -> Value {
    json!({"textDocument": {"uri": doc}, "position": pos(text, needle)})
}

fn codes(diagnostics: &[Value]) -> Vec<String> {
    diagnostics
        .iter()
        .map(|d| d["code"].as_str().unwrap_or("").to_string())
        .collect()
}

fn write(root: &Path, rel: &str, text: &str) {
    std::fs::write(root.join(rel), text).unwrap_or_else(|e| panic!("{rel}: {e}"));
}

fn read(root: &Path, rel: &str) -> String {
    std::fs::read_to_string(root.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn an_editor_session_on_the_bakery_sample() {
    let dir = bakery();
    let root = dir.path();
    let basket_md = read(root, "varar/basket.md");
    // The last run recorded one failure: the change is £3.10, not £3.20.
    let from = utf16_offset(&basket_md, "£3.20");
    std::fs::create_dir_all(root.join(".varar/varar")).unwrap_or_else(|e| panic!("{e}"));
    write(
        root,
        ".varar/varar/basket.md.json",
        &json!({
            "version": 1,
            "oathPath": "varar/basket.md",
            "sourceHash": source_hash(&basket_md),
            "examples": [{
                "name": "I put 1 baguette in the basket. I pay £5.00 and my change is £3.20",
                "status": "failed",
                "lines": [17],
                "failure": {
                    "line": 17, "message": "cell 2: expected £3.20 but was £3.10", "stack": "",
                    "cells": [{"from": from, "to": from + 5, "actual": "£3.10"}],
                    "anchor": {"from": from, "to": from + 5}
                }
            }]
        })
        .to_string(),
    );
    record_run(root, &["varar/basket.md"], "varar/basket.md", "failed");
    let basket = uri(&root.join("varar/basket.md"));
    let basket_rs = uri(&root.join("tests/steps/basket.rs"));
    let shelf_rs = uri(&root.join("tests/steps/shelf.rs"));
    let mod_rs = uri(&root.join("tests/steps/mod.rs"));

    let mut client = Client::start(root);
    let init = client.request(
        "initialize",
        json!({
            "processId": null,
            "rootUri": uri(root),
            "capabilities": {"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}}}
        }),
    );
    assert_eq!(init["serverInfo"]["name"], "cargo varar lsp");
    assert_eq!(init["capabilities"]["textDocumentSync"]["change"], 2);
    let legend = &init["capabilities"]["semanticTokensProvider"]["legend"];
    assert_eq!(
        legend["tokenTypes"],
        json!(["function", "parameter", "namespace"])
    );
    client.notify("initialized", json!({}));
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": basket, "languageId": "markdown", "version": 1, "text": basket_md}}),
    );

    // Diagnostics: the recorded failure, at its cell.
    let d = client.diagnostics(&basket, |d| !d.is_empty());
    assert_eq!(codes(&d), ["example-failed"]);
    assert_eq!(d[0]["range"]["start"], pos(&basket_md, "£3.20"));
    assert!(
        d[0]["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("expected £3.20 but was £3.10"))
    );

    // Semantic tokens: `I put ` (step, stimulus), `2` (parameter) on line 9.
    let tokens = client.request(
        "textDocument/semanticTokens/full",
        json!({"textDocument": {"uri": basket}}),
    );
    let data: Vec<u64> = serde_json::from_value(tokens["data"].clone()).unwrap_or_default();
    assert_eq!(&data[..10], &[8, 0, 6, 0, 1, 0, 6, 1, 1, 1]);

    // Hover and definition from a sentence and from a custom parameter.
    let hover = client.request(
        "textDocument/hover",
        at(&basket, &basket_md, "put 2 croissants in the basket. I put"),
    );
    let markdown = hover["contents"]["value"].as_str().unwrap_or("");
    assert!(
        markdown.starts_with("**stimulus** `I put {int} {word} in the basket`"),
        "{markdown}"
    );
    assert!(
        markdown.contains(
            "fn put(till: &mut Till, quantity: i64, item: String) -> Result<(), TillError>"
        )
    );
    let basket_steps = read(root, "tests/steps/basket.rs");
    let def = client.request(
        "textDocument/definition",
        at(&basket, &basket_md, "put 2 croissants in the basket. I put"),
    );
    assert_eq!(def["uri"], basket_rs);
    assert_eq!(def["range"]["start"], pos(&basket_steps, "put(till"));
    let def = client.request("textDocument/definition", at(&basket, &basket_md, "£5.00"));
    assert_eq!(def["uri"], mod_rs);
    assert_eq!(
        def["range"]["start"],
        pos(&read(root, "tests/steps/mod.rs"), "money(pounds")
    );

    // Find references from the #[stimulus] line: every sentence, in the
    // open oath and in an oath that is not open.
    let refs = client.request(
        "textDocument/references",
        json!({"textDocument": {"uri": basket_rs}, "position": pos(&basket_steps, "#[stimulus(\"I put"),
               "context": {"includeDeclaration": false}}),
    );
    let refs = refs.as_array().cloned().unwrap_or_default();
    assert_eq!(refs.len(), 10, "{refs:?}");
    let serving = uri(&root.join("varar/serving-a-customer.md"));
    assert_eq!(refs.iter().filter(|r| r["uri"] == serving).count(), 1);

    // Completion of a sentence being written.
    let completion = client.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": basket}, "position": {"line": 8, "character": 5}}),
    );
    let labels: Vec<&str> = completion["items"]
        .as_array()
        .map(|items| items.iter().filter_map(|i| i["label"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(labels, ["I put {int} {word} in the basket"]);

    // Edit: a new sentence, and a recorded example reworded so that it no
    // longer matches (drift); the result is stale and disappears.
    let pretzel = pos(&basket_md, "in the basket.\n\n```error");
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": basket, "version": 2}, "contentChanges": [
            {"range": {"start": pretzel, "end": {"line": pretzel["line"], "character": pretzel["character"].as_u64().unwrap_or(0) + 2}}, "text": "into"},
            {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "I juggle 3 oranges.\n\n"}
        ]}),
    );
    let d = client.diagnostics(&basket, |d| d.iter().any(|x| x["code"] == "drift"));
    // The unmatched paragraph keeps its `error` fence: that is reported too.
    assert_eq!(codes(&d), ["error-fence-without-step", "drift"]);
    assert!(
        d[1]["message"]
            .as_str()
            .is_some_and(|m| m.contains("(drift): \"I put 1 pretzel in the basket\""))
    );
    assert_eq!(d[1]["range"]["start"]["line"], 47);
    let edited = {
        let mut text = format!("I juggle 3 oranges.\n\n{basket_md}");
        text = text.replace(
            "I put 1 pretzel in the basket.",
            "I put 1 pretzel into the basket.",
        );
        text
    };

    // Create the step: a stimulus (likelier: no value after a verb of
    // state) and a sensor, for each step file (the sentence is an example
    // of its own, so any state may fit).
    let actions = client.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": basket}, "range": {"start": pos(&edited, "juggle"), "end": pos(&edited, "juggle")},
               "context": {"diagnostics": []}}),
    );
    let titles: Vec<&str> = actions
        .as_array()
        .map(|a| a.iter().filter_map(|x| x["title"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(
        titles,
        [
            "Create stimulus \"I juggle {int} oranges\" in tests/steps/basket.rs",
            "Create sensor \"I juggle {int} oranges\" in tests/steps/basket.rs",
            "Create stimulus \"I juggle {int} oranges\" in tests/steps/shelf.rs",
            "Create sensor \"I juggle {int} oranges\" in tests/steps/shelf.rs"
        ]
    );
    assert_eq!(actions[0]["isPreferred"], true);
    let insert = actions[0]["edit"]["changes"][&basket_rs][0]["newText"]
        .as_str()
        .unwrap_or("")
        .to_string();
    assert!(
        insert.contains("fn i_juggle_oranges(_till: &mut Till, _int: i64)"),
        "{insert}"
    );

    // Save the step file with the new step, as the editor would after the
    // action: the watcher reports it and the sentence is a step now.
    write(
        root,
        "tests/steps/basket.rs",
        &format!("{basket_steps}{insert}"),
    );
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": basket_rs, "type": 2}]}),
    );
    client.diagnostics(&basket, |d| {
        codes(d) == ["error-fence-without-step", "drift"]
    });
    let hover = client.request("textDocument/hover", at(&basket, &edited, "juggle"));
    assert!(
        hover["contents"]["value"]
            .as_str()
            .is_some_and(|m| m.starts_with("**stimulus** `I juggle {int} oranges`")),
        "{hover}"
    );

    // A step file that stops parsing: one diagnostic on it, its steps kept.
    let shelf = read(root, "tests/steps/shelf.rs");
    write(
        root,
        "tests/steps/shelf.rs",
        &format!("{shelf}\nfn broken( {{\n"),
    );
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": shelf_rs, "type": 2}]}),
    );
    let d = client.diagnostics(&shelf_rs, |d| !d.is_empty());
    assert_eq!(codes(&d), ["rust-syntax"]);
    let refs = client.request(
        "textDocument/references",
        json!({"textDocument": {"uri": shelf_rs}, "position": pos(&shelf, "#[stimulus(\"I sell"),
               "context": {"includeDeclaration": true}}),
    );
    // The declaration and the five sentences: shelf.md (2),
    // serving-a-customer.md (1), the-morning-rush.md (2).
    assert_eq!(refs.as_array().map(Vec::len), Some(6), "{refs}");
    // Fixed and saved in an editor that has the server on Rust files too.
    write(root, "tests/steps/shelf.rs", &shelf);
    client.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": shelf_rs}}),
    );
    client.diagnostics(&shelf_rs, <[Value]>::is_empty);

    assert!(client.stop().success());
}

#[test]
fn without_file_watching_a_saved_step_file_is_read_on_the_next_save() {
    let dir = bakery();
    let root = dir.path();
    let text = "# Juggling\n\nI juggle 3 oranges.\n\n```error\nboom\n```\n";
    std::fs::write(root.join("varar/juggling.md"), text).unwrap_or_else(|e| panic!("{e}"));
    let oath = uri(&root.join("varar/juggling.md"));
    let mut client = Client::start(root);
    client.request("initialize", json!({"processId": null, "capabilities": {}}));
    client.notify("initialized", json!({}));
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": oath, "languageId": "markdown", "version": 1, "text": text}}),
    );
    let d = client.diagnostics(&oath, |d| !d.is_empty());
    assert_eq!(codes(&d), ["error-fence-without-step"]);
    // Not a watched file: nothing is re-read until the editor saves.
    let steps = read(root, "tests/steps/shelf.rs");
    write(
        root,
        "tests/steps/shelf.rs",
        &format!("{steps}\n#[stimulus(\"I juggle {{int}} oranges\")]\nfn juggle(n: i64) {{}}\n"),
    );
    client.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": oath}}),
    );
    client.diagnostics(&oath, <[Value]>::is_empty);
    let hover = client.request("textDocument/hover", at(&oath, text, "juggle"));
    assert!(
        hover["contents"]["value"]
            .as_str()
            .is_some_and(|m| m.contains("fn juggle(n: i64)")),
        "{hover}"
    );
    // Markdown the config does not select is left alone.
    let readme = uri(&root.join("README.md"));
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": readme, "languageId": "markdown", "version": 1, "text": "I juggle 3 oranges.\n"}}),
    );
    let tokens = client.request(
        "textDocument/semanticTokens/full",
        json!({"textDocument": {"uri": readme}}),
    );
    assert_eq!(tokens, Value::Null);
    assert!(client.stop().success());
}

const SHARED: &str = "# Shared\n\n## Fill the basket\n\nI put 1 baguette in the basket.\n\n\
[Missing](#nowhere)\n\n## Standalone\n\nI put 1 scone in the basket. Now the basket holds 1 items.\n";
const CHECKOUT: &str = "# Checkout\n\n## Pay\n\nI put 2 croissants in the basket.\n\n\
[Fill the basket](shared.md#fill-the-basket)\n\nNow the basket holds 3 items.\n\n\
## Broken\n\n[Gone](gone.md#anything)\n";
const OTHER: &str =
    "# Other\n\n[Fill the basket](shared.md#fill-the-basket)\n\nNow the basket holds 1 items.\n";

/// The messages of `diagnostics`, first lines only, with their codes.
fn firsts(diagnostics: &[Value]) -> Vec<(String, String)> {
    diagnostics
        .iter()
        .map(|d| {
            let message = d["message"].as_str().unwrap_or("");
            (
                d["code"].as_str().unwrap_or("").to_string(),
                message.lines().next().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[test]
fn reuse_by_link_in_an_editor_session() {
    let dir = bakery();
    let root = dir.path();
    write(root, "varar/shared.md", SHARED);
    write(root, "varar/checkout.md", CHECKOUT);
    write(root, "varar/other.md", OTHER);
    // The last run of checkout.md failed at a step spliced from shared.md.
    let from = utf16_offset(SHARED, "I put 1 baguette");
    std::fs::create_dir_all(root.join(".varar/varar")).unwrap_or_else(|e| panic!("{e}"));
    write(
        root,
        ".varar/varar/checkout.md.json",
        &json!({
            "version": 2,
            "oathPath": "varar/checkout.md",
            "sourceHash": source_hash(CHECKOUT),
            "documents": [{"path": "varar/shared.md", "sourceHash": source_hash(SHARED)}],
            "examples": [{
                "name": "I put 2 croissants in the basket",
                "status": "failed",
                "lines": [5, 9],
                "failure": {
                    "line": 5, "message": "the till is closed", "stack": "",
                    "anchor": {"from": from, "to": from + 30},
                    "docPath": "varar/shared.md"
                }
            }]
        })
        .to_string(),
    );
    record_run(
        root,
        &["varar/checkout.md", "varar/shared.md"],
        "varar/checkout.md",
        "failed",
    );
    let checkout = uri(&root.join("varar/checkout.md"));
    let shared = uri(&root.join("varar/shared.md"));
    let other = uri(&root.join("varar/other.md"));
    let basket_rs = uri(&root.join("tests/steps/basket.rs"));

    let mut client = Client::start(root);
    client.request(
        "initialize",
        json!({
            "processId": null,
            "rootUri": uri(root),
            "capabilities": {"workspace": {
                "didChangeWatchedFiles": {"dynamicRegistration": true},
                "semanticTokens": {"refreshSupport": true}
            }}
        }),
    );
    client.notify("initialized", json!({}));
    // Oaths are watched: an oath another one links to can change on disk.
    let registration = client.wait_for("client/registerCapability", |_| true);
    let globs: Vec<&str> = registration["registrations"][0]["registerOptions"]["watchers"]
        .as_array()
        .map(|w| w.iter().filter_map(|x| x["globPattern"].as_str()).collect())
        .unwrap_or_default();
    assert!(globs.contains(&"**/*.md"), "{globs:?}");

    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": checkout, "languageId": "markdown", "version": 1, "text": CHECKOUT}}),
    );
    // Its own reference problem, with the harness's code and text; not the
    // one of the shared section (it lies in shared.md), not the failure
    // (its docPath names shared.md).
    let d = client.diagnostics(&checkout, |d| !d.is_empty());
    assert_eq!(
        firsts(&d),
        [(
            "reference-not-found".to_string(),
            "Reference to \"Gone\" points at \"varar/gone.md\", which is not an oath in this workspace."
                .to_string()
        )]
    );
    assert_eq!(d[0]["range"]["start"], pos(CHECKOUT, "[Gone]"));
    // shared.md is not open: what checkout's plan finds there is shown on
    // it, once.
    let d = client.diagnostics(&shared, |d| !d.is_empty());
    assert_eq!(codes(&d), ["reference-empty"]);
    assert_eq!(d[0]["range"]["start"], pos(SHARED, "[Missing]"));

    // Tokens: the own sentences and the links; nothing for the spliced
    // sentence (its offsets are shared.md's).
    let tokens = client.request(
        "textDocument/semanticTokens/full",
        json!({"textDocument": {"uri": checkout}}),
    );
    let data: Vec<u32> = serde_json::from_value(tokens["data"].clone()).unwrap_or_default();
    let mut line = 0;
    let mut lines_of = Vec::new();
    for t in data.chunks(5) {
        line += t[0];
        lines_of.push((line, t[3]));
    }
    // Line 4: a stimulus (function/parameter), 6: the link (namespace),
    // 8: the sensor, 12: the broken link.
    let namespace: Vec<u32> = lines_of
        .iter()
        .filter(|(_, kind)| *kind == 2)
        .map(|(l, _)| *l)
        .collect();
    assert_eq!(namespace, [6, 12]);
    let steps: Vec<u32> = lines_of
        .iter()
        .filter(|(_, kind)| *kind != 2)
        .map(|(l, _)| *l)
        .collect();
    assert!(steps.iter().all(|l| *l == 4 || *l == 8), "{lines_of:?}");

    // Definition from the link: the linked heading. Hover: what it splices.
    let def = client.request(
        "textDocument/definition",
        at(&checkout, CHECKOUT, "Fill the basket]"),
    );
    assert_eq!(def["uri"], shared);
    assert_eq!(def["range"]["start"], pos(SHARED, "## Fill the basket"));
    let hover = client.request(
        "textDocument/hover",
        at(&checkout, CHECKOUT, "shared.md#fill"),
    );
    let markdown = hover["contents"]["value"].as_str().unwrap_or("");
    assert!(
        markdown
            .contains("splices 1 step:\n\n- `I put 1 baguette in the basket` (varar/shared.md:5)"),
        "{markdown}"
    );

    // Find references from the step: the sentence of the shared section,
    // once, although two oaths splice it.
    let basket_steps = read(root, "tests/steps/basket.rs");
    let refs = client.request(
        "textDocument/references",
        json!({"textDocument": {"uri": basket_rs}, "position": pos(&basket_steps, "#[stimulus(\"I put"),
               "context": {"includeDeclaration": false}}),
    );
    let in_shared: Vec<Value> = refs
        .as_array()
        .map(|r| {
            r.iter()
                .filter(|x| x["uri"] == shared)
                .map(|x| x["range"]["start"].clone())
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(
        in_shared,
        [
            pos(SHARED, "I put 1 baguette"),
            pos(SHARED, "I put 1 scone")
        ]
    );

    // Open shared.md: the spliced sentence is a step there, the problem of
    // its nested link is shown once (two oaths raise it), and the failure
    // of checkout's last run appears where its docPath says.
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": shared, "languageId": "markdown", "version": 1, "text": SHARED}}),
    );
    let d = client.diagnostics(&shared, |d| d.len() == 2);
    assert_eq!(codes(&d), ["reference-empty", "example-failed"]);
    assert_eq!(d[1]["range"]["start"], pos(SHARED, "I put 1 baguette"));
    assert!(
        d[1]["message"]
            .as_str()
            .is_some_and(|m| m.contains("the till is closed"))
    );
    let tokens = client.request(
        "textDocument/semanticTokens/full",
        json!({"textDocument": {"uri": shared}}),
    );
    assert_eq!(
        tokens["data"].as_array().and_then(|d| d.first()).cloned(),
        Some(json!(4)),
        "the first token is on line 4: {tokens}"
    );

    // Edit the shared section so it no longer matches: the oath linking to
    // it is re-planned (its link now splices nothing), though it did not
    // change, and the editor is told to fetch its tokens again; the
    // result is stale, so the failure goes.
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": other, "languageId": "markdown", "version": 1, "text": OTHER}}),
    );
    let bag = pos(SHARED, "basket.\n\n[Missing]");
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": shared, "version": 2}, "contentChanges": [
            {"range": {"start": bag, "end": {"line": bag["line"], "character": bag["character"].as_u64().unwrap_or(0) + 6}}, "text": "bag"}
        ]}),
    );
    let d = client.diagnostics(&checkout, |d| d.len() == 2);
    assert_eq!(
        firsts(&d)[0],
        (
            "reference-empty".to_string(),
            "Reference to \"Fill the basket\" resolves to \"varar/shared.md#fill-the-basket\", which contributes no steps."
                .to_string()
        )
    );
    let d = client.diagnostics(&other, |d| !d.is_empty());
    assert_eq!(codes(&d), ["reference-empty"]);
    client.wait_for("workspace/semanticTokens/refresh", |_| true);

    // A file appears on disk that the broken link names: the watcher
    // reports it and the link resolves.
    write(
        root,
        "varar/gone.md",
        "# Gone\n\n## Anything\n\nI put 3 buns in the basket.\n",
    );
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&root.join("varar/gone.md")), "type": 1}]}),
    );
    let d = client.diagnostics(&checkout, |d| d.len() == 1);
    assert_eq!(codes(&d), ["reference-empty"]);
    assert!(client.stop().success());
}

/// Issue 21, point 8: the plan of a changed big oath is made off the
/// loop, so a request about another document is answered before the big
/// oath's diagnostics are published, and a request about the big oath
/// that waits for its plan can be cancelled meanwhile. Checked by the
/// order of the server's messages, not by time.
#[test]
fn issue21_a_long_analysis_never_blocks_other_documents_or_cancellation() {
    let dir = bakery();
    let root = dir.path();
    let mut big = String::from("# A long day\n\n");
    let mut customer = 0;
    while big.len() < 2 << 20 {
        customer += 1;
        big.push_str(&format!(
            "## Customer {customer}\n\nI put 2 croissants in the basket, so the total is £2.40.\n\n"
        ));
    }
    write(root, "varar/a-long-day.md", &big);
    let basket_md = read(root, "varar/basket.md");
    let basket = uri(&root.join("varar/basket.md"));
    let long_day = uri(&root.join("varar/a-long-day.md"));

    let mut client = Client::start(root);
    client.request(
        "initialize",
        json!({"processId": null, "rootUri": uri(root), "capabilities": {}}),
    );
    client.notify("initialized", json!({}));
    for (doc, text) in [(&basket, &basket_md), (&long_day, &big)] {
        client.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": doc, "languageId": "markdown", "version": 1, "text": text}}),
        );
    }
    // Answered once the big oath is planned: its diagnostics of the open
    // come before this answer, so whatever follows is about the change.
    let hover = client.request(
        "textDocument/hover",
        at(&long_day, &big, "put 2 croissants"),
    );
    assert!(hover["contents"]["value"].is_string(), "{hover}");

    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": long_day, "version": 2}, "contentChanges": [{
            "range": {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 0}},
            "text": "I juggle 3 oranges.\n\n```error\nno oranges\n```\n\n"
        }]}),
    );
    let small = client.send_request(
        "textDocument/hover",
        at(&basket, &basket_md, "put 2 croissants"),
    );
    let stale = client.send_request(
        "textDocument/hover",
        json!({"textDocument": {"uri": long_day}, "position": {"line": 10, "character": 4}}),
    );
    client.notify("$/cancelRequest", json!({"id": stale}));

    // The server's messages in order, until both answers and the big
    // oath's diagnostics of the change have come.
    let (mut small_at, mut stale_at, mut diagnostics_at) = (None, None, None);
    let (mut stale_answer, mut diagnostics) = (Value::Null, Value::Null);
    let mut small_answer = Value::Null;
    let mut i = 0;
    while small_at.is_none() || stale_at.is_none() || diagnostics_at.is_none() {
        let message = client.next_message();
        if message["id"] == json!(small) && message.get("method").is_none() {
            small_at = Some(i);
            small_answer = message;
        } else if message["id"] == json!(stale) && message.get("method").is_none() {
            stale_at = Some(i);
            stale_answer = message;
        } else if message["method"] == "textDocument/publishDiagnostics"
            && message["params"]["uri"] == long_day
        {
            diagnostics_at = Some(i);
            diagnostics = message["params"]["diagnostics"].clone();
        }
        i += 1;
    }
    let markdown = small_answer["result"]["contents"]["value"]
        .as_str()
        .unwrap_or("");
    assert!(
        markdown.starts_with("**stimulus** `I put {int} {word} in the basket`"),
        "{small_answer}"
    );
    assert!(
        small_at < diagnostics_at,
        "the other document waited for the big oath's plan"
    );
    assert_eq!(
        codes(diagnostics.as_array().map_or(&[][..], Vec::as_slice)),
        ["error-fence-without-step"],
        "the diagnostics of the changed text"
    );
    match stale_answer.get("error") {
        // Cancelled while it waited for the plan: before the plan's
        // diagnostics.
        Some(error) => {
            assert_eq!(error["code"], -32800, "{stale_answer}");
            assert!(stale_at < diagnostics_at);
        }
        // The plan was made before the cancellation came: answered from
        // the changed text, after its diagnostics.
        None => {
            assert!(stale_answer["result"].is_object(), "{stale_answer}");
            assert!(stale_at > diagnostics_at);
        }
    }
    assert!(client.stop().success());
}

/// Issue 34: a key `varar.config.json` writes twice is a warning on that
/// file, at the key, until the config is mended.
#[test]
fn issue34_a_config_writing_a_key_twice_has_a_warning_at_the_key() {
    let dir = bakery();
    let root = dir.path();
    let config = "{\n  \"docs\": {\"include\": [\"varar/*.md\"]},\n  \"docs\": {\"include\": [\"varar/**/*.md\"]}\n}\n";
    write(root, "varar.config.json", config);
    let config_uri = uri(&root.join("varar.config.json"));
    let basket = uri(&root.join("varar/basket.md"));
    let mut client = Client::start(root);
    client.request(
        "initialize",
        json!({
            "processId": null,
            "rootUri": uri(root),
            "capabilities": {"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}}}
        }),
    );
    client.notify("initialized", json!({}));
    let basket_md = read(root, "varar/basket.md");
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": basket, "languageId": "markdown", "version": 1, "text": basket_md}}),
    );
    let d = client.diagnostics(&config_uri, |d| !d.is_empty());
    assert_eq!(codes(&d), ["duplicate-key"]);
    assert_eq!(d[0]["severity"], 2, "a warning: {d:?}");
    assert_eq!(
        d[0]["range"],
        json!({"start": {"line": 2, "character": 2}, "end": {"line": 2, "character": 8}})
    );
    assert_eq!(
        d[0]["message"],
        "the key \"docs\" is written twice (first at line 2, column 3); the last value is used, \
         as JSON.parse does"
    );
    write(
        root,
        "varar.config.json",
        "{\n  \"docs\": {\"include\": [\"varar/**/*.md\"]}\n}\n",
    );
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": config_uri, "type": 2}]}),
    );
    client.diagnostics(&config_uri, <[Value]>::is_empty);
    assert!(client.stop().success());
}
