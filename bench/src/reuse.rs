//! Reuse by link at scale (spec 70): N oaths whose every example opens with
//! a link to one shared section, planned in process against a workspace of
//! them all, next to the same corpus with the section's steps written out
//! in every example (no link). Time per example; the workspace must parse
//! each document once, so the figure stays flat as N grows.

use std::time::{Duration, Instant};

use varar_core::parse::parse;
use varar_core::plan::{plan, plan_oath};
use varar_core::registry::Registry;
use varar_core::source::Source;
use varar_core::workspace::Workspace;
use varar_runner::LinkedSteps;

/// Examples per oath.
const EXAMPLES: usize = 10;
const SHARED: &str = "# Shared\n\n## Open the account\n\n\
    Given the account is labelled \"Main\". Ann deposits 100.\n";
const LINK: &str = "[Open the account](shared.md#open-the-account)";
const INLINE: &str = "Given the account is labelled \"Main\". Ann deposits 100.";

/// `(oathPath, text)` of N oaths, their examples opening with `opening`.
fn corpus(n: usize, opening: &str) -> Vec<(String, String)> {
    (0..n)
        .map(|i| {
            let mut text = format!("# Ledger {i}\n");
            for j in 0..EXAMPLES {
                text.push_str(&format!(
                    "\n## Example {j}\n\n{opening}\n\nAnn deposits {j}. Then the balance is {}.\n",
                    100 + j
                ));
            }
            (format!("varar/ledger-{i:04}.md"), text)
        })
        .collect()
}

/// Build the workspace and plan every oath: (steps, documents parsed).
fn with_links(oaths: &[(String, String)], registry: &Registry) -> Result<(usize, usize), String> {
    let documents = oaths
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .chain([("varar/shared.md", SHARED)]);
    let workspace = Workspace::build(documents);
    let mut examples = 0;
    for (path, _) in oaths {
        let planned = plan_oath(&workspace, path, registry).map_err(|e| e.to_string())?;
        if !planned.diagnostics.is_empty() {
            return Err(format!("{path}: unexpected diagnostics"));
        }
        examples += planned
            .examples
            .iter()
            .map(|e| e.steps.len())
            .sum::<usize>();
    }
    Ok((examples, workspace.parsed_count()))
}

/// Parse and plan every oath alone: the steps.
fn inline(oaths: &[(String, String)], registry: &Registry) -> usize {
    oaths
        .iter()
        .map(|(path, text)| {
            let source = Source::new(text);
            let planned = plan(&parse(path, &source), &source, registry);
            planned
                .examples
                .iter()
                .map(|e| e.steps.len())
                .sum::<usize>()
        })
        .sum()
}

/// The median of `runs` timings of `f`.
fn median<T>(runs: usize, mut f: impl FnMut() -> T) -> Duration {
    let mut times: Vec<Duration> = (0..runs.max(1))
        .map(|_| {
            let start = Instant::now();
            std::hint::black_box(f());
            start.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

/// Measure and print, for each corpus size.
pub fn measure(sizes: &[usize], runs: usize) -> Result<(), String> {
    let steps = LinkedSteps::from_inventory(|_| true).map_err(|e| e.to_string())?;
    let registry = steps.registry();
    println!();
    println!("== reuse by link: every example links one shared section ==");
    println!(
        "{:>6} {:>9} {:>9} {:>14} {:>14} {:>7}",
        "oaths", "examples", "parsed", "link µs/ex", "inline µs/ex", "ratio"
    );
    for &n in sizes {
        let linked = corpus(n, LINK);
        let flat = corpus(n, INLINE);
        let (steps, parsed) = with_links(&linked, registry)?;
        // Four steps per example: the two spliced, deposit and balance.
        if steps != n * EXAMPLES * 4 || inline(&flat, registry) != steps {
            return Err(format!(
                "{n} oaths: {steps} steps planned, {} expected",
                n * EXAMPLES * 4
            ));
        }
        let examples = n * EXAMPLES;
        let link = median(runs, || with_links(&linked, registry));
        let flat_time = median(runs, || inline(&flat, registry));
        let per = |d: Duration| d.as_secs_f64() * 1e6 / examples as f64;
        println!(
            "{n:>6} {examples:>9} {parsed:>9} {:>14.2} {:>14.2} {:>7.2}",
            per(link),
            per(flat_time),
            link.as_secs_f64() / flat_time.as_secs_f64()
        );
    }
    println!(
        "(link: workspace built, every oath planned; inline: the section written out, each oath parsed and planned alone; median of {runs})"
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_linked_and_inline_corpora_plan_the_same_steps() {
        let linked = LinkedSteps::from_inventory(|_| true).unwrap_or_else(|e| panic!("{e}"));
        let registry = linked.registry();
        let (steps, parsed) = with_links(&corpus(3, LINK), registry).unwrap_or_default();
        assert_eq!(steps, 3 * EXAMPLES * 4);
        assert_eq!(parsed, 4);
        assert_eq!(inline(&corpus(3, INLINE), registry), steps);
    }
}
