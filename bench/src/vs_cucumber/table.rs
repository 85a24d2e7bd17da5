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
    /// Each pair's ratio, when the row has pairs: their spread is shown
    /// beside the median, and how many of them meet the goal.
    pub(super) pairs: Vec<f64>,
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
        pairs: ratios,
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
        "ratio = ours / cucumber-rs (below 1 is better for us), the median of {} paired runs, the pairs' lowest and highest in brackets; goals are printed, not asserted",
        runs.max(1)
    );
    println!();
    println!("| row | ours | cucumber-rs | ratio | goal |");
    println!("|---|---:|---:|---:|---|");
    for line in table {
        println!(
            "| {} | {} | {} | {} | {} |",
            line.label,
            line.ours,
            line.theirs,
            ratio_cell(line.ratio, &line.pairs),
            goal_cell(line.goal, line.ratio, &line.pairs)
        );
    }
}

/// The median ratio, with the pairs' spread when they differ:
/// `0.15× (0.13–0.17)`.
fn ratio_cell(ratio: Option<f64>, pairs: &[f64]) -> String {
    let Some(r) = ratio else {
        return "—".to_string();
    };
    let low = pairs.iter().copied().fold(f64::INFINITY, f64::min);
    let high = pairs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if pairs.len() > 1 && format!("{low:.2}") != format!("{high:.2}") {
        format!("{r:.2}× ({low:.2}–{high:.2})")
    } else {
        format!("{r:.2}×")
    }
}

/// The goal and whether the median meets it; when the pairs do not all
/// agree, how many of them meet it (a row at its goal's edge reads "met"
/// in one invocation and "not met" in the next: this says so).
fn goal_cell(goal: Option<f64>, ratio: Option<f64>, pairs: &[f64]) -> String {
    match (goal, ratio) {
        (Some(g), Some(r)) => {
            let verdict = if r <= g { "met" } else { "not met" };
            let within = pairs.iter().filter(|&&p| p <= g).count();
            if within == 0 || within == pairs.len() {
                format!("≤ {g}× ({verdict})")
            } else {
                format!(
                    "≤ {g}× ({verdict}; {within} of {} pairs within)",
                    pairs.len()
                )
            }
        }
        (Some(g), None) => format!("≤ {g}×"),
        (None, _) => "—".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_whose_pairs_straddle_its_goal_says_how_many_meet_it() {
        let pairs = [0.13, 0.15, 0.16, 0.14, 0.17];
        assert_eq!(ratio_cell(Some(0.15), &pairs), "0.15× (0.13–0.17)");
        assert_eq!(
            goal_cell(Some(0.15), Some(0.15), &pairs),
            "≤ 0.15× (met; 3 of 5 pairs within)"
        );
        assert_eq!(
            goal_cell(Some(0.14), Some(0.15), &pairs),
            "≤ 0.14× (not met; 2 of 5 pairs within)"
        );
    }

    #[test]
    fn a_row_whose_pairs_agree_reads_as_before() {
        let pairs = [0.11, 0.12, 0.11];
        assert_eq!(goal_cell(Some(0.15), Some(0.11), &pairs), "≤ 0.15× (met)");
        assert_eq!(goal_cell(Some(0.1), Some(0.11), &pairs), "≤ 0.1× (not met)");
        assert_eq!(ratio_cell(Some(0.5), &[0.5, 0.501]), "0.50×");
        assert_eq!(ratio_cell(Some(0.5), &[]), "0.50×");
        assert_eq!(ratio_cell(None, &pairs), "—");
        assert_eq!(goal_cell(Some(0.8), None, &pairs), "≤ 0.8×");
        assert_eq!(goal_cell(None, Some(0.5), &pairs), "—");
    }
}
