//! The README's quick start, built exactly as written (issue 37): its
//! `Cargo.toml` lines, `tests/oaths.rs`, `varar.config.json` and oath go into
//! a new package, and the real `cargo test` must list and pass exactly the
//! tests the README shows, printed as it prints them.

mod support;

use support::{Sample, strip_kind, workspace_root};

/// The fenced blocks of the README's "Quick start" section, in order: the
/// info string and the text.
fn quick_start_blocks() -> Vec<(String, String)> {
    let readme = std::fs::read_to_string(workspace_root().join("README.md"))
        .unwrap_or_else(|e| panic!("cannot read README.md: {e}"));
    let start = readme
        .find("\n## Quick start\n")
        .unwrap_or_else(|| panic!("README.md has no `## Quick start` section"));
    let mut blocks = Vec::new();
    let mut open: Option<(String, String)> = None;
    // The section ends at the next `## ` heading outside a fence (the
    // oath in it has headings of its own).
    for line in readme[start + 1..].lines().skip(1) {
        match (&mut open, line.strip_prefix("```")) {
            (None, _) if line.starts_with("## ") => break,
            (None, Some(info)) => open = Some((info.to_owned(), String::new())),
            (Some(_), Some("")) => blocks.extend(open.take()),
            (Some((_, text)), _) => {
                text.push_str(line);
                text.push('\n');
            }
            (None, None) => {}
        }
    }
    blocks
}

/// The one block of `info`, or the `n`th of several.
fn block(blocks: &[(String, String)], info: &str, n: usize) -> String {
    blocks
        .iter()
        .filter(|(i, _)| i == info)
        .nth(n)
        .map(|(_, text)| text.clone())
        .unwrap_or_else(|| panic!("the quick start has no block {n} of ```{info}"))
}

#[test]
fn issue37_the_readme_quick_start_builds_and_passes_as_written() {
    let blocks = quick_start_blocks();
    let manifest = block(&blocks, "toml", 0);
    let dependency = r#"oathmark = "0.1""#;
    assert!(manifest.contains(dependency), "{manifest}");
    // Only the dependency's source changes: this workspace, not crates.io.
    let local = format!(
        "oathmark = {{ version = \"0.1\", path = {:?} }}",
        workspace_root().join("varar").display().to_string()
    );
    let cargo_toml = format!(
        "[package]\nname = \"quick-start\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\
         publish = false\n\n[workspace]\n\n{}",
        manifest.replace(dependency, &local)
    );
    let project = Sample::of_files(
        "quick-start",
        &[
            ("Cargo.toml", cargo_toml),
            ("src/lib.rs", String::new()),
            ("tests/oaths.rs", block(&blocks, "rust,ignore", 0)),
            ("varar.config.json", block(&blocks, "json", 0)),
            ("varar/counter.md", block(&blocks, "markdown", 0)),
        ],
    );

    // `cargo test -- --list` lists what the README lists.
    let listed = project.cargo_test(&["--", "--list"], &[]);
    listed.assert_code(0, "cargo test -- --list");
    let shown: Vec<String> = block(&blocks, "text", 0)
        .lines()
        .map(|l| strip_kind(l.trim_end_matches(": test")).to_owned())
        .collect();
    assert!(shown.len() > 1, "the quick start lists its table's rows");
    assert_eq!(listed.listed_items(), shown, "{}", listed.combined());

    // `cargo test` passes them, each line as the README prints it.
    let run = project.cargo_test(&[], &[]);
    run.assert_code(0, "cargo test");
    let printed = block(&blocks, "text", 1);
    for line in printed.lines().filter(|l| !l.starts_with("test result:")) {
        assert!(
            run.stdout.lines().any(|l| l == line),
            "the README shows {line:?}; cargo test printed:\n{}",
            run.combined()
        );
    }
    let summary = printed
        .lines()
        .find(|l| l.starts_with("test result:"))
        .unwrap_or_else(|| panic!("the README shows no summary"));
    assert!(
        run.stdout.lines().any(|l| l.starts_with(summary)),
        "{summary:?}:\n{}",
        run.combined()
    );
    let mut executed = run.executed_items();
    executed.sort();
    let mut expected = shown;
    expected.sort();
    assert_eq!(executed, expected);
}
