//! The comparison's table: its rows, the medians of paired samples, and
//! the Markdown it prints.

use std::time::Duration;

use super::process::Sample;

/// One table row: what it compares and the two columns.
pub(super) struct Line {
    /// Where it goes in the table: by corpus, then the order;
    /// stable-sorted.
    pub(super) rank: (usize, u8, usize),
    pub(super) label: String,
    pub(super) ours: String,
    pub(super) theirs: String,
    pub(super) ratio: Option<f64>,
    pub(super) goal: Option<f64>,
}

/// One row from pairs of samples: the median of each column by `key`, and
/// the median of the per-pair ratios (none when a run was killed or a
/// figure is missing).
pub(super) fn paired(
    label: String,
    pairs: &[(Sample, Sample)],
    key: impl Fn(&Sample) -> Option<f64>,
    show: impl Fn(&Sample) -> String,
    killed: bool,
    goal: Option<f64>,
) -> Line {
    let both: Vec<(f64, f64)> = pairs
        .iter()
        .filter_map(|(a, b)| Some((key(a)?, key(b)?)))
        .collect();
    let mut ratios: Vec<f64> = both.iter().map(|&(a, b)| a / b.max(1e-9)).collect();
    let median_of = |side: fn(&(Sample, Sample)) -> Sample| {
        let mut v: Vec<Sample> = pairs.iter().map(side).collect();
        v.sort_by(|x, y| {
            key(x)
                .unwrap_or(f64::INFINITY)
                .total_cmp(&key(y).unwrap_or(f64::INFINITY))
        });
        v.get(v.len() / 2).copied()
    };
    let cell = |s: Option<Sample>| s.map_or("n/a".to_string(), |s| show(&s));
    Line {
        rank: (0, 0, 0),
        label,
        ours: cell(median_of(|p| p.0)),
        theirs: cell(median_of(|p| p.1)),
        ratio: if killed || both.len() != pairs.len() {
            None
        } else {
            median_f64(&mut ratios)
        },
        goal,
    }
}

/// `1.234 s`, or `> 600 s` when killed.
pub(super) fn show_wall(s: &Sample, timeout: Duration) -> String {
    if s.killed {
        format!("> {:.0} s", timeout.as_secs_f64())
    } else {
        format!("{:.3} s", s.wall.as_secs_f64())
    }
}

/// The sample with the median `key` (the upper one of an even count, as
/// `e2e::median` does).
pub(super) fn median_sample(mut samples: Vec<Sample>, key: impl Fn(&Sample) -> Duration) -> Sample {
    samples.sort_by_key(|s| key(s));
    samples.get(samples.len() / 2).copied().unwrap_or(Sample {
        wall: Duration::ZERO,
        cpu: None,
        rss_kib: None,
        killed: false,
    })
}

/// The median of `values` (sorts them); `None` when empty.
pub(super) fn median_f64(values: &mut [f64]) -> Option<f64> {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied()
}

/// The table, as Markdown.
pub(super) fn print_table(table: &[Line], runs: usize) {
    println!();
    println!(
        "ratio = ours / cucumber-rs (below 1 is better for us), the median of {} paired runs; goals are printed, not asserted",
        runs.max(1)
    );
    println!();
    println!("| row | ours | cucumber-rs | ratio | goal |");
    println!("|---|---:|---:|---:|---|");
    for line in table {
        let ratio = line.ratio.map_or("—".to_string(), |r| format!("{r:.2}×"));
        let goal = match (line.goal, line.ratio) {
            (Some(g), Some(r)) => format!("≤ {g}× ({})", if r <= g { "met" } else { "not met" }),
            (Some(g), None) => format!("≤ {g}×"),
            (None, _) => "—".to_string(),
        };
        println!(
            "| {} | {} | {} | {ratio} | {goal} |",
            line.label, line.ours, line.theirs
        );
    }
}
