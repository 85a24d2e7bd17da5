//! `cli::*`: the `varar-conformance` binary's command line, run for real:
//! its output for a bundle is the golden, and bad input fails with a message
//! that names the file.

use std::path::PathBuf;
use std::process::{Command, Output};

use libtest_mimic::{Failed, Trial};

use crate::Corpus;

fn run(args: &[&str]) -> Result<Output, Failed> {
    Command::new(env!("CARGO_BIN_EXE_varar-conformance"))
        .args(args)
        .output()
        .map_err(|e| Failed::from(format!("cannot run varar-conformance: {e}")))
}

fn expect(out: &Output, code: i32, stderr_has: &[&str]) -> Result<(), Failed> {
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.code() != Some(code) {
        return Err(format!(
            "exit {:?}, expected {code}; stderr: {stderr}",
            out.status.code()
        )
        .into());
    }
    for needle in stderr_has {
        if !stderr.contains(needle) {
            return Err(format!("stderr lacks {needle:?}: {stderr}").into());
        }
    }
    Ok(())
}

fn scratch(name: &str, bytes: &[u8]) -> Result<PathBuf, Failed> {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("conformance-cli");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let path = dir.join(name);
    std::fs::write(&path, bytes).map_err(|e| e.to_string())?;
    Ok(path)
}

/// The command-line trials.
pub fn trials(corpus: &Corpus) -> Vec<Trial> {
    let first = corpus.bundles.first().cloned();
    vec![
        Trial::test("cli::doc_prints_the_golden_layout", move || {
            let Some(bundle) = first else {
                return Err("the corpus has no bundles".into());
            };
            let example = bundle.example();
            let out = run(&["doc", &example.to_string_lossy()])?;
            expect(&out, 0, &[])?;
            // Keys sorted, 2-space indent, trailing LF: the goldens' layout.
            let golden = std::fs::read(bundle.golden("doc")).map_err(|e| e.to_string())?;
            if out.stdout != golden {
                return Err("output is not byte-identical to golden/doc.json".into());
            }
            Ok(())
        }),
        Trial::test("cli::doc_of_any_markdown_file", || {
            let path = scratch(
                "any.md",
                "\u{feff}Title\r\n===\r\n\r\n> a\r\nb |\r\n".as_bytes(),
            )?;
            let out = run(&["doc", &path.to_string_lossy()])?;
            expect(&out, 0, &[])?;
            let doc: serde_json::Value =
                serde_json::from_slice(&out.stdout).map_err(|e| e.to_string())?;
            if doc["path"] != "any.md" || doc["examples"][0]["scopeStack"][0] != "Title" {
                return Err(format!("unexpected doc: {doc}").into());
            }
            Ok(())
        }),
        Trial::test("cli::unreadable_file_fails_naming_it", || {
            let out = run(&["doc", "no/such/oath.md"])?;
            expect(&out, 1, &["cannot read `no/such/oath.md`"])
        }),
        Trial::test("cli::non_utf8_file_fails_naming_it", || {
            let path = scratch("latin1.md", b"# Caf\xe9\n")?;
            let out = run(&["doc", &path.to_string_lossy()])?;
            expect(&out, 1, &["latin1.md", "invalid UTF-8 at byte 5"])
        }),
        Trial::test("cli::usage_errors_exit_2", || {
            expect(&run(&[])?, 2, &["usage: varar-conformance"])?;
            expect(&run(&["doc"])?, 2, &["usage: varar-conformance"])?;
            expect(&run(&["dok", "x.md"])?, 2, &["unknown artifact `dok`"])
        }),
    ]
}
