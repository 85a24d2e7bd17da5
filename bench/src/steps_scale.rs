//! Planning with 8, 100 and 500 registered steps, in process: the corpus's
//! eight steps plus fillers that match nothing, so the work that grows is
//! the matching of every sentence against the registry.

use std::time::Instant;

use varar_core::parse::parse;
use varar_core::plan::plan;
use varar_core::registry::{Registry, StepSpec};
use varar_core::source::Source;
use varar_runner::LinkedSteps;

use crate::corpus::Corpus;

/// Measure and print one row per registry size.
pub fn measure(corpus: &Corpus, counts: &[usize], min_seconds: f64) -> Result<(), String> {
    let linked = LinkedSteps::from_inventory(|_| true).map_err(|e| e.to_string())?;
    let base = linked.registry();
    println!();
    println!(
        "== planning with more registered steps ({} oaths, {:.2} MB, in process) ==",
        corpus.oaths.len(),
        corpus.bytes() as f64 / 1e6
    );
    let mut first_ms = None;
    for &count in counts {
        let mut specs: Vec<StepSpec> = base.steps.iter().map(|s| s.spec.clone()).collect();
        let template = specs
            .first()
            .cloned()
            .ok_or("the corpus registers no step")?;
        for i in specs.len()..count {
            specs.push(StepSpec::new(
                format!("filler step number {i} counts {{int}} widgets"),
                template.role,
                template.file.clone(),
                template.line,
                template.trailing,
            ));
        }
        let start = Instant::now();
        let registry = Registry::build(Vec::new(), specs).map_err(|e| e.to_string())?;
        let build = start.elapsed();
        let mut passes = 0usize;
        let mut examples = 0usize;
        let start = Instant::now();
        while passes == 0 || start.elapsed().as_secs_f64() < min_seconds {
            examples = 0;
            for (oath_path, text) in &corpus.oaths {
                let source = Source::new(text);
                let doc = parse(oath_path, &source);
                examples += plan(&doc, &source, &registry).examples.len();
            }
            passes += 1;
        }
        let ms = start.elapsed().as_secs_f64() * 1e3 / passes as f64;
        let base_ms = *first_ms.get_or_insert(ms);
        println!(
            "  {:>4} steps: parse+plan {ms:>9.2} ms per pass ({examples} examples, {passes} passes) = {:.2}x the {}-step figure; registry build {:.2} ms",
            registry.steps.len(),
            ms / base_ms,
            counts.first().copied().unwrap_or(0),
            build.as_secs_f64() * 1e3
        );
    }
    Ok(())
}
