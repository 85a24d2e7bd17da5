//! Merging a run's results into the stored file of the same sources (spec
//! 40 §6, issue 10): what a filtered run or one `cargo nextest` process
//! leaves for the examples it did not run.

use super::build::{ExampleKey, results_version};
use super::model::{ExampleResult, OathResults};

/// The file of an oath after a run (spec 40 §6 with issue 10): exactly the
/// examples of the current plan (`planned`, in plan order), each as this
/// run recorded it in `fresh`, else as `stored` recorded it when `stored` is
/// of the same sources (same version, `sourceHash` and `documents`: a file
/// of another version is never merged, spec 70 §70.4.5), else absent. So an
/// example that no longer exists, or that ran now, never keeps an old
/// entry: after a step is renamed, or a paragraph became ambiguous, nothing
/// says it passed.
///
/// `ran` holds the plan indices of the examples that ran now (`fresh`
/// holds their results). Examples with the same name and `lines` (two links
/// to one section, each alone under its heading, have the same name and
/// empty `lines`) are told apart by their order: among the examples that
/// ran, and in the stored file.
pub fn merge_results(
    stored: Option<&OathResults>,
    fresh: &OathResults,
    planned: &[ExampleKey],
    ran: &[usize],
) -> OathResults {
    let same_source = |old: &&OathResults| {
        old.version == fresh.version
            && old.source_hash == fresh.source_hash
            && old.documents == fresh.documents
    };
    let old = stored.filter(same_source);
    let nth = |examples: &[ExampleResult], key: &ExampleKey, n: usize| {
        examples.iter().filter(|e| key.matches(e)).nth(n).cloned()
    };
    let mut now = vec![false; planned.len()];
    for &i in ran {
        if let Some(slot) = now.get_mut(i) {
            *slot = true;
        }
    }
    // Per (name, lines): how many planned examples came before, and how
    // many of those ran.
    let mut seen: std::collections::HashMap<(&str, &[u32]), (usize, usize)> =
        std::collections::HashMap::new();
    let mut examples: Vec<(u32, ExampleResult)> = Vec::with_capacity(planned.len());
    for (i, key) in planned.iter().enumerate() {
        let counts = seen
            .entry((key.name.as_str(), key.lines.as_slice()))
            .or_default();
        let result = if now[i] {
            counts.1 += 1;
            nth(&fresh.examples, key, counts.1 - 1)
        } else {
            old.and_then(|o| nth(&o.examples, key, counts.0))
        };
        counts.0 += 1;
        examples.extend(result.map(|r| (key.sort_line(), r)));
    }
    examples.sort_by_key(|(line, _)| *line);
    let examples: Vec<ExampleResult> = examples.into_iter().map(|(_, r)| r).collect();
    OathResults {
        version: results_version(&fresh.documents, &examples),
        oath_path: fresh.oath_path.clone(),
        source_hash: fresh.source_hash.clone(),
        documents: fresh.documents.clone(),
        examples,
    }
}
