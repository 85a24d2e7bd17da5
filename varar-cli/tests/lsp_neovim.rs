//! A real editor: Neovim (Debian's `neovim`, 0.7.2 on bookworm; `.ci/run`
//! installs it) runs headless with the minimal configuration of
//! `tests/nvim/init.lua`, which attaches `cargo varar lsp` to Markdown
//! and Rust buffers. On the bakery sample it jumps to definition from a
//! sentence, and the cursor must land on the step function's name; and it
//! goes through the editor loop (`tests/nvim/editor_loop.lua`): ▶ Run on
//! a failing and then a passing example (a real `cargo test`), the report
//! lens, the uses above a step, a rename across oaths, both "create the
//! step" actions. Without Neovim these tests fail: they never skip.

#[path = "common/lsp_client.rs"]
mod lsp_client;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Run Neovim headless in `root` on `file` with `script`; the JSON the
/// script wrote to `$VARAR_NVIM_RESULT`.
fn neovim(
    root: &Path,
    file: &str,
    script: &str,
    env: &[(&str, &std::ffi::OsStr)],
    configure: impl FnOnce(&mut Command),
    limit: Duration,
) -> serde_json::Value {
    let scripts = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/nvim");
    let state = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let result = state.path().join("result.json");
    let mut command = Command::new("nvim");
    configure(&mut command);
    command
        .args(["--headless", "-i", "NONE", "-n", "-u"])
        .arg(scripts.join("init.lua"))
        .arg(file)
        .arg("-c")
        .arg(format!("luafile {}", scripts.join(script).display()))
        .current_dir(root)
        .env("VARAR_LSP_BIN", env!("CARGO_BIN_EXE_cargo-varar"))
        .env("VARAR_NVIM_RESULT", &result)
        .env("XDG_CONFIG_HOME", state.path().join("config"))
        .env("XDG_DATA_HOME", state.path().join("data"))
        .env("XDG_STATE_HOME", state.path().join("state"))
        .env("XDG_CACHE_HOME", state.path().join("cache"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    for (k, v) in env {
        command.env(k, v);
    }
    let mut child = command.spawn().unwrap_or_else(|e| {
        panic!(
            "Neovim cannot run ({e}): this test needs `nvim` on the PATH \
             (Debian: apt-get install neovim; .ci/run installs it)"
        )
    });
    let deadline = Instant::now() + limit;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap_or_else(|e| panic!("{e}")) {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("Neovim did not finish in {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let stderr = child
        .stderr
        .take()
        .map(|mut e| {
            let mut s = String::new();
            let _ = std::io::Read::read_to_string(&mut e, &mut s);
            s
        })
        .unwrap_or_default();
    assert!(status.success(), "nvim exited with {status}: {stderr}");
    let text = std::fs::read_to_string(&result)
        .unwrap_or_else(|e| panic!("Neovim wrote no result ({e}); stderr: {stderr}"));
    let answer: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert!(answer.get("error").is_none(), "{answer}");
    answer
}

#[test]
fn neovim_runs_renames_and_creates_steps_from_the_editor() {
    let dir = lsp_client::buildable_bakery();
    let root = dir.path();
    let steps = std::fs::read_to_string(root.join("tests/steps/basket.rs"))
        .unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(
        root.join("tests/steps/basket.rs"),
        steps.replace("till.item_count()", "till.item_count() + 1"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(root.join("varar/bake.md"), "# Baking\n\nI bake 3 loaves.\n")
        .unwrap_or_else(|e| panic!("{e}"));
    // The browser the report lens opens: a script that writes down what.
    let browser = root.join("browser.sh");
    let browsed = root.join("browsed.txt");
    std::fs::write(
        &browser,
        "#!/bin/sh\necho \"$1\" > \"$VARAR_NVIM_BROWSED\"\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let _ = Command::new("chmod").arg("+x").arg(&browser).status();
    let answer = neovim(
        root,
        "varar/basket.md",
        "editor_loop.lua",
        &[
            ("BROWSER", browser.as_os_str()),
            ("VARAR_NVIM_BROWSED", browsed.as_os_str()),
        ],
        |c| {
            lsp_client::cargo_env(c);
        },
        Duration::from_secs(1800),
    );
    let titles: Vec<&str> = answer["oath_lenses"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|l| l["title"].as_str())
        .collect();
    assert_eq!(
        titles.iter().filter(|t| **t == "▶ Run").count(),
        6,
        "{answer}"
    );
    assert!(titles.contains(&"▶ Run oath") && titles.contains(&"Report"));
    // The failure at its cell (0-based line 8, the `3` of "3 items").
    assert_eq!(answer["failure"]["line"], 8, "{answer}");
    assert!(
        answer["failure"]["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("expected 3 but was 4")),
        "{answer}"
    );
    assert_eq!(answer["still_failing"], true, "{answer}");
    assert_eq!(answer["after_fix"], serde_json::json!([]));
    assert!(
        answer["browsed"]
            .as_str()
            .is_some_and(|b| b.ends_with("target/varar/report/oaths/varar/basket.md.html")),
        "{answer}"
    );
    let uses: Vec<&str> = answer["step_lenses"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|l| l["title"].as_str())
        .collect();
    assert_eq!(
        uses,
        [
            "3 uses in 2 oaths",
            "5 uses in 3 oaths",
            "3 uses in 3 oaths",
            "1 use in 1 oath"
        ]
    );
    assert_eq!(answer["listed"], 5);
    let renamed = &answer["renamed"];
    for (file, count) in [
        ("varar/shelf.md", 2),
        ("varar/the-morning-rush.md", 2),
        ("varar/serving-a-customer.md", 1),
    ] {
        let text = renamed[file].as_str().unwrap_or("");
        let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/bakery");
        let before = std::fs::read_to_string(sample.join(file)).unwrap_or_default();
        assert_eq!(
            text.matches("off the shelf").count() - before.matches("off the shelf").count(),
            count,
            "{file}: {text}"
        );
        assert!(!text.contains("from the shelf"), "{file}: {text}");
        let on_disk = std::fs::read_to_string(root.join(file)).unwrap_or_default();
        assert_eq!(on_disk.trim_end(), text.trim_end(), "{file} saved");
    }
    assert!(
        renamed["tests/steps/shelf.rs"]
            .as_str()
            .is_some_and(|t| t.contains("#[stimulus(\"I sell {int} {word} off the shelf\")]"))
    );
    let actions: Vec<&str> = answer["actions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|a| a.as_str())
        .collect();
    assert_eq!(
        actions[..2],
        [
            "Create stimulus \"I bake {int} loaves\" in tests/steps/basket.rs",
            "Create sensor \"I bake {int} loaves\" in tests/steps/basket.rs"
        ],
        "{answer}"
    );
}

#[test]
fn neovim_jumps_from_a_sentence_to_its_step_function() {
    let dir = lsp_client::bakery();
    let root = dir.path();
    let answer = neovim(
        root,
        "varar/basket.md",
        "definition.lua",
        &[(
            "VARAR_NVIM_SENTENCE",
            std::ffi::OsStr::new("I put 2 croissants in the basket"),
        )],
        |_| {},
        Duration::from_secs(120),
    );
    let steps = std::fs::read_to_string(root.join("tests/steps/basket.rs"))
        .unwrap_or_else(|e| panic!("{e}"));
    let (line, column) = steps
        .lines()
        .enumerate()
        .find_map(|(i, l)| l.find("fn put(").map(|c| (i + 1, c + 3)))
        .unwrap_or_else(|| panic!("no fn put"));
    assert_eq!(
        answer["file"],
        root.join("tests/steps/basket.rs").display().to_string()
    );
    assert_eq!(answer["line"], line, "{answer}");
    assert_eq!(answer["col"], column, "{answer}");
    assert!(
        answer["text"]
            .as_str()
            .is_some_and(|t| t.starts_with("fn put(till: &mut Till")),
        "{answer}"
    );
}
