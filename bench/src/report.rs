//! Rendering the HTML report (`cargo varar report`) of a corpus: its run
//! results are produced in process (every example of every oath planned
//! and executed against the corpus steps, so about 1% fail on purpose) and
//! written to the corpus's `.varar/` with the harness's writer; then the
//! report is timed three ways:
//!
//! 1. `render_site` alone (pure: parse, overlay, HTML of every page);
//! 2. writing the site into a fresh output directory (atomic per file);
//! 3. the whole command in process (`varar_report::report::outcome`: config,
//!    discovery, reading every oath and result strictly, rendering, and
//!    writing into the previous report, where unchanged files are skipped).
//!
//! Figures only; nothing asserts a time.

use std::path::Path;
use std::time::{Duration, Instant};

use varar_core::hash::{sha256_hex, source_hash};
use varar_core::parse::parse;
use varar_core::plan::plan;
use varar_core::record::DocumentDigest;
use varar_core::results::{OathResults, Status, example_result, oath_results};
use varar_core::source::Source;
use varar_project::root::ProjectRoot;
use varar_project::store::replace_run_result;
use varar_report::html_report::{OathInput, ProjectInput, ResultsInput, render_site};
use varar_report::report::ReportRun;
use varar_runner::LinkedSteps;
use varar_runner::execute;

use crate::corpus::Corpus;
use crate::e2e::{list, median};

/// Run every example of the corpus in process and collect its results.
fn results(corpus: &Corpus, steps: &LinkedSteps) -> Vec<OathResults> {
    corpus
        .oaths
        .iter()
        .map(|(oath_path, text)| {
            let source = Source::new(text);
            let doc = parse(oath_path, &source);
            let planned = plan(&doc, &source, steps.registry());
            let examples = planned
                .examples
                .iter()
                .map(|e| example_result(e, &execute(e, steps), oath_path))
                .collect();
            oath_results(oath_path, &source_hash(text), examples)
        })
        .collect()
}

fn time<T>(runs: usize, mut f: impl FnMut() -> Result<T, String>) -> Result<Vec<Duration>, String> {
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let start = Instant::now();
        f()?;
        times.push(start.elapsed());
    }
    Ok(times)
}

/// Measure and print.
pub fn measure(corpus: &Corpus, work: &Path, runs: usize) -> Result<(), String> {
    let steps = LinkedSteps::from_inventory(|_| true).map_err(|e| e.to_string())?;
    let start = Instant::now();
    let all = results(corpus, &steps);
    let produced = start.elapsed();
    let examples: usize = all.iter().map(|r| r.examples.len()).sum();
    let failed: usize = all
        .iter()
        .flat_map(|r| &r.examples)
        .filter(|e| e.status == Status::Failed)
        .count();
    for r in &all {
        let text = r.to_text().map_err(|e| e.to_string())?;
        replace_run_result(&corpus.root, &r.oath_path, text.as_bytes())
            .map_err(|e| e.to_string())?;
    }
    let input = ProjectInput {
        name: "bench".into(),
        oaths: corpus
            .oaths
            .iter()
            .zip(all)
            .map(|((oath_path, text), r)| OathInput {
                oath_path: oath_path.clone(),
                text: Ok(text.clone()),
                results: ResultsInput::Read(r),
                // As the run that wrote the results read the oath.
                vouched: [(
                    oath_path.clone(),
                    DocumentDigest {
                        path: oath_path.clone(),
                        sha256: sha256_hex(text.as_bytes()),
                        source_hash: source_hash(text),
                    },
                )]
                .into(),
            })
            .collect(),
        lock: None,
        run: None,
        history: Vec::new(),
        standing: None,
    };
    let site = render_site(&input);
    let bytes: usize = site.files.iter().map(|f| f.contents.len()).sum();
    let mut render = time(runs, || Ok(render_site(&input)))?;

    let out = work.join("report-out");
    let mut write_fresh = time(runs, || {
        if out.exists() {
            std::fs::remove_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
        }
        varar_report::site::write_site(&out, &site).map_err(|e| e.to_string())
    })?;

    let run = ReportRun {
        project: ProjectRoot {
            explicit: Some(corpus.root.clone()),
            cwd: corpus.root.clone(),
        },
        out: Some(out.clone()),
        open: false,
    };
    let mut command = time(runs, || {
        let outcome = varar_report::report::outcome(&run).map_err(|e| e.to_string())?;
        match outcome.exit_code() {
            0 => Ok(()),
            code => Err(format!("the report exited {code}: {:?}", outcome.problems)),
        }
    })?;

    println!();
    println!("== cargo varar report, in process ({runs} runs, median) ==");
    println!(
        "corpus: {} oaths, {examples} examples ({failed} failed), results produced in {:.2} s (not part of the report)",
        corpus.oaths.len(),
        produced.as_secs_f64()
    );
    println!(
        "site: {} files, {:.2} MB of HTML",
        site.files.len(),
        bytes as f64 / 1e6
    );
    for (what, times) in [
        ("render_site (pure)", &mut render),
        ("write into a new directory", &mut write_fresh),
        ("whole command (read, render, rewrite)", &mut command),
    ] {
        println!(
            "  {what:<38} median {:>8.1} ms   (runs: {})",
            median(times).as_secs_f64() * 1e3,
            list(times)
        );
    }
    Ok(())
}
