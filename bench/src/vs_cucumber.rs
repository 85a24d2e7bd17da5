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
//! binaries (ours, cucumber-rs, ours, cucumber-rs…) after one untimed run
//! of each, the median of each column and the median of the per-pair
//! ratios shown:
//!
//! * dev and release, per corpus: the first run (ours with no
//!   `varar.lock.json` and no `.varar/`) and the second run (ours again,
//!   with both present; cucumber-rs has no state, its second run is the
//!   same run again), and the first run's peak RSS;
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

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::corpus;
use crate::e2e::{cargo, write};
use crate::feature;
use crate::project::{Profile, Project};
use crate::scaling::{self, ScaleOptions};

const MANIFEST: &str = include_str!("../cucumber/Cargo.toml");
const LOCK: &str = include_str!("../cucumber/Cargo.lock");
const LIB: &str = include_str!("../cucumber/src/lib.rs");
const MAIN: &str = include_str!("../cucumber/tests/ledger.rs");
const STEPS: &str = include_str!("../cucumber/tests/steps/mod.rs");

/// GNU time, for CPU time and peak RSS.
const TIME: &str = "/usr/bin/time";

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
        }
    }
}

/// What one measured process took.
#[derive(Clone, Copy, Debug)]
struct Sample {
    /// Wall time; the timeout when it was killed.
    wall: Duration,
    /// User + system CPU time, its children's included.
    cpu: Option<Duration>,
    /// Peak resident set size in KiB.
    rss_kib: Option<u64>,
    /// Whether it was killed at the timeout.
    killed: bool,
}

/// One table row: what it compares and the two columns.
struct Line {
    /// Where it goes in the table (the order): stable-sorted.
    rank: (u8, usize),
    label: String,
    ours: String,
    theirs: String,
    ratio: Option<f64>,
    goal: Option<f64>,
}

/// The cucumber-rs project of one profile.
struct Cucumber {
    dir: PathBuf,
    binary: PathBuf,
}

impl Cucumber {
    /// Its directory and target directory under `work`.
    fn paths(work: &Path, profile: Profile) -> (PathBuf, PathBuf) {
        (
            work.join(format!("cucumber-{}", profile.label())),
            work.join(format!("target-cucumber-{}", profile.label())),
        )
    }

    /// Write the project from the templates (features are installed later).
    fn write(work: &Path, profile: Profile) -> Result<(PathBuf, PathBuf), String> {
        let (dir, target) = Cucumber::paths(work, profile);
        write(&dir.join("Cargo.toml"), MANIFEST)?;
        write(&dir.join("Cargo.lock"), LOCK)?;
        write(&dir.join("src/lib.rs"), LIB)?;
        write(&dir.join("tests/ledger.rs"), MAIN)?;
        write(&dir.join("tests/steps/mod.rs"), STEPS)?;
        Ok((dir, target))
    }

    /// Write and build it (not timed).
    fn build(work: &Path, profile: Profile) -> Result<Cucumber, String> {
        let (dir, target) = Cucumber::write(work, profile)?;
        println!("building {} (not timed) ...", dir.display());
        let status = cargo(&dir, &target)
            .args(["test", "--no-run", "--test", "ledger"])
            .args(profile.cargo_args())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .map_err(|e| format!("cannot run cargo: {e}"))?;
        if !status.success() {
            return Err(format!("building {} failed", dir.display()));
        }
        let binary = crate::e2e::built_test(&dir, &target, profile.cargo_args(), "ledger")?;
        Ok(Cucumber { dir, binary })
    }

    /// Replace the project's features with these.
    fn install(&self, features: &[(String, String)]) -> Result<(), String> {
        let old = self.dir.join(feature::FEATURES_DIR);
        if old.exists() {
            fs::remove_dir_all(&old).map_err(|e| format!("{}: {e}", old.display()))?;
        }
        for (path, text) in features {
            write(&self.dir.join(path), text)?;
        }
        Ok(())
    }

    /// The test binary, run as `cargo test` would.
    fn command(&self) -> Command {
        let mut cmd = Command::new(&self.binary);
        cmd.current_dir(&self.dir)
            .env("CARGO_MANIFEST_DIR", &self.dir);
        quiet_env(&mut cmd);
        cmd
    }
}

/// Our test binary, run as `cargo test` would.
fn ours_command(project: &Project) -> Command {
    let mut cmd = Command::new(&project.oaths);
    cmd.current_dir(&project.dir)
        .env("CARGO_MANIFEST_DIR", &project.dir);
    quiet_env(&mut cmd);
    cmd
}

/// The same environment for both binaries: no backtraces captured on the
/// planted failures' panics, no Varar variables.
fn quiet_env(cmd: &mut Command) {
    cmd.env_remove("RUST_BACKTRACE")
        .env_remove("RUST_LIB_BACKTRACE");
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("VARAR_") {
            cmd.env_remove(&key);
        }
    }
}

/// The version of `name` in the cucumber project's lock.
fn locked_version(name: &str) -> String {
    let mut lines = LOCK.lines();
    while let Some(line) = lines.next() {
        if line == format!("name = \"{name}\"")
            && let Some(v) = lines
                .next()
                .and_then(|l| l.strip_prefix("version = \""))
                .and_then(|l| l.strip_suffix('"'))
        {
            return v.to_string();
        }
    }
    "?".to_string()
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
    let dev_needed = has(Rows::Dev) || has(Rows::Build) || has(Rows::Nextest);
    if dev_needed {
        if has(Rows::Build) {
            let mut lines = builds(work, o, &report)?;
            for (k, line) in lines.iter_mut().enumerate() {
                line.rank = (4 + k as u8, 0);
            }
            table.extend(lines);
        }
        println!("building ours, dev (not timed) ...");
        let (ours, _) = Project::build(work, Profile::Debug, &[], false)?;
        let theirs = Cucumber::build(work, Profile::Debug)?;
        check(work, &ours, &theirs, o)?;
        checked = true;
        if has(Rows::Dev) {
            for (i, &corpus) in o.dev.iter().enumerate() {
                let mut lines = runs(work, &ours, &theirs, Profile::Debug, corpus, o, &report)?;
                // The first corpus's runs lead, the others follow release;
                // peak RSS (the third line) after all runs.
                for (k, line) in lines.iter_mut().enumerate() {
                    line.rank = match k {
                        2 => (3, i),
                        _ if i == 0 => (0, 0),
                        _ => (2, i),
                    };
                }
                table.extend(lines);
            }
        }
        if has(Rows::Nextest) {
            for &(n, m) in &o.nextest {
                println!("cargo nextest run {n} x {m} and its floor ...");
                let f = scaling::nextest_vs_floor(work, &ours, scale, n, m)?;
                let partition = if f.partition > 1 {
                    format!(", 1/{} timed and scaled", f.partition)
                } else {
                    String::new()
                };
                let killed = f.run.killed || f.floor.killed;
                table.push(Line {
                    rank: (6, 0),
                    label: format!(
                        "`cargo nextest run` {n}×{m} dev ({} items{partition}), next to its process floor (in the cucumber-rs column)",
                        f.items
                    ),
                    ours: f.show(&f.run),
                    theirs: f.show(&f.floor),
                    ratio: (!killed).then(|| f.ratio()),
                    goal: Some(1.5),
                });
            }
        }
    }
    if has(Rows::Release) && !o.release.is_empty() {
        println!("building ours, release (not timed) ...");
        let (ours, _) = Project::build(work, Profile::Release, &[], false)?;
        let theirs = Cucumber::build(work, Profile::Release)?;
        if !checked {
            check(work, &ours, &theirs, o)?;
        }
        for (j, &corpus) in o.release.iter().enumerate() {
            let mut lines = runs(work, &ours, &theirs, Profile::Release, corpus, o, &report)?;
            for line in &mut lines {
                line.rank = (1, j);
            }
            table.extend(lines);
        }
    }
    table.sort_by_key(|line| line.rank);
    print_table(&table, o);
    Ok(())
}

/// Run both binaries on the check corpus and print whether both report
/// exactly the planted failures; an error when they do not.
fn check(work: &Path, ours: &Project, theirs: &Cucumber, o: &VsOptions) -> Result<(), String> {
    let (n, m) = o.check;
    let c = corpus::generate(&work.join(format!("vs-check-{n}x{m}")), n, m, o.seed)?;
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
        "check {n} x {m} ({} examples, {planted} planted failures): varar {} passed, {} failed; cucumber-rs {} passed, {} failed, {} skipped steps; the same examples fail in both: {}: {}",
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
            "the projects are not equivalent: failing only in varar {only_ours:?}, only in cucumber-rs {only_theirs:?}"
        ))
    }
}

/// Counts and failing names a harness printed.
#[derive(Debug, Default, PartialEq, Eq)]
struct Outcome {
    passed: usize,
    failed: usize,
    skipped: usize,
    /// Failing examples as `oathPath::headings::name`.
    failing: BTreeSet<String>,
}

/// A libtest-mimic run: `test [kind] <name>   ... FAILED` lines (the name
/// padded) and the summary.
fn libtest_outcome(stdout: &str) -> Outcome {
    let mut o = Outcome::default();
    for line in stdout.lines() {
        if let Some(name) = line
            .strip_prefix("test ")
            .and_then(|l| l.strip_suffix(" ... FAILED"))
        {
            let name = name.trim_end();
            let name = match name.split_once("] ") {
                Some((kind, rest)) if kind.starts_with('[') => rest,
                _ => name,
            };
            o.failing.insert(name.to_string());
        }
        if let Some(summary) = line.strip_prefix("test result: ") {
            o.passed = count_before(summary, " passed");
            o.failed = count_before(summary, " failed");
        }
    }
    o
}

/// A cucumber-rs run (its default writer, no colours): failing scenarios as
/// `Feature::Scenario`, the summary's scenario and step counts.
fn cucumber_outcome(stdout: &str) -> Outcome {
    let mut o = Outcome::default();
    let (mut feature, mut scenario) = (String::new(), String::new());
    for line in stdout.lines() {
        if let Some(f) = line.strip_prefix("Feature: ") {
            feature = f.to_string();
        } else if let Some(s) = line.strip_prefix("  Scenario: ") {
            scenario = s.to_string();
        } else if line.starts_with("   ✘") {
            o.failing.insert(format!("{feature}::{scenario}"));
        } else if let Some((_, counts)) = line.split_once(" scenarios (") {
            o.passed = count_before(counts, " passed");
            o.failed = count_before(counts, " failed");
        } else if let Some((_, counts)) = line.split_once(" steps (") {
            o.skipped = count_before(counts, " skipped");
        }
    }
    o
}

/// The number just before `word` in `text` (`12 failed` → 12), or 0.
fn count_before(text: &str, word: &str) -> usize {
    text.find(word)
        .and_then(|at| text[..at].rsplit([' ', '(', ';', ',']).next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// Run `cmd` with its output discarded, under GNU time when there is one;
/// kill it (its process group: it and what it started) after `timeout`.
fn sample(cmd: Command, timeout: Duration, report: &Path) -> Result<Sample, String> {
    let timed = Path::new(TIME).exists();
    let mut run = if timed {
        let mut wrapped = Command::new(TIME);
        wrapped
            .args(["-f", "%U %S %M", "-o"])
            .arg(report)
            .arg(cmd.get_program())
            .args(cmd.get_args());
        if let Some(dir) = cmd.get_current_dir() {
            wrapped.current_dir(dir);
        }
        for (key, value) in cmd.get_envs() {
            match value {
                Some(v) => wrapped.env(key, v),
                None => wrapped.env_remove(key),
            };
        }
        wrapped
    } else {
        cmd
    };
    run.stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut run, 0);
    let start = Instant::now();
    let mut child = run
        .spawn()
        .map_err(|e| format!("cannot run {run:?}: {e}"))?;
    let killed = loop {
        match child.try_wait() {
            Ok(Some(_)) => break false,
            Ok(None) if start.elapsed() > timeout => {
                kill_group(child.id());
                let _ = child.kill();
                let _ = child.wait();
                break true;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(e) => return Err(format!("cannot wait for {run:?}: {e}")),
        }
    };
    let wall = if killed { timeout } else { start.elapsed() };
    let (cpu, rss_kib) = if timed && !killed {
        read_time(report)
    } else {
        (None, None)
    };
    Ok(Sample {
        wall,
        cpu,
        rss_kib,
        killed,
    })
}

/// Kill the process group `id` (the measured command was made its leader).
fn kill_group(id: u32) {
    if cfg!(unix) {
        let _ = Command::new("kill")
            .args(["-KILL", &format!("-{id}")])
            .stderr(Stdio::null())
            .status();
    }
}

/// GNU time's `%U %S %M` line (the last line: a non-zero exit status is
/// reported on a line before it).
fn read_time(report: &Path) -> (Option<Duration>, Option<u64>) {
    let text = fs::read_to_string(report).unwrap_or_default();
    parse_time(&text)
}

fn parse_time(text: &str) -> (Option<Duration>, Option<u64>) {
    let Some(last) = text.lines().rev().find(|l| !l.trim().is_empty()) else {
        return (None, None);
    };
    let fields: Vec<&str> = last.split_whitespace().collect();
    let secs = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok());
    let cpu = match (secs(0), secs(1)) {
        (Some(u), Some(s)) => Some(Duration::from_secs_f64(u + s)),
        _ => None,
    };
    (cpu, fields.get(2).and_then(|f| f.parse().ok()))
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
    for (label, pairs, by_cpu) in [
        (
            "cold `cargo test --no-run` dev: CPU (wall), ratio of CPU",
            &cold,
            true,
        ),
        (
            "rebuild after editing the step file, dev: CPU (wall), ratio of wall",
            &rebuild,
            false,
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
            rank: (0, 0),
            label: label.to_string(),
            ours: show(&a),
            theirs: show(&b),
            ratio: median_f64(&mut ratios),
            goal: Some(0.7),
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
/// interleaved; the first run's peak RSS for the dev profile.
fn runs(
    work: &Path,
    ours: &Project,
    theirs: &Cucumber,
    profile: Profile,
    (n, m): (usize, usize),
    o: &VsOptions,
    report: &Path,
) -> Result<Vec<Line>, String> {
    let c = corpus::generate(&work.join(format!("vs-corpus-{n}x{m}")), n, m, o.seed)?;
    theirs.install(&feature::features(&c)?)?;
    let label = if profile == Profile::Release {
        "release"
    } else {
        "dev"
    };
    println!(
        "{n} x {m} {label}: {} examples, {} pairs of runs ...",
        c.examples_total,
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
    // The goals, for its corpora.
    let goal = match (profile, n, m) {
        (Profile::Release, 200, 25) => Some(0.5),
        (Profile::Release, _, _) => None,
        (_, 200, 25) => Some(0.3),
        (_, 20, 25) => Some(0.5),
        _ => None,
    };
    let mut lines = Vec::new();
    for (which, pairs) in [
        ("first run", &first),
        ("second run (ours: lock present)", &second),
    ] {
        let killed = pairs.iter().any(|(a, b)| a.killed || b.killed);
        let mut ratios: Vec<f64> = pairs
            .iter()
            .map(|(a, b)| a.wall.as_secs_f64() / b.wall.as_secs_f64().max(1e-9))
            .collect();
        let a = median_sample(pairs.iter().map(|p| p.0).collect(), |s| s.wall);
        let b = median_sample(pairs.iter().map(|p| p.1).collect(), |s| s.wall);
        lines.push(Line {
            rank: (0, 0),
            label: format!("{n}×{m} {label}, {which}"),
            ours: show_wall(&a, o.timeout),
            theirs: show_wall(&b, o.timeout),
            ratio: if killed {
                None
            } else {
                median_f64(&mut ratios)
            },
            goal,
        });
    }
    if profile != Profile::Release {
        let rss: Vec<(u64, u64)> = first
            .iter()
            .filter_map(|(a, b)| Some((a.rss_kib?, b.rss_kib?)))
            .collect();
        let mut ratios: Vec<f64> = rss
            .iter()
            .map(|&(a, b)| a as f64 / b.max(1) as f64)
            .collect();
        let mut ours_rss: Vec<u64> = rss.iter().map(|r| r.0).collect();
        let mut theirs_rss: Vec<u64> = rss.iter().map(|r| r.1).collect();
        let mib = |v: &mut Vec<u64>| {
            v.sort_unstable();
            v.get(v.len() / 2).map_or("n/a".to_string(), |k| {
                format!("{:.1} MiB", *k as f64 / 1024.0)
            })
        };
        lines.push(Line {
            rank: (0, 0),
            label: format!("peak RSS {n}×{m} {label}, first run"),
            ours: mib(&mut ours_rss),
            theirs: mib(&mut theirs_rss),
            ratio: median_f64(&mut ratios),
            goal: ((n, m) == (200, 25)).then_some(1.2),
        });
    }
    Ok(lines)
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
    fn libtest_counts_and_failing_names() {
        let out = "running 3 tests\ntest a.md::x ... ok\ntest [varar] a.md::y    ... FAILED\ntest a.md::w ... FAILED\ntest a.md::z ... ok\n\ntest result: FAILED. 2 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s\n";
        let o = libtest_outcome(out);
        assert_eq!((o.passed, o.failed), (2, 2));
        assert_eq!(
            o.failing,
            BTreeSet::from(["a.md::w".to_string(), "a.md::y".to_string()])
        );
    }

    #[test]
    fn cucumber_counts_and_failing_names() {
        let out = "Feature: a.md\n  Scenario: x\n   ✔  When Ada deposits 3\n  Scenario: y\n   ✔  When Ada deposits 3\n   ✘  Then the balance is 4\n      Step failed:\n[Summary]\n1 feature\n2 scenarios (1 passed, 1 failed)\n4 steps (3 passed, 1 failed)\n";
        let o = cucumber_outcome(out);
        assert_eq!((o.passed, o.failed, o.skipped), (1, 1, 0));
        assert_eq!(o.failing, BTreeSet::from(["a.md::y".to_string()]));
        let skipped =
            cucumber_outcome("3 scenarios (2 passed, 1 skipped)\n5 steps (4 passed, 1 skipped)\n");
        assert_eq!((skipped.passed, skipped.failed, skipped.skipped), (2, 0, 1));
    }

    #[test]
    fn gnu_time_line_after_an_exit_status() {
        let (cpu, rss) = parse_time("Command exited with non-zero status 101\n1.25 0.50 40960\n");
        assert_eq!(cpu, Some(Duration::from_secs_f64(1.75)));
        assert_eq!(rss, Some(40960));
        assert_eq!(parse_time(""), (None, None));
    }

    #[test]
    fn the_lock_names_cucumber_0_23() {
        assert!(locked_version("cucumber").starts_with("0.23."));
        assert_ne!(locked_version("tokio"), "?");
        assert_eq!(locked_version("no-such-crate"), "?");
    }

    #[test]
    fn row_groups_parse() {
        assert_eq!(Rows::parse("nextest"), Ok(Rows::Nextest));
        assert!(Rows::parse("all").is_err());
    }
}
