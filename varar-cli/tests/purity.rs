//! The report, the gate, the JUnit conversion, the merge, the diff and the
//! language server's features are pure functions (DEVELOPERS.md
//! "functional core, imperative shell"): nothing in them touches the file
//! system, the environment, processes, the clock or prints. Reading and writing live in `commands/`,
//! `project.rs`, `tree.rs`, `site.rs`, `root.rs` and the language server's
//! `lsp/{server,sync,handlers,workspace,discovery}.rs`.

use std::path::{Path, PathBuf};

const BANNED: &[&str] = &[
    "std::fs",
    "std::env",
    "std::process",
    "SystemTime",
    "Instant::now",
    "println!",
    "eprintln!",
    "print!(",
    "eprint!(",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{e}")) {
        let path = entry.unwrap_or_else(|e| panic!("{e}")).path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The pure modules: directories and single files under `src/`.
const CORE: &[&str] = &[
    "report",
    "gate",
    "gate.rs",
    "junit",
    "junit.rs",
    "merge",
    "merge.rs",
    "diff",
    "diff.rs",
    "evidence.rs",
    "failure_text.rs",
    "records.rs",
    "lsp/syntax.rs",
    "lsp/index.rs",
    "lsp/analysis.rs",
    "lsp/analysis",
    "lsp/oaths.rs",
    "lsp/position.rs",
    "lsp/tokens.rs",
    "lsp/diagnostics.rs",
    "lsp/navigation.rs",
    "lsp/actions.rs",
    "lsp/completion.rs",
    "lsp/capabilities.rs",
];

#[test]
fn the_core_has_no_side_effects() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    for part in CORE {
        let path = src.join(part);
        if path.is_dir() {
            rust_files(&path, &mut files);
        } else {
            assert!(path.is_file(), "{} is missing", path.display());
            files.push(path);
        }
    }
    let mut problems = Vec::new();
    let mut checked = 0;
    for file in &files {
        let name = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        if name == "tests" || name == "testing" {
            continue;
        }
        checked += 1;
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{e}"));
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        for banned in BANNED {
            if code.contains(banned) {
                problems.push(format!("{} uses {banned}", file.display()));
            }
        }
    }
    assert!(checked >= 26, "only {checked} files checked");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
