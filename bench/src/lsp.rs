//! The language server (`cargo varar lsp`) on a large package: 500 steps
//! in 100 Rust files and one oath of 1 000 lines, generated under the work
//! directory. Timed in process, as the server does the work:
//!
//! 1. the initial scan of the package (config, the walk of its sources,
//!    reading and `syn`-parsing 100 files, building the registry): the
//!    server's `ProjectState::load` when the first oath is opened;
//! 2. what an edit of the oath costs before the editor sees the result:
//!    the change applied, the oath re-planned (`plan_document`: parse,
//!    plan with reuse by link among the project's oaths, drift), its
//!    semantic tokens and its diagnostics;
//! 3. the same for an oath of 1 000 lines whose every part opens with a
//!    link to a section of a shared oath (reuse by link, spec 70);
//! 4. an edit of that shared oath while both are open: the shared oath
//!    and the linking one re-planned in one engine workspace, what the
//!    linking plan splices given back to the shared oath (the server's
//!    `sync`), then the shared oath's tokens and diagnostics.
//!
//! Medians of several runs. Figures only; nothing asserts a time.

use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

use lsp_types::{Position, Range, TextDocumentContentChangeEvent};
use varar_lsp::analysis::{Analysis, PlanContext, plan_document, plan_documents, reuses};
use varar_lsp::handlers::diagnostics::oath_diagnostics;
use varar_lsp::handlers::position::apply_change;
use varar_lsp::handlers::tokens::semantic_tokens;
use varar_lsp::server::project_state::ProjectState;

use crate::e2e::median;

const FILES: usize = 100;
const STEPS_PER_FILE: usize = 5;
const OATH_LINES: usize = 1000;
/// Sections of the shared oath; the linking oath's parts cycle over them.
const SHARED_SECTIONS: usize = 20;

fn write(path: &Path, text: &str) -> Result<(), String> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The package: 100 step files of five steps each, one long oath, and a
/// long oath that links to the sections of a shared one.
pub(crate) fn generate(dir: &Path) -> Result<Texts, String> {
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
    let mut shared = String::from("# Shared\n");
    for s in 0..SHARED_SECTIONS {
        write!(
            shared,
            "\n## Stock {s}\n\nIn the morning the baker puts {n} loaves of kind 2 on shelf {s}.\n",
            n = s + 1
        )
        .map_err(|e| e.to_string())?;
    }
    write(&dir.join("varar/shared.md"), &shared)?;
    let mut linked = String::from("# Linked shelves\n");
    let mut k = 0;
    while linked.lines().count() < OATH_LINES {
        let f = k % FILES;
        if k % 5 == 0 {
            let s = (k / 5) % SHARED_SECTIONS;
            write!(
                linked,
                "\n## Part {}\n\n[Stock {s}](shared.md#stock-{s})\n",
                k / 5
            )
            .map_err(|e| e.to_string())?;
        }
        write!(
            linked,
            "\nIn the morning the baker puts {n} loaves of kind 0 on shelf {f}. Now shelf {f} holds {n} loaves of kind 1.\n\nSome prose about shelf {f}, which matches no step at all.\n",
            n = k % 7 + 1
        )
        .map_err(|e| e.to_string())?;
        k += 1;
    }
    write(&dir.join("varar/linked.md"), &linked)?;
    Ok(Texts {
        oath,
        shared,
        linked,
    })
}

/// The generated oaths.
pub(crate) struct Texts {
    oath: String,
    shared: String,
    linked: String,
}

/// Print the two figures.
pub fn measure(work: &Path, runs: usize) -> Result<(), String> {
    let dir = work.join("lsp-package");
    let texts = generate(&dir)?;
    println!(
        "\nlanguage server: {} steps in {FILES} files, an oath of {} lines",
        FILES * STEPS_PER_FILE,
        texts.oath.lines().count()
    );
    let mut scans = Vec::new();
    let mut project = None;
    for _ in 0..runs.max(5) {
        let mut log = Vec::new();
        let start = Instant::now();
        let p = ProjectState::load(&dir, &mut log);
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
    let mut project = project;
    let edit = edit_row(
        &mut project,
        "varar/shelves.md",
        texts.oath,
        "varar/shelves.md",
    )?;
    println!(
        "  after an edit (re-plan, semantic tokens, diagnostics): {edit} (issue target: < 50 ms)"
    );
    let links = edit_row(
        &mut project,
        "varar/linked.md",
        texts.linked,
        "varar/linked.md",
    )?;
    println!(
        "  after an edit of an oath with {} links (same): {links}",
        OATH_LINES / 20
    );
    let shared = edit_row(
        &mut project,
        "varar/shared.md",
        texts.shared,
        "varar/linked.md",
    )?;
    println!(
        "  after an edit of the shared oath, the oath linking to it open too (re-plan both, splices given back, tokens, diagnostics): {shared}"
    );
    Ok(())
}

/// Time 30 edits of the open oath `path` (starting from `text`), each
/// followed by what the server does before the editor sees the result; the
/// open oath `with` (when it is not `path`) is re-planned alongside, as a
/// change of a document its links reach re-plans it.
fn edit_row(
    project: &mut ProjectState,
    path: &str,
    mut text: String,
    with: &str,
) -> Result<String, String> {
    project.oaths.open(path, &text);
    let lines = text.lines().count() as u32;
    let mut edits = Vec::new();
    let mut tokens = 0;
    for i in 0..30u32 {
        // Type a space at the end of a different line each time.
        let line = 4 + (i * 31) % lines.saturating_sub(8).max(1);
        let end = Position::new(line, u32::MAX);
        let change = TextDocumentContentChangeEvent {
            range: Some(Range::new(end, end)),
            range_length: None,
            text: " ".to_string(),
        };
        let start = Instant::now();
        apply_change(&mut text, &change);
        project.oaths.edit(path, &text);
        let context = PlanContext {
            index: &project.index,
            lock: None,
            oaths: &project.oaths,
        };
        let analysis = if with == path {
            plan_document(&context, path).ok_or_else(|| format!("{path} is not an oath"))?
        } else {
            let mut planned = plan_documents(&context, &[path, with]);
            let others: Vec<&Analysis> = planned.iter().collect();
            let given = reuses(path, &others);
            let mut analysis = planned
                .drain(..)
                .find(|a| a.oath_path == path)
                .ok_or_else(|| format!("{path} is not an oath"))?;
            analysis.set_reuses(given);
            analysis
        };
        let t = semantic_tokens(&analysis, &project.index);
        let d = oath_diagnostics(&analysis, &[]);
        edits.push(start.elapsed());
        tokens = t.data.len();
        if !d.is_empty() {
            return Err(format!(
                "{path}: unexpected diagnostics: {:?}",
                d[0].message
            ));
        }
    }
    Ok(format!(
        "median {:.1} ms, max {:.1} ms over {} edits, {tokens} tokens",
        ms(median(&mut edits.clone())),
        ms(edits.iter().copied().max().unwrap_or_default()),
        edits.len()
    ))
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
