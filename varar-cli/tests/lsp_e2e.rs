//! The real `cargo-varar lsp` binary driven over stdio as an editor
//! drives it, on a copy of the bakery sample: initialize, open oaths,
//! edit, save step files, and every feature asked for and checked.

#[path = "common/lsp_client.rs"]
mod lsp_client;

use std::path::Path;

use lsp_client::{Client, bakery, uri};
use serde_json::{Value, json};
use varar_runner::internal::hash::source_hash;

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

    // Create the step: one action per step file.
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
            "Create stimulus \"I juggle {int} oranges\" in tests/steps/shelf.rs"
        ]
    );
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
