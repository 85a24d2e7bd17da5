//! One measured process of the comparison: its wall time, CPU time and
//! peak RSS (from GNU time), killed at a timeout with its process group, and
//! the counts and failing names its harness printed.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// GNU time, for CPU time and peak RSS.
pub(super) const TIME: &str = "/usr/bin/time";

/// What one measured process took.
#[derive(Clone, Copy, Debug)]
pub(super) struct Sample {
    /// Wall time; the timeout when it was killed.
    pub(super) wall: Duration,
    /// User + system CPU time, its children's included.
    pub(super) cpu: Option<Duration>,
    /// Peak resident set size in KiB.
    pub(super) rss_kib: Option<u64>,
    /// Whether it was killed at the timeout.
    pub(super) killed: bool,
}

/// Counts and failing names a harness printed.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Outcome {
    pub(super) passed: usize,
    pub(super) failed: usize,
    pub(super) skipped: usize,
    /// Failing examples as `oathPath::headings::name`.
    pub(super) failing: BTreeSet<String>,
}

/// A libtest-mimic run: `test [kind] <name>   ... FAILED` lines (the name
/// padded) and the summary.
pub(super) fn libtest_outcome(stdout: &str) -> Outcome {
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
pub(super) fn cucumber_outcome(stdout: &str) -> Outcome {
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
pub(super) fn count_before(text: &str, word: &str) -> usize {
    text.find(word)
        .and_then(|at| text[..at].rsplit([' ', '(', ';', ',']).next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// What measures a run's CPU time and peak RSS.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Meter {
    /// This binary as `varar-bench --timer` (`crate::timer`): CPU time to
    /// the microsecond, wall time around the measured process alone.
    Timer(PathBuf),
    /// GNU time (`%U %S %M`): CPU time in hundredths of a second.
    GnuTime,
    /// Neither: wall time only.
    Wall,
}

impl Meter {
    /// This binary as the timer where `getrusage` is, else GNU time, else
    /// wall time only.
    pub(super) fn find() -> Meter {
        match std::env::current_exe() {
            Ok(exe) if cfg!(unix) => Meter::Timer(exe),
            _ if Path::new(TIME).exists() => Meter::GnuTime,
            _ => Meter::Wall,
        }
    }

    /// `cmd` wrapped by this meter, which writes its figures to `report`.
    fn wrap(&self, cmd: Command, report: &Path) -> Command {
        let mut wrapped = match self {
            Meter::Timer(timer) => {
                let mut w = Command::new(timer);
                // The report, then the program and its arguments as they
                // are: the timer reads no option after its flag.
                w.arg(crate::timer::FLAG)
                    .arg(report)
                    .arg(cmd.get_program())
                    .args(cmd.get_args());
                w
            }
            Meter::GnuTime => {
                let mut w = Command::new(TIME);
                w.args(["-f", "%U %S %M", "-o"])
                    .arg(report)
                    .arg(cmd.get_program())
                    .args(cmd.get_args());
                w
            }
            Meter::Wall => return cmd,
        };
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
    }

    /// The wall time (the timer's only), CPU time and peak RSS in `text`,
    /// the report this meter wrote.
    fn read(&self, text: &str) -> (Option<Duration>, Option<Duration>, Option<u64>) {
        match self {
            Meter::Timer(_) => parse_timer(text),
            Meter::GnuTime => {
                let (cpu, rss) = parse_time(text);
                (None, cpu, rss)
            }
            Meter::Wall => (None, None, None),
        }
    }
}

/// How runs are measured: the meter, and the file it reports to (the
/// bench's own, in its work directory).
pub(super) struct Probe {
    pub(super) meter: Meter,
    pub(super) report: PathBuf,
}

/// Run `cmd` with its output discarded, under the probe's meter; kill it
/// (its process group: it and what it started) after `timeout`.
pub(super) fn sample(cmd: Command, timeout: Duration, probe: &Probe) -> Result<Sample, String> {
    let (meter, report) = (&probe.meter, probe.report.as_path());
    // A report left by an earlier run is never read as this one's. The
    // file is the bench's own, in its work directory.
    match fs::remove_file(report) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            return Err(format!("{}: {e}", report.display()));
        }
        _ => {}
    }
    let mut run = meter.wrap(cmd, report);
    run.stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut run, 0);
    let start = Instant::now();
    let mut child = run
        .spawn()
        .map_err(|e| format!("cannot run {run:?}: {e}"))?;
    let killed = crate::project::wait_or_kill(&mut child, start, timeout, kill_group)
        .map_err(|e| format!("cannot wait for {run:?}: {e}"))?;
    let outer = start.elapsed();
    if killed {
        return Ok(Sample {
            wall: timeout,
            cpu: None,
            rss_kib: None,
            killed,
        });
    }
    let (wall, cpu, rss_kib) = meter.read(&fs::read_to_string(report).unwrap_or_default());
    Ok(Sample {
        wall: wall.unwrap_or(outer),
        cpu,
        rss_kib,
        killed,
    })
}

/// The timer's line: wall seconds, CPU seconds, peak RSS in KiB.
pub(super) fn parse_timer(text: &str) -> (Option<Duration>, Option<Duration>, Option<u64>) {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() != 3 {
        return (None, None, None);
    }
    let secs = |i: usize| {
        fields[i]
            .parse::<f64>()
            .ok()
            .filter(|s| s.is_finite() && *s >= 0.0)
            .map(Duration::from_secs_f64)
    };
    (secs(0), secs(1), fields[2].parse().ok())
}

/// Run `cmd` to its end with its output discarded: `Err(failed)` when it
/// exits unsuccessfully, or why it could not be started (the untimed
/// cargo commands around the build rows).
pub(super) fn run_quiet(cmd: &mut Command, failed: String) -> Result<(), String> {
    let status = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| format!("cannot run {:?}: {e}", cmd.get_program()))?;
    if status.success() {
        Ok(())
    } else {
        Err(failed)
    }
}

/// Kill the process group `id` (the measured command was made its leader).
pub(super) fn kill_group(id: u32) {
    if cfg!(unix) {
        let _ = Command::new("kill")
            .args(["-KILL", &format!("-{id}")])
            .stderr(Stdio::null())
            .status();
    }
}

/// GNU time's `%U %S %M` line (the last line: a non-zero exit status is
/// reported on a line before it).
pub(super) fn parse_time(text: &str) -> (Option<Duration>, Option<u64>) {
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
    fn timer_line_to_the_microsecond() {
        let (wall, cpu, rss) = parse_timer("0.011870 0.015668 12888\n");
        assert_eq!(wall, Some(Duration::from_micros(11_870)));
        assert_eq!(cpu, Some(Duration::from_micros(15_668)));
        assert_eq!(rss, Some(12888));
        assert_eq!(parse_timer(""), (None, None, None));
        assert_eq!(parse_timer("1 2"), (None, None, None));
        assert_eq!(parse_timer("-1 NaN x"), (None, None, None));
    }
}
