//! The real `cargo-varar lsp` binary driven over stdio as an editor
//! drives it, on a copy of the bakery sample: initialize, open oaths,
//! edit, save step files, and every feature asked for and checked.

#[path = "../common/lsp_client.rs"]
mod lsp_client;
mod reuse;

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
    let d = client.diagnostics(&basket, |d| {
        codes(d).starts_with(&["error-fence-without-step".to_string(), "drift".to_string()])
    });
    // The sentence is an example now, of a stimulus alone: it checks
    // nothing, a hint (issue 37).
    assert_eq!(
        codes(&d),
        ["error-fence-without-step", "drift", "checks-nothing"]
    );
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
