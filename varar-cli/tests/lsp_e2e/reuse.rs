//! Reuse by link (spec 70) in an editor session: the language server
//! driven over stdio on oaths that link to a shared section.

use serde_json::{Value, json};
use varar_core::hash::source_hash;

use super::lsp_client::{Client, bakery, record_run, uri};
use super::{at, codes, pos, read, utf16_offset, write};

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
    let d = client.diagnostics(&checkout, |d| {
        !codes(d).iter().any(|c| c == "reference-not-found")
    });
    // What it splices is a stimulus alone: the example checks nothing, a
    // hint (issue 37).
    assert_eq!(codes(&d), ["reference-empty", "checks-nothing"]);
    assert!(client.stop().success());
}
