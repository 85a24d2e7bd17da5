//! `cargo varar check` in process: on the bakery sample, and on a project
//! holding the corpus and its eight steps (the e2e project's files, not
//! built: `check` builds nothing). Each figure is the median of several
//! runs of the whole command (config, discovery, reading every oath and
//! step file, `syn`, planning every oath among the others, drift, the
//! problems). Figures only; nothing asserts a time.

use std::path::Path;
use std::time::{Duration, Instant};

use varar_cli::commands::check::CheckReport;
use varar_cli::commands::check::shell::report;
use varar_project::root::ProjectRoot;

use crate::corpus::Corpus;
use crate::e2e::{Extra, STEPS, list, median, write, write_project};

fn time(root: &Path, runs: usize) -> (CheckReport, Vec<Duration>) {
    let project = ProjectRoot {
        explicit: Some(root.to_path_buf()),
        cwd: root.to_path_buf(),
    };
    let mut last = report(&project);
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let start = Instant::now();
        last = report(&project);
        times.push(start.elapsed());
    }
    (last, times)
}

fn row(what: &str, goal: &str, report: &CheckReport, times: &mut [Duration]) {
    println!(
        "  {what:<20} {:>4} oaths, {:>3} steps, {:>3} problems, exit {}   median {:>7.1} ms (goal {goal})   (runs: {})",
        report.oaths,
        report.steps,
        report.problems.len(),
        report.exit_code,
        median(times).as_secs_f64() * 1e3,
        list(times)
    );
}

/// Measure and print.
pub fn measure(corpus: &Corpus, work: &Path, runs: usize) -> Result<(), String> {
    let bakery = crate::paths::workspace_root().join("examples/bakery");
    let (bakery_report, mut bakery_times) = time(&bakery, runs);
    let dir = work.join("check-project");
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    write_project(&dir, "varar-bench-check", STEPS, Extra::default())?;
    write(
        &dir.join("varar.config.json"),
        "{\"docs\": {\"include\": [\"varar/**/*.md\"]}}\n",
    )?;
    for (oath_path, text) in &corpus.oaths {
        write(&dir.join(oath_path), text)?;
    }
    let (corpus_report, mut corpus_times) = time(&dir, runs);
    println!();
    println!("== cargo varar check, in process ({runs} runs, median) ==");
    row(
        "bakery sample",
        "< 500 ms",
        &bakery_report,
        &mut bakery_times,
    );
    let name = format!("corpus {} oaths", corpus.oaths.len());
    row(&name, "< 2 s", &corpus_report, &mut corpus_times);
    Ok(())
}
