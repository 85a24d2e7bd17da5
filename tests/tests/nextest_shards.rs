//! `cargo nextest run --partition count:1/2` then `count:2/2` on a copy of
//! the sample: every item runs in its own process, each process reads and
//! plans only its own oath, and the two shards' `.varar/` results together
//! equal one full run's (spec 40 §6 merging), while the shipped lock stays
//! untouched. Skipped when nextest is absent.

mod support;

use std::collections::BTreeMap;

use support::{EXAMPLES_PER_OATH, Sample};

/// Every `.varar/<oath>.json` of the copy, parsed.
fn results(sample: &Sample) -> BTreeMap<String, serde_json::Value> {
    sample
        .oath_files()
        .into_iter()
        .filter_map(|oath| {
            let path = sample.root().join(format!(".varar/{oath}.json"));
            let text = std::fs::read_to_string(&path).ok()?;
            let value = serde_json::from_str(&text)
                .unwrap_or_else(|e| panic!("{} is not JSON: {e}\n{text}", path.display()));
            Some((oath, value))
        })
        .collect()
}

fn examples_in(results: &BTreeMap<String, serde_json::Value>) -> usize {
    results
        .values()
        .map(|r| r["examples"].as_array().map_or(0, Vec::len))
        .sum()
}

#[test]
fn two_nextest_shards_add_up_to_one_full_run() {
    let sample = Sample::copy();
    let version = sample.run(&["nextest", "--version"], &[]);
    if version.code != Some(0) {
        println!("note: cargo nextest is not installed; skipping the shard check");
        return;
    }
    let total: usize = EXAMPLES_PER_OATH.iter().map(|(_, n)| n).sum();

    sample.remove(".varar");
    let first = sample.run(&["nextest", "run", "--partition", "count:1/2"], &[]);
    first.assert_code(0, "nextest shard 1/2");
    let after_first = examples_in(&results(&sample));
    assert!(
        after_first > 0 && after_first < total,
        "shard 1/2 should run some but not all of the {total} examples, ran {after_first}\n{}",
        first.combined()
    );
    let second = sample.run(&["nextest", "run", "--partition", "count:2/2"], &[]);
    second.assert_code(0, "nextest shard 2/2");
    let sharded = results(&sample);
    sample.assert_lock_pristine("nextest shards", Some(&second));

    sample.remove(".varar");
    let full = sample.cargo_test(&[], &[]);
    full.assert_code(0, "full cargo test");
    let whole = results(&sample);
    assert_eq!(examples_in(&whole), total);
    assert_eq!(
        sharded, whole,
        "the two shards' results must equal one full run's"
    );
}
