//! The functional core stays pure (DEVELOPERS.md, STYLE §2.2): only the shell
//! modules may touch the file system, the environment, the clock or print.

use std::path::{Path, PathBuf};

/// Modules allowed side effects.
const SHELL: &[&str] = &["config", "discovery", "store", "harness"];

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
    for entry in std::fs::read_dir(dir).expect("readable src dir") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn is_test_file(rel: &Path) -> bool {
    rel.components().any(|c| c.as_os_str() == "tests")
        || rel.file_stem().and_then(|s| s.to_str()).is_some_and(|s| {
            s == "tests"
                || s == "testing"
                || s == "goldens"
                || s.ends_with("_tests")
                || s == "proptests"
        })
}

fn is_shell(rel: &Path) -> bool {
    let first = rel
        .components()
        .next()
        .and_then(|c| c.as_os_str().to_str())
        .unwrap_or("");
    let module = first.trim_end_matches(".rs");
    SHELL.contains(&module)
}

#[test]
fn core_modules_have_no_side_effects() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut checked = 0;
    let mut problems = Vec::new();
    for file in files {
        let rel = file.strip_prefix(&src).expect("under src");
        if is_shell(rel) || is_test_file(rel) {
            continue;
        }
        checked += 1;
        let text = std::fs::read_to_string(&file).expect("readable source");
        // Inline unit-test modules sit at the end of a file; only the code
        // before them is core.
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        for banned in BANNED {
            if code.contains(banned) {
                problems.push(format!("{} uses {banned}", rel.display()));
            }
        }
    }
    assert!(
        checked > 20,
        "only {checked} core files found: is the walk right?"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
