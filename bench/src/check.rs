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

/// Measure and print: the bakery, then each corpus (the ledger and the
/// documentation-shaped one, issue 39) as a project of its own.
pub fn measure(corpora: &[(&str, &Corpus)], work: &Path, runs: usize) -> Result<(), String> {
    let bakery = crate::paths::workspace_root().join("examples/bakery");
    let (bakery_report, mut bakery_times) = time(&bakery, runs);
    let mut measured = Vec::new();
    for (k, &(shape, corpus)) in corpora.iter().enumerate() {
        let dir = work.join(format!("check-project-{k}"));
        crate::paths::fresh_generated_dir(&dir)?;
        write_project(&dir, "varar-bench-check", STEPS, Extra::default())?;
        write(
            &dir.join("varar.config.json"),
            "{\"docs\": {\"include\": [\"varar/**/*.md\"]}}\n",
        )?;
        for (oath_path, text) in &corpus.oaths {
            write(&dir.join(oath_path), text)?;
        }
        let (report, times) = time(&dir, runs);
        let name = format!(
            "{shape} {} oaths, {:.2} MB",
            corpus.oaths.len(),
            corpus.bytes() as f64 / 1e6
        );
        measured.push((name, report, times));
    }
    println!();
    println!("== cargo varar check, in process ({runs} runs, median) ==");
    row(
        "bakery sample",
        "< 500 ms",
        &bakery_report,
        &mut bakery_times,
    );
    for (name, report, mut times) in measured {
        // Issue 39's goal for a 200 × 25 corpus.
        row(&name, "≤ 100 ms", &report, &mut times);
    }
    Ok(())
}
