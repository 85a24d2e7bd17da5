//! The nextest row of the scaling table: `cargo nextest run` of an N × M
//! corpus next to its process floor, as paired runs (issue 23).

use std::path::Path;

use crate::project::{FLOOR_VAR, Project, Timed};
use crate::scale_options::{ScaleOptions, config, ratio};
use crate::shape::Shape;

/// `cargo nextest run` of the N × M corpus next to the floor: the same
/// number of trivial libtest-mimic trials under nextest, `o.runs` pairs,
/// each the floor then ours, so that a pair sees the same machine (a
/// floor measured alone read anywhere between 14.8 and 20.1 s on one
/// machine in one day).
pub fn nextest_vs_floor(
    work: &Path,
    project: &Project,
    o: &ScaleOptions,
    shape: Shape,
    n: usize,
    m: usize,
) -> Result<NextestFigures, String> {
    let dir = match shape {
        Shape::Ledger => work.join(format!("scale-corpus-{n}x{m}")),
        Shape::Docs => work.join(format!("scale-docs-{n}x{m}")),
    };
    let c = shape.generate(&dir, n, m, o.seed)?;
    project.install(&config(), &c.oaths)?;
    // A committed baseline, as in a real project.
    project.run_oaths(&[], o.timeout)?;
    let items = count_items(project)?;
    let k = o.nextest_partition.max(1);
    let partition = format!("count:1/{k}");
    let extra: Vec<&str> = if k > 1 {
        vec!["--partition", &partition]
    } else {
        Vec::new()
    };
    // Build (and let nextest list) once outside the timing.
    project.nextest("floor", &["--no-run"], &[], o.timeout)?;
    project.nextest("oaths", &["--no-run"], &[], o.timeout)?;
    let mut pairs = Vec::new();
    for _ in 0..o.runs.max(1) {
        let floor = project.nextest(
            "floor",
            &extra,
            &[(FLOOR_VAR, items.to_string())],
            o.timeout,
        )?;
        let run = project.nextest("oaths", &extra, &[], o.timeout)?;
        println!(
            "  pair (ours / floor): {} / {} = {:.2}x",
            run.show(),
            floor.show(),
            ratio(&run, &floor)
        );
        let killed = floor.killed || run.killed;
        pairs.push((ratio(&run, &floor), run, floor));
        if killed {
            break;
        }
    }
    let count = pairs.len();
    let ratios = pairs.iter().map(|p| p.0).collect();
    let (median_ratio, run, floor) = median_pair(pairs);
    Ok(NextestFigures {
        run,
        floor,
        median_ratio,
        ratios,
        pairs: count,
        items,
        partition: k,
    })
}

/// The pair whose ratio is the median (the upper one of an even count).
fn median_pair(mut pairs: Vec<(f64, Timed, Timed)>) -> (f64, Timed, Timed) {
    pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
    pairs.swap_remove(pairs.len() / 2)
}

/// The nextest row of the table.
pub(crate) fn nextest_row(
    work: &Path,
    project: &Project,
    o: &ScaleOptions,
    n: usize,
    m: usize,
) -> Result<(), String> {
    let f = nextest_vs_floor(work, project, o, Shape::Ledger, n, m)?;
    println!(
        "  cargo nextest run {n} x {m} ({} items{}): {} vs floor {} = {:.2}x the floor, median of {} pairs (goal <= 1.5x)",
        f.items,
        if f.partition > 1 {
            format!(", partition 1/{} timed and scaled", f.partition)
        } else {
            String::new()
        },
        f.show(&f.run),
        f.show(&f.floor),
        f.ratio(),
        f.pairs
    );
    Ok(())
}

/// The items the oaths binary lists (examples, diagnostics, drift), kind
/// prefix and all.
fn listed_items(project: &Project) -> Result<Vec<String>, String> {
    let out = std::process::Command::new(&project.oaths)
        .arg("--list")
        .current_dir(&project.dir)
        .env("CARGO_MANIFEST_DIR", &project.dir)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", project.oaths.display()))?;
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.strip_suffix(": test"))
        .map(str::to_string)
        .collect())
}

/// The middle listed item.
pub(crate) fn middle_item(project: &Project) -> Result<String, String> {
    let items = listed_items(project)?;
    items
        .get(items.len() / 2)
        .cloned()
        .ok_or_else(|| "the oaths binary lists no item".to_string())
}

/// How many items the oaths binary lists.
fn count_items(project: &Project) -> Result<usize, String> {
    Ok(listed_items(project)?.len())
}

/// What `cargo nextest run` of a corpus took next to the floor.
#[derive(Clone, Debug)]
pub struct NextestFigures {
    /// The oaths binary under nextest (the timed partition): the pair
    /// whose ratio is the median's.
    pub run: Timed,
    /// The floor binary, as many trivial trials, under nextest, in the
    /// same pair.
    pub floor: Timed,
    /// The median over the pairs of each pair's run over its floor.
    pub median_ratio: f64,
    /// Each pair's run over its floor, in the order timed.
    pub ratios: Vec<f64>,
    /// Pairs timed.
    pub pairs: usize,
    /// Items the oaths binary lists.
    pub items: usize,
    /// `K` of `--partition count:1/K` (1: everything was run).
    pub partition: usize,
}

impl NextestFigures {
    /// `t`, scaled by the partition: `1.2 s x 10 = 12.0 s`.
    pub fn show(&self, t: &Timed) -> String {
        let k = self.partition;
        if k > 1 {
            format!(
                "{} x {k} = {:.1} s",
                t.show(),
                t.wall.as_secs_f64() * k as f64
            )
        } else {
            t.show()
        }
    }

    /// The run over the floor: the median of the pairs' ratios.
    pub fn ratio(&self) -> f64 {
        self.median_ratio
    }

    /// Whether a timed command was killed at the timeout.
    pub fn killed(&self) -> bool {
        self.run.killed || self.floor.killed
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn timed(secs: f64) -> Timed {
        Timed {
            wall: Duration::from_secs_f64(secs),
            cpu: None,
            killed: false,
        }
    }

    #[test]
    fn the_nextest_row_is_the_pair_of_the_median_ratio() {
        let pairs = [(2.0, 30.0, 15.0), (1.4, 28.0, 20.0), (1.5, 24.0, 16.0)]
            .map(|(r, run, floor)| (r, timed(run), timed(floor)))
            .to_vec();
        let (ratio, run, floor) = median_pair(pairs);
        assert_eq!(ratio, 1.5);
        assert_eq!((run.wall, floor.wall), (timed(24.0).wall, timed(16.0).wall));
        let (one, ..) = median_pair(vec![(1.2, timed(1.2), timed(1.0))]);
        assert_eq!(one, 1.2);
    }
}
