//! Parse+plan throughput, in process: every oath of the corpus is parsed and
//! planned against the registry of the eight corpus steps, repeatedly, until
//! enough time has passed for a stable figure.

use std::time::{Duration, Instant};

use varar_core::parse::parse;
use varar_core::plan::plan;
use varar_core::registry::Registry;
use varar_core::source::Source;
use varar_runner::LinkedSteps;

use crate::corpus::Corpus;

/// What one pass over the corpus produced.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Pass {
    examples: usize,
    diagnostics: usize,
}

fn one_pass(corpus: &Corpus, registry: &Registry) -> Pass {
    let mut pass = Pass::default();
    for (oath_path, text) in &corpus.oaths {
        let source = Source::new(text);
        let doc = parse(oath_path, &source);
        let planned = plan(&doc, &source, registry);
        pass.examples += planned.examples.len();
        pass.diagnostics += planned.diagnostics.len();
    }
    pass
}

/// Measure and print.
pub fn measure(corpus: &Corpus, min_seconds: f64) -> Result<(), String> {
    // The eight steps of `crate::steps`, registered by their attributes.
    let steps = LinkedSteps::from_inventory(|_| true).map_err(|e| e.to_string())?;
    let registry = steps.registry();
    let first = one_pass(corpus, registry);
    let min = Duration::from_secs_f64(min_seconds.max(0.0));
    let mut passes = 0usize;
    let start = Instant::now();
    loop {
        let pass = one_pass(corpus, registry);
        passes += 1;
        if pass != first {
            return Err("parse+plan is not deterministic over the corpus".to_string());
        }
        if start.elapsed() >= min {
            break;
        }
    }
    let secs = start.elapsed().as_secs_f64() / passes as f64;
    let oaths = corpus.oaths.len() as f64;
    println!();
    println!("== parse+plan, in process ==");
    println!(
        "corpus: {} oaths, {:.2} MB, {} steps registered",
        corpus.oaths.len(),
        corpus.bytes() as f64 / 1e6,
        registry.steps.len()
    );
    println!(
        "planned examples per pass: {} (generator manifest: {}), diagnostics: {}",
        first.examples, corpus.examples_total, first.diagnostics
    );
    println!(
        "{passes} passes, {:.2} ms per pass: {:.0} oaths/s, {:.0} examples/s, {:.1} MB/s",
        secs * 1e3,
        oaths / secs,
        first.examples as f64 / secs,
        corpus.bytes() as f64 / 1e6 / secs
    );
    Ok(())
}
