//! A real editor: Neovim (Debian's `neovim`, 0.7.2 on bookworm; `.ci/run`
//! installs it) runs headless with the minimal configuration of
//! `tests/nvim/init.lua`, which attaches `cargo varar lsp` to Markdown
//! buffers. It opens an oath of the bakery sample, jumps to definition
//! from a sentence, and the cursor must land on the step function's name.
//! Without Neovim this test fails: it never skips.

#[path = "common/lsp_client.rs"]
mod lsp_client;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
fn neovim_jumps_from_a_sentence_to_its_step_function() {
    let dir = lsp_client::bakery();
    let root = dir.path();
    let scripts = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/nvim");
    let state = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let result = state.path().join("result.json");
    let mut child = Command::new("nvim")
        .args(["--headless", "-i", "NONE", "-n", "-u"])
        .arg(scripts.join("init.lua"))
        .arg("varar/basket.md")
        .arg("-c")
        .arg(format!(
            "luafile {}",
            scripts.join("definition.lua").display()
        ))
        .current_dir(root)
        .env("VARAR_LSP_BIN", env!("CARGO_BIN_EXE_cargo-varar"))
        .env("VARAR_NVIM_RESULT", &result)
        .env("VARAR_NVIM_SENTENCE", "I put 2 croissants in the basket")
        .env("XDG_CONFIG_HOME", state.path().join("config"))
        .env("XDG_DATA_HOME", state.path().join("data"))
        .env("XDG_STATE_HOME", state.path().join("state"))
        .env("XDG_CACHE_HOME", state.path().join("cache"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!(
                "Neovim cannot run ({e}): this test needs `nvim` on the PATH \
                 (Debian: apt-get install neovim; .ci/run installs it)"
            )
        });
    let deadline = Instant::now() + Duration::from_secs(120);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap_or_else(|e| panic!("{e}")) {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("Neovim did not finish in 120 s");
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
