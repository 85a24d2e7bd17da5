//! `--vs-cucumber`: Varar for Rust next to cucumber-rs 0.23 on tokio (what a
//! Rust team picks instead) on equivalent projects, each figure printed as
//! `ours | cucumber-rs | ratio | goal` (ratio = ours / cucumber-rs: below 1
//! is better for us). Both columns are measured in one run.
//!
//! The two projects:
//!
//! * ours is the scaling table's project (`target/varar-bench/scale-<profile>`:
//!   the corpus's eight steps of `steps.rs` behind `tests/oaths.rs`), in the
//!   plain dev profile (no `[profile.dev.package]` lines) and in release;
//! * cucumber-rs's is `target/varar-bench/cucumber-<profile>`, copied from
//!   the templates in `bench/cucumber/` (its `Cargo.toml` and `Cargo.lock`,
//!   the same eight steps written for cucumber-rs, a `harness = false`
//!   `tests/ledger.rs` on `#[tokio::main]`), with the corpus written as
//!   `.feature` files by [`crate::feature`]: one scenario per example.
//!   `bench/cucumber/` is not a workspace member, so only this mode builds it.
//!
//! Before anything is timed, a small corpus runs in both and the bench
//! prints that both report exactly the planted failures (the same examples
//! fail, as many as the generator planted); if not, it stops.
//!
//! The rows, each measured by paired, interleaved runs of the two test
//! binaries (ours, cucumber-rs, ours, cucumber-rs…) after the builds are
//! synced to disk and one untimed run of each, the median of each column and the median of the per-pair
//! ratios shown:
//!
//! * dev and release, per corpus: the first run (ours with no
//!   `varar.lock.json` and no `.varar/`: the previous pair's are moved out
//!   of the project, not deleted just before, see [`crate::project::retire`])
//!   and the second run (ours again, with both present; cucumber-rs has no
//!   state, its second run is the same run again), and the first run's
//!   peak RSS;
//! * the cold build: an empty target directory per project (crates
//!   fetched beforehand), `cargo test --no-run` of the measured test
//!   target, its CPU time (wall time);
//! * the rebuild: a line added at the top of the step file, the same
//!   `cargo test --no-run` again;
//! * `cargo nextest run` of ours next to its process floor (the scaling
//!   table's measurement; cucumber-rs cannot run under nextest).
//!
//! Wall time is `Instant` around the process; CPU time and peak RSS come
//! from `/usr/bin/time` (GNU time: `%U %S %M`), shown as `n/a` without it.
//! Figures only: the goals are printed, never asserted.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::e2e::{cargo, write};
use crate::feature;
use crate::nextest_floor;
use crate::project::{Profile, Project};
use crate::scaling::{self, ScaleOptions};
use crate::shape::Shape;

mod cucumber;
mod process;

use cucumber::{Cucumber, locked_version, ours_command};
use process::{Sample, TIME, cucumber_outcome, libtest_outcome, sample};

/// A build outlives this only when something is wrong.
const BUILD_TIMEOUT: Duration = Duration::from_secs(3600);

/// A group of rows, chosen with `--vs-rows`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rows {
    /// Dev profile first and second runs, and peak RSS, per `--vs-dev` corpus.
    Dev,
    /// Release first and second runs per `--vs-release` corpus.
    Release,
    /// Cold build and rebuild after editing the step file (dev profile).
    Build,
    /// `cargo nextest run` of ours next to its floor (dev profile).
    Nextest,
}

impl Rows {
    /// Every group, in table order.
    pub const ALL: [Rows; 4] = [Rows::Dev, Rows::Release, Rows::Build, Rows::Nextest];

    /// How `--vs-rows` names it.
    pub fn parse(s: &str) -> Result<Rows, String> {
        match s {
            "dev" => Ok(Rows::Dev),
            "release" => Ok(Rows::Release),
            "build" => Ok(Rows::Build),
            "nextest" => Ok(Rows::Nextest),
            other => Err(format!(
                "unknown row group {other:?} (dev, release, build, nextest)"
            )),
        }
    }
}

/// What `--vs-cucumber` measures.
#[derive(Clone, Debug)]
pub struct VsOptions {
    /// Corpora of the dev profile rows.
    pub dev: Vec<(usize, usize)>,
    /// Corpora of the release rows.
    pub release: Vec<(usize, usize)>,
    /// Corpus of the planted-failure check.
    pub check: (usize, usize),
    /// Corpora of the nextest rows.
    pub nextest: Vec<(usize, usize)>,
    /// Run only `count:1/K` of the items under nextest and scale by K.
    pub nextest_partition: usize,
    /// Row groups to measure.
    pub rows: Vec<Rows>,
    /// Pairs of runs per row (the medians are shown).
    pub runs: usize,
    /// Pairs of cold builds and rebuilds.
    pub build_runs: usize,
    /// Timeout of one test binary run (a killed run is shown as `> T s`).
    pub timeout: Duration,
    /// Corpus seed.
    pub seed: u64,
    /// The corpora every corpus-dependent row is measured on.
    pub shapes: Vec<Shape>,
}

impl Default for VsOptions {
    fn default() -> Self {
        VsOptions {
            dev: vec![(200, 25), (20, 25)],
            release: vec![(200, 25)],
            check: (20, 25),
            nextest: vec![(100, 25)],
            nextest_partition: 1,
            rows: Rows::ALL.to_vec(),
            runs: 3,
            build_runs: 1,
            timeout: Duration::from_secs(600),
            seed: 1,
            shapes: Shape::ALL.to_vec(),
        }
    }
}

/// One table row: what it compares and the two columns.
struct Line {
    /// Where it goes in the table: by corpus, then the order;
    /// stable-sorted.
    rank: (usize, u8, usize),
    label: String,
    ours: String,
    theirs: String,
    ratio: Option<f64>,
    goal: Option<f64>,
}

/// Measure and print the comparison.
pub fn measure(work: &Path, o: &VsOptions, scale: &ScaleOptions) -> Result<(), String> {
    let has = |r: Rows| o.rows.contains(&r);
    let time_ok = Path::new(TIME).exists();
    println!();
    println!(
        "== varar vs cucumber-rs {} (tokio {}): paired runs, median of {} ==",
        locked_version("cucumber"),
        locked_version("tokio"),
        o.runs.max(1)
    );
    if !time_ok {
        println!("note: {TIME} not found (Debian package `time`): CPU and peak RSS are n/a");
    }
    let report = work.join("vs-time.txt");
    let mut table: Vec<Line> = Vec::new();
    let mut checked = false;
    // The rows that create files in their first runs come before those
    // that delete thousands (nextest's processes replace their records,
    // a cold build its scratch files): on a file system without a journal
    // ext4 steps over inodes freed in the last minutes when it allocates
    // new ones, so a first run's 200 result files cost what the rows
    // before it deleted, not what the run does. A user's first run on a
    // fresh clone meets no such deletions.
    if has(Rows::Release) && !o.release.is_empty() {
        println!("building ours, release (not timed) ...");
        let (ours, _) = Project::build(work, Profile::Release, &[], false)?;
        let theirs = Cucumber::build(work, Profile::Release)?;
        settle();
        for (s, &shape) in o.shapes.iter().enumerate() {
            check(work, &ours, &theirs, o, shape)?;
            for (j, &corpus) in o.release.iter().enumerate() {
                let lines = runs(
                    work,
                    &ours,
                    &theirs,
                    Profile::Release,
                    shape,
                    corpus,
                    o,
                    &report,
                )?;
                table.extend(lines.into_iter().map(|mut line| {
                    line.rank = (s, 1, j);
                    line
                }));
            }
        }
        checked = true;
    }
    if has(Rows::Dev) || has(Rows::Nextest) {
        println!("building ours, dev (not timed) ...");
        let (ours, _) = Project::build(work, Profile::Debug, &[], false)?;
        let theirs = Cucumber::build(work, Profile::Debug)?;
        settle();
        for (s, &shape) in o.shapes.iter().enumerate() {
            if !checked {
                check(work, &ours, &theirs, o, shape)?;
            }
            if has(Rows::Dev) {
                for (i, &corpus) in o.dev.iter().enumerate() {
                    let lines = runs(
                        work,
                        &ours,
                        &theirs,
                        Profile::Debug,
                        shape,
                        corpus,
                        o,
                        &report,
                    )?;
                    // The first corpus's rows lead, the others follow release;
                    // peak RSS after all runs.
                    table.extend(lines.into_iter().map(|mut line| {
                        line.rank = match (line.label.starts_with("peak RSS"), i) {
                            (true, _) => (s, 3, i),
                            (false, 0) => (s, 0, 0),
                            (false, _) => (s, 2, i),
                        };
                        line
                    }));
                }
            }
            if has(Rows::Nextest) {
                table.extend(nextest_rows(work, &ours, o, scale, shape)?.into_iter().map(
                    |mut line| {
                        line.rank = (s, 4, 0);
                        line
                    },
                ));
            }
        }
    }
    if has(Rows::Build) {
        let mut lines = builds(work, o, &report)?;
        for (k, line) in lines.iter_mut().enumerate() {
            line.rank = (o.shapes.len(), 5, k);
        }
        table.extend(lines);
    }
    table.sort_by_key(|line| line.rank);
    print_table(&table, o);
    Ok(())
}

/// Write what the builds left in the page cache to the disk (`sync`)
/// before anything is timed: a freshly linked binary is megabytes of dirty
/// pages, whose writeback would otherwise go on during the first timed
/// runs and land on whichever writes files (ours: its results, lock and
/// record). Best effort: without `sync` the rows are timed all the same.
fn settle() {
    let _ = Command::new("sync")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

/// `cargo nextest run` of each nextest corpus next to its process floor.
fn nextest_rows(
    work: &Path,
    ours: &Project,
    o: &VsOptions,
    scale: &ScaleOptions,
    shape: Shape,
) -> Result<Vec<Line>, String> {
    let mut lines = Vec::new();
    let name = shape.name();
    for &(n, m) in &o.nextest {
        println!("cargo nextest run {n} x {m} {name} and its floor ...");
        let f = nextest_floor::nextest_vs_floor(work, ours, scale, shape, n, m)?;
        let partition = if f.partition > 1 {
            format!(", 1/{} timed and scaled", f.partition)
        } else {
            String::new()
        };
        lines.push(Line {
            rank: (0, 0, 0),
            label: format!(
                "`cargo nextest run` {n}×{m} {name} dev ({} items{partition}), next to its process floor (in the cucumber-rs column; median of {} pairs)",
                f.items, f.pairs
            ),
            ours: f.show(&f.run),
            theirs: f.show(&f.floor),
            ratio: (!f.killed()).then(|| f.ratio()),
            goal: Some(1.2),
        });
    }
    Ok(lines)
}

/// Run both binaries on the check corpus and print whether both report
/// exactly the planted failures; an error when they do not.
fn check(
    work: &Path,
    ours: &Project,
    theirs: &Cucumber,
    o: &VsOptions,
    shape: Shape,
) -> Result<(), String> {
    let (n, m) = o.check;
    let name = shape.name();
    let c = shape.generate(&work.join(format!("vs-check-{name}-{n}x{m}")), n, m, o.seed)?;
    ours.install(&scaling::config(), &c.oaths)?;
    theirs.install(&feature::features(&c)?)?;
    let out = |mut cmd: Command| -> Result<String, String> {
        let output = cmd
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output()
            .map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    };
    let a = libtest_outcome(&out(ours_command(ours))?);
    let b = cucumber_outcome(&out(theirs.command())?);
    let planted = c.expected_failures;
    let same = a.failing == b.failing;
    let ok = a.failed == planted
        && b.failed == planted
        && same
        && a.passed + a.failed == c.examples_total
        && b.passed + b.failed == c.examples_total
        && b.skipped == 0;
    println!(
        "check {n} x {m} {name} ({} examples, {planted} planted failures): varar {} passed, {} failed; cucumber-rs {} passed, {} failed, {} skipped steps; the same examples fail in both: {}: {}",
        c.examples_total,
        a.passed,
        a.failed,
        b.passed,
        b.failed,
        b.skipped,
        if same { "yes" } else { "no" },
        if ok {
            "both report exactly the planted failures"
        } else {
            "MISMATCH"
        }
    );
    if ok {
        Ok(())
    } else {
        let only_ours: Vec<_> = a.failing.difference(&b.failing).collect();
        let only_theirs: Vec<_> = b.failing.difference(&a.failing).collect();
        Err(format!(
            "the projects are not equivalent on the {name} corpus: failing only in varar {only_ours:?}, only in cucumber-rs {only_theirs:?}"
        ))
    }
}

/// The cold build and the rebuild after editing the step file, both
/// projects in the dev profile, interleaved.
fn builds(work: &Path, o: &VsOptions, report: &Path) -> Result<Vec<Line>, String> {
    let (ours_dir, ours_target) = Project::write(work, Profile::Debug, &[])?;
    let (theirs_dir, theirs_target) = Cucumber::write(work, Profile::Debug)?;
    for (dir, target) in [(&ours_dir, &ours_target), (&theirs_dir, &theirs_target)] {
        // Crates downloaded beforehand: the cold build compiles, it does not fetch.
        let status = cargo(dir, target)
            .arg("fetch")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .map_err(|e| format!("cannot run cargo: {e}"))?;
        if !status.success() {
            return Err(format!("cargo fetch failed in {}", dir.display()));
        }
    }
    let build = |dir: &Path, target: &Path, test: &str| -> Result<Sample, String> {
        let mut cmd = cargo(dir, target);
        cmd.args(["test", "--no-run", "--test", test]);
        let s = sample(cmd, BUILD_TIMEOUT, report)?;
        if s.killed {
            return Err(format!("building {} took too long", dir.display()));
        }
        Ok(s)
    };
    let (mut cold, mut rebuild) = (Vec::new(), Vec::new());
    for round in 0..o.build_runs.max(1) {
        println!(
            "cold builds (dev), round {} of {} ...",
            round + 1,
            o.build_runs.max(1)
        );
        for target in [&ours_target, &theirs_target] {
            if target.exists() {
                fs::remove_dir_all(target).map_err(|e| format!("{}: {e}", target.display()))?;
            }
        }
        let a = build(&ours_dir, &ours_target, "oaths")?;
        let b = build(&theirs_dir, &theirs_target, "ledger")?;
        cold.push((a, b));
        edit_steps(&ours_dir, round)?;
        edit_steps(&theirs_dir, round)?;
        let a = build(&ours_dir, &ours_target, "oaths")?;
        let b = build(&theirs_dir, &theirs_target, "ledger")?;
        rebuild.push((a, b));
    }
    let cpu = |s: &Sample| s.cpu.unwrap_or(s.wall);
    let show = |s: &Sample| match s.cpu {
        Some(c) => format!("{:.1} s ({:.1} s)", c.as_secs_f64(), s.wall.as_secs_f64()),
        None => format!("n/a ({:.1} s)", s.wall.as_secs_f64()),
    };
    let mut lines = Vec::new();
    // Issue 39's goals.
    for (label, pairs, by_cpu, goal) in [
        (
            "cold `cargo test --no-run` dev: CPU (wall), ratio of CPU",
            &cold,
            true,
            0.5,
        ),
        (
            "rebuild after editing the step file, dev: CPU (wall), ratio of wall",
            &rebuild,
            false,
            0.3,
        ),
    ] {
        let key = |s: &Sample| if by_cpu { cpu(s) } else { s.wall };
        let mut ratios: Vec<f64> = pairs
            .iter()
            .map(|(a, b)| key(a).as_secs_f64() / key(b).as_secs_f64().max(1e-9))
            .collect();
        let a = median_sample(pairs.iter().map(|p| p.0).collect(), key);
        let b = median_sample(pairs.iter().map(|p| p.1).collect(), key);
        lines.push(Line {
            rank: (0, 0, 0),
            label: label.to_string(),
            ours: show(&a),
            theirs: show(&b),
            ratio: median_f64(&mut ratios),
            goal: Some(goal),
        });
    }
    Ok(lines)
}

/// Add a line at the top of a project's step file: every step moves one
/// line down (both step macros record their line), as a real edit would.
fn edit_steps(dir: &Path, round: usize) -> Result<(), String> {
    let path = dir.join("tests/steps/mod.rs");
    let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    write(
        &path,
        &format!("// varar-bench: edited for the rebuild ({round})\n{text}"),
    )
}

/// First and second runs of one corpus in one profile, paired and
/// interleaved: wall and CPU time of each, and for the dev profile the
/// peak RSS of each.
#[allow(clippy::too_many_arguments)]
fn runs(
    work: &Path,
    ours: &Project,
    theirs: &Cucumber,
    profile: Profile,
    shape: Shape,
    (n, m): (usize, usize),
    o: &VsOptions,
    report: &Path,
) -> Result<Vec<Line>, String> {
    let name = shape.name();
    let c = shape.generate(&work.join(format!("vs-{name}-{n}x{m}")), n, m, o.seed)?;
    theirs.install(&feature::features(&c)?)?;
    let label = if profile == Profile::Release {
        "release"
    } else {
        "dev"
    };
    println!(
        "{n} x {m} {name} {label}: {} examples, {:.2} MB, {} pairs of runs ...",
        c.examples_total,
        c.bytes() as f64 / 1e6,
        o.runs.max(1)
    );
    // One untimed run of each warms the page cache (binaries, oaths, features).
    ours.install(&scaling::config(), &c.oaths)?;
    sample(ours_command(ours), o.timeout, report)?;
    sample(theirs.command(), o.timeout, report)?;
    let (mut first, mut second) = (Vec::new(), Vec::new());
    for _ in 0..o.runs.max(1) {
        // No lock and no results: what a first `cargo test` meets.
        ours.install(&scaling::config(), &c.oaths)?;
        let a1 = sample(ours_command(ours), o.timeout, report)?;
        let b1 = sample(theirs.command(), o.timeout, report)?;
        let a2 = sample(ours_command(ours), o.timeout, report)?;
        let b2 = sample(theirs.command(), o.timeout, report)?;
        let show = |s: &Sample| match s.cpu {
            Some(cpu) if !s.killed => format!(
                "{} (CPU {:.3} s)",
                show_wall(s, o.timeout),
                cpu.as_secs_f64()
            ),
            _ => show_wall(s, o.timeout),
        };
        println!(
            "  pair (ours / cucumber-rs): first {} / {}, second {} / {}",
            show(&a1),
            show(&b1),
            show(&a2),
            show(&b2)
        );
        first.push((a1, b1));
        second.push((a2, b2));
    }
    // Issue 39's goals, for its corpora (the same on both shapes).
    let goal = match (profile, n, m) {
        (Profile::Release, 200, 25) => Some(0.25),
        (Profile::Release, _, _) => None,
        (_, 200, 25) => Some(0.15),
        (_, 20, 25) => Some(0.25),
        _ => None,
    };
    let mut lines = Vec::new();
    for (which, pairs) in [
        ("first run", &first),
        ("second run (ours: lock present)", &second),
    ] {
        let killed = pairs.iter().any(|(a, b)| a.killed || b.killed);
        lines.push(paired(
            format!("{n}×{m} {name} {label}, {which}: wall"),
            pairs,
            |s| Some(s.wall.as_secs_f64()),
            |s| show_wall(s, o.timeout),
            killed,
            goal,
        ));
        lines.push(paired(
            format!("{n}×{m} {name} {label}, {which}: CPU"),
            pairs,
            |s| s.cpu.map(|c| c.as_secs_f64()),
            |s| {
                s.cpu
                    .map_or("n/a".to_string(), |c| format!("{:.3} s", c.as_secs_f64()))
            },
            killed,
            goal,
        ));
    }
    if profile != Profile::Release {
        for (which, pairs) in [("first run", &first), ("second run", &second)] {
            lines.push(paired(
                format!("peak RSS {n}×{m} {name} {label}, {which}"),
                pairs,
                |s| s.rss_kib.map(|k| k as f64),
                |s| {
                    s.rss_kib.map_or("n/a".to_string(), |k| {
                        format!("{:.1} MiB", k as f64 / 1024.0)
                    })
                },
                false,
                Some(0.8),
            ));
        }
    }
    Ok(lines)
}

/// One row from pairs of samples: the median of each column by `key`, and
/// the median of the per-pair ratios (none when a run was killed or a
/// figure is missing).
fn paired(
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
fn show_wall(s: &Sample, timeout: Duration) -> String {
    if s.killed {
        format!("> {:.0} s", timeout.as_secs_f64())
    } else {
        format!("{:.3} s", s.wall.as_secs_f64())
    }
}

/// The sample with the median `key` (the upper one of an even count, as
/// `e2e::median` does).
fn median_sample(mut samples: Vec<Sample>, key: impl Fn(&Sample) -> Duration) -> Sample {
    samples.sort_by_key(|s| key(s));
    samples.get(samples.len() / 2).copied().unwrap_or(Sample {
        wall: Duration::ZERO,
        cpu: None,
        rss_kib: None,
        killed: false,
    })
}

/// The median of `values` (sorts them); `None` when empty.
fn median_f64(values: &mut [f64]) -> Option<f64> {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied()
}

/// The table, as Markdown.
fn print_table(table: &[Line], o: &VsOptions) {
    println!();
    println!(
        "ratio = ours / cucumber-rs (below 1 is better for us), the median of {} paired runs; goals are printed, not asserted",
        o.runs.max(1)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_groups_parse() {
        assert_eq!(Rows::parse("nextest"), Ok(Rows::Nextest));
        assert!(Rows::parse("all").is_err());
    }
}
