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
//! * the cold build's floor: ours again after `cargo clean -p` of our
//!   crates and the test crate, and the cold build less that: what the
//!   dependencies alone took;
//! * `cargo nextest run` of ours next to its process floor (the scaling
//!   table's measurement; cucumber-rs cannot run under nextest).
//!
//! Wall time, CPU time and peak RSS come from this binary started as
//! `varar-bench --timer` around the run (`crate::timer`: wall time around
//! the measured process, CPU time to the microsecond and peak RSS from
//! `getrusage` of that one child); off Unix from `/usr/bin/time` (GNU time:
//! `%U %S %M`, wall time `Instant` around it), and without either CPU and
//! RSS are `n/a`.
//! Figures only: the goals are printed, never asserted.

use std::path::Path;
use std::process::{Command, Stdio};

use crate::feature;
use crate::nextest_floor;
use crate::project::{Profile, Project};
use crate::scaling::{self, ScaleOptions};
use crate::shape::Shape;

mod builds;
mod cucumber;
mod options;
mod process;
mod runs;
mod table;

pub use options::{Rows, VsOptions};
use table::{Line, print_table};

use cucumber::{Cucumber, locked_version, ours_command};
use process::{Meter, Probe, cucumber_outcome, libtest_outcome};

/// Measure and print the comparison.
pub fn measure(work: &Path, o: &VsOptions, scale: &ScaleOptions) -> Result<(), String> {
    let has = |r: Rows| o.rows.contains(&r);
    let meter = Meter::find();
    println!();
    println!(
        "== varar vs cucumber-rs {} (tokio {}): paired runs, median of {} ==",
        locked_version("cucumber"),
        locked_version("tokio"),
        o.runs.max(1)
    );
    match &meter {
        Meter::Timer(_) => {
            println!("measured by `varar-bench --timer`: CPU time to the microsecond")
        }
        Meter::GnuTime => {
            println!("note: measured by GNU time, CPU time cut down to hundredths of a second")
        }
        Meter::Wall => println!(
            "note: no getrusage here and no GNU time (Debian package `time`): CPU and peak RSS are n/a"
        ),
    }
    let probe = Probe {
        meter,
        report: work.join("vs-time.txt"),
    };
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
                let lines = runs::runs(
                    work,
                    &ours,
                    &theirs,
                    Profile::Release,
                    shape,
                    corpus,
                    o,
                    &probe,
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
                    let lines = runs::runs(
                        work,
                        &ours,
                        &theirs,
                        Profile::Debug,
                        shape,
                        corpus,
                        o,
                        &probe,
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
        let mut lines = builds::builds(work, o, &probe)?;
        for (k, line) in lines.iter_mut().enumerate() {
            line.rank = (o.shapes.len(), 5, k);
        }
        table.extend(lines);
    }
    table.sort_by_key(|line| line.rank);
    print_table(&table, o.runs);
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
            pairs: f.ratios.clone(),
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
