//! The report is a pure function (DEVELOPERS.md "functional core,
//! imperative shell"): nothing under `src/report/` touches the file system,
//! the environment, processes, the clock or prints. Reading and writing
//! live in `commands/`, `site.rs` and `root.rs`.

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

#[test]
fn the_report_core_has_no_side_effects() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/report");
    let mut files = Vec::new();
    rust_files(&dir, &mut files);
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
    assert!(checked >= 8, "only {checked} files checked");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
