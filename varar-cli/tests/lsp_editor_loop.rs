//! The editor loop through the real `cargo-varar lsp` binary over stdio:
//! code lenses that run `cargo test` (a real one, in a copy of the bakery
//! that builds) and refresh the diagnostics from the new `.varar/`, with
//! progress, cancellation and build errors; the report lens; the usages of
//! the steps above their functions; renaming a step across oaths; both
//! "create the step" actions; and nothing claimed on Rust files but what
//! the server does there.

#[path = "common/lsp_client.rs"]
mod lsp_client;

use std::path::Path;
use std::time::Duration;

use lsp_client::{Client, bakery, buildable_bakery, cargo_env, uri};
use serde_json::{Value, json};

/// (line, character) of `needle` in `text`, 0-based, UTF-16.
fn pos(text: &str, needle: &str) -> Value {
    let byte = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} not in text"));
    let line = text[..byte].matches('\n').count();
    let start = text[..byte].rfind('\n').map_or(0, |i| i + 1);
    json!({"line": line, "character": text[start..byte].encode_utf16().count()})
}

fn read(root: &Path, rel: &str) -> String {
    std::fs::read_to_string(root.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn write(root: &Path, rel: &str, text: &str) {
    std::fs::write(root.join(rel), text).unwrap_or_else(|e| panic!("{rel}: {e}"));
}

fn codes(diagnostics: &[Value]) -> Vec<String> {
    diagnostics
        .iter()
        .map(|d| d["code"].as_str().unwrap_or("").to_string())
        .collect()
}

/// A `cargo test` from the editor may build the bakery first.
const BUILD: Duration = Duration::from_secs(900);

fn initialize(client: &mut Client, root: &Path, capabilities: Value) {
    client.request(
        "initialize",
        json!({"processId": null, "rootUri": uri(root), "capabilities": capabilities}),
    );
    client.notify("initialized", json!({}));
}

fn open(client: &mut Client, uri: &str, language: &str, text: &str) {
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": language, "version": 1, "text": text}}),
    );
}

/// The lenses of a document: (0-based line, title, command, arguments).
fn lenses(client: &mut Client, uri: &str) -> Vec<(u64, String, String, Value)> {
    let lenses = client.request(
        "textDocument/codeLens",
        json!({"textDocument": {"uri": uri}}),
    );
    lenses
        .as_array()
        .into_iter()
        .flatten()
        .map(|l| {
            (
                l["range"]["start"]["line"].as_u64().unwrap_or(0),
                l["command"]["title"].as_str().unwrap_or("").to_string(),
                l["command"]["command"].as_str().unwrap_or("").to_string(),
                l["command"]["arguments"].clone(),
            )
        })
        .collect()
}

/// Run the lens's command; returns the request id.
fn run(client: &mut Client, lens: &(u64, String, String, Value)) -> i64 {
    client.send_request(
        "workspace/executeCommand",
        json!({"command": lens.2, "arguments": lens.3}),
    )
}

#[test]
fn run_from_the_code_lens_refreshes_the_diagnostics_from_a_real_cargo_test() {
    let dir = buildable_bakery();
    let root = dir.path();
    // The step that counts the basket's items counts one too many: the
    // counting example fails.
    let text = read(root, "varar/basket.md");
    let steps = read(root, "tests/steps/basket.rs");
    let wrong = steps.replace("till.item_count()", "till.item_count() + 1");
    assert_ne!(wrong, steps);
    write(root, "tests/steps/basket.rs", &wrong);
    let basket = uri(&root.join("varar/basket.md"));
    let shelf = uri(&root.join("varar/shelf.md"));
    let mut client = Client::start_with(root, |c| {
        cargo_env(c);
    });
    initialize(
        &mut client,
        root,
        json!({"window": {"workDoneProgress": true, "showDocument": {"support": true}}}),
    );
    open(&mut client, &basket, "markdown", &text);
    open(
        &mut client,
        &shelf,
        "markdown",
        &read(root, "varar/shelf.md"),
    );

    let found = lenses(&mut client, &basket);
    let titles: Vec<(u64, &str)> = found.iter().map(|l| (l.0, l.1.as_str())).collect();
    assert_eq!(
        titles,
        [
            (0, "▶ Run oath"),
            (0, "Report"),
            (8, "▶ Run"),
            (12, "▶ Run"),
            (16, "▶ Run"),
            (20, "▶ Run"),
            (31, "▶ Run"),
            (45, "▶ Run")
        ]
    );
    let counting = found[2].clone();
    assert_eq!(
        counting.3[0]["item"],
        "varar/basket.md::The basket::Counting::I put 2 croissants in the basket. I put 1 baguette in the basket. Now the basket holds 3 items"
    );

    // The failing example runs; meanwhile another document is answered.
    let id = run(&mut client, &counting);
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": shelf}, "position": pos(&read(root, "varar/shelf.md"), "sell 5")}),
    );
    assert!(
        hover["contents"]["value"]
            .as_str()
            .is_some_and(|m| m.contains("I sell"))
    );
    assert!(!client.answered(id), "the hover waited for the run");
    let answer = client.answer_within(id, BUILD);
    assert_eq!(answer["result"]["status"], "failed", "{answer}");
    assert_eq!(
        (&answer["result"]["passed"], &answer["result"]["failed"]),
        (&json!(0), &json!(1))
    );
    let progress = client.received("$/progress");
    let kinds: Vec<&str> = progress
        .iter()
        .filter_map(|p| p["value"]["kind"].as_str())
        .collect();
    assert_eq!(kinds.first(), Some(&"begin"), "{progress:?}");
    assert_eq!(kinds.last(), Some(&"end"), "{progress:?}");
    assert!(
        progress
            .last()
            .is_some_and(|p| p["value"]["message"] == "1 failed, 0 passed"),
        "{progress:?}"
    );
    let d = client.diagnostics(&basket, |d| !d.is_empty());
    assert_eq!(codes(&d), ["example-failed"]);
    assert_eq!(d[0]["range"]["start"], pos(&text, "3 items"));

    // The step fixed: the result still describes the oath, so the
    // failure stays until the example runs again and passes.
    write(root, "tests/steps/basket.rs", &steps);
    let id = run(&mut client, &counting);
    let answer = client.answer_within(id, BUILD);
    assert_eq!(answer["result"]["status"], "passed", "{answer}");
    client.diagnostics(&basket, <[Value]>::is_empty);
    let fixed = text.clone();

    // An unsaved change is not run: cargo would test the file on disk.
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": basket, "version": 3}, "contentChanges": [{"text": format!("{fixed}\n")}]}),
    );
    let id = run(&mut client, &counting);
    let answer = client.answer(id);
    assert!(
        answer["error"]["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("save varar/basket.md first")),
        "{answer}"
    );
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": basket, "version": 4}, "contentChanges": [{"text": fixed}]}),
    );

    // A build error is shown, not swallowed.
    write(
        root,
        "tests/steps/basket.rs",
        &format!("{steps}\nfn broken() -> i64 {{\n    \"not a number\"\n}}\n"),
    );
    let oath = found[0].clone();
    let id = run(&mut client, &oath);
    let answer = client.answer_within(id, BUILD);
    assert_eq!(answer["result"]["status"], "did-not-run", "{answer}");
    let shown = client.wait_for("window/showMessage", |m| {
        m["type"] == 1
            && m["message"]
                .as_str()
                .is_some_and(|t| t.contains("did not run"))
    });
    assert!(
        shown["message"]
            .as_str()
            .is_some_and(|m| m.contains("tests/steps/basket.rs") && m.contains("error[E0308]")),
        "{shown}"
    );
    write(root, "tests/steps/basket.rs", &steps);

    // Cancelled: the answer says so.
    let id = run(&mut client, &oath);
    client.notify("$/cancelRequest", json!({"id": id}));
    let answer = client.answer_within(id, BUILD);
    assert_eq!(answer["error"]["code"], -32800, "{answer}");

    // The report lens writes the report and asks the editor to open the
    // oath's page.
    let report = found[1].clone();
    let id = run(&mut client, &report);
    let shown = client.wait_for("window/showDocument", |_| true);
    let page = root.join("target/varar/report/oaths/varar/basket.md.html");
    assert_eq!(shown["uri"], uri(&page));
    assert_eq!(shown["external"], true);
    assert!(page.is_file());
    assert_eq!(client.answer(id)["result"]["page"], uri(&page));
    assert!(client.stop().success());
}

#[test]
fn usages_above_the_steps_rename_across_oaths_and_both_create_actions() {
    let dir = bakery();
    let root = dir.path();
    let shelf_md = read(root, "varar/shelf.md");
    let shelf_rs = read(root, "tests/steps/shelf.rs");
    let steps = uri(&root.join("tests/steps/shelf.rs"));
    let shelf = uri(&root.join("varar/shelf.md"));
    let mut client = Client::start(root);
    initialize(
        &mut client,
        root,
        json!({"workspace": {
            "didChangeWatchedFiles": {"dynamicRegistration": true},
            "codeLens": {"refreshSupport": true},
            "workspaceEdit": {"documentChanges": true}
        }}),
    );
    open(&mut client, &steps, "rust", &shelf_rs);
    let titles: Vec<(u64, String, String)> = lenses(&mut client, &steps)
        .into_iter()
        .map(|l| (l.0, l.1, l.2))
        .collect();
    let line = |needle: &str| pos(&shelf_rs, needle)["line"].as_u64().unwrap_or(0);
    let refs = "varar.showReferences".to_string();
    assert_eq!(
        titles,
        [
            (
                line("#[stimulus(\"the baker"),
                "3 uses in 2 oaths".to_string(),
                refs.clone()
            ),
            (
                line("#[stimulus(\"I sell"),
                "5 uses in 3 oaths".to_string(),
                refs.clone()
            ),
            (
                line("#[sensor(\"{int}"),
                "3 uses in 3 oaths".to_string(),
                refs.clone()
            ),
            (
                line("#[sensor(\"the opening"),
                "1 use in 1 oath".to_string(),
                refs.clone()
            ),
        ]
    );
    // Above the parameter type's function: its values in the sentences.
    let module = uri(&root.join("tests/steps/mod.rs"));
    let module_rs = read(root, "tests/steps/mod.rs");
    open(&mut client, &module, "rust", &module_rs);
    let money: Vec<(u64, String, usize)> = lenses(&mut client, &module)
        .into_iter()
        .map(|l| (l.0, l.1, l.3[2].as_array().map_or(0, Vec::len)))
        .collect();
    assert_eq!(
        money,
        [(
            pos(&module_rs, "#[varar::parameter(")["line"]
                .as_u64()
                .unwrap_or(0),
            "5 uses in 2 oaths".to_string(),
            5
        )]
    );

    // The lens's command lists the sentences.
    let sell = lenses(&mut client, &steps)[1].clone();
    assert_eq!(sell.3[2].as_array().map(Vec::len), Some(5));
    let listed = client.request(
        "workspace/executeCommand",
        json!({"command": sell.2, "arguments": sell.3}),
    );
    assert_eq!(listed.as_array().map(Vec::len), Some(5));

    // Nothing else is claimed on a Rust file.
    let at = json!({"textDocument": {"uri": steps}, "position": pos(&shelf_rs, "sell(shelf")});
    for method in [
        "textDocument/hover",
        "textDocument/definition",
        "textDocument/completion",
        "textDocument/prepareRename",
    ] {
        assert_eq!(client.request(method, at.clone()), Value::Null, "{method}");
    }
    assert_eq!(
        client.request(
            "textDocument/semanticTokens/full",
            json!({"textDocument": {"uri": steps}})
        ),
        Value::Null
    );

    // A step no oath uses: a hint at its expression.
    let unused = format!(
        "{shelf_rs}\n#[stimulus(\"the baker bakes {{int}} {{word}}\")]\nfn bakes(_shelf: &mut Shelf, _n: i64, _item: String) {{}}\n"
    );
    write(root, "tests/steps/shelf.rs", &unused);
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": steps, "type": 2}]}),
    );
    let d = client.diagnostics(&steps, |d| !d.is_empty());
    assert_eq!(codes(&d), ["unused-step"]);
    assert_eq!(d[0]["severity"], 4);
    assert_eq!(d[0]["tags"], json!([1]));
    assert_eq!(d[0]["range"]["start"], pos(&unused, "\"the baker bakes"));
    client.wait_for("workspace/codeLens/refresh", |_| true);
    write(root, "tests/steps/shelf.rs", &shelf_rs);
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": steps, "type": 2}]}),
    );
    client.diagnostics(&steps, <[Value]>::is_empty);

    // Rename from a sentence: the attribute and every sentence, in three
    // oaths, each with its values.
    open(&mut client, &shelf, "markdown", &shelf_md);
    let at = json!({"textDocument": {"uri": shelf}, "position": pos(&shelf_md, "sell 5 buns")});
    let prepared = client.request("textDocument/prepareRename", at.clone());
    assert_eq!(
        prepared["placeholder"],
        "I sell {int} {word} from the shelf"
    );
    assert_eq!(prepared["range"]["start"], pos(&shelf_md, "I sell 5 buns"));
    let mut params = at.clone();
    params["newName"] = json!("I sell {int} {word} off the shelf");
    let edit = client.request("textDocument/rename", params);
    let changes = edit["documentChanges"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let by_file: Vec<(String, Value, Vec<String>)> = changes
        .iter()
        .map(|c| {
            let uri = c["textDocument"]["uri"].as_str().unwrap_or("").to_string();
            let file = uri.rsplit('/').next().unwrap_or("").to_string();
            let texts = c["edits"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|e| e["newText"].as_str().map(str::to_string))
                .collect();
            (file, c["textDocument"]["version"].clone(), texts)
        })
        .collect();
    assert_eq!(
        by_file,
        [
            (
                "shelf.rs".to_string(),
                Value::Null,
                vec!["\"I sell {int} {word} off the shelf\"".to_string()]
            ),
            (
                "serving-a-customer.md".to_string(),
                Value::Null,
                vec!["I sell 2 croissants off the shelf".to_string()]
            ),
            (
                "shelf.md".to_string(),
                json!(1),
                vec![
                    "I sell 5 buns off the shelf".to_string(),
                    "I sell 4 scones off the shelf".to_string()
                ]
            ),
            (
                "the-morning-rush.md".to_string(),
                Value::Null,
                vec![
                    "I sell 4 croissants off the shelf".to_string(),
                    "I sell 6 croissants off the shelf".to_string()
                ]
            ),
        ]
    );
    // Refused from the attribute string, with the reason.
    let id = client.send_request(
        "textDocument/rename",
        json!({"textDocument": {"uri": steps}, "position": pos(&shelf_rs, "sell {int}"),
               "newName": "I sell {int} from the shelf"}),
    );
    let refused = client.answer(id);
    assert!(
        refused["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("the parameters would change from {int} {word} to {int}")),
        "{refused}"
    );

    // Create the step: both kinds, the likelier first.
    let bake = uri(&root.join("varar/bake.md"));
    let text = "# Baking\n\nI bake 3 loaves.\n\nThe oven is 220 degrees.\n";
    write(root, "varar/bake.md", text);
    open(&mut client, &bake, "markdown", text);
    let titles = |client: &mut Client, needle: &str| -> Vec<String> {
        let actions = client.request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": bake}, "range": {"start": pos(text, needle), "end": pos(text, needle)},
                   "context": {"diagnostics": []}}),
        );
        actions
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|a| a["title"].as_str().map(str::to_string))
            .collect()
    };
    let found = titles(&mut client, "bake 3");
    assert_eq!(
        found[..2],
        [
            "Create stimulus \"I bake {int} loaves\" in tests/steps/basket.rs",
            "Create sensor \"I bake {int} loaves\" in tests/steps/basket.rs"
        ]
    );
    let found = titles(&mut client, "oven");
    assert_eq!(
        found[0],
        "Create sensor \"The oven is {int} degrees\" in tests/steps/basket.rs"
    );
    assert_eq!(found.len(), 4);
    assert!(client.stop().success());
}
