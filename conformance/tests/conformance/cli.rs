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
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
    }
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
            expect(&run(&["dok", "x.md"])?, 2, &["unknown artifact `dok`"])?;
            expect(
                &run(&["doc", "a.md", "b.md"])?,
                2,
                &["`doc` takes one path"],
            )?;
            expect(
                &run(&["plan", "a.md", "--rot", "x"])?,
                2,
                &["unknown option `--rot`"],
            )?;
            expect(
                &run(&["plan", "a.md", "--root"])?,
                2,
                &["`--root` needs a value"],
            )
        }),
        Trial::test("cli::plan_of_an_oath_among_other_documents", || {
            let case = reuse_case("reuse-plan")?;
            let checkout = plan_json(&case, "varar/checkout.md")?;
            let example = &checkout["examples"][0];
            let docs: Vec<Option<&str>> = example["steps"]
                .as_array()
                .map(|s| s.iter().map(|s| s["docPath"].as_str()).collect())
                .unwrap_or_default();
            if example["name"] != "The count is 2"
                || docs != [Some("varar/shared.md"), Some("varar/shared.md"), None]
            {
                return Err(format!("unexpected plan: {checkout}").into());
            }
            // The section checkout.md links is consumed in shared.md.
            let shared = plan_json(&case, "varar/shared.md")?;
            let names: Vec<&str> = shared["examples"]
                .as_array()
                .map(|e| e.iter().filter_map(|e| e["name"].as_str()).collect())
                .unwrap_or_default();
            if names != ["I increment. The count is 1"] {
                return Err(format!("unexpected plan of shared.md: {shared}").into());
            }
            Ok(())
        }),
        Trial::test("cli::trace_of_an_oath_among_other_documents", || {
            let case = reuse_case("reuse-trace")?;
            let args = workspace_args("trace", &case, "varar/checkout.md");
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let out = run(&args)?;
            expect(&out, 0, &[])?;
            let trace: serde_json::Value =
                serde_json::from_slice(&out.stdout).map_err(|e| e.to_string())?;
            let outcomes: Vec<&str> = trace["examples"][0]["steps"]
                .as_array()
                .map(|s| s.iter().filter_map(|s| s["outcome"].as_str()).collect())
                .unwrap_or_default();
            if trace["examples"][0]["outcome"] != "pass" || outcomes != ["pass", "pass", "pass"] {
                return Err(format!("unexpected trace: {trace}").into());
            }
            Ok(())
        }),
        Trial::test("cli::a_document_outside_the_root_fails_naming_it", || {
            let case = reuse_case("reuse-outside")?;
            let oath = case.join("varar/checkout.md");
            let root = case.join("varar");
            let out = run(&[
                "plan",
                &oath.to_string_lossy(),
                "--steps",
                "02-context-isolation",
                "--root",
                &root.to_string_lossy(),
                &case.join("outside.md").to_string_lossy(),
            ])?;
            expect(&out, 1, &["outside.md", "is not under the root"])
        }),
    ]
}

/// A project of two oaths with the steps of bundle 02: `checkout.md` links
/// a section of `shared.md`.
fn reuse_case(name: &str) -> Result<PathBuf, Failed> {
    let checkout = "# Checkout\n\n## Count\n\n[Twice](shared.md#twice)\n\nThe count is 2.\n";
    let shared = "# Shared\n\n## Twice\n\nI increment. I increment.\n\n## Alone\n\n\
        I increment. The count is 1.\n";
    // One directory per trial: trials run in parallel.
    let case = scratch(&format!("{name}/varar/checkout.md"), checkout.as_bytes())?
        .ancestors()
        .nth(2)
        .map(PathBuf::from)
        .ok_or("no case directory")?;
    scratch(&format!("{name}/varar/shared.md"), shared.as_bytes())?;
    scratch(&format!("{name}/outside.md"), b"# Outside\n")?;
    Ok(case)
}

/// `<kind> <oath> --steps 02-context-isolation --root <case> <other oath>`.
fn workspace_args(kind: &str, case: &std::path::Path, oath: &str) -> Vec<String> {
    let other = if oath.ends_with("checkout.md") {
        "varar/shared.md"
    } else {
        "varar/checkout.md"
    };
    [
        kind.to_owned(),
        case.join(oath).to_string_lossy().into_owned(),
        "--steps".into(),
        "02-context-isolation".into(),
        "--root".into(),
        case.to_string_lossy().into_owned(),
        case.join(other).to_string_lossy().into_owned(),
    ]
    .to_vec()
}

fn plan_json(case: &std::path::Path, oath: &str) -> Result<serde_json::Value, Failed> {
    let args = workspace_args("plan", case, oath);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = run(&args)?;
    expect(&out, 0, &[])?;
    serde_json::from_slice(&out.stdout).map_err(|e| e.to_string().into())
}
