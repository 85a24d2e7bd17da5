//! Hostile input to the real `cargo-varar lsp` binary over stdio (issue
//! 34): a test item that is an option of the test binary, an oath under a
//! directory named like one, and a rename to a text with characters a
//! reader cannot see. Each was accepted before.

#[path = "common/lsp_client.rs"]
mod lsp_client;

use std::path::Path;
use std::time::Duration;

use lsp_client::{Client, bakery, buildable_bakery, cargo_env, uri};
use serde_json::{Value, json};

/// A `cargo test` from the editor may build the bakery first.
const BUILD: Duration = Duration::from_secs(900);

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

fn initialize(client: &mut Client, root: &Path) {
    client.request(
        "initialize",
        json!({"processId": null, "rootUri": uri(root), "capabilities": {}}),
    );
    client.notify("initialized", json!({}));
}

fn open(client: &mut Client, uri: &str, text: &str) {
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}}),
    );
}

/// The lenses of a document: (title, command, arguments).
fn lenses(client: &mut Client, uri: &str) -> Vec<(String, String, Value)> {
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
                l["command"]["title"].as_str().unwrap_or("").to_string(),
                l["command"]["command"].as_str().unwrap_or("").to_string(),
                l["command"]["arguments"].clone(),
            )
        })
        .collect()
}

/// The names of the entries of a directory, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| {
            e.unwrap_or_else(|e| panic!("{e}"))
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

/// `varar.run` with the item `--logfile=<path>` wrote that file and ran
/// the whole suite ("nothing ran"); now it is refused, naming the item,
/// and nothing starts.
#[test]
fn varar_run_with_an_option_for_its_item_is_refused_and_writes_no_log_file() {
    let dir = buildable_bakery();
    let root = dir.path();
    let elsewhere = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let log = elsewhere.path().join("injected.log");
    let basket = uri(&root.join("varar/basket.md"));
    let mut client = Client::start_with(root, |c| {
        cargo_env(c);
    });
    initialize(&mut client, root);
    open(&mut client, &basket, &read(root, "varar/basket.md"));
    let item = format!("--logfile={}", log.display());
    // An item of another oath is not one of this oath's either.
    let other = "varar/shelf.md::The shelf::I sell 5 buns from the shelf. 7 buns are left";
    for item in [item.as_str(), other] {
        let id = client.send_request(
            "workspace/executeCommand",
            json!({"command": "varar.run", "arguments": [{"uri": basket, "item": item}]}),
        );
        let answer = client.answer_within(id, BUILD);
        let message = answer["error"]["message"].as_str().unwrap_or("");
        assert!(
            message.starts_with(&format!(
                "\"{item}\" is not an item of varar/basket.md as the server plans it now"
            )),
            "{answer}"
        );
    }
    assert!(client.stop().success());
    assert!(!log.exists(), "the test binary wrote {}", log.display());
    assert!(!root.join(".varar").exists(), "a run was started");
}

/// An oath under a directory named `--logfile=varar`: its `▶ Run` lens ran
/// the whole suite and wrote the log file `varar/a.md::Shop::…`; now it
/// runs exactly that example, and `▶ Run oath` exactly the oath's.
#[test]
fn a_run_lens_under_a_directory_named_like_an_option_runs_only_its_items() {
    let dir = buildable_bakery();
    let root = dir.path();
    std::fs::write(
        root.join("varar.config.json"),
        r#"{"docs": {"include": ["varar/**/*.md", "--logfile=varar/**/*.md"]}}"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    std::fs::create_dir(root.join("--logfile=varar")).unwrap_or_else(|e| panic!("{e}"));
    let text = "# Shop\n\nI put 1 bun in the basket.\n\n---\n\nI put 2 buns in the basket.\n";
    std::fs::write(root.join("--logfile=varar/a.md"), text).unwrap_or_else(|e| panic!("{e}"));
    let before = listing(&root.join("varar"));
    let oath = uri(&root.join("--logfile=varar/a.md"));
    let mut client = Client::start_with(root, |c| {
        cargo_env(c);
    });
    initialize(&mut client, root);
    open(&mut client, &oath, text);
    let found = lenses(&mut client, &oath);
    let titles: Vec<&str> = found.iter().map(|l| l.0.as_str()).collect();
    assert_eq!(titles, ["▶ Run oath", "Report", "▶ Run", "▶ Run"]);
    assert_eq!(
        found[2].2[0]["item"],
        "--logfile=varar/a.md::Shop::I put 1 bun in the basket"
    );
    let run = |client: &mut Client, lens: &(String, String, Value)| {
        let id = client.send_request(
            "workspace/executeCommand",
            json!({"command": lens.1, "arguments": lens.2}),
        );
        client.answer_within(id, BUILD)
    };
    let answer = run(&mut client, &found[2]);
    assert_eq!(
        (&answer["result"]["status"], &answer["result"]["passed"]),
        (&json!("passed"), &json!(1)),
        "{answer}"
    );
    assert_eq!(answer["result"]["failed"], 0, "{answer}");
    let answer = run(&mut client, &found[0]);
    assert_eq!(
        (&answer["result"]["status"], &answer["result"]["passed"]),
        (&json!("passed"), &json!(2)),
        "{answer}"
    );
    assert!(client.stop().success());
    assert_eq!(
        listing(&root.join("varar")),
        before,
        "a log file was written"
    );
    // Only the oath's results: no other oath ran.
    assert!(root.join(".varar/--logfile=varar/a.md.json").is_file());
    assert!(!root.join(".varar/varar").exists());
}

/// A new step text with NUL or a right-to-left override was written into
/// every oath; now the rename is refused, naming the character.
#[test]
fn a_rename_to_a_text_with_nul_or_a_right_to_left_override_is_refused_by_code_point() {
    let dir = bakery();
    let root = dir.path();
    let shelf_md = read(root, "varar/shelf.md");
    let shelf = uri(&root.join("varar/shelf.md"));
    let mut client = Client::start(root);
    initialize(&mut client, root);
    open(&mut client, &shelf, &shelf_md);
    let at = json!({"textDocument": {"uri": shelf}, "position": pos(&shelf_md, "sell 5 buns")});
    for (new, code_point) in [
        ("I sell {int} {word} from the\0 shelf", "U+0000"),
        ("I sell {int} {word} from the \u{202E}flehs", "U+202E"),
    ] {
        let mut params = at.clone();
        params["newName"] = json!(new);
        let id = client.send_request("textDocument/rename", params);
        let answer = client.answer(id);
        let message = answer["error"]["message"].as_str().unwrap_or("");
        assert!(
            message.starts_with("cannot rename: `I sell {int} {word} from the")
                && message.contains(&format!("` holds {code_point} at character")),
            "{answer}"
        );
        assert!(!message.contains(['\0', '\u{202E}']), "{message:?}");
    }
    assert!(client.stop().success());
}
