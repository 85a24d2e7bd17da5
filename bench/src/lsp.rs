//! The language server (`cargo varar lsp`) on a large package: 500 steps
//! in 100 Rust files and one oath of 1 000 lines, generated under the work
//! directory. Timed in process, as the server does the work:
//!
//! 1. the initial scan of the package (config, the walk of its sources,
//!    reading and `syn`-parsing 100 files, building the registry): the
//!    server's `Project::load` when the first oath is opened;
//! 2. what an edit of the oath costs before the editor sees the result:
//!    the change applied, the oath re-planned (`plan_document`: parse,
//!    plan, drift), its semantic tokens and its diagnostics.
//!
//! Medians of several runs. Figures only; nothing asserts a time.

use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

use lsp_types::{Position, Range, TextDocumentContentChangeEvent};
use varar_cli::lsp::analysis::{Workspace, plan_document};
use varar_cli::lsp::diagnostics::oath_diagnostics;
use varar_cli::lsp::position::apply_change;
use varar_cli::lsp::tokens::semantic_tokens;
use varar_cli::lsp::workspace::Project;

use crate::e2e::median;

const FILES: usize = 100;
const STEPS_PER_FILE: usize = 5;
const OATH_LINES: usize = 1000;

fn write(path: &Path, text: &str) -> Result<(), String> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The package: 100 step files of five steps each, and one long oath.
fn generate(dir: &Path) -> Result<String, String> {
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    write(
        &dir.join("Cargo.toml"),
        "[package]\nname = \"big\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n[workspace]\n",
    )?;
    write(
        &dir.join("varar.config.json"),
        "{\"docs\": {\"include\": [\"varar/**/*.md\"]}}\n",
    )?;
    let mut modules = String::new();
    for f in 0..FILES {
        writeln!(modules, "mod shelf{f};").map_err(|e| e.to_string())?;
        let mut text = format!(
            "//! Steps of shelf {f}.\n\nuse varar::{{sensor, stimulus}};\n\n/// Shelf {f}.\n#[derive(Default)]\npub struct Shelf{f} {{\n    items: i64,\n}}\n"
        );
        for s in 0..STEPS_PER_FILE {
            let (attr, body) = if s % 2 == 0 {
                (
                    format!(
                        "#[stimulus(\"the baker puts {{int}} loaves of kind {s} on shelf {f}\")]"
                    ),
                    format!(
                        "fn put_{s}(shelf: &mut Shelf{f}, n: i64) {{\n    shelf.items += n;\n}}"
                    ),
                )
            } else {
                (
                    format!("#[sensor(\"shelf {f} holds {{int}} loaves of kind {s}\")]"),
                    format!("fn holds_{s}(shelf: &Shelf{f}) -> i64 {{\n    shelf.items\n}}"),
                )
            };
            write!(text, "\n/// Step {s} of shelf {f}.\n{attr}\n{body}\n")
                .map_err(|e| e.to_string())?;
        }
        write(&dir.join(format!("tests/steps/shelf{f}.rs")), &text)?;
    }
    write(&dir.join("tests/steps/mod.rs"), &modules)?;
    write(
        &dir.join("tests/oaths.rs"),
        "mod steps;\n\nfn main() -> std::process::ExitCode {\n    varar::run()\n}\n",
    )?;
    let mut oath = String::from("# Shelves\n");
    let mut k = 0;
    while oath.lines().count() < OATH_LINES {
        let f = k % FILES;
        if k % 25 == 0 {
            write!(oath, "\n## Part {}\n", k / 25).map_err(|e| e.to_string())?;
        }
        write!(
            oath,
            "\nIn the morning the baker puts {n} loaves of kind 0 on shelf {f}. Now shelf {f} holds {n} loaves of kind 1.\n\nSome prose about shelf {f}, which matches no step at all.\n",
            n = k % 7 + 1
        )
        .map_err(|e| e.to_string())?;
        k += 1;
    }
    write(&dir.join("varar/shelves.md"), &oath)?;
    Ok(oath)
}

/// Print the two figures.
pub fn measure(work: &Path, runs: usize) -> Result<(), String> {
    let dir = work.join("lsp-package");
    let oath = generate(&dir)?;
    println!(
        "\nlanguage server: {} steps in {FILES} files, an oath of {} lines",
        FILES * STEPS_PER_FILE,
        oath.lines().count()
    );
    let mut scans = Vec::new();
    let mut project = None;
    for _ in 0..runs.max(5) {
        let mut log = Vec::new();
        let start = Instant::now();
        let p = Project::load(&dir, &mut log);
        scans.push(start.elapsed());
        if !log.is_empty() {
            return Err(format!("loading the package: {}", log.join("; ")));
        }
        project = Some(p);
    }
    let project = project.ok_or("no run")?;
    let steps = project.index.registry().steps.len();
    if steps != FILES * STEPS_PER_FILE {
        return Err(format!(
            "the scan found {steps} steps, not {}",
            FILES * STEPS_PER_FILE
        ));
    }
    println!(
        "  initial scan (discover, read, parse, registry): median {:.1} ms over {} runs (issue target: < 1000 ms)",
        ms(median(&mut scans)),
        scans.len()
    );
    let workspace = Workspace {
        index: &project.index,
        lock: None,
    };
    let mut text = oath;
    let mut edits = Vec::new();
    let mut tokens = 0;
    for i in 0..30u32 {
        // Type a space at the end of a different line each time.
        let line = 4 + (i * 31) % 900;
        let end = Position::new(line, u32::MAX);
        let change = TextDocumentContentChangeEvent {
            range: Some(Range::new(end, end)),
            range_length: None,
            text: " ".to_string(),
        };
        let start = Instant::now();
        apply_change(&mut text, &change);
        let analysis = plan_document(&workspace, "varar/shelves.md", &text);
        let t = semantic_tokens(&analysis, &project.index);
        let d = oath_diagnostics(&analysis, &[]);
        edits.push(start.elapsed());
        tokens = t.data.len();
        if !d.is_empty() {
            return Err(format!("unexpected diagnostics: {:?}", d[0].message));
        }
    }
    println!(
        "  after an edit (re-plan, semantic tokens, diagnostics): median {:.1} ms, max {:.1} ms over {} edits, {tokens} tokens (issue target: < 50 ms)",
        ms(median(&mut edits.clone())),
        ms(edits.iter().copied().max().unwrap_or_default()),
        edits.len()
    );
    Ok(())
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
